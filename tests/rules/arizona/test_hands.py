"""The five-card evaluator Arizona Hold'em settles by (rules 6.2, 6.6)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, pairwise

import pytest
from hypothesis import given, strategies as st

from kiosk.rules.arizona.hands import (
    Category,
    HandValue,
    card_key,
    category_of,
    evaluate,
    strength_of_keys,
)
from kiosk.rules.cards import SUITS, Card, deck, parse_cards
from kiosk.rules.errors import UnreadableInput


def test_every_five_card_hand_of_one_deck_falls_in_the_category_counted_by_hand():
    """All 2,598,960 hands: the well-known counts of each kind of poker hand."""
    keys = [card_key(c) for c in deck()]
    counts: Counter[Category] = Counter()
    for a, b, c, d, e in combinations(keys, 5):
        counts[category_of(strength_of_keys(a, b, c, d, e))] += 1
    assert counts == {
        Category.ROYAL_FLUSH: 4, Category.STRAIGHT_FLUSH: 36, Category.FOUR_OF_A_KIND: 624,
        Category.FULL_HOUSE: 3744, Category.FLUSH: 5108, Category.STRAIGHT: 10200,
        Category.THREE_OF_A_KIND: 54912, Category.TWO_PAIRS: 123552,
        Category.PAIR: 1098240, Category.HIGH_CARD: 1302540,
    }


def _hand(codes: str) -> HandValue:
    return evaluate(parse_cards(codes.split()))


# Each line beats the next one: categories, then the ranks that decide within one.
LADDER = [
    ("AS KS QS JS TS", "a royal flush"),
    ("KH QH JH TH 9H", "a straight flush, king high"),
    ("5D 4D 3D 2D AD", "a straight flush, five high"),
    ("9S 9H 9D 9C 2S", "four nines"),
    ("8S 8H 8D 8C AS", "four eights"),
    ("3S 3H 3D AC AS", "a full house, threes full of aces"),
    ("2S 2H 2D AC AS", "a full house, twos full of aces"),
    ("AH JH 9H 4H 2H", "a flush, ace high"),
    ("KC QC JC TC 8C", "a flush, king high"),
    ("AS KH QD JC TS", "a straight, ace high"),
    ("6S 5H 4D 3C 2S", "a straight, six high"),
    ("5S 4H 3D 2C AS", "a straight, five high"),
    ("7S 7H 7D AC KS", "three sevens"),
    ("AS AH 3D 3C 2S", "two pairs, aces and threes"),
    ("KS KH QD QC AS", "two pairs, kings and queens"),
    ("KS KH QD QC JS", "two pairs, kings and queens"),
    ("TS TH AD KC QS", "a pair of tens"),
    ("9S 9H AD KC QS", "a pair of nines"),
    ("AS KH QD JC 9S", "ace high"),
    ("7S 5H 4D 3C 2S", "seven high"),
]


def test_hands_rank_in_the_order_poker_ranks_them_and_are_named_for_the_dealer():
    values = [_hand(codes) for codes, _ in LADDER]
    assert [v.words for v in values] == [words for _, words in LADDER]
    for better, worse in pairwise(values):
        assert better > worse, (better.words, worse.words)


def test_a_wheel_is_the_lowest_straight_and_an_ace_high_straight_is_not_a_wheel():
    assert _hand("5S 4H 3D 2C AS").ranks == (3,)
    assert _hand("AS KH QD JC TS").ranks == (12,)
    assert _hand("AS KH QD JC 9S").category is Category.HIGH_CARD  # no wrap round K-A-2
    assert _hand("QS KH AD 2C 3S").category is Category.HIGH_CARD


def test_equal_hands_of_other_suits_tie():
    assert _hand("AS AH 3D 3C 2S") == _hand("AD AC 3S 3H 2H")


def test_a_hand_is_five_cards():
    with pytest.raises(UnreadableInput, match="five cards, not 4"):
        evaluate(parse_cards(["AS", "KS", "QS", "JS"]))


FIVE = st.lists(st.sampled_from(deck()), min_size=5, max_size=5, unique=True)


@given(FIVE, st.permutations(range(4)), st.permutations(range(5)))
def test_the_value_ignores_the_order_of_the_cards_and_which_suit_is_which(cards, suits, order):
    relabelled = [Card(c.rank, SUITS[suits[SUITS.index(c.suit)]]) for c in cards]
    assert evaluate([relabelled[i] for i in order]) == evaluate(cards)


@given(FIVE)
def test_the_strength_falls_in_its_category(cards):
    value = evaluate(cards)
    ranks = Counter(c.rank for c in cards)
    suited = len({c.suit for c in cards}) == 1
    if suited:
        assert value.category in (Category.FLUSH, Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH)
    shape = sorted(ranks.values(), reverse=True)
    expected_by_shape = {(4, 1): Category.FOUR_OF_A_KIND, (3, 2): Category.FULL_HOUSE,
                         (3, 1, 1): Category.THREE_OF_A_KIND, (2, 2, 1): Category.TWO_PAIRS,
                         (2, 1, 1, 1): Category.PAIR}
    if tuple(shape) in expected_by_shape:
        assert value.category is expected_by_shape[tuple(shape)]


def test_several_decks_a_flush_with_a_pair_is_a_flush_and_five_of_a_kind_pays_as_four():
    """Rule 6.4 allows more than one deck: hands one deck cannot hold still rank."""
    assert _hand("AS AS KS 9S 2S").category is Category.FLUSH
    assert _hand("AS AS KS KS KS").category is Category.FULL_HOUSE
    five = _hand("7S 7S 7H 7D 7C")
    assert five.category is Category.FOUR_OF_A_KIND and five.ranks == (5, 5)
