"""What every bet on a blackjack table wins or loses (rules 4.2 item 5, 4.7, 7.7).

Money is cents; the odd payouts (3:2 on an odd bet, half a bet back on a surrender) go
through the house's chip rule and the rounding is recorded beside the payout.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from kiosk.rules.money import ChipRule


class Outcome(StrEnum):
    WIN = "win"
    LOSE = "lose"
    PUSH = "push"  # a stand off: the bet goes back
    BLACKJACK = "blackjack"  # rule 4.2 item 5: pays 3:2
    SURRENDER = "surrender"  # rule 4.2 item 4a: half the bet back
    EVEN_MONEY = "even_money"  # rule 4.7: a blackjack against an ace, paid 1:1 at once
    RETURNED = "returned"  # handed back untouched: a double or split bet (house setting
    # ORIGINAL), or every bet of a void round


class BetKind(StrEnum):
    HAND = "hand"
    INSURANCE = "insurance"  # rule 4.7: pays 2:1 against a dealer blackjack


@dataclass(frozen=True, slots=True)
class Settlement:
    """How one player's money on one hand (or their insurance) was settled.

    `stake` is what was on it; `paid` the win on top of the stake (0 when lost or pushed);
    `returned` the chips handed back (stake and win, the stake, part of it, or nothing);
    `rounding` = exact - paid for payouts the chip rule rounded."""

    box: int
    hand: int  # 1.. within the box; 0 for insurance
    player: str
    kind: BetKind
    stake: int
    outcome: Outcome
    odds: Fraction
    paid: int
    returned: int
    rounding: Fraction = Fraction(0)


    @property
    def net(self) -> int:
        """What the player gained (+) or lost (-) on it."""
        return self.returned - self.stake


_ZERO = Fraction(0)


def win(box: int, hand: int, player: str, kind: BetKind, stake: int, odds: Fraction,
        chips: ChipRule, outcome: Outcome = Outcome.WIN) -> Settlement:
    if odds.denominator == 1:
        paid = stake * odds.numerator
        return Settlement(box, hand, player, kind, stake, outcome, odds, paid, stake + paid)
    exact = stake * odds
    paid = chips.round_payout(exact)
    return Settlement(box, hand, player, kind, stake, outcome, odds, paid, stake + paid,
                      exact - paid)


def lose(box: int, hand: int, player: str, kind: BetKind, stake: int) -> Settlement:
    return Settlement(box, hand, player, kind, stake, Outcome.LOSE, _ZERO, 0, 0)


def push(box: int, hand: int, player: str, stake: int,
         outcome: Outcome = Outcome.PUSH) -> Settlement:
    return Settlement(box, hand, player, BetKind.HAND, stake, outcome, _ZERO, 0, stake)


def surrender(box: int, hand: int, player: str, stake: int, chips: ChipRule) -> Settlement:
    """Rule 4.2 item 4a: the player gives up half the bet; the half handed back is rounded
    by the chip rule like any payout to a player."""
    exact = Fraction(stake, 2)
    back = chips.round_payout(exact)
    return Settlement(box, hand, player, BetKind.HAND, stake, Outcome.SURRENDER, _ZERO, 0,
                      back, exact - back)


def compare(player_best: int, player_bust: bool, dealer_best: int, dealer_bust: bool
            ) -> Outcome:
    """Rule 4.2: the aim is to beat the dealer without going over 21."""
    if player_bust:
        return Outcome.LOSE  # a busted hand loses even if the dealer busts later
    if dealer_bust or player_best > dealer_best:
        return Outcome.WIN
    if player_best == dealer_best:
        return Outcome.PUSH
    return Outcome.LOSE


def total_returned(settlements: tuple[Settlement, ...]) -> int:
    return sum(s.returned for s in settlements)


def total_staked(settlements: tuple[Settlement, ...]) -> int:
    return sum(s.stake for s in settlements)

