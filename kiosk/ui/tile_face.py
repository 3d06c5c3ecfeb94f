"""A pai gow tile drawn with vector shapes: two halves of pips, as a domino, in the Chinese
set's colours (the ones and fours red, the other pips dark on an ivory face). No images to
license, crisp at any size from the 7" touchscreen to the signage.

A tile is named by its code, as the rules write it (kiosk/rules/paigow/tiles.py): its pips,
the smaller end first ("66" is teen, "12" and "24" the Gee Joon tiles). The larger end is
drawn on top.
"""

from __future__ import annotations

from kivy.clock import Clock
from kivy.graphics import Color, Ellipse, Line, RoundedRectangle
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.widget import Widget

from kiosk.ui import theme

TILE_ASPECT = 0.5
"""A tile's width over its height: two square halves, one above the other."""


RED = frozenset({1, 4})
"""Halves whose pips are red."""

# Where the pips of each count sit on a half, in thirds of its width from its centre.
_SPOTS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0, 0),),
    2: ((-1, 1), (1, -1)),
    3: ((-1, 1), (0, 0), (1, -1)),
    4: ((-1, 1), (1, 1), (-1, -1), (1, -1)),
    5: ((-1, 1), (1, 1), (0, 0), (-1, -1), (1, -1)),
    6: ((-1, 1), (1, 1), (-1, 0), (1, 0), (-1, -1), (1, -1)),
}


def pips_of(code: str) -> tuple[int, int] | None:
    """The halves of the tile `code` ("66", "13"; "6-6" too), the larger end first (None for
    anything that is not a tile: nothing is drawn)."""
    digits = code.replace("-", "")
    if len(digits) != 2 or not all(d in "123456" for d in digits):
        return None
    a, b = int(digits[0]), int(digits[1])
    return max(a, b), min(a, b)


class TileFace(Widget):
    """One tile. `code` names it by its pips ("46"); empty draws an empty place for a tile,
    and `face_down` draws its back. `highlight` outlines the place the next tile goes.
    `horizontal` lays it on its side, its larger end on the left (the House's high hand,
    rule 13.1.4). `tile_height` is its length as drawn, either way."""

    code = StringProperty("")
    face_down = BooleanProperty(False)
    highlight = BooleanProperty(False)
    horizontal = BooleanProperty(False)

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._trigger = Clock.create_trigger(self._redraw, -1)
        self.bind(pos=self._trigger, size=self._trigger, code=self._trigger,
                  face_down=self._trigger, highlight=self._trigger,
                  horizontal=self._trigger)
        self.tile_height = 0.0
        self._redraw()

    def tile_box(self) -> tuple[float, float, float, float]:
        """(x, y, width, height) of the tile drawn, centred in the widget."""
        w, h = self.size
        if self.horizontal:
            tw = max(0.0, min(w, h / TILE_ASPECT))
            th = tw * TILE_ASPECT
        else:
            th = max(0.0, min(h, w / TILE_ASPECT))
            tw = th * TILE_ASPECT
        return self.x + (w - tw) / 2, self.y + (h - th) / 2, tw, th

    def _redraw(self, *_args: object) -> None:
        self.canvas.clear()
        x, y, tw, th = self.tile_box()
        self.tile_height = max(tw, th)
        if tw <= 0 or th <= 0:
            return
        side = min(tw, th)  # a half is a square this wide
        radius = side * 0.12
        seg = theme.corner_segments(radius * 1.5)
        pips = pips_of(self.code)
        with self.canvas:
            if pips is None and not self.face_down:
                Color(*(theme.WARNING if self.highlight else theme.FELT_LIGHT))
                Line(rounded_rectangle=(x, y, tw, th, radius, 2 * seg),
                     width=max(1.0, side * 0.04 if self.highlight else side * 0.02),
                     dash_length=6, dash_offset=4)
                return
            Color(0, 0, 0, 0.35)  # a soft shadow lifts the tile off the felt
            RoundedRectangle(pos=(x + side * 0.04, y - side * 0.04), size=(tw, th),
                             radius=[radius], segments=seg)
            if self.highlight:
                Color(*theme.WARNING)
                RoundedRectangle(pos=(x - side * 0.08, y - side * 0.08),
                                 size=(tw + side * 0.16, th + side * 0.16),
                                 radius=[radius * 1.5],
                                 segments=seg)
            if self.face_down or pips is None:
                Color(*theme.INK)
                RoundedRectangle(pos=(x, y), size=(tw, th), radius=[radius], segments=seg)
                Color(*theme.GOLD)
                Line(rounded_rectangle=(x + side * 0.12, y + side * 0.12, tw - side * 0.24,
                                        th - side * 0.24, radius * 0.6, 2 * seg),
                     width=max(1.0, side * 0.03))
                return
            Color(*theme.IVORY)
            RoundedRectangle(pos=(x, y), size=(tw, th), radius=[radius], segments=seg)
            Color(0.45, 0.45, 0.45, 1)
            Line(rounded_rectangle=(x, y, tw, th, radius, 2 * seg), width=1.0)
            # The line between the halves; the larger end on top (on the left lying down).
            if self.horizontal:
                Line(points=[x + tw / 2, y + th * 0.12, x + tw / 2, y + th * 0.88],
                     width=max(1.0, side * 0.025))
                halves = ((pips[0], x + tw * 0.25, y + th / 2),
                          (pips[1], x + tw * 0.75, y + th / 2))
            else:
                Line(points=[x + tw * 0.12, y + th / 2, x + tw * 0.88, y + th / 2],
                     width=max(1.0, side * 0.025))
                halves = ((pips[0], x + tw / 2, y + th * 0.75),
                          (pips[1], x + tw / 2, y + th * 0.25))
        for count, cx, cy in halves:
            self._half(count, cx, cy, side)

    def _half(self, count: int, cx: float, cy: float, side: float) -> None:
        """The pips of one half (a square `side` wide) centred on (cx, cy)."""
        step = side * 0.27
        r = side * (0.15 if count == 1 else 0.085)
        ink = theme.CARD_RED if count in RED else theme.INK
        n = theme.segments(r)
        with self.canvas:
            Color(*ink)
            for dx, dy in _SPOTS[count]:
                Ellipse(pos=(cx + dx * step - r, cy + dy * step - r), size=(2 * r, 2 * r),
                        segments=n)
