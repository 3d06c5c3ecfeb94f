"""Five-card poker hands: the evaluator Arizona Hold'em settles by (rules 6.2 and 6.6).

A player's hand is their three cards with the two community cards (rule 6.2: "the Dealer
will bring the Player's three cards in line with the community cards"), so exactly five
cards are ranked, aces high, and also low in the wheel (A-2-3-4-5).

The evaluator is table-driven. Each card becomes one int holding its rank's prime, a bit
for its suit and a bit for its rank. Five such ints tell at once whether the hand is
suited (the suit bits AND together), whether its ranks are all different (the rank bits
OR together to five bits), and, when they are not, which ranks are paired (the product of
the primes names the multiset of ranks). Three tables made once, when this module is first
imported, map those keys to a strength: an int where a better hand is a larger number.

>>> from kiosk.rules.cards import parse_cards
>>> hand = evaluate(parse_cards(["TS", "TD", "4C", "KH", "2S"]))
>>> hand.category.name, hand.words
('PAIR', 'a pair of tens')
>>> evaluate(parse_cards(["AS", "KS", "QS", "JS", "TS"])).category.name
'ROYAL_FLUSH'
>>> evaluate(parse_cards(["AH", "2C", "3D", "4S", "5S"])).ranks   # the wheel: five high
(3,)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from itertools import combinations_with_replacement

from kiosk.rules.cards import RANKS, SUITS, Card
from kiosk.rules.errors import UnreadableInput

HAND_SIZE = 5


class Category(IntEnum):
    """The kinds of five-card hand, worst first (rule 6.6's pay table names them)."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIRS = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    ROYAL_FLUSH = 9


# Poker ranks: 0 is a two, 12 an ace. `Card`'s own order is the shoe's (ace first).
POKER_RANK_NAMES = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                    "jack", "queen", "king", "ace")
POKER_RANK_PLURALS = ("twos", "threes", "fours", "fives", "sixes", "sevens", "eights",
                      "nines", "tens", "jacks", "queens", "kings", "aces")
TEN = 8
ACE = 12
_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
_SUIT_BITS = 0xF000
_RANK_SHIFT = 16
_CATEGORY_SHIFT = 20  # a strength: category, then up to five ranks of four bits each


def poker_rank(card: Card) -> int:
    """0 for a two up to 12 for an ace."""
    return (RANKS.index(card.rank) - 1) % 13


def card_key(card: Card) -> int:
    """The card as the evaluator's int: prime | suit bit << 12 | rank bit << 16."""
    r = poker_rank(card)
    return _PRIMES[r] | (1 << (12 + SUITS.index(card.suit))) | (1 << (_RANK_SHIFT + r))


def _strength(category: Category, ranks: Sequence[int]) -> int:
    """The category, then the deciding ranks left-aligned in five nibbles."""
    value = int(category)
    for i in range(HAND_SIZE):
        value = (value << 4) | (ranks[i] if i < len(ranks) else 0)
    return value


def _straight_top(distinct: Sequence[int]) -> int | None:
    """The top rank of five distinct ranks in a row (the wheel A-2-3-4-5 tops at five)."""
    ranks = sorted(distinct)
    if len(ranks) != HAND_SIZE:
        return None
    if ranks[-1] - ranks[0] == 4:
        return ranks[-1]
    if ranks == [0, 1, 2, 3, ACE]:
        return 3
    return None


def _rank_strength(ranks: Sequence[int], suited: bool) -> int:
    """The strength of five ranks (repeats allowed: several decks), suited or not."""
    counts = Counter(ranks)
    # Most copies first, then the higher rank: the order in which hands are compared.
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    top = _straight_top(list(counts))
    if top is not None and suited:
        return _strength(Category.ROYAL_FLUSH if top == ACE else Category.STRAIGHT_FLUSH, [top])
    if shape[0] >= 4:
        # Five of a kind (only from several decks) is not in rule 6.6's table: it ranks
        # and pays as the best hand the table names that it holds, four of a kind.
        return _strength(Category.FOUR_OF_A_KIND, order[:1] + (order[1:] or order[:1]))
    if shape == [3, 2]:
        return _strength(Category.FULL_HOUSE, order)
    if suited:
        return _strength(Category.FLUSH, sorted(ranks, reverse=True))
    if top is not None:
        return _strength(Category.STRAIGHT, [top])
    if shape[0] == 3:
        return _strength(Category.THREE_OF_A_KIND, order)
    if shape[:2] == [2, 2]:
        return _strength(Category.TWO_PAIRS, order)
    if shape[0] == 2:
        return _strength(Category.PAIR, order)
    return _strength(Category.HIGH_CARD, order)


