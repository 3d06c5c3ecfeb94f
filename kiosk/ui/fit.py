"""Text that fits its box, and the check that it does.

A label or button's text is never cut off, clipped or drawn beyond its box: when it would not
fit at the size the layout asks for (a R10,000,000 maximum, the longest table name, a split
hand's words), it is drawn smaller, down to a floor, and a layout test (`overflow`) proves the
result fits at every screen size the configuration accepts. Sizes are measured with the very
font and style the widget draws with, by the text provider Kivy renders with.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

_MARKUP = re.compile(r"\[/?(?:b|i|u|s|sub|sup|color|size|font|font_context|font_family|"
                     r"font_features|text_language|anchor|ref)(?:=[^\]]*)?\]")
SHRINK_FLOOR = 0.35
"""The smallest a text is drawn, as a share of the size the layout asks for: below it the
layout itself is wrong, and the layout test says so rather than hiding it."""


@dataclass(frozen=True, slots=True)
class DrawnText:
    """A text drawn straight on a widget's canvas, not by a Label (a card's rank, a road's
    name): where it is and the room it has, so the layout check sees it as it sees a label's.
    Boxes are (x, y, width, height) in the coordinates its widget draws in."""

    text: str
    box: tuple[float, float, float, float]
    room: tuple[float, float, float, float]
    font_size: float

    def overflow(self) -> str:
        """How the text leaves its room, in words ("" when it is inside)."""
        x, y, w, h = self.box
        rx, ry, rw, rh = self.room
        if x < rx - 1 or y < ry - 1 or x + w > rx + rw + 1 or y + h > ry + rh + 1:
            return (f"{self.text!r} drawn at {tuple(round(v) for v in self.box)} leaves its "
                    f"room {tuple(round(v) for v in self.room)}")
        return ""


def plain(text: str) -> str:
    """The text a markup label shows, without its tags (for measuring)."""
    return _MARKUP.sub("", text).replace("&bl;", "[").replace("&br;", "]").replace("&amp;", "&")


@lru_cache(maxsize=8192)
def extent(text: str, font_size: float, font_name: str, bold: bool, italic: bool
           ) -> tuple[int, int]:
    """(width, height) in pixels of one line of `text` as drawn."""
    from kivy.core.text import Label as CoreLabel

    core = CoreLabel(font_size=font_size, font_name=font_name, bold=bold, italic=italic)
    w, h = core.get_extents(text or " ")
    return int(w), int(h)


def _inner(widget: Any) -> tuple[float, float]:
    """The box the text may use: the widget less its padding."""
    pad = list(getattr(widget, "padding", (0, 0, 0, 0)) or (0, 0, 0, 0))
    if len(pad) == 2:
        pad = [pad[0], pad[1], pad[0], pad[1]]
    elif len(pad) == 1:
        pad = pad * 4
    width = widget.width - pad[0] - pad[2]
    text_w = widget.text_size[0] if widget.text_size and widget.text_size[0] else None
    if text_w is not None:  # a rule may give the text less room than the widget (a margin)
        width = min(width, text_w)
    return width, widget.height - pad[1] - pad[3]


def _wraps(widget: Any) -> bool:
    """A label with a text width wraps its words; one that shortens stays on one line."""
    return bool(widget.text_size and widget.text_size[0]) and not getattr(widget, "shorten",
                                                                          False)


def _spare(widget: Any) -> float:
    """Pixels kept free: Kivy cuts a shortening label a little inside its box."""
    return 4.0 if getattr(widget, "shorten", False) else 1.5


def needed(widget: Any, font_size: float) -> tuple[float, float]:
    """(width, height) `widget`'s text needs at `font_size`: lines wrapped at the widget's
    width when it wraps (its `text_size` has a width), else each line as it is."""
    text = plain(widget.text) if getattr(widget, "markup", False) else widget.text
    bold = bool(widget.bold) or "[b]" in widget.text
    args = (font_size, widget.font_name, bold, bool(widget.italic))
    line_h = extent("Ag", *args)[1] * (widget.line_height or 1.0)
    avail_w = _inner(widget)[0]
    widest, lines = 0.0, 0
    for paragraph in text.split("\n"):
        if not _wraps(widget):
            widest = max(widest, extent(paragraph, *args)[0])
            lines += 1
            continue
        line = ""
        for word in paragraph.split(" "):
            trial = f"{line} {word}" if line else word
            if line and extent(trial, *args)[0] > avail_w:
                widest = max(widest, extent(line, *args)[0])
                lines += 1
                line = word
            else:
                line = trial
        widest = max(widest, extent(line, *args)[0])
        lines += 1
    return widest, lines * line_h


def overflow(widget: Any) -> str:
    """Why `widget`'s text does not fit its box ("" when it does)."""
    text = getattr(widget, "text", "")
    if not text or widget.opacity == 0 or widget.width <= 1 or widget.height <= 1:
        return ""
    if getattr(widget, "shorten", False):  # Kivy cuts the text short at its box's width
        w, h = needed(widget, widget.font_size)
        if w > _inner(widget)[0] - 2.5:
            return f"{text!r} is cut short (shorten) in {widget.width:.0f} px"
    box_w = widget.width
    if widget.text_size and widget.text_size[0] and widget.text_size[0] > box_w + 1:
        return (f"{text!r} is laid out {widget.text_size[0]:.0f} px wide in a box of "
                f"{box_w:.0f}")
    if widget.texture_size[0] > box_w + 1 and not getattr(widget, "shorten", False):
        return f"{text!r} is drawn {widget.texture_size[0]:.0f} px wide in a box of {box_w:.0f}"
    avail_w, avail_h = _inner(widget)
    w, h = needed(widget, widget.font_size)
    if w > avail_w + 1:
        return f"{text!r} needs {w:.0f} px across, its box gives {avail_w:.0f}"
    if h > avail_h + 1:
        return f"{text!r} needs {h:.0f} px of height, its box gives {avail_h:.0f}"
    return ""


def fitting_size(widget: Any, wanted: float) -> float:
    """The largest font size up to `wanted` at which `widget`'s text fits its box (not below
    SHRINK_FLOOR of `wanted`), to within half a pixel."""
    avail_w, avail_h = _inner(widget)
    if not widget.text or avail_w <= 1 or avail_h <= 1 or wanted <= 0:
        return wanted
    spare = _spare(widget)

    def fits(size: float) -> bool:
        w, h = needed(widget, size)
        return w <= avail_w - spare and h <= avail_h + 0.5  # a pixel or so spare: Kivy rounds

    if fits(wanted):
        return wanted
    floor = wanted * SHRINK_FLOOR
    # Step down by the ratio the text overflows by, until it fits...
    too_big, size = wanted, wanted
    for _ in range(12):
        w, h = needed(widget, size)
        ratio = min((avail_w - spare) / max(w, 1.0), avail_h / max(h, 1.0))
        size = max(floor, size * min(ratio, 0.97))
        if fits(size):
            break
        too_big = size
        if size == floor:
            return floor
    else:
        return size
    # ...then back up: a wrapped text's lines break anew as it shrinks, so one ratio step
    # can take it well below the largest size that fits.
    while too_big - size > 0.5:
        mid = (size + too_big) / 2
        if fits(mid):
            size = mid
        else:
            too_big = mid
    return size
