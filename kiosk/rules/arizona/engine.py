"""Arizona Hold'em's public API and its `kiosk.rules.game.Game` that deals from a card shoe
(section 6); the package's docstring plays one hand."""

from __future__ import annotations

from typing import Any

from kiosk.rules.arizona.betting import (
    can_close_betting,
    can_place_bet,
    can_remove_bet,
    can_shuffle,
    close_betting,
    place_bet,
    remove_bet,
    shuffle,
    verify_close_betting,
    verify_place_bet,
    verify_remove_bet,
    verify_shuffle,
)
from kiosk.rules.arizona.config import ArizonaRules
from kiosk.rules.arizona.dealing import (
    accept_queried_card,
    burn,
    can_accept_queried_card,
    can_burn,
    can_deal_card,
    can_misdeal,
    can_shoe_card,
    cut_card_out,
    cut_card_words,
    deal_card,
    misdeal,
    shoe_card,
    unread_card,
    verify_accept_queried_card,
    verify_burn,
    verify_deal_card,
    verify_misdeal,
    verify_shoe_card,
)
from kiosk.rules.arizona.fold import apply
from kiosk.rules.arizona.operations import ArizonaOpened
from kiosk.rules.arizona.payouts import (
    can_confirm_payouts,
    can_void_round,
    confirm_payouts,
    verify_confirm_payouts,
    verify_void_round,
    void_round,
)
from kiosk.rules.arizona.raises import (
    can_check,
    can_raise_bet,
    can_turn_community,
    check,
    raise_bet,
    turn_community,
    verify_check,
    verify_raise_bet,
    verify_turn_community,
)
from kiosk.rules.arizona.state import ArizonaState, Phase
from kiosk.rules.arizona.words import legal_actions, next_step
from kiosk.rules.cards import Card
from kiosk.rules.errors import Said
from kiosk.rules.operations import Operation

NAME = "arizona"


def initial_state(rules: ArizonaRules, table_id: str) -> ArizonaState:
    return ArizonaState(rules, table_id)


def open_table(rules: ArizonaRules, table_id: str) -> ArizonaOpened:
    """The journal's first record of an Arizona Hold'em table."""
    return ArizonaOpened(NAME, table_id, rules)


class ArizonaHoldem:
    """The core game and its card shoe capability."""

    name = NAME

    def initial_state(self, rules: Any, table_id: str) -> ArizonaState:
        return initial_state(rules, table_id)

    def open_table(self, rules: Any, table_id: str) -> Operation:
        return open_table(rules, table_id)

    def apply(self, state: ArizonaState, op: Operation) -> ArizonaState:
        return apply(state, op)

    def next_step(self, state: ArizonaState) -> Said:
        return next_step(state)

    def betting_open(self, state: ArizonaState) -> bool:
        return state.phase is Phase.BETTING

    def between_rounds(self, state: ArizonaState) -> bool:
        return state.phase is Phase.BETTING and not state.antes

    def ready(self, state: ArizonaState) -> bool:
        return state.shuffled or state.phase is not Phase.BETTING

    def close_betting(self, state: ArizonaState) -> Operation:
        return close_betting(state)

    def table_minimum(self, rules: ArizonaRules) -> int:
        return rules.minimum

    def table_maximum(self, rules: ArizonaRules) -> int:
        return rules.maximum * 3  # the ante and its two raises (rule 6.2)

    def round_number(self, state: ArizonaState) -> int:
        return state.round

    def rules_of(self, state: ArizonaState) -> ArizonaRules:
        return state.rules

    def shoe_card(self, state: ArizonaState, card: Card) -> Operation:
        return shoe_card(state, card)

    def verify_shoe_card(self, state: ArizonaState, card: Card) -> None:
        verify_shoe_card(state, card)

    def holds_cards(self, state: ArizonaState) -> bool:
        return False

    def unread_card(self, state: ArizonaState) -> Operation:
        return unread_card(state)

    def verify_burn(self, state: ArizonaState, card: Card | None) -> None:
        verify_burn(state, card)

    def burn(self, state: ArizonaState, card: Card | None) -> Operation:
        return burn(state, card)

    def cut_card_out(self, state: ArizonaState) -> Operation:
        return cut_card_out(state)

    def cut_card_words(self, state: ArizonaState) -> str:
        return cut_card_words(state)


__all__ = [
    "NAME",
    "ArizonaHoldem",
    "ArizonaRules",
    "ArizonaState",
    "Phase",
    "accept_queried_card",
    "apply",
    "burn",
    "can_accept_queried_card",
    "can_burn",
    "can_check",
    "can_close_betting",
    "can_confirm_payouts",
    "can_deal_card",
    "can_misdeal",
    "can_place_bet",
    "can_raise_bet",
    "can_remove_bet",
    "can_shoe_card",
    "can_shuffle",
    "can_turn_community",
    "can_void_round",
    "check",
    "close_betting",
    "confirm_payouts",
    "cut_card_out",
    "deal_card",
    "initial_state",
    "legal_actions",
    "misdeal",
    "next_step",
    "open_table",
    "place_bet",
    "raise_bet",
    "remove_bet",
    "shoe_card",
    "shuffle",
    "turn_community",
    "unread_card",
    "verify_accept_queried_card",
    "verify_burn",
    "verify_check",
    "verify_close_betting",
    "verify_confirm_payouts",
    "verify_deal_card",
    "verify_misdeal",
    "verify_place_bet",
    "verify_raise_bet",
    "verify_remove_bet",
    "verify_shoe_card",
    "verify_shuffle",
    "verify_turn_community",
    "verify_void_round",
    "void_round",
]
