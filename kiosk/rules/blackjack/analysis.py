"""The house edge of the configured blackjack rules under the computed basic strategy.

A combinatorial analysis, the cross-check for the simulator: every dealer up card and every
first two player cards, weighted by their chances in a shoe of `rules.decks` decks; for each,
the shoe less those three cards gives the dealer's final totals and blackjack chance exactly
(`strategy.dealer_odds`), and the player plays `basic_strategy(rules)` (the same choices
`Strategy.decide` returns), drawing later cards from that shoe without removing them. Floats:
this is statistics, not money.

Money on the box (rules 4.2 item 5, 4.7, docs/architecture.md): a blackjack pays
`blackjack_odds` and pushes with a dealer blackjack; with no hole card a dealer blackjack takes
every bet on the box (ALL) or only the original bet (ORIGINAL: doubles and split bets come
back, a box loses one unit at most, as in a game where the dealer checks for blackjack first);
a surrender (rule 4.2 item 4a, against 2-10) costs half the bet whatever the dealer draws.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from kiosk.rules.blackjack.house import BlackjackRules, SplitMatch
from kiosk.rules.blackjack.strategy import (
    VALUES,
    Decision,
    Strategy,
    Values,
    basic_strategy,
    full_shoe,
    remove,
    strategy_key,
)


@dataclass(frozen=True, slots=True)
class Analysis:
    """`house_edge`: the expected loss per initial unit bet (0.005 is 0.5%); `by_up_card[u]`
    the player's expected return per unit given dealer up card u (1..10, index 0 unused);
    `blackjack`: the chance of a player blackjack."""

    rules: BlackjackRules
    house_edge: float
    by_up_card: tuple[float, ...]
    blackjack: float

    @property
    def percent(self) -> float:
        return 100.0 * self.house_edge


def house_edge(rules: BlackjackRules) -> float:
    """The expected loss per initial unit bet under basic strategy (0.005 is 0.5%)."""
    return analyse(rules).house_edge


def analyse(rules: BlackjackRules) -> Analysis:
    """The analysis of these rules, computed once per distinct set of rules."""
    return _analyse(strategy_key(rules))


@cache
def _analyse(rules: BlackjackRules) -> Analysis:
    strategy = basic_strategy(rules)
    shoe = full_shoe(rules.decks)
    total = sum(shoe)
    by_up = [0.0] * 11
    edge = 0.0
    blackjack = 0.0
    for up in VALUES:
        short = remove(shoe, up)
        n = sum(short)
        ret = 0.0
        for first in VALUES:
            for second in VALUES:
                if second < first:
                    continue
                a, b = short[first - 1], short[second - 1]
                w = (a * (a - 1) if first == second else 2 * a * b) / (n * (n - 1))
                if w == 0.0:
                    continue
                ret += w * _box_value(strategy, short, up, first, second)
                if {first, second} == {1, 10}:
                    blackjack += shoe[up - 1] / total * w
        by_up[up] = ret
        edge -= shoe[up - 1] / total * ret
    return Analysis(rules, edge, tuple(by_up), blackjack)


def _box_value(strategy: Strategy, short: Sequence[int], up: int, first: int, second: int
               ) -> float:
    """The expected return per unit of a box dealt `first`, `second` against `up`."""
    rules = strategy.rules
    vals = Values(remove(short, first, second), up, rules)
    q = vals.dealer.blackjack
    if {first, second} == {1, 10}:
        # rule 4.2 item 5: paid at the odds, a push against a dealer blackjack
        return float(rules.blackjack_odds) * (1.0 - q)
    play, hit = vals.play(lambda hard, ace: _hits(strategy, hard, ace, up))
    hand = (first, second)
    pair = first == second
    decision = strategy.decide(hand, up, can_double=True, can_split=pair,
                               can_surrender=vals.can_surrender)
    if pair and first == 10 and decision is Decision.SPLIT \
            and rules.split_match is SplitMatch.RANK:
        # two ten-value cards are a pair only if of the same rank (rule 4.2 item 4e, RANK):
        # one time in (4d - 1) / (16d - 1)
        same = (4 * rules.decks - 1) / (16 * rules.decks - 1)
        other = strategy.decide(hand, up, can_double=True, can_split=False,
                                can_surrender=vals.can_surrender)
        return (same * _value(strategy, vals, play, hit, hand, up, decision)
                + (1 - same) * _value(strategy, vals, play, hit, hand, up, other))
    return _value(strategy, vals, play, hit, hand, up, decision)


def _hits(strategy: Strategy, hard: int, ace: bool, up: int) -> bool:
    """After the first decision a hand only hits or stands (rule 4.2 item 4c)."""
    hand = (1, hard - 1) if ace and hard <= 11 else (hard,)
    return strategy.decide(hand, up, can_double=False, can_split=False,
                           can_surrender=False) is Decision.HIT


def _value(strategy: Strategy, vals: Values, play: Sequence[float], hit: Sequence[float],
           hand: tuple[int, int], up: int, decision: Decision) -> float:
    rules = strategy.rules
    hard = hand[0] + hand[1]
    ace = 1 in hand
    s = 2 * hard + ace
    if decision is Decision.SURRENDER:
        return -0.5
    if decision is Decision.STAND:
        value = vals.stand_value(hard, ace)
    elif decision is Decision.HIT:
        value = hit[s]
    elif decision is Decision.DOUBLE:
        value = vals.double[s]
    else:
        pair = hand[0]

        def after_split(h: int, a: bool) -> float:
            # a split hand: double only with double_after_split (rule 4.2 item 4e)
            two = (pair, h - pair)
            d = strategy.decide(two, up, can_double=rules.double_after_split,
                                can_split=False, can_surrender=False)
            st = 2 * h + a
            if d is Decision.DOUBLE:
                return vals.double[st]
            if d is Decision.HIT:
                return hit[st]
            return vals.stand_value(h, a)

        again = strategy.decide(hand, up, can_double=rules.double_after_split,
                                can_split=True, can_surrender=False) is Decision.SPLIT
        value = vals.split(pair, after_split, rules, resplit=again)
    return value + vals.box_term
