"""The wheel: its pockets in order, their colours, and a number's neighbours (rules 3.2, 3.4).

docs/architecture.md: the table's wheel is single zero, because the call bets of 3.4
(neighbours of zero, series 5/8, orphans, a number and its neighbours) are sections of that
wheel's order; a double-zero wheel is a house option with call bets off. A pocket is named by
its label as the dealer calls it and the wheel controller reports it: "0" to "36", and "00".
"""

from __future__ import annotations

from enum import StrEnum

SINGLE_ZERO_ORDER: tuple[str, ...] = tuple(str(n) for n in (
    0, 32, 15, 19, 4, 21, 2, 25, 17, 34, 6, 27, 13, 36, 11, 30, 8, 23, 10, 5, 24, 16, 33, 1,
    20, 14, 31, 9, 22, 18, 29, 7, 28, 12, 35, 3, 26))
"""Clockwise from zero, as the pockets are cut into the single-zero wheel."""

DOUBLE_ZERO_ORDER: tuple[str, ...] = (
    "0", "28", "9", "26", "30", "11", "7", "20", "32", "17", "5", "22", "34", "15", "3", "24",
    "36", "13", "1", "00", "27", "10", "25", "29", "12", "8", "19", "31", "18", "6", "21", "33",
    "16", "4", "23", "35", "14", "2")

RED = frozenset(str(n) for n in (1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34,
                                 36))
ZEROS = frozenset({"0", "00"})


class Wheel(StrEnum):
    SINGLE_ZERO = "single-zero"
    DOUBLE_ZERO = "double-zero"

    @property
    def order(self) -> tuple[str, ...]:
        return SINGLE_ZERO_ORDER if self is Wheel.SINGLE_ZERO else DOUBLE_ZERO_ORDER

    @property
    def pockets(self) -> int:
        return len(self.order)


class Colour(StrEnum):
    """A pocket's colour on the wheel and the layout."""

    RED = "red"
    BLACK = "black"
    GREEN = "green"


def colour_of(pocket: str) -> Colour:
    if pocket in ZEROS:
        return Colour.GREEN
    return Colour.RED if pocket in RED else Colour.BLACK


def is_pocket(label: str, wheel: Wheel) -> bool:
    return label in wheel.order


def neighbours(pocket: str, each_side: int = 2, wheel: Wheel = Wheel.SINGLE_ZERO
               ) -> tuple[str, ...]:
    """`pocket` and `each_side` pockets either side of it on the wheel, in wheel order
    (rule 3.4: "0 and the neighbours" is 26, 32 either side... 3, 26, 0, 32, 15)."""
    order = wheel.order
    at = order.index(pocket)
    n = len(order)
    return tuple(order[(at + k) % n] for k in range(-each_side, each_side + 1))


def section(first: str, last: str, wheel: Wheel = Wheel.SINGLE_ZERO) -> tuple[str, ...]:
    """The pockets from `first` to `last` clockwise on the wheel, both included."""
    order = wheel.order
    i, j = order.index(first), order.index(last)
    n = len(order)
    return tuple(order[(i + k) % n] for k in range(((j - i) % n) + 1))
