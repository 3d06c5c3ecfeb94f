"""Cards, card codes and shoe contents (kiosk/rules/cards.py); rule 5.4 card values
(punto banco's, kiosk/rules/baccarat/drawing.py) and decks.

Card codes follow docs/protocols/shoe-shuffler.md: rank A 2-9 T J Q K, then suit S H D C.
"""

from __future__ import annotations

import pytest

from kiosk.rules.baccarat.drawing import baccarat_value
from kiosk.rules.cards import (
    Card,
    Rank,
    ShoeContents,
    Suit,
    deck,
    parse_cards,
)
from kiosk.rules.errors import ImpossibleCard, NotAllowed, UnreadableInput

RANK_CODES = "A23456789TJQK"
SUIT_CODES = "SHDC"
ALL_CODES = [r + s for r in RANK_CODES for s in SUIT_CODES]


def test_there_are_52_codes():
    # rule 5.4: a deck of playing cards
    assert len(ALL_CODES) == 52
    assert len(set(ALL_CODES)) == 52


@pytest.mark.parametrize("code", ALL_CODES)
def test_every_valid_code_parses(code):
    # rule 5.4 cards, read from the shoe by code
    card = Card.parse(code)
    assert card.rank is Rank(code[0])
    assert card.suit is Suit(code[1])
    assert card.code == code
    assert str(card) == code
    assert Card.parse(code.lower()) == card
    assert Card.parse(f"  {code}\n") == card


def test_card_names():
    # how a dealer says a card
    assert Card.parse("QH").name == "queen of hearts"
    assert Card.parse("AS").name == "ace of spades"
    assert Card.parse("TD").name == "ten of diamonds"
    assert Card.parse("7C").name == "seven of clubs"


@pytest.mark.parametrize("bad", ["", " ", "A", "1S", "10S", "AX", "ASS", "ZZ", "S A", "??",
                                 "0H", "1H", "AS,", "♠A"])
def test_bad_codes_are_unreadable(bad):
    # a bad code is unreadable input, not a rule refusal (docs/architecture.md error tree)
    with pytest.raises(UnreadableInput) as exc:
        Card.parse(bad)
    assert not isinstance(exc.value, NotAllowed)
    assert isinstance(exc.value, ValueError)
    assert repr(bad) in str(exc.value)


def test_parse_cards():
    assert parse_cards(["AS", "td"]) == (Card(Rank.ACE, Suit.SPADES), Card(Rank.TEN, Suit.DIAMONDS))
    with pytest.raises(UnreadableInput):
        parse_cards(["AS", "XX"])


def test_deck_holds_each_card_once():
    # rule 5.4: 52 cards, 4 of each rank
    d = deck()
    assert len(d) == 52
    assert sorted(c.code for c in d) == sorted(ALL_CODES)


def test_baccarat_values_rule_5_4():
    # rule 5.4: Ace = 1; tens and picture cards = 0; all other cards = face value
    expected = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
                "T": 0, "J": 0, "Q": 0, "K": 0}
    for code in ALL_CODES:
        assert baccarat_value(Card.parse(code)) == expected[code[0]], code
    assert sorted(baccarat_value(c) for c in deck()) == [0] * 16 + [
        v for v in range(1, 10) for _ in range(4)]


def test_shoe_contents_counts():
    # rule 5.4: eight decks (or as the casino decides)
    shoe = ShoeContents(8)
    assert (shoe.size, shoe.dealt, shoe.remaining) == (416, 0, 416)
    ace = Card.parse("AS")
    assert shoe.remaining_of(ace) == 8
    after = shoe.draw(ace).draw(ace).draw(Card.parse("KH"))
    assert (after.size, after.dealt, after.remaining) == (416, 3, 413)
    assert after.remaining_of(ace) == 6
    assert after.remaining_of(Card.parse("KH")) == 7
    assert after.remaining_of(Card.parse("KD")) == 8
    assert shoe.remaining_of(ace) == 8 and shoe.dealt == 0  # drawing never mutates
    left = list(after.cards_left())
    assert len(left) == 413
    assert left.count(ace) == 6
    assert ShoeContents(1).size == 52 and len(list(ShoeContents(6).cards_left())) == 312


def test_impossible_card_rule_5_4():
    # rule 5.4: a 1-deck shoe holds one ace of spades; a second is impossible
    ace = Card.parse("AS")
    shoe = ShoeContents(1).draw(ace)
    assert not shoe.can_draw(ace)
    assert shoe.can_draw(Card.parse("AH"))
    with pytest.raises(ImpossibleCard) as exc:
        shoe.draw(ace)
    assert exc.value.clause == "5.4"
    assert isinstance(exc.value, NotAllowed)
    assert str(exc.value) == ("The shoe cannot hold another ace of spades (AS): all 1 have "
                              "already come out of this 1-deck shoe (rule 5.4)")
    with pytest.raises(ImpossibleCard):
        shoe.verify_draw(ace)
    # an inspector's override is counted, never dropped
    over = shoe.draw_unchecked(ace)
    assert over.dealt == 2
    assert over.remaining_of(ace) == -1
    assert not over.can_draw(ace)


def test_eight_decks_hold_eight_of_each():
    # rule 5.4: eight decks
    ace = Card.parse("AS")
    shoe = ShoeContents(8)
    for _ in range(8):
        assert shoe.can_draw(ace)
        shoe = shoe.draw(ace)
    assert shoe.remaining_of(ace) == 0
    with pytest.raises(ImpossibleCard) as exc:
        shoe.draw(ace)
    assert "all 8 have already come out of this 8-deck shoe" in str(exc.value)


@pytest.mark.parametrize("decks", [0, 17, -1])
def test_shoe_size_is_checked(decks):
    with pytest.raises(ValueError, match=f"a shoe holds 1 to 16 decks, not {decks}"):
        ShoeContents(decks)
