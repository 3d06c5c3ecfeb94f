"""Cards, card codes and the contents of a shoe.

Card codes follow docs/protocols/shoe-shuffler.md: rank `A 2 3 4 5 6 7 8 9 T J Q K`
then suit `S H D C` (`AS`, `TD`, `QH`, `7C`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum

from kiosk.rules.errors import ImpossibleCard, UnreadableInput


class Rank(StrEnum):
    ACE = "A"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "T"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"


class Suit(StrEnum):
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"


RANKS: tuple[Rank, ...] = tuple(Rank)
SUITS: tuple[Suit, ...] = tuple(Suit)
RANK_NAMES = {
    Rank.ACE: "ace", Rank.TWO: "two", Rank.THREE: "three", Rank.FOUR: "four",
    Rank.FIVE: "five", Rank.SIX: "six", Rank.SEVEN: "seven", Rank.EIGHT: "eight",
    Rank.NINE: "nine", Rank.TEN: "ten", Rank.JACK: "jack", Rank.QUEEN: "queen",
    Rank.KING: "king",
}
SUIT_NAMES = {Suit.SPADES: "spades", Suit.HEARTS: "hearts", Suit.DIAMONDS: "diamonds",
              Suit.CLUBS: "clubs"}


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """A playing card. `deck()` and `Card.parse` hand out the same 52 objects every time, so
    the shoe's counts (a dict per draw) find a card by identity without calling `__eq__`."""

    rank: Rank
    suit: Suit
    # The card's place in `deck()` order (0-51), set once: it is the hash, because the shoe
    # hashes a card on every count and the generated hash builds and hashes a (rank, suit) tuple.
    index: int = field(init=False, repr=False, compare=False)


    def __post_init__(self) -> None:
        object.__setattr__(self, "index", SUITS.index(self.suit) * 13 + RANKS.index(self.rank))

    def __hash__(self) -> int:
        return self.index  # equal cards have equal (rank, suit), hence equal index

    @classmethod
    def parse(cls, code: str) -> Card:
        """A card from its two-character code; `UnreadableInput` names what is wrong."""
        text = code.strip().upper()
        card = _BY_CODE.get(text)
        if card is not None:
            return card
        if len(text) != 2:
            raise UnreadableInput(f"{code!r} is not a card code (rank then suit, like AS or TD)")
        raise UnreadableInput(f"{code!r} is not a card code (rank A 2-9 T J Q K, suit S H D C)")

    @property
    def code(self) -> str:
        return f"{self.rank.value}{self.suit.value}"

    @property
    def name(self) -> str:
        """How a dealer says it: "queen of hearts"."""
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit]}"

    def __str__(self) -> str:
        return self.code


_DECK: tuple[Card, ...] = tuple(Card(r, s) for s in SUITS for r in RANKS)
_BY_CODE: dict[str, Card] = {c.code: c for c in _DECK}


def deck() -> tuple[Card, ...]:
    """One 52-card deck in a fixed order (always the same 52 objects: cards are immutable)."""
    return _DECK


@dataclass(frozen=True, slots=True)
class ShoeContents:
    """What is left in a shoe of `decks` decks, given the cards that have come out of it.

    A card seen more often than the decks hold is impossible (a foreign card or a misread):
    `verify_draw` refuses it so that it is never accepted silently. `seen` is never mutated:
    each draw returns new contents (a plain dict copy keeps the fold fast).
    """

    decks: int
    seen: dict[Card, int] = field(default_factory=dict)
    dealt: int = 0


    def __post_init__(self) -> None:
        if not 1 <= self.decks <= 16:
            raise ValueError(f"a shoe holds 1 to 16 decks, not {self.decks}")

    @property
    def size(self) -> int:
        return 52 * self.decks

    @property
    def remaining(self) -> int:
        return self.size - self.dealt

    def remaining_of(self, card: Card) -> int:
        return self.decks - self.seen.get(card, 0)

    def verify_draw(self, card: Card) -> None:
        if self.seen.get(card, 0) >= self.decks:
            raise ImpossibleCard(
                f"The shoe cannot hold another {card.name} ({card.code}): all {self.decks} "
                f"have already come out of this {self.decks}-deck shoe",
                clause="5.4",
            )

    def can_draw(self, card: Card) -> bool:
        return self.seen.get(card, 0) < self.decks

    def draw(self, card: Card) -> ShoeContents:
        """The contents after `card` came out; refuses an impossible card (rule 5.4)."""
        count = self.seen.get(card, 0)  # one lookup serves the check and the new count
        if count >= self.decks:
            self.verify_draw(card)  # raises, with the dealer's sentence
        seen = self.seen.copy()
        seen[card] = count + 1
        return ShoeContents(self.decks, seen, self.dealt + 1)

    def draw_unchecked(self, card: Card) -> ShoeContents:
        """The contents after a card an inspector accepted although it looked impossible."""
        seen = self.seen.copy()
        seen[card] = seen.get(card, 0) + 1
        return ShoeContents(self.decks, seen, self.dealt + 1)

    def cards_left(self) -> Iterator[Card]:
        for c in deck():
            yield from (c for _ in range(self.remaining_of(c)))


def parse_cards(codes: Iterable[str]) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in codes)
