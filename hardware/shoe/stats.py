"""Counters every shoe dialect parser keeps (spec "Frame (dialect line)": bad bytes are counted)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Protocol

from hardware.events import BadKind, DeviceEvent
from kiosk.rules.cards import Card
from kiosk.rules.errors import UnreadableInput


@dataclass
class ParserStats:
    """What a parser has seen so far; read by the self-test screen and the logs."""

    frames: int = 0
    """Frames (or plain lines) turned into device events."""
    duplicates: int = 0
    """Retransmissions (a repeated `seq`) ignored."""
    gaps: int = 0
    """Sequence jumps reported as `FramesLost`."""
    frames_lost: int = 0
    """Frames missing in those jumps, summed."""
    restarts: int = 0
    """A HELLO with seq 0 after other frames: the device powered on again and counts anew."""
    bad: Counter[BadKind] = field(default_factory=Counter)
    """`BadInput` events emitted, by reason."""
    bytes_skipped: int = 0
    """Bytes that became no event (noise, bad frames, the tail of overlong frames)."""

    @property
    def bad_total(self) -> int:
        return sum(self.bad.values())


def device_card(code: str) -> Card:
    """The card a device sent, by its exact code (spec: rank `A 2-9 T J Q K` then suit
    `S H D C`, upper case). A dealer's keyed `as` may mean the ace of spades; a device's
    `as` or ` KD` is not what the spec says, so it is refused (`UnreadableInput`) rather than
    guessed at."""
    card = Card.parse(code)  # the words of the refusal for codes that are no card at all
    if card.code != code:
        raise UnreadableInput(f"{code!r} is not a card code as the spec writes it "
                              f"(upper case, no spaces, like {card.code})")
    return card


class DialectParser(Protocol):
    """The sans-IO interface every dialect offers the reader."""

    stats: ParserStats

    @property
    def pending(self) -> int:
        """Bytes held back for an unfinished frame or line (bounded)."""
        ...

    def feed(self, data: bytes) -> list[DeviceEvent]:
        """Events completed by `data`; bytes of an unfinished frame are kept for the next call."""
        ...

    def reset(self) -> list[DeviceEvent]:
        """Give up a half-received line (the link was reopened), reported as `BadInput`;
        sequence baselines are kept."""
        ...
