"""The chip values a dealer screen offers when the table's file names none (its rack, and the
chips of a chip change or colour-up)."""

from __future__ import annotations

CHIP_SERIES = tuple(units * 100 for units in (1, 2, 5, 10, 25, 50, 100, 500, 1000, 5000))
"""The usual casino chip values, in cents."""


def default_chip_values(smallest_chip: int) -> tuple[int, ...]:
    """Five chip buttons: the house's smallest chip and the next usual values that are whole
    numbers of it (R5: 5, 10, 25, 50, 100)."""
    values = [smallest_chip]
    values += [v for v in CHIP_SERIES if v > smallest_chip and v % smallest_chip == 0]
    return tuple(values[:5])
