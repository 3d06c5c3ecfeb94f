"""Pai gow's public API and its `kiosk.rules.game.Game` (section 13); the package's docstring
plays one round. The tiles are keyed in (or read by a tile reader), not dealt from a card
shoe, so the game has no shoe capability."""

from __future__ import annotations

from typing import Any

from kiosk.rules.errors import Said
from kiosk.rules.operations import Operation
from kiosk.rules.paigow.betting import (
    can_close_betting,
    can_place_bet,
    can_remove_bet,
    can_shuffle,
    can_take_bank,
    close_betting,
    place_bet,
    remove_bet,
    shuffle,
    take_bank,
    verify_close_betting,
    verify_place_bet,
    verify_remove_bet,
    verify_shuffle,
    verify_take_bank,
)
from kiosk.rules.paigow.config import PaiGowRules
from kiosk.rules.paigow.fold import apply
from kiosk.rules.paigow.hands import Hand, Result, Setting, hand, match, splits
from kiosk.rules.paigow.houseway import Decision, HouseWay, Way, house_way
from kiosk.rules.paigow.operations import (
    AreaResult,
    Bank,
    Move,
    PaiGowOpened,
    Place,
    Settled,
    Step,
)
from kiosk.rules.paigow.payouts import (
    can_confirm_payouts,
    can_void_round,
    confirm_payouts,
    verify_confirm_payouts,
    verify_void_round,
    void_round,
)
from kiosk.rules.paigow.setting import (
    can_confirm_house_way,
    can_set_bank,
    can_set_hand,
    can_unset_hand,
    confirm_house_way,
    set_bank,
    set_hand,
    unset_hand,
    verify_confirm_house_way,
    verify_set_bank,
    verify_set_hand,
    verify_unset_hand,
)
from kiosk.rules.paigow.settlement import ledger, settle
from kiosk.rules.paigow.state import PaiGowState, Phase
from kiosk.rules.paigow.tiles import SET, Tile, parse_tile, parse_tiles, read_tile
from kiosk.rules.paigow.words import legal_actions, next_step

NAME = "paigow"


def initial_state(rules: PaiGowRules, table_id: str) -> PaiGowState:
    return PaiGowState(rules, table_id)


def open_table(rules: PaiGowRules, table_id: str) -> PaiGowOpened:
    """The journal's first record of a pai gow table."""
    return PaiGowOpened(NAME, table_id, rules)


class PaiGow:
    """The core game (its tiles are keyed in: no shoe capability)."""

    name = NAME

    def initial_state(self, rules: Any, table_id: str) -> PaiGowState:
        return initial_state(rules, table_id)

    def open_table(self, rules: Any, table_id: str) -> Operation:
        return open_table(rules, table_id)

    def apply(self, state: PaiGowState, op: Operation) -> PaiGowState:
        return apply(state, op)

    def next_step(self, state: PaiGowState) -> Said:
        return next_step(state)

    def betting_open(self, state: PaiGowState) -> bool:
        return state.phase is Phase.BETTING

    def between_rounds(self, state: PaiGowState) -> bool:
        return state.phase is Phase.BETTING and not state.bets

    def ready(self, state: PaiGowState) -> bool:
        return state.washed or state.phase is not Phase.BETTING

    def close_betting(self, state: PaiGowState) -> Operation:
        return close_betting(state)

    def table_minimum(self, rules: PaiGowRules) -> int:
        return rules.minimum

    def table_maximum(self, rules: PaiGowRules) -> int:
        return rules.maximum

    def round_number(self, state: PaiGowState) -> int:
        return state.round

    def rules_of(self, state: PaiGowState) -> PaiGowRules:
        return state.rules


__all__ = [
    "NAME",
    "SET",
    "AreaResult",
    "Bank",
    "Decision",
    "Hand",
    "HouseWay",
    "Move",
    "PaiGow",
    "PaiGowRules",
    "PaiGowState",
    "Phase",
    "Place",
    "Result",
    "Setting",
    "Settled",
    "Step",
    "Tile",
    "Way",
    "apply",
    "can_close_betting",
    "can_confirm_house_way",
    "can_confirm_payouts",
    "can_place_bet",
    "can_remove_bet",
    "can_set_bank",
    "can_set_hand",
    "can_shuffle",
    "can_take_bank",
    "can_unset_hand",
    "can_void_round",
    "close_betting",
    "confirm_house_way",
    "confirm_payouts",
    "hand",
    "house_way",
    "initial_state",
    "ledger",
    "legal_actions",
    "match",
    "next_step",
    "open_table",
    "parse_tile",
    "parse_tiles",
    "place_bet",
    "read_tile",
    "remove_bet",
    "set_bank",
    "set_hand",
    "settle",
    "shuffle",
    "splits",
    "take_bank",
    "unset_hand",
    "verify_close_betting",
    "verify_confirm_house_way",
    "verify_confirm_payouts",
    "verify_place_bet",
    "verify_remove_bet",
    "verify_set_bank",
    "verify_set_hand",
    "verify_shuffle",
    "verify_take_bank",
    "verify_unset_hand",
    "verify_void_round",
    "void_round",
]
