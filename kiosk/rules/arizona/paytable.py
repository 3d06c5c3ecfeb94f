"""Rule 6.6's pay table: what every Arizona Hold'em bet (ante, circle 1, circle 2) pays.

The ante and both raises are paid at the same odds (the reading written in
docs/arizona-holdem.md); a hand below a pair of tens loses all three.

>>> from kiosk.rules.cards import parse_cards
>>> from kiosk.rules.arizona.hands import evaluate
>>> odds_for(evaluate(parse_cards(["TS", "TD", "4C", "KH", "2S"])))
1
>>> odds_for(evaluate(parse_cards(["9S", "9D", "4C", "KH", "2S"]))) is None
True
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from kiosk.rules.arizona.hands import TEN, Category, HandValue

# rule 6.6: each category's odds to one.
PAY_TABLE: Mapping[Category, int] = MappingProxyType({
    Category.ROYAL_FLUSH: 250,
    Category.STRAIGHT_FLUSH: 50,
    Category.FOUR_OF_A_KIND: 25,
    Category.FULL_HOUSE: 12,
    Category.FLUSH: 10,
    Category.STRAIGHT: 8,
    Category.THREE_OF_A_KIND: 3,
    Category.TWO_PAIRS: 2,
    Category.PAIR: 1,  # a pair of tens or better only
})
LOWEST_PAIR = TEN  # rule 6.6: "Pair of Tens Plus"


def odds_for(hand: HandValue) -> int | None:
    """The odds to one that `hand` pays on each bet (rule 6.6), or None: the bets lose."""
    category = hand.category
    if category is Category.HIGH_CARD:
        return None
    if category is Category.PAIR and (hand.pair_rank or 0) < LOWEST_PAIR:
        return None
    return PAY_TABLE[category]


def net_of(hand: HandValue) -> int:
    """What one unit on each bet nets: the odds when it pays, -1 when it loses."""
    odds = odds_for(hand)
    return -1 if odds is None else odds
