"""Mini baccarat, punto banco dealt by one dealer at seven or nine seats, from a shuffling
device or a shoe, with the shuffler malfunction procedure of rules 12.1-12.5.

The coup is punto banco's: the same records, drawing table (rule 5.2) and settlement (rule
5.7), imported from `kiosk.rules.baccarat` (the two games are one family of records, as
Touch 21 is blackjack's). This module is the game's public API (`from
kiosk.rules.mini_baccarat import engine as mb`): punto banco's acts (those a stopped coup
refuses wrapped in `dealing`), the procedure's (`malfunction`) and the `Game` object.
"""

from __future__ import annotations

from typing import Any

from kiosk.rules.baccarat.engine import (
    BACCARAT_VALUES as BACCARAT_VALUES,
    STANDING as STANDING,
    Bet as Bet,
    BetKind as BetKind,
    BetPlaced as BetPlaced,
    BetRemoved as BetRemoved,
    BetSettlement as BetSettlement,
    BettingClosed as BettingClosed,
    CardBurned as CardBurned,
    CardDealt as CardDealt,
    CardQueried as CardQueried,
    CardSource as CardSource,
    CardUnread as CardUnread,
    CommissionCollected as CommissionCollected,
    CommissionMode as CommissionMode,
    CoupResult as CoupResult,
    CoupSettled as CoupSettled,
    CoupVoided as CoupVoided,
    CutCardOut as CutCardOut,
    Hand as Hand,
    Limit as Limit,
    Outcome as Outcome,
    PendingCard as PendingCard,
    Phase as Phase,
    PuntoBanco,
    PuntoBancoState as PuntoBancoState,
    ShoeShuffled as ShoeShuffled,
    Winner as Winner,
    burn as burn,
    can_burn as can_burn,
    can_close_betting as can_close_betting,
    can_collect_commission as can_collect_commission,
    can_cut_card_out as can_cut_card_out,
    can_place_bet as can_place_bet,
    can_remove_bet as can_remove_bet,
    can_shuffle as can_shuffle,
    close_betting as close_betting,
    collect_commission as collect_commission,
    coup_result as coup_result,
    cut_card_out as cut_card_out,
    next_hand as next_hand,
    place_bet as place_bet,
    remove_bet as remove_bet,
    settlement as settlement,
    shuffle as shuffle,
    total as total,
    verify_burn as verify_burn,
    verify_close_betting as verify_close_betting,
    verify_collect_commission as verify_collect_commission,
    verify_cut_card_out as verify_cut_card_out,
    verify_place_bet as verify_place_bet,
    verify_remove_bet as verify_remove_bet,
    verify_shuffle as verify_shuffle,
)
from kiosk.rules.cards import Card
from kiosk.rules.errors import Said
from kiosk.rules.mini_baccarat.dealing import (
    accept_queried_card as accept_queried_card,
    can_accept_queried_card as can_accept_queried_card,
    can_confirm_payouts as can_confirm_payouts,
    can_deal_card as can_deal_card,
    can_shoe_card as can_shoe_card,
    can_unread_card as can_unread_card,
    can_void_round as can_void_round,
    confirm_payouts as confirm_payouts,
    deal_card as deal_card,
    shoe_card as shoe_card,
    unread_card as unread_card,
    verify_accept_queried_card as verify_accept_queried_card,
    verify_confirm_payouts as verify_confirm_payouts,
    verify_deal_card as verify_deal_card,
    verify_shoe_card as verify_shoe_card,
    verify_unread_card as verify_unread_card,
    verify_void_round as verify_void_round,
    void_round as void_round,
)
from kiosk.rules.mini_baccarat.fold import (
    apply as apply,
    bets_returned as bets_returned,
    initial_state as initial_state,
    open_table as open_table,
)
from kiosk.rules.mini_baccarat.house import (
    DEALER as DEALER,
    GAME as GAME,
    SEATS as SEATS,
    SHUFFLER as SHUFFLER,
    Branch as Branch,
    Device as Device,
    Fact as Fact,
    MiniBaccaratRules as MiniBaccaratRules,
    Role as Role,
    Who as Who,
    inspector as inspector,
)
from kiosk.rules.mini_baccarat.malfunction import (
    FACTS as FACTS,
    Step as Step,
    Where as Where,
    can_continue_coup as can_continue_coup,
    can_cut_cards as can_cut_cards,
    can_establish_fact as can_establish_fact,
    can_offer_wager_back as can_offer_wager_back,
    can_refuse_cut as can_refuse_cut,
    can_remove_damaged_cards as can_remove_damaged_cards,
    can_replace_damaged_cards as can_replace_damaged_cards,
    can_reshuffle_cards as can_reshuffle_cards,
    can_shuffler_malfunction as can_shuffler_malfunction,
    can_terminate_coup as can_terminate_coup,
    can_transfer_cards as can_transfer_cards,
    continue_coup as continue_coup,
    cut_cards as cut_cards,
    establish_fact as establish_fact,
    offer_wager_back as offer_wager_back,
    procedure_words as procedure_words,
    refuse_cut as refuse_cut,
    remove_damaged_cards as remove_damaged_cards,
    replace_damaged_cards as replace_damaged_cards,
    reshuffle_cards as reshuffle_cards,
    returned_per_area as returned_per_area,
    seated as seated,
    shuffler_malfunction as shuffler_malfunction,
    terminate_coup as terminate_coup,
    transfer_cards as transfer_cards,
    verify_continue_coup as verify_continue_coup,
    verify_cut_cards as verify_cut_cards,
    verify_establish_fact as verify_establish_fact,
    verify_offer_wager_back as verify_offer_wager_back,
    verify_refuse_cut as verify_refuse_cut,
    verify_remove_damaged_cards as verify_remove_damaged_cards,
    verify_replace_damaged_cards as verify_replace_damaged_cards,
    verify_reshuffle_cards as verify_reshuffle_cards,
    verify_shuffler_malfunction as verify_shuffler_malfunction,
    verify_terminate_coup as verify_terminate_coup,
    verify_transfer_cards as verify_transfer_cards,
    where as where,
)
from kiosk.rules.mini_baccarat.operations import (
    CardsCut as CardsCut,
    CardsReshuffled as CardsReshuffled,
    CardsTransferred as CardsTransferred,
    CoupContinued as CoupContinued,
    CoupTerminated as CoupTerminated,
    CutRefused as CutRefused,
    DamagedCardsRemoved as DamagedCardsRemoved,
    DamagedCardsReplaced as DamagedCardsReplaced,
    FactEstablished as FactEstablished,
    ShufflerMalfunctioned as ShufflerMalfunctioned,
    TableOpened as TableOpened,
    WagerOffered as WagerOffered,
)
from kiosk.rules.mini_baccarat.state import (
    Malfunction as Malfunction,
    MiniBaccaratState as MiniBaccaratState,
)
from kiosk.rules.mini_baccarat.words import (
    asks as asks,
    legal_actions as legal_actions,
    next_step as next_step,
)
from kiosk.rules.operations import Operation


