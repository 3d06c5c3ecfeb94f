"""What every game provides (the core `Game`) and what some games can do (capabilities).

A game is pure: it starts from `initial_state(rules, table_id)` and moves only by
`apply(state, op)`, the one transition function used live and in replay, so state is always a
fold over the journal (`kiosk/table/fold.py`). `apply` refuses a record of another game
(`ForeignRecord`); it never ignores one. Actions follow the pokerkit pattern:
`verify_x(state, ...)` raises `NotAllowed` with a sentence a dealer can read, `can_x(...)`
answers a bool with the same arguments, and `x(...)` returns the Operation to journal.

Capabilities are separate protocols: a card shoe's events reach only a game that
`DealsFromShoe`; a game with no such capability is told nothing about cards.
"""

from __future__ import annotations

from typing import Any, Protocol, TypeVar, runtime_checkable

from kiosk.rules.cards import Card
from kiosk.rules.errors import Said, UnreadableInput
from kiosk.rules.operations import Operation

S = TypeVar("S")
C = TypeVar("C", contravariant=True)


class ForeignRecord(UnreadableInput):
    """A journal record of another game (or of the table itself) was given to a game's
    `apply`: a fault in whoever routed it, never to be folded silently."""


def foreign(game: str, op: Operation) -> ForeignRecord:
    return ForeignRecord(f"{op.kind!r} is not a {game} record")


class Game(Protocol[S]):
    """The core every game has."""

    name: str

    def initial_state(self, rules: Any, table_id: str) -> S: ...

    def open_table(self, rules: Any, table_id: str) -> Operation:
        """The first Operation of a journal: which game, under which house rules."""
        ...

    def apply(self, state: S, op: Operation) -> S: ...

    def next_step(self, state: S) -> Said:
        """The one next thing the dealer must do: a `Said`, its English what reports and the
        console print, its sentence what a dealer screen says in the dealer's language."""
        ...

    def betting_open(self, state: S) -> bool:
        """Whether bets may be placed now (the tower lamp's green)."""
        ...

    def between_rounds(self, state: S) -> bool:
        """No round in play: no stake on the layout, no card dealt, no ball in flight. A new
        configuration from the pit (limits, pay tables, house rules) takes effect only then,
        so no bet is ever judged by limits it was not placed under."""
        ...

    def ready(self, state: S) -> bool:
        """Whether the table can play a round (its cards or wheel are ready); the tower
        lamp is off while it is not."""
        ...

    def close_betting(self, state: S) -> Operation:
        """"No more bets" (the panel's button does exactly what the screen's does)."""
        ...

    def table_minimum(self, rules: Any) -> int:
        """The smallest bet a player may place (rule 2.2), in cents."""
        ...

    def table_maximum(self, rules: Any) -> int:
        """The largest bet one player may place on one round, in cents (the pit's floor
        shows the limits as minimum to maximum)."""
        ...

    def round_number(self, state: S) -> int:
        """The number of the round (coup) in play or next."""
        ...

    def rules_of(self, state: S) -> Any: ...


@runtime_checkable
class DealsFromShoe(Protocol[C]):
    """The game takes cards from a card shoe: what the shoe reads goes to it."""

    def shoe_card(self, state: C, card: Card) -> Operation:
        """The Operation for a card read by the shoe: dealt to the right hand when the rules
        allow it, otherwise a query the dealer must decide (never accepted silently)."""
        ...

    def verify_shoe_card(self, state: C, card: Card) -> None: ...

    def holds_cards(self, state: C) -> bool:
        """Whether a card read now must wait for the dealer (a queried card to resolve, an
        insurance to close) instead of counting; the session holds it and deals it after."""
        ...

    def unread_card(self, state: C) -> Operation: ...

    def verify_burn(self, state: C, card: Card | None) -> None:
        """Refuses a burn the game cannot take now (no shoe, cards in play)."""
        ...

    def burn(self, state: C, card: Card | None) -> Operation: ...

    def cut_card_out(self, state: C) -> Operation: ...

    def cut_card_words(self, state: C) -> str: ...


@runtime_checkable
class SpinsWheel(Protocol[C]):
    """The game takes its results from a roulette wheel controller. Each method answers the
    records the wheel's report makes (None or () when the table is already there: the dealer
    called it first)."""

    def wheel_spun(self, state: C, direction: str) -> Operation | None:
        """The ball was launched, `direction` "clockwise" or "anticlockwise"."""
        ...

    def wheel_closed_betting(self, state: C) -> Operation | None:
        """The wheel called no more bets."""
        ...

    def wheel_result(self, state: C, number: str, direction: str) -> tuple[Operation, ...]:
        """The winning number ("0".."36", "00")."""
        ...

    def wheel_void(self, state: C, reason: str) -> Operation | None:
        """The wheel voided the game (a miss-spin): the ball is spun again."""
        ...


@runtime_checkable
class UsesShuffler(Protocol[C]):
    """The game's cards go through a shuffling device whose reports the game must weigh
    (a count that does not match the decks, a fault during the shuffle)."""

    def shuffler_report(self, state: C, event: str, detail: str) -> Operation | None: ...
