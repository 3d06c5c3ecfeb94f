"""Where an Arizona Hold'em hand stands, and the order rule 6.2 deals and decides in."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from kiosk.rules.arizona.config import ArizonaRules
from kiosk.rules.arizona.operations import COMMUNITY
from kiosk.rules.cards import Card

PLAYER_CARDS = 3
COMMUNITY_CARDS = 2
CIRCLES = (1, 2)


class Phase(StrEnum):
    BETTING = "betting"  # antes in box "A"
    DEALING = "dealing"  # rule 6.2's cycle: a card to each ante box, then a community card
    FIRST_RAISE = "first raise"  # circle 1, each player in turn, then community card 1 turned
    SECOND_RAISE = "second raise"  # circle 2, then community card 2 turned
    REVEAL = "reveal"  # left to right, every bet paid at rule 6.6's table


@dataclass(frozen=True, slots=True)
class ArizonaState:
    rules: ArizonaRules
    table_id: str = ""
    round: int = 1
    phase: Phase = Phase.BETTING
    shuffled: bool = False
    """A shuffle was recorded since the last hand was dealt (rule 6.5)."""
    antes: tuple[tuple[int, int], ...] = ()
    """(box, amount), in box order."""
    dealt: tuple[tuple[int, int, Card], ...] = ()
    """(box, slot, card) in the order dealt; box 0 is the community."""
    raises: tuple[tuple[int, int, int], ...] = ()
    """(box, circle, amount)."""
    checks: tuple[tuple[int, int], ...] = ()
    """(box, circle): the player chose not to raise."""
    turned: int = 0
    """Community cards turned face up."""
    queried: Card | None = None
    """The last card queried while a card was due, for an inspector to accept or not."""
    misdeals: int = 0
    """Misdeals this round (rule 6.2): each is dealt again after a shuffle."""
    hands: tuple[str, ...] = ()
    """The best hand of each round settled, newest last (for the players' sign)."""

    @property
    def boxes(self) -> tuple[int, ...]:
        return tuple(box for box, _ in self.antes)

    def ante_of(self, box: int) -> int:
        return dict(self.antes).get(box, 0)

    def raise_of(self, box: int, circle: int) -> int:
        return sum(amount for b, c, amount in self.raises if (b, c) == (box, circle))

    def cards_of(self, box: int) -> tuple[Card, ...]:
        return tuple(card for b, _, card in self.dealt if b == box)

    @property
    def community(self) -> tuple[Card, ...]:
        return self.cards_of(COMMUNITY)


def deal_order(boxes: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """Rule 6.2: one card to each ante box, then one to the next community box, repeated
    until each player has three cards and there are two community cards: (box, slot)."""
    order: list[tuple[int, int]] = []
    for slot in range(PLAYER_CARDS):
        order.extend((box, slot) for box in boxes)
        if slot < COMMUNITY_CARDS:
            order.append((COMMUNITY, slot))
    return tuple(order)


def next_place(state: ArizonaState) -> tuple[int, int] | None:
    """Where the next card of the deal goes, or None when the deal is complete."""
    order = deal_order(state.boxes)
    return order[len(state.dealt)] if len(state.dealt) < len(order) else None


def circle_in_play(state: ArizonaState) -> int | None:
    return {Phase.FIRST_RAISE: 1, Phase.SECOND_RAISE: 2}.get(state.phase)


def deciding(state: ArizonaState) -> int | None:
    """The box whose player decides now on the circle in play (each in turn, rule 6.2)."""
    circle = circle_in_play(state)
    if circle is None:
        return None
    decided = {b for b, c, _ in state.raises if c == circle}
    decided |= {b for b, c in state.checks if c == circle}
    return next((box for box in state.boxes if box not in decided), None)


def stake_of(state: ArizonaState, box: int) -> int:
    """All a box has on the layout: its ante and its raises."""
    return state.ante_of(box) + sum(state.raise_of(box, c) for c in CIRCLES)
