"""Money: ints of the table's smallest unit (cents), ratios as Fractions, the house's chip rule.

docs/architecture.md: a float never touches money. Odd payouts (19:20, 5%) are rounded to
the house's smallest chip by the rule configured here, and the difference is recorded.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from kiosk.rules.amounts import format_money as format_money  # where callers find it
from kiosk.rules.errors import Amount, NotAllowed


class RoundingFavour(StrEnum):
    """Which way an amount that is not a whole number of chips goes.

    - HOUSE: payouts round down, amounts owed to the house (commission) round up.
    - PLAYER: payouts round up, commission rounds down.
    - NEAREST: to the nearest chip; an exact half goes the player's way.
    """

    HOUSE = "house"
    PLAYER = "player"
    NEAREST = "nearest"


@dataclass(frozen=True, slots=True)
class ChipRule:
    """The house's chip rule: the smallest chip on the table and the rounding favour."""

    smallest_chip: int = 100
    favour: RoundingFavour = RoundingFavour.HOUSE

    def __post_init__(self) -> None:
        if self.smallest_chip <= 0:
            raise ValueError("the smallest chip must be a positive number of cents")

    def round_payout(self, exact: Fraction) -> int:
        """A payout to a player in whole chips."""
        return self._round(exact, player_receives=True)

    def round_owed(self, exact: Fraction) -> int:
        """An amount a player owes the house (commission) in whole chips."""
        return self._round(exact, player_receives=False)

    def _round(self, exact: Fraction, *, player_receives: bool) -> int:
        # Whole chips and the remainder by integer division of numerator and denominator:
        # the same result as Fraction division, floor and ceil, at a fraction of the cost.
        unit = exact.denominator * self.smallest_chip
        down, rest = divmod(exact.numerator, unit)  # exact = (down + rest / unit) chips
        if rest == 0:
            return down * self.smallest_chip
        up = down + 1
        if self.favour is RoundingFavour.NEAREST:
            if 2 * rest != unit:
                n = down if 2 * rest < unit else up
            else:
                n = up if player_receives else down
        elif (self.favour is RoundingFavour.HOUSE) == player_receives:
            n = down
        else:
            n = up
        return n * self.smallest_chip

    def verify_stake(self, amount: int) -> None:
        if amount % self.smallest_chip:
            raise NotAllowed.of(
                "%(amount)s cannot be made of chips: bets are in steps of %(chip)s",
                amount=Amount(amount), chip=Amount(self.smallest_chip))


def parse_ratio(text: str) -> Fraction:
    """'19:20' or '8:1' (odds as printed on the layout) as the Fraction paid per unit staked."""
    try:
        a, b = text.split(":")
        return Fraction(int(a), int(b))
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"{text!r} is not odds like 8:1 or 19:20") from None


def format_ratio(r: Fraction) -> str:
    return f"{r.numerator}:{r.denominator}"