def _tables() -> tuple[list[int], list[int], dict[int, int], dict[int, int]]:
    suited = [0] * (1 << 13)
    unique = [0] * (1 << 13)
    paired: dict[int, int] = {}
    paired_suited: dict[int, int] = {}  # several decks only: a flush with a repeated rank
    for ranks in combinations_with_replacement(range(13), HAND_SIZE):
        if len(set(ranks)) == HAND_SIZE:
            bits = sum(1 << r for r in ranks)
            suited[bits] = _rank_strength(ranks, True)
            unique[bits] = _rank_strength(ranks, False)
        else:
            product = 1
            for r in ranks:
                product *= _PRIMES[r]
            paired[product] = _rank_strength(ranks, False)
            paired_suited[product] = _rank_strength(ranks, True)
    return suited, unique, paired, paired_suited


_SUITED, _UNIQUE, _PAIRED, _PAIRED_SUITED = _tables()


def strength_of_keys(a: int, b: int, c: int, d: int, e: int) -> int:
    """The strength of five cards given as `card_key` ints: larger is better."""
    if a & b & c & d & e & _SUIT_BITS:
        found = _SUITED[(a | b | c | d | e) >> _RANK_SHIFT]
        if found:
            return found
        return _PAIRED_SUITED[(a & 0xFF) * (b & 0xFF) * (c & 0xFF) * (d & 0xFF) * (e & 0xFF)]
    found = _UNIQUE[(a | b | c | d | e) >> _RANK_SHIFT]
    if found:
        return found
    return _PAIRED[(a & 0xFF) * (b & 0xFF) * (c & 0xFF) * (d & 0xFF) * (e & 0xFF)]


def category_of(strength: int) -> Category:
    return Category(strength >> _CATEGORY_SHIFT)


def ranks_of(strength: int) -> tuple[int, ...]:
    """The ranks that decide between two hands of one category, most significant first."""
    category = category_of(strength)
    width = {Category.STRAIGHT: 1, Category.STRAIGHT_FLUSH: 1, Category.ROYAL_FLUSH: 1,
             Category.FOUR_OF_A_KIND: 2, Category.FULL_HOUSE: 2, Category.THREE_OF_A_KIND: 3,
             Category.TWO_PAIRS: 3, Category.PAIR: 4}.get(category, HAND_SIZE)
    return tuple((strength >> (4 * (HAND_SIZE - 1 - i))) & 0xF for i in range(width))


@dataclass(frozen=True, slots=True, order=True)
class HandValue:
    """A ranked five-card hand: compare two with < and ==."""

    strength: int

    @property
    def category(self) -> Category:
        return category_of(self.strength)

    @property
    def ranks(self) -> tuple[int, ...]:
        return ranks_of(self.strength)

    @property
    def pair_rank(self) -> int | None:
        """The rank of the pair of a one-pair hand (rule 6.6 pays tens or better)."""
        return self.ranks[0] if self.category is Category.PAIR else None

    @property
    def words(self) -> str:
        """The hand as a dealer says it: "a pair of tens", "a flush, king high"."""
        ranks = self.ranks
        name, plural = POKER_RANK_NAMES, POKER_RANK_PLURALS
        match self.category:
            case Category.ROYAL_FLUSH:
                return "a royal flush"
            case Category.STRAIGHT_FLUSH:
                return f"a straight flush, {name[ranks[0]]} high"
            case Category.FOUR_OF_A_KIND:
                return f"four {plural[ranks[0]]}"
            case Category.FULL_HOUSE:
                return f"a full house, {plural[ranks[0]]} full of {plural[ranks[1]]}"
            case Category.FLUSH:
                return f"a flush, {name[ranks[0]]} high"
            case Category.STRAIGHT:
                return f"a straight, {name[ranks[0]]} high"
            case Category.THREE_OF_A_KIND:
                return f"three {plural[ranks[0]]}"
            case Category.TWO_PAIRS:
                return f"two pairs, {plural[ranks[0]]} and {plural[ranks[1]]}"
            case Category.PAIR:
                return f"a pair of {plural[ranks[0]]}"
        return f"{name[ranks[0]]} high"


def evaluate(cards: Sequence[Card]) -> HandValue:
    """The value of exactly five cards (rule 6.2: three of the player's, two community)."""
    if len(cards) != HAND_SIZE:
        raise UnreadableInput(f"a poker hand is five cards, not {len(cards)}")
    a, b, c, d, e = (card_key(card) for card in cards)
    return HandValue(strength_of_keys(a, b, c, d, e))
