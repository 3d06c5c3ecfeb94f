"""Colours, sizes and fonts shared by the dealer screen and the player signage.

Table-felt green with a dark rail, ivory cards, and the colours players know from the roads:
red for the Banker, blue for the Player, green for a tie. Sizes are set in millimetres of the
real screen, so a touch target is at least 9 mm on the 7" Pi display and on a 15" monitor.
"""

from __future__ import annotations

from dataclasses import dataclass

RGBA = tuple[float, float, float, float]


def rgb(hex_colour: str, alpha: float = 1.0) -> RGBA:
    h = hex_colour.lstrip("#")
    return (int(h[0:2], 16) / 255, int(h[2:4], 16) / 255, int(h[4:6], 16) / 255, alpha)


def luminance(colour: RGBA | tuple[float, ...]) -> float:
    """WCAG 2's relative luminance of an sRGB colour (0 black .. 1 white)."""
    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(float(c)) for c in colour[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: RGBA | tuple[float, ...], b: RGBA | tuple[float, ...]) -> float:
    """WCAG 2's contrast ratio of two colours (1 to 21); text needs 4.5 (level AA)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def over(base: RGBA, top: RGBA, alpha: float) -> RGBA:
    """`top` at `alpha` laid over the opaque `base`, as one opaque colour. A wide Kivy Line
    in a translucent colour is drawn through the stencil buffer (several full passes over the
    window on a software renderer); in a premixed opaque colour it is one plain draw."""
    return (base[0] + (top[0] - base[0]) * alpha, base[1] + (top[1] - base[1]) * alpha,
            base[2] + (top[2] - base[2]) * alpha, 1.0)


def segments(radius: float) -> int:
    """Sides for a circle of `radius` px: round to a tenth of a pixel. Kivy's default is 180
    whatever the size, and a wide circular Line adds ten triangles per side for its round
    joints: thousands of triangles per road mark, each one binned and drawn in software."""
    return max(24, min(180, int(radius * 2)))


def corner_segments(radius: float) -> int:
    """Sides for each rounded corner of `radius` px (Kivy's default is 10 at any size): a
    quarter circle of r px drawn to within about a sixth of a pixel. Fewer triangles per
    shape is less work for every frame the software renderer draws."""
    return max(3, min(10, int(radius / 2) + 1))


def line_resolution(radius: float) -> int:
    """The same corners for a Line's `rounded_rectangle`, whose resolution counts sides per
    half turn (Kivy's default 45: 22 per corner)."""
    return 2 * corner_segments(radius)


FELT = rgb("#0b5d3b")
FELT_DARK = rgb("#07402a")
FELT_LIGHT = rgb("#12784d")
RAIL = rgb("#2a1a10")
GOLD = rgb("#e6c46e")
IVORY = rgb("#fbf7ee")
INK = rgb("#1b1b1b")
INK_SOFT = rgb("#4a4a4a")  # captions on ivory
CARD_RED = rgb("#c8102e")
BANKER = rgb("#c62828")
PLAYER = rgb("#1f5fbf")
TIE = rgb("#1e7a38")
WHITE = rgb("#ffffff")
MUTED = rgb("#b8cfc2")
WARNING = rgb("#f2a900")
WARNING_TEXT = rgb("#ffc840")  # a warning in words on the plain felt (5.1:1; WARNING is 3.9)
STOP = rgb("#d32f2f")
INFO = rgb("#2f6fb0")
DISABLED = rgb("#34403b")  # a control not allowed now: grey, its words still readable
DISABLED_INK = rgb("#b5c0bb")  # ... on DISABLED (5.8:1)
PAY = rgb("#a8f0b4")  # "pay" on the dark felt (8.9:1)
TAKE = rgb("#ffc2b8")  # "take" on the dark felt (7.7:1)

TEXT_ON: dict[str, tuple[str, ...]] = {
    "FELT": ("WHITE", "GOLD", "MUTED", "IVORY", "PAY", "TAKE", "WARNING_TEXT"),
    "FELT_DARK": ("WHITE", "GOLD", "MUTED", "IVORY", "PAY", "TAKE", "WARNING", "DISABLED_INK"),
    "RAIL": ("WHITE", "GOLD", "MUTED", "IVORY", "PAY", "TAKE", "WARNING"),
    "IVORY": ("INK", "INK_SOFT", "CARD_RED", "BANKER", "PLAYER", "TIE"),
    "BANKER": ("WHITE", "IVORY"),
    "PLAYER": ("WHITE", "IVORY"),
    "TIE": ("WHITE", "IVORY"),
    "STOP": ("WHITE",),
    "INFO": ("WHITE",),
    "WARNING": ("INK",),
    "DISABLED": ("WHITE", "DISABLED_INK", "GOLD"),
}
"""Which text colours may be drawn on which of the theme's backgrounds: each pair is at least
4.5:1 (WCAG AA, tests/ui/test_theme.py). Not on the plain felt: WARNING (3.9:1) and
DISABLED_INK (4.2:1), which go on the dark felt or a rail; nothing but WHITE or IVORY on
FELT_LIGHT, which is a highlight, not a text ground. The layout tests also hold every label
they draw to 4.5:1 against the pixels actually behind it."""

# The official 7" Raspberry Pi touchscreen: 800 px across 154.2 mm of active area.
PI_TOUCHSCREEN_PX_PER_MM = 800 / 154.2
TOUCH_MIN_MM = 9.0  # the smallest touch target the dealer screen allows (docs/dealer-screen.md)


@dataclass(frozen=True, slots=True)
class Metrics:
    """Pixel sizes for one screen, from its pixel density."""

    px_per_mm: float = PI_TOUCHSCREEN_PX_PER_MM

    def mm(self, millimetres: float) -> float:
        return millimetres * self.px_per_mm

    @property
    def touch(self) -> float:
        """The height and minimum width of a touch target (9 mm, rounded up)."""
        return float(int(self.mm(TOUCH_MIN_MM)) + 1)


def ui_unit(width: float, height: float) -> float:
    """How much larger than the 800x480 design a screen of this size draws everything."""
    return max(0.5, min(width / 800, height / 480))


def metrics_for(width_px: int, diagonal_inches: float | None = None) -> Metrics:
    """Pixel density of a 16:9-ish screen `width_px` wide. Without a diagonal, assume the
    Pi touchscreen at 800 px and a 15.6" monitor (344 mm wide) at 1920 px."""
    if diagonal_inches is None:
        width_mm = 154.2 if width_px <= 1024 else 344.0
    else:
        width_mm = diagonal_inches * 25.4 * 16 / (16**2 + 9**2) ** 0.5
    return Metrics(px_per_mm=width_px / width_mm)
