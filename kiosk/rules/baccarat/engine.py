"""Punto banco, section 5 of the Mpumalanga rules, as a pure engine.

The coup: bets on banker, player and tie per numbered betting area and the standing players'
area (rules 5.2, 5.6); "no more bets"; cards in the order player, banker, player, banker (5.2);
third cards by the drawing table (5.2); the result; payouts (5.7). Every function here is pure:
cards come in as inputs, the clock and the dice live elsewhere.

This module is the game's public API (`from kiosk.rules.baccarat import engine as pb`); its
parts live beside it: `house` (the house rules), `state`, `operations` (the records),
`drawing` (the drawing table), `betting`, `dealing`, `payouts`, `words` and `fold`.
"""

from __future__ import annotations

from typing import Any

from kiosk.rules.baccarat.betting import (
    can_close_betting as can_close_betting,
    can_place_bet as can_place_bet,
    can_remove_bet as can_remove_bet,
    close_betting as close_betting,
    place_bet as place_bet,
    remove_bet as remove_bet,
    verify_close_betting as verify_close_betting,
    verify_place_bet as verify_place_bet,
    verify_remove_bet as verify_remove_bet,
)
from kiosk.rules.baccarat.dealing import (
    accept_queried_card as accept_queried_card,
    burn as burn,
    can_accept_queried_card as can_accept_queried_card,
    can_burn as can_burn,
    can_cut_card_out as can_cut_card_out,
    can_deal_card as can_deal_card,
    can_shoe_card as can_shoe_card,
    can_shuffle as can_shuffle,
    can_unread_card as can_unread_card,
    cut_card_out as cut_card_out,
    deal_card as deal_card,
    shoe_card as shoe_card,
    shuffle as shuffle,
    unread_card as unread_card,
    verify_accept_queried_card as verify_accept_queried_card,
    verify_burn as verify_burn,
    verify_cut_card_out as verify_cut_card_out,
    verify_deal_card as verify_deal_card,
    verify_shoe_card as verify_shoe_card,
    verify_shuffle as verify_shuffle,
    verify_unread_card as verify_unread_card,
)
from kiosk.rules.baccarat.drawing import (
    BACCARAT_VALUES as BACCARAT_VALUES,
    BANKER_DRAWS_WHEN_GIVING as BANKER_DRAWS_WHEN_GIVING,
    baccarat_value as baccarat_value,
    banker_draws as banker_draws,
    coup_result as coup_result,
    next_hand as next_hand,
    next_to_draw as next_to_draw,
    player_draws as player_draws,
    total as total,
    values as values,
    winner_of as winner_of,
)
from kiosk.rules.baccarat.fold import (
    apply as apply,
    initial_state as initial_state,
    open_table as open_table,
)
from kiosk.rules.baccarat.house import (
    DEFAULT_CHIPS as DEFAULT_CHIPS,
    DEFAULT_LIMITS as DEFAULT_LIMITS,
    GAME as GAME,
    STANDING as STANDING,
    Bet as Bet,
    BetKind as BetKind,
    BetSettlement as BetSettlement,
    CardSource as CardSource,
    CommissionMode as CommissionMode,
    Hand as Hand,
    Limit as Limit,
    Outcome as Outcome,
    PendingCard as PendingCard,
    Phase as Phase,
    PuntoBancoRules as PuntoBancoRules,
)
from kiosk.rules.baccarat.operations import (
    BetPlaced as BetPlaced,
    BetRemoved as BetRemoved,
    BettingClosed as BettingClosed,
    CardBurned as CardBurned,
    CardDealt as CardDealt,
    CardQueried as CardQueried,
    CardUnread as CardUnread,
    CommissionCollected as CommissionCollected,
    CoupSettled as CoupSettled,
    CoupVoided as CoupVoided,
    CutCardOut as CutCardOut,
    ShoeShuffled as ShoeShuffled,
    TableOpened as TableOpened,
)
from kiosk.rules.baccarat.outcomes import CoupResult as CoupResult, Winner as Winner
from kiosk.rules.baccarat.payouts import (
    can_collect_commission as can_collect_commission,
    can_confirm_payouts as can_confirm_payouts,
    can_void_round as can_void_round,
    collect_commission as collect_commission,
    confirm_payouts as confirm_payouts,
    settle_bet as settle_bet,
    settlement as settlement,
    verify_collect_commission as verify_collect_commission,
    verify_confirm_payouts as verify_confirm_payouts,
    verify_void_round as verify_void_round,
    void_round as void_round,
)
from kiosk.rules.baccarat.state import (
    PuntoBancoState as PuntoBancoState,
)
from kiosk.rules.baccarat.words import (
    legal_actions as legal_actions,
    next_step as next_step,
)
from kiosk.rules.cards import Card, ShoeContents as ShoeContents
from kiosk.rules.errors import Said
from kiosk.rules.operations import Operation as Operation


class PuntoBanco:
    """Punto banco as a `kiosk.rules.game.Game`."""

    name = GAME

    def initial_state(self, rules: Any, table_id: str) -> PuntoBancoState:
        return initial_state(rules, table_id)

    def open_table(self, rules: Any, table_id: str) -> Operation:
        return open_table(rules, table_id)

    def apply(self, state: PuntoBancoState, op: Operation) -> PuntoBancoState:
        return apply(state, op)

    def shoe_card(self, state: PuntoBancoState, card: Card) -> Operation:
        return shoe_card(state, card)

    def verify_shoe_card(self, state: PuntoBancoState, card: Card) -> None:
        verify_shoe_card(state, card)

    def holds_cards(self, state: PuntoBancoState) -> bool:
        return state.pending is not None

    def unread_card(self, state: PuntoBancoState) -> Operation:
        return unread_card(state)

    def verify_burn(self, state: PuntoBancoState, card: Card | None) -> None:
        verify_burn(state, card)

    def burn(self, state: PuntoBancoState, card: Card | None) -> Operation:
        return burn(state, card)

    def cut_card_words(self, state: PuntoBancoState) -> str:
        return "Cutting card out: this is the last coup of the shoe"

    def betting_open(self, state: PuntoBancoState) -> bool:
        return state.phase is Phase.BETTING

    def between_rounds(self, state: PuntoBancoState) -> bool:
        return (state.phase is Phase.BETTING and not state.bets and not state.player_cards
                and not state.banker_cards and state.pending is None)

    def ready(self, state: PuntoBancoState) -> bool:
        return state.shoe is not None

    def close_betting(self, state: PuntoBancoState) -> Operation:
        return close_betting(state)

    def table_minimum(self, rules: PuntoBancoRules) -> int:
        """On Banco or Punto (rule 5.2: a tie bet alone is not a bet)."""
        return min(rules.limit(BetKind.BANKER).minimum, rules.limit(BetKind.PLAYER).minimum)

    def table_maximum(self, rules: PuntoBancoRules) -> int:
        return max(rules.limit(BetKind.BANKER).maximum, rules.limit(BetKind.PLAYER).maximum)

    def round_number(self, state: PuntoBancoState) -> int:
        return state.coup

    def rules_of(self, state: PuntoBancoState) -> PuntoBancoRules:
        return state.rules

    def cut_card_out(self, state: PuntoBancoState) -> Operation:
        return cut_card_out(state)

    def next_step(self, state: PuntoBancoState) -> Said:
        return next_step(state)
