"""The five punto banco roads drawn as players know them from casino scoreboards.

The rules are silent on roads (see `kiosk.rules.baccarat.roads`); the marks follow the convention:
bead plate, filled circles lettered B/P/T in red/blue/green; big road, hollow red/blue rings
with a green slash for each tie; big eye boy, hollow rings; small road, filled dots;
cockroach pig, slashes. The derived roads use half-size cells. Each grid shows its newest
columns when the shoe outgrows it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Rectangle, RoundedRectangle
from kivy.properties import BooleanProperty, ObjectProperty
from kivy.uix.widget import Widget

from kiosk.i18n import N_, gettext, pgettext
from kiosk.rules.baccarat.outcomes import CoupResult, Winner
from kiosk.rules.baccarat.roads import ROWS, Colour, DerivedRoad, Roads
from kiosk.ui import theme
from kiosk.ui.fit import DrawnText
from kiosk.ui.language import tr

BEAD_PLATE = "bead_plate"
BIG_ROAD = "big_road"
BIG_EYE_BOY = "big_eye_boy"
SMALL_ROAD = "small_road"
COCKROACH_PIG = "cockroach_pig"
ROAD_NAMES = (BIG_ROAD, BEAD_PLATE, BIG_EYE_BOY, SMALL_ROAD, COCKROACH_PIG)
# TRANSLATORS: the five roads' names, as casino scoreboards the world over print them.
CAPTIONS = {BEAD_PLATE: N_("BEAD PLATE"), BIG_ROAD: N_("BIG ROAD"),
            BIG_EYE_BOY: N_("BIG EYE BOY"), SMALL_ROAD: N_("SMALL ROAD"),
            COCKROACH_PIG: N_("COCKROACH PIG")}

WINNER_COLOUR = {Winner.BANKER: theme.BANKER, Winner.PLAYER: theme.PLAYER, Winner.TIE: theme.TIE}
DERIVED_COLOUR = {Colour.RED: theme.BANKER, Colour.BLUE: theme.PLAYER}
PAPER = theme.IVORY
GRID_LINE = theme.rgb("#d5cdb9")
CAPTION = theme.GOLD
CAPTION_FLOOR = 9.0
"""The smallest a road's name is drawn, in pixels; the layout check says when even that is
too wide for its road."""


def letter(winner: Winner) -> str:
    """The bead plate's letter for `winner` in the current language (its bet's initial)."""
    if winner is Winner.BANKER:
        # TRANSLATORS: the bead plate's letter for a banker win: the initial of "Banker".
        return pgettext("bead plate", "B")
    if winner is Winner.PLAYER:
        # TRANSLATORS: the bead plate's letter for a player win: the initial of "Player".
        return pgettext("bead plate", "P")
    # TRANSLATORS: the bead plate's letter for a tie: the initial of "Tie".
    return pgettext("bead plate", "T")


@dataclass(frozen=True, slots=True)
class Grid:
    """Where one road is drawn: `cols` x 6 cells of `cw` x `ch` from (x, y) at the bottom
    left; `first` is the road column shown leftmost (newest columns stay in view)."""

    x: float
    y: float
    cw: float
    ch: float
    cols: int
    first: int = 0

    @property
    def width(self) -> float:
        return self.cw * self.cols

    @property
    def height(self) -> float:
        return self.ch * ROWS

    def centre(self, col: int, row: int) -> tuple[float, float] | None:
        """The centre of road cell (col, row), row 0 at the top; None if scrolled out."""
        c = col - self.first
        if not 0 <= c < self.cols or not 0 <= row < ROWS:
            return None
        return self.x + (c + 0.5) * self.cw, self.y + self.height - (row + 0.5) * self.ch

    def scrolled(self, last_col: int, spare: int = 0) -> Grid:
        """This grid showing road column `last_col` (and `spare` free columns after it)."""
        first = max(0, last_col + 1 + spare - self.cols)
        return Grid(self.x, self.y, self.cw, self.ch, self.cols, first)


def layout(x: float, y: float, width: float, height: float) -> dict[str, Grid]:
    """Big road across the top; below it the bead plate on the left and the three derived
    roads (half-size cells) on the right: big eye boy above, small road and cockroach pig."""
    gap = max(4.0, height * 0.02)
    if width > WIDE * height:
        return _wide_layout(x, y, width, height, gap)
    # height = 2 captions (CAPTION_SPACE c) + 12 rows of c + gap
    cell = max(4.0, (height - gap) / (2 * ROWS + 2 * CAPTION_SPACE))
    cap = cell * CAPTION_SPACE
    grids: dict[str, Grid] = {}
    top = y + height
    cols = max(1, int(width // cell))
    cw = width / cols
    big_y = top - cap - ROWS * cell
    grids[BIG_ROAD] = Grid(x, big_y, cw, cell, cols)
    lower_top = big_y - gap
    bead_cols = max(4, round(width * 0.4 / cell))
    bead_y = lower_top - cap - ROWS * cell
    grids[BEAD_PLATE] = Grid(x, bead_y, cell, cell, bead_cols)
    dx = x + bead_cols * cell + gap
    grids.update(_derived_roads(dx, x + width - dx, lower_top, cell, cap, gap))
    return grids


def _derived_roads(dx: float, dw: float, top: float, cell: float, cap: float, gap: float
                   ) -> dict[str, Grid]:
    """The derived roads in a box `dw` wide from `dx`, under `top`: the big eye boy above,
    the small road and the cockroach pig side by side under it, each with its caption, in
    half cells: caption + 6 half cells + gap + caption + 6 half cells = 6 cells + a caption
    (the height of the bead plate or big road beside them)."""
    half = max(2.0, (ROWS * cell + cap - 2 * cap - gap) / (2 * ROWS))
    dcols = max(1, int(dw // half))
    eye_y = top - cap - ROWS * half
    sw = (dw - gap) / 2
    scols = max(1, int(sw // half))
    low_y = eye_y - gap - cap - ROWS * half
    return {BIG_EYE_BOY: Grid(dx, eye_y, dw / dcols, half, dcols),
            SMALL_ROAD: Grid(dx, low_y, sw / scols, half, scols),
            COCKROACH_PIG: Grid(dx + sw + gap, low_y, sw / scols, half, scols)}


CAPTION_SPACE = 0.85
"""The room above a road for its name, in cells: the name's line (0.67 of a cell for the big
road's) and the sheet's margin under it."""
WIDE = 4.5
"""A strip of roads wider than this times its height (the portrait sign's, under its hands)
lays them side by side, not the big road above the rest: stacked, its cells were 10 px and
the roads' names overran them."""


def _wide_layout(x: float, y: float, width: float, height: float, gap: float
                 ) -> dict[str, Grid]:
    """One band: the bead plate, the big road, then the derived roads (big eye boy above,
    small road and cockroach pig under it); height = a caption + 6 rows of c."""
    cell = max(4.0, height / (ROWS + CAPTION_SPACE))
    cap = cell * CAPTION_SPACE
    band_y = y + height - cap - ROWS * cell
    grids: dict[str, Grid] = {}
    bead_cols = max(4, round(width * 0.2 / cell))
    grids[BEAD_PLATE] = Grid(x, band_y, cell, cell, bead_cols)
    bx = x + bead_cols * cell + gap
    big_cols = max(1, int(width * 0.45 // cell))
    grids[BIG_ROAD] = Grid(bx, band_y, cell, cell, big_cols)
    dx = bx + big_cols * cell + gap
    grids.update(_derived_roads(dx, x + width - dx, y + height, cell, cap, gap))
    return grids


_TEXTURES: dict[tuple[str, int, bool], Any] = {}


def text_texture(text: str, size: float, bold: bool = True) -> Any:
    """A white text texture (tinted by the current Color), cached by text and size."""
    key = (text, max(1, round(size)), bold)
    tex = _TEXTURES.get(key)
    if tex is None:
        label = CoreLabel(text=text, font_size=key[1], bold=bold, color=(1, 1, 1, 1))
        label.refresh()
        tex = _TEXTURES[key] = label.texture
    return tex


class RoadsView(Widget):  # type: ignore[misc]
    """Draws the five roads of `results` (this shoe's coups, oldest first). Not interactive."""

    results = ObjectProperty((), allownone=False)
    captions = BooleanProperty(True)

    def __init__(self, **kwargs: Any) -> None:
        self.roads = Roads.from_results(())
        self.grids: dict[str, Grid] = {}
        super().__init__(**kwargs)
        self.bind(pos=self._redraw, size=self._redraw, captions=self._redraw)
        tr.bind(lang=self._redraw)  # the captions and letters in the new language (weakly)
        self._redraw()

    def on_results(self, _inst: Any, results: Sequence[CoupResult]) -> None:
        self.roads = Roads.from_results(results)
        self._redraw()

    def centre_of(self, road: str, col: int, row: int) -> tuple[float, float] | None:
        """Window coordinates of the centre of a road's grid cell (for tests and overlays)."""
        grid = self.grids.get(road)
        if grid is None:
            return None
        at = grid.centre(col, row)
        return None if at is None else self.to_window(*at)

    # --- drawing ---------------------------------------------------------------------------

    def _redraw(self, *_args: Any) -> None:
        self.canvas.clear()
        self.drawn: list[DrawnText] = []  # the roads' names, for the layout check
        if self.width < 40 or self.height < 40:
            return
        grids = layout(self.x, self.y, self.width, self.height)
        roads = self.roads
        big_cells = roads.big_road.cells
        last_big = max((c.col for c in big_cells), default=0)
        grids[BIG_ROAD] = grids[BIG_ROAD].scrolled(last_big, spare=1 if big_cells else 0)
        beads = roads.bead_plate.cells
        grids[BEAD_PLATE] = grids[BEAD_PLATE].scrolled(beads[-1].col if beads else 0)
        for name, road in ((BIG_EYE_BOY, roads.big_eye_boy), (SMALL_ROAD, roads.small_road),
                           (COCKROACH_PIG, roads.cockroach_pig)):
            cells = road.cells
            last = max((c.col for c in cells), default=0)
            grids[name] = grids[name].scrolled(last, spare=1 if cells else 0)
        self.grids = grids
        for name in ROAD_NAMES:
            self._paper(name, grids[name])
        self._bead_plate(grids[BEAD_PLATE])
        self._big_road(grids[BIG_ROAD])
        self._derived(grids[BIG_EYE_BOY], roads.big_eye_boy, "ring")
        self._derived(grids[SMALL_ROAD], roads.small_road, "dot")
        self._derived(grids[COCKROACH_PIG], roads.cockroach_pig, "slash")

    def _paper(self, name: str, g: Grid) -> None:
        """The ruled ivory sheet of one road, with its name above it."""
        pad = max(2.0, g.ch * 0.08)
        with self.canvas:
            Color(0, 0, 0, 0.28)
            RoundedRectangle(pos=(g.x - pad + 2, g.y - pad - 3),
                             size=(g.width + 2 * pad, g.height + 2 * pad), radius=[pad * 1.5])
            Color(*PAPER)
            RoundedRectangle(pos=(g.x - pad, g.y - pad), size=(g.width + 2 * pad,
                                                               g.height + 2 * pad),
                             radius=[pad * 1.5])
            Color(*GRID_LINE)
            for c in range(g.cols + 1):
                xx = g.x + c * g.cw
                Line(points=[xx, g.y, xx, g.y + g.height], width=1)
            for r in range(ROWS + 1):
                yy = g.y + r * g.ch
                Line(points=[g.x, yy, g.x + g.width, yy], width=1)
        if self.captions:
            text = gettext(CAPTIONS[name])
            size = max(CAPTION_FLOOR, g.ch * (0.5 if name in (BIG_ROAD, BEAD_PLATE) else 0.95))
            pos = (g.x - pad, g.y + g.height + pad * 1.2)
            # Its room: as wide as the road's sheet, up to the road above (or the view's top).
            above = min((o.y - max(2.0, o.ch * 0.08) for o in self.grids.values()
                         if o.y > g.y and o.x < g.x + g.width and g.x < o.x + o.width),
                        default=self.top)
            room = (g.width + 2 * pad, above - pos[1])
            tex = text_texture(text, size)
            # A long name, or little room: smaller, not over the road's edge or the one above.
            shrink = min(1.0, room[0] / tex.size[0], room[1] / tex.size[1])
            if shrink < 1:
                size = max(CAPTION_FLOOR, size * shrink * 0.98)
                tex = text_texture(text, size)
            tw, th = tex.size
            with self.canvas:
                Color(*CAPTION)
                Rectangle(texture=tex, pos=pos, size=(tw, th))
            self.drawn.append(DrawnText(text, (*pos, tw, th), (*pos, *room), size))

    def _bead_plate(self, g: Grid) -> None:
        for cell in self.roads.bead_plate.cells:
            at = g.centre(cell.col, cell.row)
            if at is None:
                continue
            cx, cy = at
            r = min(g.cw, g.ch) * 0.43
            tex = text_texture(letter(cell.winner), r * 1.15)
            tw, th = tex.size
            with self.canvas:
                Color(*WINNER_COLOUR[cell.winner])
                Ellipse(pos=(cx - r, cy - r), size=(2 * r, 2 * r), segments=theme.segments(r))
                Color(*theme.WHITE)
                Rectangle(texture=tex, pos=(cx - tw / 2, cy - th / 2), size=(tw, th))
            self.drawn.append(DrawnText(letter(cell.winner), (cx - tw / 2, cy - th / 2, tw, th),
                                        (cx - g.cw / 2, cy - g.ch / 2, g.cw, g.ch), r * 1.15))
            self._pairs(cx, cy, r, cell.result.banker_pair, cell.result.player_pair)

    def _pairs(self, cx: float, cy: float, r: float, banker: bool, player: bool) -> None:
        """Pair marks: a red dot top-left for a banker pair, blue bottom-right for a player's."""
        d = r * 0.3
        with self.canvas:
            for on, colour, sx, sy in ((banker, theme.BANKER, -1, 1),
                                       (player, theme.PLAYER, 1, -1)):
                if on:
                    px, py = cx + sx * r * 0.72, cy + sy * r * 0.72
                    Color(*PAPER)
                    Ellipse(pos=(px - d * 1.35, py - d * 1.35), size=(d * 2.7, d * 2.7),
                            segments=theme.segments(d * 1.35))
                    Color(*colour)
                    Ellipse(pos=(px - d, py - d), size=(2 * d, 2 * d), segments=theme.segments(d))

    def _big_road(self, g: Grid) -> None:
        s = min(g.cw, g.ch)
        r, width = s * 0.36, max(1.2, s * 0.075)
        big = self.roads.big_road
        if not big.columns and big.leading_ties:
            at = g.centre(0, 0)
            if at is not None:
                self._ties(at[0], at[1], r, len(big.leading_ties), s)
        for cell in big.cells:
            at = g.centre(cell.col, cell.row)
            if at is None:
                continue
            cx, cy = at
            with self.canvas:
                Color(*WINNER_COLOUR[cell.winner])
                Line(circle=(cx, cy, r, 0, 360, theme.segments(r)), width=width, joint="miter")
            if cell.tie_count:
                self._ties(cx, cy, r, cell.tie_count, s)
            self._pairs(cx, cy, r * 1.1, cell.banker_pair, cell.player_pair)

    def _ties(self, cx: float, cy: float, r: float, count: int, s: float) -> None:
        """A green slash across the mark for ties; the number of them when more than one."""
        with self.canvas:
            Color(*theme.TIE)
            k = r * 1.05
            Line(points=[cx - k, cy - k, cx + k, cy + k], width=max(1.2, s * 0.07))
        if count > 1:
            tex = text_texture(str(count), s * 0.42)
            tw, th = tex.size
            with self.canvas:
                Color(*theme.TIE)
                Rectangle(texture=tex, pos=(cx - tw / 2 - r * 0.45, cy - th / 2 + r * 0.45),
                          size=(tw, th))
            # Its room: the mark's cell, as wide and tall as the mark with its margin.
            self.drawn.append(DrawnText(str(count), (cx - tw / 2 - r * 0.45,
                                                     cy - th / 2 + r * 0.45, tw, th),
                                        (cx - s / 2, cy - s / 2, s, s), s * 0.42))

    def _derived(self, g: Grid, road: DerivedRoad, style: str) -> None:
        s = min(g.cw, g.ch)
        r = s * 0.36
        with self.canvas:
            for cell in road.cells:
                at = g.centre(cell.col, cell.row)
                if at is None:
                    continue
                cx, cy = at
                Color(*DERIVED_COLOUR[cell.colour])
                if style == "ring":
                    Line(circle=(cx, cy, r, 0, 360, theme.segments(r)), width=max(1.0, s * 0.1),
                         joint="miter")
                elif style == "dot":
                    Ellipse(pos=(cx - r, cy - r), size=(2 * r, 2 * r), segments=theme.segments(r))
                else:
                    k = r * 1.05
                    Line(points=[cx - k, cy - k, cx + k, cy + k], width=max(1.0, s * 0.1))
