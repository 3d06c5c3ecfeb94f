"""Dialect `plain`: one card code a line, for simple shoes that print just what they read.

Spec: docs/protocols/shoe-shuffler.md, "Dialect plain". There are no sequence numbers,
checksums or cut card, so every event is a `CardRead` with `seq=None`; anything that is not a
card code is counted as `BadInput` and skipped.
"""

from __future__ import annotations

from hardware.events import SHOE, BadInput, BadKind, CardRead, DeviceEvent
from hardware.lines import LineFramer
from hardware.shoe.stats import ParserStats, device_card
from kiosk.rules.errors import UnreadableInput

MAX_LINE = 80
"""Longest line kept (without its line end); a card code needs 2 bytes, the rest is slack for
spaces. Longer lines are garbage: reported once, and their tail is only counted, not stored."""

class PlainParser:
    """Parser for dialect `plain`: `feed(bytes) -> list[DeviceEvent]`, never raises on input.

    A line ends at LF, CR or CRLF; blank lines (such as the gap inside a CRLF) are ignored.
    """

    def __init__(self, device: str = SHOE) -> None:
        self.device = device
        self.stats = ParserStats()
        self._lines = LineFramer(device, self.stats, MAX_LINE, "line")

    @property
    def pending(self) -> int:
        """Bytes held back for an unfinished line (never more than MAX_LINE + 1)."""
        return self._lines.pending

    def reset(self) -> list[DeviceEvent]:
        """Give up a half-received line (the link was reopened); returns it as `BadInput`."""
        line = self._lines.take_unfinished()
        if line.strip(b" \t"):
            return [self._bad(BadKind.TRUNCATED, line, "line cut short")]
        return []

    def feed(self, data: bytes) -> list[DeviceEvent]:
        return self._lines.feed(data, self._line_events)

    def _line_events(self, line: bytes) -> list[DeviceEvent]:
        event = self._parse(line)
        return [] if event is None else [event]

    def _parse(self, line: bytes) -> DeviceEvent | None:
        text = line.strip(b" \t")
        if not text:
            return None
        if any(b < 0x20 or b > 0x7E for b in text):
            return self._bad(BadKind.MALFORMED, line, "control or non-ASCII byte in line")
        try:
            card = device_card(text.decode("ascii"))
        except UnreadableInput as exc:
            return self._bad(BadKind.BAD_CARD, line, str(exc))
        self.stats.frames += 1
        return CardRead(device=self.device, seq=None, card=card)

    def _bad(self, kind: BadKind, raw: bytes, reason: str) -> BadInput:
        return self._lines.bad(kind, raw, reason)
