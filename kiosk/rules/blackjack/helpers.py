"""Small pieces every blackjack act uses: a refusal turned into a bool, whether the round has
begun, money in the table's currency.
"""

from __future__ import annotations

from kiosk.rules.blackjack.state import BlackjackState
from kiosk.rules.errors import Amount
from kiosk.rules.money import format_money


def round_started(state: BlackjackState) -> bool:
    """A card of this round has left the shoe: dealt, or waiting for the dealer (unread or
    queried)."""
    return state.round_cards > 0 or state.pending is not None


def money_of(state: BlackjackState, cents: int) -> str:
    return format_money(cents, state.rules.currency)


def amount_of(state: BlackjackState, cents: int) -> Amount:
    """An amount in a refusal (`NotAllowed.of`): written as `money_of` in English."""
    return Amount(cents, state.rules.currency)
