"""What the 4-digit 7-segment display can show, and how the table minimum is written on it.

Pure functions (no pins): the panel hands their cells to gpiozero's `LEDMultiCharDisplay`.
A cell is one digit: a character of `FONT`, plus a trailing "." when its decimal point is lit
(gpiozero's convention for `LEDCharDisplay` with a `dp` pin).
"""

from __future__ import annotations

from importlib import resources

from gpiozero.fonts import load_font_7seg  # type: ignore[import-untyped]

BLANK = " "
DOES_NOT_FIT = "-"
"""Repeated on every digit when a value does not fit."""


def _load_font() -> dict[str, tuple[int, ...]]:
    # gpiozero's own 7-segment font (what LEDCharDisplay loads for 7 pins): space, 0-9 and the
    # capitals that 7 segments can draw (no K, M, V, W, X, Z). It has no "-", which we need
    # for "does not fit", so we add it: segment g alone.
    with resources.files("gpiozero.fonts").joinpath("7seg.txt").open() as f:
        font: dict[str, tuple[int, ...]] = {
            str(char): tuple(int(s) for s in segments)
            for char, segments in load_font_7seg(f).items()}
    font["-"] = (0, 0, 0, 0, 0, 0, 1)
    return font


FONT: dict[str, tuple[int, ...]] = _load_font()
"""Character -> states of segments a-g."""

CHARACTERS = "".join(sorted(FONT))


def layout_text(text: str, digits: int = 4, *, has_dp: bool = True) -> tuple[str, ...]:
    """`text` as one cell per digit, right-aligned; ValueError saying why it cannot be shown.

    Letters are shown as the font's capitals (the font draws some, like b and d, in lower
    case anyway). A "." lights the decimal point of the character before it, or of a blank
    digit when there is none ("..5" is two blank digits with their points, then 5).
    """
    cells: list[str] = []
    for char in text.upper():
        if char == ".":
            if not has_dp:
                raise ValueError(f"cannot show {text!r}: the display's decimal point is "
                                 "not wired")
            if cells and not cells[-1].endswith("."):
                cells[-1] += "."
            else:
                cells.append(BLANK + ".")
        elif char in FONT:
            cells.append(char)
        else:
            raise ValueError(f"cannot show {text!r}: a 7-segment display has no {char!r} "
                             f"(it can show {CHARACTERS.strip()!r} and '.')")
    if len(cells) > digits:
        raise ValueError(f"cannot show {text!r}: it needs {len(cells)} digits, the display "
                         f"has {digits}")
    return (BLANK,) * (digits - len(cells)) + tuple(cells)


def format_minimum(cents: int, digits: int = 4, *, has_dp: bool = True) -> str:
    """The table minimum as the display writes it, or "----" when it does not fit.

    Money is an int of cents. A whole amount is written in whole units with no point
    (5000 -> "50", 50000 -> "500", 500000 -> "5000"). An amount with cents is written with
    its two decimals ("12.50", "0.50") only when the decimal point is wired and the digits
    suffice (at most 99.99 on 4 digits). Anything else shows "----" rather than a rounded or
    cut amount: a player must never read a minimum that is not the real one.
    """
    if isinstance(cents, bool) or not isinstance(cents, int):
        raise TypeError(f"the minimum must be an int of cents, not {cents!r}")
    if cents < 0:
        raise ValueError(f"a table minimum cannot be negative ({cents} cents)")
    units, rest = divmod(cents, 100)
    if rest == 0:
        text = str(units)
        needed = len(text)
    elif has_dp:
        text = f"{units}.{rest:02d}"
        needed = len(text) - 1  # the point shares a digit with the units' last figure
    else:
        return DOES_NOT_FIT * digits
    return text if needed <= digits else DOES_NOT_FIT * digits
