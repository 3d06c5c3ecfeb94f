"""A seeded, shuffled shoe for the demo, the device simulators and simulations.

Not part of the rules (which never draw cards themselves): the real table learns its cards from
the shoe's serial line. The same seed always gives the same order, so a demo or a failing test
can be replayed exactly.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from kiosk.rules.cards import Card, deck


@dataclass
class SeededShoe:
    decks: int = 8
    seed: int = 0
    # Where the cutting card sits, counted in cards from the back of the shoe.
    cut_from_back: int = 0
    cards: list[Card] = field(init=False)
    position: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        self.shuffle()

    def shuffle(self) -> None:
        self.cards = [c for _ in range(self.decks) for c in deck()]
        random.Random(self.seed).shuffle(self.cards)
        self.position = 0

    @property
    def remaining(self) -> int:
        return len(self.cards) - self.position

    @property
    def cut_card_reached(self) -> bool:
        return self.cut_from_back > 0 and self.remaining <= self.cut_from_back

    def deal(self) -> Card:
        if self.position >= len(self.cards):
            raise IndexError("the shoe is empty")
        card = self.cards[self.position]
        self.position += 1
        return card
