"""A playing card drawn with vector shapes: no card images to license, no font that may lack
the suit symbols, crisp at any size from the 7" touchscreen to the signage."""

from __future__ import annotations

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Mesh, Rectangle, RoundedRectangle, Triangle
from kivy.graphics.instructions import InstructionGroup
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.widget import Widget

from kiosk.ui import theme
from kiosk.ui.fit import DrawnText

RANK_TEXT = {"T": "10"}
RED_SUITS = frozenset("HD")
CARD_ASPECT = 63 / 88  # a poker-size card, width over height
COMPACT_BELOW = 60.0
"""Cards drawn shorter than this (pixels) show a large rank over the suit instead of the
corner index: the dealer's busiest screen has 32 px cards at 800x480."""
COMPACT_RANK = 0.45
"""A compact card's rank, as a share of the card's height."""
COMPACT_SHOWN = 0.62
"""How much of a fanned card must show, from its left, for its rank (and a large card's
corner index) to stay in sight."""


def suit_shape(suit: str, cx: float, cy: float, size: float) -> InstructionGroup:
    """The suit's symbol centred on (cx, cy), `size` tall, in the current colour."""
    g = InstructionGroup()
    s = size / 2
    if suit == "D":
        w = s * 0.78
        g.add(Mesh(vertices=[cx, cy + s, 0, 0, cx + w, cy, 0, 0, cx, cy - s, 0, 0,
                             cx - w, cy, 0, 0], indices=[0, 1, 2, 3], mode="triangle_fan"))
    elif suit == "H":
        r = s * 0.52
        n = theme.segments(r)
        g.add(Ellipse(pos=(cx - 2 * r + 0.04 * s, cy + s - 2 * r), size=(2 * r, 2 * r), segments=n))
        g.add(Ellipse(pos=(cx - 0.04 * s, cy + s - 2 * r), size=(2 * r, 2 * r), segments=n))
        g.add(Triangle(points=[cx - 2 * r + 0.07 * s, cy + s - r * 1.15,
                               cx + 2 * r - 0.07 * s, cy + s - r * 1.15, cx, cy - s]))
    elif suit == "S":
        r = s * 0.5
        n = theme.segments(r)
        base = cy - s * 0.45
        g.add(Ellipse(pos=(cx - 2 * r + 0.04 * s, base), size=(2 * r, 2 * r), segments=n))
        g.add(Ellipse(pos=(cx - 0.04 * s, base), size=(2 * r, 2 * r), segments=n))
        g.add(Triangle(points=[cx - 2 * r + 0.07 * s, base + r * 1.15,
                               cx + 2 * r - 0.07 * s, base + r * 1.15, cx, cy + s]))
        g.add(Triangle(points=[cx, base + r * 0.6, cx - s * 0.35, cy - s, cx + s * 0.35,
                               cy - s]))
    else:  # clubs
        r = s * 0.4
        n = theme.segments(r)
        g.add(Ellipse(pos=(cx - r, cy + s - 2 * r), size=(2 * r, 2 * r), segments=n))
        g.add(Ellipse(pos=(cx - 2 * r - 0.02 * s, cy - r * 0.9), size=(2 * r, 2 * r), segments=n))
        g.add(Ellipse(pos=(cx + 0.02 * s, cy - r * 0.9), size=(2 * r, 2 * r), segments=n))
        g.add(Ellipse(pos=(cx - r * 0.55, cy - r * 0.45), size=(r * 1.1, r * 1.1), segments=n))
        g.add(Triangle(points=[cx, cy, cx - s * 0.35, cy - s, cx + s * 0.35, cy - s]))
    return g


_TEXTURES: dict[tuple[str, int], object] = {}


def _text_texture(text: str, font_size: float) -> object:
    """A white rank texture, tinted when drawn. Rendering text is the slowest thing a frame
    does (several ms with SDL_ttf), and a table only ever shows 13 ranks at a few sizes."""
    key = (text, max(1, round(font_size)))
    tex = _TEXTURES.get(key)
    if tex is None:
        if len(_TEXTURES) > 512:  # sizes change when the window does; keep the cache small
            _TEXTURES.clear()
        label = CoreLabel(text=text, font_size=key[1], bold=True)
        label.refresh()
        tex = _TEXTURES[key] = label.texture
    return tex


