"""Blackjack card values and hand totals (section 4 and 7 of the Mpumalanga rules).

An ace counts 1 or 11, tens and picture cards 10, every other card its face value; 21 is the
highest total a hand may reach without busting (rules 4.2, 7.2). A blackjack is an ace and a
ten-value card as a box's first two cards (rules 4.2 item 5, 7.2 item 9).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kiosk.rules.cards import Card, Rank

# Point values; an ace is 1 here and counted as 11 by `Total` when that does not bust.
POINTS: dict[Rank, int] = {
    Rank.ACE: 1, Rank.TWO: 2, Rank.THREE: 3, Rank.FOUR: 4, Rank.FIVE: 5, Rank.SIX: 6,
    Rank.SEVEN: 7, Rank.EIGHT: 8, Rank.NINE: 9,
    Rank.TEN: 10, Rank.JACK: 10, Rank.QUEEN: 10, Rank.KING: 10,
}


def points(card: Card) -> int:
    return POINTS[card.rank]


@dataclass(frozen=True, slots=True)
class Total:
    """A hand's total: `hard` counts every ace as 1; `soft` is True when an ace counts 11."""

    hard: int
    soft: bool


    @property
    def best(self) -> int:
        return self.hard + 10 if self.soft else self.hard

    @property
    def bust(self) -> bool:
        return self.hard > 21

    def __str__(self) -> str:
        """How a dealer says it: "soft 17", "hard 12", "21", "bust (24)"."""
        if self.bust:
            return f"bust ({self.hard})"
        if self.soft and self.best != 21:
            return f"soft {self.best} / {self.hard}"
        return str(self.best)


def total_of_points(values: Sequence[int]) -> Total:
    hard = sum(values)
    return Total(hard, 1 in values and hard <= 11)


def total(cards: Sequence[Card]) -> Total:
    return total_of_points([POINTS[c.rank] for c in cards])


def is_blackjack(cards: Sequence[Card]) -> bool:
    """Rule 4.2 item 5: an ace and any ten or face card as the first two cards."""
    return len(cards) == 2 and {POINTS[cards[0].rank], POINTS[cards[1].rank]} == {1, 10}


def is_ten_or_ace(card: Card) -> bool:
    """Rule 4.2 item 5: against an ace or a ten-value dealer card a blackjack waits."""
    return POINTS[card.rank] in (1, 10)