class MiniBaccarat(PuntoBanco):
    """Mini baccarat as a `kiosk.rules.game.Game`, a `DealsFromShoe` (the shuffler deals as
    a shoe does) and a `UsesShuffler` (its faults stop the coup, rule 12.1)."""

    name = GAME

    def initial_state(self, rules: Any, table_id: str) -> MiniBaccaratState:
        return initial_state(rules, table_id)

    def open_table(self, rules: Any, table_id: str) -> Operation:
        return open_table(rules, table_id)

    def apply(self, state: Any, op: Operation) -> MiniBaccaratState:
        return apply(state, op)

    def shoe_card(self, state: Any, card: Card) -> Operation:
        return shoe_card(state, card)

    def verify_shoe_card(self, state: Any, card: Card) -> None:
        verify_shoe_card(state, card)

    def holds_cards(self, state: Any) -> bool:
        """A queried card waits for the dealer. A card read while the malfunction stops the
        coup is not held for later: it is refused on record (rule 12.1), never dealt."""
        return state.pending is not None

    def unread_card(self, state: Any) -> Operation:
        return unread_card(state)

    def between_rounds(self, state: Any) -> bool:
        return super().between_rounds(state) and getattr(state, "malfunction", None) is None

    def next_step(self, state: Any) -> Said:
        return next_step(state)

    def shuffler_report(self, state: Any, event: str, detail: str) -> Operation | None:
        """The shuffler's fault (or a damaged card it found) in a coup being dealt stops
        the coup (rule 12.1.2); its other reports, and any between coups, are on record as
        the table's device reports only."""
        if event not in ("fault", "damaged") or not isinstance(state, MiniBaccaratState):
            return None
        if not can_shuffler_malfunction(state, detail, SHUFFLER):
            return None
        return shuffler_malfunction(state, detail, SHUFFLER)
