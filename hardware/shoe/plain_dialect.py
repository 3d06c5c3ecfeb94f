"""Dialect `plain`: one card code a line, for simple shoes that print just what they read.

Spec: ../shared/specs/shoe-shuffler-protocol.md, "Dialect plain". There are no sequence numbers,
checksums or cut card, so every event is a `CardRead` with `seq=None`; anything that is not a
card code is counted as `BadInput` and skipped.
"""

from __future__ import annotations

import re

from hardware.events import SHOE, BadInput, BadKind, CardRead, DeviceEvent
from hardware.shoe.stats import ParserStats
from kiosk.rules.cards import Card
from kiosk.rules.errors import UnreadableInput

MAX_LINE = 80
"""Longest line kept (without its line end); a card code needs 2 bytes, the rest is slack for
spaces. Longer lines are garbage: reported once, and their tail is only counted, not stored."""

_LINE_END = re.compile(rb"[\r\n]")


class PlainParser:
    """Parser for dialect `plain`: `feed(bytes) -> list[DeviceEvent]`, never raises on input.

    A line ends at LF, CR or CRLF; blank lines (such as the gap inside a CRLF) are ignored.
    """

    def __init__(self, device: str = SHOE) -> None:
        self.device = device
        self.stats = ParserStats()
        self._line = bytearray()
        self._skipping = False  # inside the tail of an overlong line

    @property
    def pending(self) -> int:
        """Bytes held back for an unfinished line (never more than MAX_LINE + 1)."""
        return len(self._line)

    def reset(self) -> list[DeviceEvent]:
        """Give up a half-received line (the link was reopened); returns it as `BadInput`."""
        events: list[DeviceEvent] = []
        if self._line.strip(b" \t"):
            events.append(self._bad(BadKind.TRUNCATED, bytes(self._line), "line cut short"))
        self._line.clear()
        self._skipping = False
        return events

    def feed(self, data: bytes) -> list[DeviceEvent]:
        events: list[DeviceEvent] = []
        pos, end = 0, len(data)
        while pos < end:
            match = _LINE_END.search(data, pos)
            stop = end if match is None else match.start()
            if self._skipping:
                self.stats.bytes_skipped += stop - pos
            else:
                room = MAX_LINE + 1 - len(self._line)
                if stop - pos >= room:
                    self._line += data[pos : pos + room]
                    events.append(
                        self._bad(
                            BadKind.OVERLONG,
                            bytes(self._line),
                            f"line longer than {MAX_LINE} bytes",
                        )
                    )
                    self._line.clear()
                    self._skipping = True
                    self.stats.bytes_skipped += stop - pos - room
                else:
                    self._line += data[pos:stop]
            if match is None:
                break
            if self._skipping:
                self._skipping = False
            else:
                line = bytes(self._line)
                self._line.clear()
                event = self._parse(line)
                if event is not None:
                    events.append(event)
            pos = stop + 1
        return events

    def _parse(self, line: bytes) -> DeviceEvent | None:
        text = line.strip(b" \t")
        if not text:
            return None
        if any(b < 0x20 or b > 0x7E for b in text):
            return self._bad(BadKind.MALFORMED, line, "control or non-ASCII byte in line")
        try:
            card = Card.parse(text.decode("ascii"))
        except UnreadableInput as exc:
            return self._bad(BadKind.BAD_CARD, line, str(exc))
        self.stats.frames += 1
        return CardRead(device=self.device, seq=None, card=card)

    def _bad(self, kind: BadKind, raw: bytes, reason: str) -> BadInput:
        self.stats.bad[kind] += 1
        self.stats.bytes_skipped += len(raw)
        return BadInput(device=self.device, seq=None, raw=raw, reason=reason, kind=kind)
