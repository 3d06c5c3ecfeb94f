"""What every game on the table core provides (punto banco first, blackjack next).

A game is pure: it starts from `initial_state(rules, table_id)` and moves only by
`apply(state, op)`, the one transition function used live and in replay, so state is always a
fold over the journal. Actions follow the pokerkit pattern: `verify_x(state, ...)` raises
`NotAllowed` with a sentence a dealer can read, `can_x(...)` answers a bool, and `x(...)` returns
the Operation to journal. The table session (kiosk/table) needs only this protocol to route
shoe cards and to tell the dealer what comes next; the dealer's game-specific actions are the
game module's own functions, passed to the session as callables.
"""

from __future__ import annotations

from typing import Any, Protocol, TypeVar

from kiosk.rules.cards import Card
from kiosk.rules.operations import Operation

S = TypeVar("S")


class Game(Protocol[S]):
    name: str

    def initial_state(self, rules: Any, table_id: str) -> S: ...

    def open_table(self, rules: Any, table_id: str) -> Operation:
        """The first Operation of a journal: which game, under which house rules."""
        ...

    def apply(self, state: S, op: Operation) -> S: ...

    def shoe_card(self, state: S, card: Card) -> Operation:
        """The Operation for a card read by the shoe: dealt to the right hand when the rules
        allow it, otherwise a query the dealer must decide (never accepted silently)."""
        ...

    def verify_shoe_card(self, state: S, card: Card) -> None: ...

    def holds_cards(self, state: S) -> bool:
        """Whether a card read now must wait for the dealer (a queried card to resolve, an
        insurance to close) instead of counting; the session holds it and deals it after."""
        ...

    def unread_card(self, state: S) -> Operation: ...

    def burn(self, state: S, card: Card | None) -> Operation: ...

    def cut_card_out(self, state: S) -> Operation: ...

    def next_step(self, state: S) -> str:
        """The one next thing the dealer must do, in words."""
        ...
