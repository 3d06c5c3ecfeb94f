"""The exact house edge of Arizona Hold'em with the best raise strategy (rules 6.2, 6.6).

Every deal from one deck is counted: the player's three cards, then the first and the second
community card (22,100 x 49 x 48 ordered deals). Each bet wins rule 6.6's odds or loses one
unit, so with an ante of one unit a hand nets `v` per bet it has, where `v` is the pay
table's odds or -1 (`paytable.net_of`). The raises are each one unit, and independent:

- circle 2 is raised when the expected `v`, knowing the three cards and the first community
  card, is above nothing;
- circle 1 is raised when the expected `v`, knowing the three cards, is above nothing (the
  second raise adds the same whatever the first did, so the first decision stands alone).

A three-card hand's worth is the same under any relabelling of the suits, so the 22,100
hands are counted as their 1,755 kinds with a weight each; for each kind the 1,176 pairs of
community cards are ranked once by the engine's own evaluator (`hands.strength_of_keys`).
All sums are whole numbers; the results are exact fractions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations, permutations

from kiosk.rules.arizona.hands import (
    HAND_SIZE,
    TEN,
    HandValue,
    card_key,
    poker_rank,
    strength_of_keys,
)
from kiosk.rules.arizona.paytable import net_of
from kiosk.rules.cards import SUITS, Card, deck

PLAYER_CARDS = 3
Progress = Callable[[int, int], None]
"""Called as the count goes on, with (kinds of hand done, kinds in all)."""


@dataclass(frozen=True, slots=True)
class StrategyRow:
    """One line of a raise strategy: what the cards hold, and how many kinds of hand with it
    the enumeration raised and did not raise (one of the two is 0 when the line is a rule)."""

    holding: str
    raised: int
    not_raised: int

    @property
    def raise_it(self) -> bool:
        return self.raised > 0


@dataclass(frozen=True, slots=True)
class ArizonaOdds:
    deals: int
    """Ordered deals counted: three player cards, then two community cards."""
    ante_return: Fraction
    """What one unit of ante nets on average, the raises included (negative: the house's)."""
    first_raised: Fraction
    """How often circle 1 is raised."""
    second_raised: Fraction
    """How often circle 2 is raised."""
    first_strategy: tuple[StrategyRow, ...] = field(default=())
    second_strategy: tuple[StrategyRow, ...] = field(default=())

    @property
    def house_edge(self) -> Fraction:
        """Per unit of ante."""
        return -self.ante_return

    @property
    def average_bet(self) -> Fraction:
        """Units wagered per hand on average: the ante and the raises made."""
        return 1 + self.first_raised + self.second_raised

    @property
    def edge_per_bet(self) -> Fraction:
        """Per unit wagered in all (ante and raises)."""
        return self.house_edge / self.average_bet


def _canonical(cards: Iterable[Card]) -> tuple[int, ...]:
    """The same tuple for every hand that differs only by a relabelling of the suits."""
    places = [(SUITS.index(c.suit), poker_rank(c)) for c in cards]
    return min(tuple(sorted(perm[s] * 13 + r for s, r in places))
               for perm in permutations(range(len(SUITS))))


def hand_kinds() -> dict[tuple[Card, ...], int]:
    """One three-card hand of each kind (up to suits), with how many hands are of that kind."""
    weights: Counter[tuple[int, ...]] = Counter()
    first: dict[tuple[int, ...], tuple[Card, ...]] = {}
    for hand in combinations(deck(), PLAYER_CARDS):
        key = _canonical(hand)
        weights[key] += 1
        first.setdefault(key, hand)
    return {first[key]: n for key, n in weights.items()}


# --- How a strategy table names what the cards hold -----------------------------------------

RANK_LETTERS = "23456789TJQKA"


def _ranks_word(ranks: Iterable[int]) -> str:
    return "".join(RANK_LETTERS[r] for r in sorted(ranks, reverse=True))


def _pairs(counts: Counter[int]) -> str | None:
    shape = sorted(counts.values(), reverse=True)
    if shape[0] >= 3:
        return "three or four of a kind"
    if shape[:2] == [2, 2]:
        return "two pairs"
    if shape[0] == 2:
        pair = max(r for r, n in counts.items() if n == 2)
        return "a pair of tens or better" if pair >= TEN else "a pair below tens"
    return None


def first_holding(cards: tuple[Card, ...]) -> str:
    """What three cards hold, as the circle 1 strategy names it."""
    counts = Counter(poker_rank(c) for c in cards)
    made = _pairs(counts)
    if made is not None:
        return made
    suits = len({c.suit for c in cards})
    kind = {1: "suited", 2: "two suited", 3: "no two suited"}[suits]
    return f"{_ranks_word(counts)} {kind}"


def _straight_ranks(ranks: frozenset[int]) -> int:
    """How many ranks would make five different ranks in a row with these four."""
    made = 0
    for extra in range(13):
        five = sorted(ranks | {extra})
        if len(five) == HAND_SIZE and (five[-1] - five[0] == 4 or five == [0, 1, 2, 3, 12]):
            made += 1
    return made


def second_holding(cards: tuple[Card, ...]) -> str:
    """What four cards (three and the first community card) hold, for circle 2."""
    counts = Counter(poker_rank(c) for c in cards)
    made = _pairs(counts)
    if made is not None:
        return made
    if len({c.suit for c in cards}) == 1:
        return "four to a flush"
    ways = _straight_ranks(frozenset(counts))
    high = sum(1 for r in counts if r >= TEN)
    if ways == 2:
        return "four to an open-ended straight"
    if ways == 1:
        return ("four to an inside or one-way straight, three or more tens or higher"
                if high >= 3 else "four to an inside or one-way straight, under three tens "
                                  "or higher")
    return "no pair, no four to a flush or straight"


def _rows(tally: dict[str, list[int]]) -> tuple[StrategyRow, ...]:
    rows = [StrategyRow(holding, raised, not_raised)
            for holding, (raised, not_raised) in tally.items()]
    return tuple(sorted(rows, key=lambda r: (not r.raise_it, r.holding)))


def arizona_odds(progress: Progress | None = None) -> ArizonaOdds:
    """Count every one-deck deal and play each with the best raises (exact)."""
    kinds = hand_kinds()
    net_cache: dict[int, int] = {}
    everything = deck()
    ante_sum = 0  # sum over ordered deals of what the hand nets, in units (times weights)
    first_sum = 0
    second_sum = 0
    first_tally: dict[str, list[int]] = {}
    second_tally: dict[str, list[int]] = {}
    pairs = (len(everything) - PLAYER_CARDS) * (len(everything) - PLAYER_CARDS - 1)
    for done, (hand, weight) in enumerate(kinds.items(), start=1):
        a, b, c = (card_key(card) for card in hand)
        rest = [card for card in everything if card not in hand]
        keys = [card_key(card) for card in rest]
        per_first = [0] * len(rest)  # sum of v over the second card, for each first card
        for i in range(len(rest)):
            x = keys[i]
            row = 0
            for j in range(i + 1, len(rest)):
                strength = strength_of_keys(a, b, c, x, keys[j])
                v = net_cache.get(strength)
                if v is None:
                    v = net_cache[strength] = net_of(HandValue(strength))
                row += v
                per_first[j] += v
            per_first[i] += row
        total = sum(per_first)  # over all ordered (first, second) community cards
        raise_first = total > 0
        second_gain = 0
        second_count = 0
        for i, s in enumerate(per_first):
            raise_second = s > 0
            tally = second_tally.setdefault(second_holding((*hand, rest[i])), [0, 0])
            tally[0 if raise_second else 1] += weight
            if raise_second:
                second_gain += s
                second_count += 1
        tally = first_tally.setdefault(first_holding(hand), [0, 0])
        tally[0 if raise_first else 1] += weight
        # One ante, circle 1 when it pays to raise, circle 2 where it does: each nets v.
        ante_sum += weight * (total + (total if raise_first else 0) + second_gain)
        first_sum += weight * (pairs if raise_first else 0)
        second_sum += weight * second_count * (len(rest) - 1)
        if progress is not None:
            progress(done, len(kinds))
    deals = sum(kinds.values()) * pairs
    return ArizonaOdds(deals, Fraction(ante_sum, deals), Fraction(first_sum, deals),
                       Fraction(second_sum, deals), _rows(first_tally), _rows(second_tally))


__all__ = ["ArizonaOdds", "StrategyRow", "arizona_odds", "first_holding", "hand_kinds",
           "second_holding"]
