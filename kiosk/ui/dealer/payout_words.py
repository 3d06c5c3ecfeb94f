"""What a payout panel says: one line per bet, what it is (small) and what to do (large, in
words: PAY, TAKE, PUSH ... so colour is never the only signal). Pure: no Kivy.

Amounts are written in the house's money style (`kiosk.i18n.money`), the words in the
dealer's language (`[display] dealer_language`)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from kiosk import i18n

TILE_STEPS = ((1_000_000, "m"), (100_000, "k"))


@dataclass(frozen=True, slots=True)
class PanelRow:
    """One line of a payout panel."""

    caption: str  # "Banker R10,000 wins 19:20"
    amount: str  # "PAY R9,500"
    tone: str  # bet | pay | take | even | owe


@dataclass(frozen=True, slots=True)
class PanelBlock:
    """A titled group of lines (a box's hand, a colour's spin)."""

    title: str
    rows: tuple[PanelRow, ...]


def money(cents: int | Fraction, currency: str) -> str:
    """An amount in the house's money style; an exact fraction of a cent (a commission owed)
    to the nearest cent with a "~", as the journal's reports write it."""
    if isinstance(cents, Fraction):
        approx = "~" if cents.denominator != 1 else ""
        return approx + i18n.money(round(cents), currency)
    return i18n.money(cents, currency)


def decimal_mark() -> str:
    """The mark before the cents in the house's money style (and the dealer's language when
    the style is the locale's): "." in R1,234.50, "," in R 1 234,50."""
    return next(c for c in i18n.money(150, "") if not c.isdigit() and not c.isspace())


def tile_money(cents: int | Fraction, currency: str) -> str:
    """An amount short enough for a tile, as chips are marked: R55,000, R250k, R1.5m ("~"
    when shortened). The exact amount is in the payout panel (and in the journal)."""
    for size, mark in TILE_STEPS:
        if cents >= size * 100:
            unit = size if mark == "m" else 1_000
            tenths, rest = divmod(cents * 10, unit * 100)
            tenths = int(tenths)
            text = f"{tenths // 10}" + (f"{decimal_mark()}{tenths % 10}" if tenths % 10
                                        else "")
            approx = "~" if rest else ""
            return f"{approx}{currency}{text}{mark}"
    return money(cents, currency)