class CardFace(Widget):
    """One card. `code` is a card code (`QH`); empty draws an empty place for a card, and
    `face_down` draws the back (a card burned face down is never shown, rule 4.7)."""

    code = StringProperty("")
    face_down = BooleanProperty(False)
    highlight = BooleanProperty(False)  # a card that needs the dealer's decision

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        # One redraw per frame however many properties changed (code, highlight, size...),
        # before that frame is drawn (-1): with 0 a new card cost a second full frame.
        self._trigger = Clock.create_trigger(self._redraw, -1)
        self.bind(pos=self._trigger, size=self._trigger, code=self._trigger,
                  face_down=self._trigger, highlight=self._trigger)
        self._redraw()

    def _redraw(self, *_args: object) -> None:
        self.canvas.clear()
        self.drawn: list[DrawnText] = []  # the rank, for the layout check
        self.card_height = 0.0  # as drawn: the widget may be wider than a card
        w, h = self.size
        if w <= 0 or h <= 0:
            return
        # Fit a card of the right shape inside the widget, centred.
        ch = min(h, w / CARD_ASPECT)
        cw = ch * CARD_ASPECT
        self.card_height = ch
        x = self.x + (w - cw) / 2
        y = self.y + (h - ch) / 2
        radius = cw * 0.08
        seg = theme.corner_segments(radius * 1.5)
        with self.canvas:
            if not self.code and not self.face_down:
                Color(*theme.FELT_LIGHT)
                Line(rounded_rectangle=(x, y, cw, ch, radius, 2 * seg), width=max(1.0, cw * 0.02),
                     dash_length=6, dash_offset=4)
                return
            Color(0, 0, 0, 0.35)  # a soft shadow lifts the card off the felt
            RoundedRectangle(pos=(x + cw * 0.03, y - cw * 0.03), size=(cw, ch),
                             radius=[radius], segments=seg)
            if self.highlight:
                Color(*theme.WARNING)
                RoundedRectangle(pos=(x - cw * 0.06, y - cw * 0.06),
                                 size=(cw * 1.12, ch + cw * 0.12), radius=[radius * 1.5],
                                 segments=seg)
            if self.face_down:
                Color(*theme.BANKER)
                RoundedRectangle(pos=(x, y), size=(cw, ch), radius=[radius], segments=seg)
                Color(*theme.IVORY)
                Line(rounded_rectangle=(x + cw * 0.08, y + cw * 0.08, cw * 0.84,
                                        ch - cw * 0.16, radius * 0.6, 2 * seg),
                     width=max(1.0, cw * 0.02))
                return
            Color(*theme.IVORY)
            RoundedRectangle(pos=(x, y), size=(cw, ch), radius=[radius], segments=seg)
            Color(0.55, 0.55, 0.55, 1)
            Line(rounded_rectangle=(x, y, cw, ch, radius, 2 * seg), width=1.0)
        rank, suit = self.code[:-1], self.code[-1]
        colour = theme.CARD_RED if suit in RED_SUITS else theme.INK
        rank_text = RANK_TEXT.get(rank, rank)
        if ch < COMPACT_BELOW:
            self._compact(rank_text, suit, colour, x, y, cw, ch)
            return
        tex = _text_texture(rank_text, ch * 0.2)
        tw, th = tex.size  # type: ignore[attr-defined]
        # Suit shapes are built outside `with self.canvas`: a vertex instruction created
        # inside it would also add itself to the canvas, outside its group.
        small = ch * 0.13
        corner = suit_shape(suit, x + cw * 0.07 + max(tw, small) / 2,
                            y + ch - th - small * 0.75, small)
        centre = suit_shape(suit, x + cw * 0.58, y + ch * 0.4, ch * 0.4)
        self.canvas.add(Color(*colour))
        # Rank and a small suit in the top-left corner, where a fanned card shows it; a large
        # suit in the centre, readable from across the table.
        self.canvas.add(Rectangle(texture=tex, pos=(x + cw * 0.07, y + ch - th - ch * 0.02),
                                  size=(tw, th)))
        self.drawn.append(DrawnText(rank_text, (x + cw * 0.07, y + ch - th - ch * 0.02, tw, th),
                                    (x, y, cw, ch), ch * 0.2))
        self.canvas.add(corner)
        self.canvas.add(centre)

    def _compact(self, rank_text: str, suit: str, colour: object, x: float, y: float,
                 cw: float, ch: float) -> None:
        """A small card (seven boxes split to four hands on the 7" panel): the rank large in
        its top half and the suit under it, both in the card's left COMPACT_SHOWN, which a
        fanned hand leaves in sight; "10" narrowed to fit, as a real card's index is (at
        0.2 of a 32 px card the rank was under 1 mm tall; at 0.45 it is 1.8 mm)."""
        tex = _text_texture(rank_text, ch * COMPACT_RANK)
        tw, th = tex.size  # type: ignore[attr-defined]
        tw = min(tw, cw * (COMPACT_SHOWN - 0.1))
        pos = (x + cw * 0.06, y + ch - th - ch * 0.02)
        self.canvas.add(Color(*colour))  # type: ignore[misc]
        self.canvas.add(Rectangle(texture=tex, pos=pos, size=(tw, th)))
        self.canvas.add(suit_shape(suit, x + cw * 0.06 + tw / 2, y + ch * 0.24, ch * 0.3))
        self.drawn.append(DrawnText(rank_text, (*pos, tw, th), (x, y, cw, ch),
                                    ch * COMPACT_RANK))
