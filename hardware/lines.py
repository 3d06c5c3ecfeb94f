"""Bytes cut into lines for the parsers whose packets end at CR, LF or CR LF (the shoe's plain
dialect, the SS2 wheel): the unfinished line is kept for the next bytes, a line longer than
`max_line` is reported once as `BadInput` and its tail only counted, never stored."""

from __future__ import annotations

import re
from collections.abc import Callable

from hardware.events import BadInput, BadKind, DeviceEvent
from hardware.shoe.stats import ParserStats

_LINE_END = re.compile(rb"[\r\n]")


class LineFramer:
    """The line buffer a parser feeds; `feed` hands each complete line to `on_line`."""

    def __init__(self, device: str, stats: ParserStats, max_line: int, what: str) -> None:
        self.device = device
        self.stats = stats
        self.max_line = max_line
        self.what = what  # "line", "packet": the word in the overlong report
        self._line = bytearray()
        self._skipping = False  # inside the tail of an overlong line

    @property
    def pending(self) -> int:
        """Bytes held back for an unfinished line (never more than max_line + 1)."""
        return len(self._line)

    def take_unfinished(self) -> bytes:
        """Give up the half-received line (the link was reopened) and return it."""
        line = bytes(self._line)
        self._line.clear()
        self._skipping = False
        return line

    def feed(self, data: bytes, on_line: Callable[[bytes], list[DeviceEvent]]
             ) -> list[DeviceEvent]:
        events: list[DeviceEvent] = []
        pos, end = 0, len(data)
        while pos < end:
            match = _LINE_END.search(data, pos)
            stop = end if match is None else match.start()
            if self._skipping:
                self.stats.bytes_skipped += stop - pos
            else:
                room = self.max_line + 1 - len(self._line)
                if stop - pos >= room:
                    self._line += data[pos:pos + room]
                    events.append(self.bad(BadKind.OVERLONG, bytes(self._line),
                                           f"{self.what} longer than {self.max_line} bytes"))
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
                events.extend(on_line(line))
            pos = stop + 1
        return events

    def bad(self, kind: BadKind, raw: bytes, reason: str) -> BadInput:
        """Count and report bytes that made no event."""
        self.stats.bad[kind] += 1
        self.stats.bytes_skipped += len(raw)
        return BadInput(device=self.device, seq=None, raw=raw, reason=reason, kind=kind)
