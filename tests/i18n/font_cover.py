"""Which characters a TrueType font has a glyph for, read from its cmap table (formats 4
and 12), so the tests can prove every word and amount on a screen is drawn, not a box."""

from __future__ import annotations

import struct
from functools import cache
from pathlib import Path


def _u16(data: bytes, at: int) -> int:
    return int(struct.unpack_from(">H", data, at)[0])


def _format4(data: bytes, sub: int) -> set[int]:
    segs = _u16(data, sub + 6) // 2
    ends, starts = sub + 14, sub + 16 + 2 * segs
    deltas, ranges = starts + 2 * segs, starts + 4 * segs
    out = set()
    for i in range(segs):
        end, start = _u16(data, ends + 2 * i), _u16(data, starts + 2 * i)
        delta, offset = _u16(data, deltas + 2 * i), _u16(data, ranges + 2 * i)
        for c in range(start, end + 1):
            if c == 0xFFFF:
                continue
            if offset == 0:
                glyph = (c + delta) & 0xFFFF
            else:
                glyph = _u16(data, ranges + 2 * i + offset + 2 * (c - start))
                glyph = (glyph + delta) & 0xFFFF if glyph else 0
            if glyph:
                out.add(c)
    return out


def _format12(data: bytes, sub: int) -> set[int]:
    groups = struct.unpack_from(">I", data, sub + 12)[0]
    out = set()
    for g in range(groups):
        start, end, _glyph = struct.unpack_from(">III", data, sub + 16 + 12 * g)
        out.update(range(start, end + 1))
    return out


@cache
def covered(font: Path) -> frozenset[int]:
    """The code points `font` maps to a glyph."""
    data = font.read_bytes()
    tables = _u16(data, 4)
    cmap = next(struct.unpack_from(">I", data, 12 + 16 * i + 8)[0] for i in range(tables)
                if data[12 + 16 * i:16 + 16 * i] == b"cmap")
    out: set[int] = set()
    for i in range(_u16(data, cmap + 2)):
        platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
        if (platform, encoding) not in ((3, 1), (3, 10), (0, 3), (0, 4)):
            continue  # Unicode subtables only
        sub = cmap + offset
        fmt = _u16(data, sub)
        out |= _format4(data, sub) if fmt == 4 else _format12(data, sub) if fmt == 12 else set()
    return frozenset(out)


def missing(text: str, font: Path) -> set[str]:
    """The characters of `text` `font` cannot draw (line breaks aside)."""
    have = covered(font)
    return {ch for ch in text if ch not in "\n" and ord(ch) not in have}
