"""Amounts of money in words: the one formatting both the refusals (`errors.Amount`) and the
money rules (`money.py`) use, below both so that neither imports the other for it."""

from __future__ import annotations

from fractions import Fraction


def format_money(cents: int | Fraction, currency: str = "R") -> str:
    """A dealer-readable amount: R1,234.50 (R1,234 when whole); exact fractions of a cent
    are shown to the cent with a "~" (they only appear in rounding records)."""
    sign = "-" if cents < 0 else ""
    approx = ""
    if isinstance(cents, Fraction) and cents.denominator != 1:
        approx = "~"
    whole, part = divmod(abs(round(cents)), 100)
    text = f"{whole:,}" if part == 0 else f"{whole:,}.{part:02d}"
    return f"{approx}{sign}{currency}{text}"
