"""Standard blackjack (section 4) and Touch 21 (section 7) as one pure engine.

A round: bets on the seven boxes, several on one box with the bet nearest the dealer calling
it (rule 4.2 item 2); "no more bets"; one card to each box with bets, one to the dealer, a
second to each box and none to the dealer (item 3: no hole card); Touch 21's check for
blackjacks (7.2 items 4-5); insurance and even money against a dealer ace (4.7, 7.2 item 6);
each box's decisions (item 4); blackjacks paid at once unless the dealer shows an ace or a ten
(item 5); the dealer's hand by the house's drawing rule; the payouts, which the dealer confirms.

The shoe drives the game: a card read goes to the box or the dealer whose turn it is, and a
card the rules do not allow is flagged with the clause it breaks before it counts. Cards from
a new shuffle go through the shuffle and cut (`cut.py`).
"""

from __future__ import annotations

from typing import Any

from kiosk.rules.blackjack.betting import (
    can_close_betting as can_close_betting,
    can_place_bet as can_place_bet,
    can_remove_bet as can_remove_bet,
    can_set_caller as can_set_caller,
    close_betting as close_betting,
    place_bet as place_bet,
    remove_bet as remove_bet,
    set_caller as set_caller,
    verify_close_betting as verify_close_betting,
    verify_place_bet as verify_place_bet,
    verify_remove_bet as verify_remove_bet,
    verify_set_caller as verify_set_caller,
)
from kiosk.rules.blackjack.cut import Stage
from kiosk.rules.blackjack.dealing import (
    accept_queried_card as accept_queried_card,
    burn as burn,
    can_accept_queried_card as can_accept_queried_card,
    can_burn as can_burn,
    can_cut_card_out as can_cut_card_out,
    can_deal_card as can_deal_card,
    can_set_aside_card as can_set_aside_card,
    can_shoe_card as can_shoe_card,
    can_unread_card as can_unread_card,
    cut_card_out as cut_card_out,
    deal_card as deal_card,
    holds_cards as holds_cards,
    set_aside_card as set_aside_card,
    shoe_card as shoe_card,
    unread_card as unread_card,
    verify_accept_queried_card as verify_accept_queried_card,
    verify_burn as verify_burn,
    verify_cut_card_out as verify_cut_card_out,
    verify_deal_card as verify_deal_card,
    verify_set_aside_card as verify_set_aside_card,
    verify_shoe_card as verify_shoe_card,
    verify_unread_card as verify_unread_card,
)
from kiosk.rules.blackjack.decisions import (
    Refusal as Refusal,
    can_double as can_double,
    can_pay_blackjack as can_pay_blackjack,
    can_split as can_split,
    can_stand as can_stand,
    can_surrender as can_surrender,
    double as double,
    pay_blackjack as pay_blackjack,
    split as split,
    stand as stand,
    surrender as surrender,
    verify_double as verify_double,
    verify_pay_blackjack as verify_pay_blackjack,
    verify_split as verify_split,
    verify_stand as verify_stand,
    verify_surrender as verify_surrender,
)
from kiosk.rules.blackjack.fold import (
    apply as apply,
)
from kiosk.rules.blackjack.house import BlackjackRules
from kiosk.rules.blackjack.insurance import (
    can_check_blackjacks as can_check_blackjacks,
    can_close_insurance as can_close_insurance,
    can_insure as can_insure,
    can_take_even_money as can_take_even_money,
    check_blackjacks as check_blackjacks,
    close_insurance as close_insurance,
    insure as insure,
    max_insurance as max_insurance,
    take_even_money as take_even_money,
    verify_check_blackjacks as verify_check_blackjacks,
    verify_close_insurance as verify_close_insurance,
    verify_insure as verify_insure,
    verify_take_even_money as verify_take_even_money,
)
from kiosk.rules.blackjack.operations import (  # the records, re-exported: bj.CardDealt
    BetPlaced as BetPlaced,
    BetRemoved as BetRemoved,
    BettingClosed as BettingClosed,
    BlackjackPaid as BlackjackPaid,
    BlackjacksChecked as BlackjacksChecked,
    CallerSet as CallerSet,
    CardBurned as CardBurned,
    CardDealt as CardDealt,
    CardQueried as CardQueried,
    CardsCut as CardsCut,
    CardSetAside as CardSetAside,
    CardSource as CardSource,
    CardsShuffled as CardsShuffled,
    CardUnread as CardUnread,
    CutCardOut as CutCardOut,
    CutRefused as CutRefused,
    Doubled as Doubled,
    EvenMoneyTaken as EvenMoneyTaken,
    Follow as Follow,
    InsuranceClosed as InsuranceClosed,
    InsuranceTaken as InsuranceTaken,
    RoundSettled as RoundSettled,
    RoundVoided as RoundVoided,
    Split as Split,
    Stood as Stood,
    Surrendered as Surrendered,
    TableOpened as TableOpened,
)
from kiosk.rules.blackjack.payouts import (
    can_confirm_payouts as can_confirm_payouts,
    can_void_round as can_void_round,
    confirm_payouts as confirm_payouts,
    settlement as settlement,
    verify_confirm_payouts as verify_confirm_payouts,
    verify_void_round as verify_void_round,
    void_needs_inspector as void_needs_inspector,
    void_returns as void_returns,
    void_round as void_round,
)
from kiosk.rules.blackjack.preparation import (
    can_cut_cards as can_cut_cards,
    can_refuse_cut as can_refuse_cut,
    can_shuffle as can_shuffle,
    cut_cards as cut_cards,
    prep_now as prep_now,
    refuse_cut as refuse_cut,
    shuffle as shuffle,
    verify_cut_cards as verify_cut_cards,
    verify_refuse_cut as verify_refuse_cut,
    verify_shuffle as verify_shuffle,
)
from kiosk.rules.blackjack.state import (
    DEALER as DEALER,
    NOBODY as NOBODY,
    BlackjackState as BlackjackState,
    HandBet as HandBet,
    Insurance as Insurance,
    PendingCard as PendingCard,
    Phase as Phase,
    PlayerHand as PlayerHand,
    Stake as Stake,
)
from kiosk.rules.blackjack.turns import (
    burn_due as burn_due,
    card_due_without_decision as card_due_without_decision,
    card_target as card_target,
    dealer_must_draw as dealer_must_draw,
    initial_state as initial_state,
    open_table as open_table,
)
from kiosk.rules.blackjack.words import (
    cut_card_words as cut_card_words,
    decision_flags as decision_flags,
    decisions as decisions,
    format_ratio_words as format_ratio_words,
    legal_actions as legal_actions,
    next_step as next_step,
)
from kiosk.rules.cards import Card
from kiosk.rules.errors import Said
from kiosk.rules.operations import Operation


class Blackjack:
    """Standard blackjack and Touch 21 as a `kiosk.rules.game.Game`."""

    name = "blackjack"

    def initial_state(self, rules: Any, table_id: str) -> BlackjackState:
        return initial_state(rules, table_id)

    def open_table(self, rules: Any, table_id: str) -> Operation:
        return open_table(rules, table_id)

    def apply(self, state: BlackjackState, op: Operation) -> BlackjackState:
        return apply(state, op)

    def shoe_card(self, state: BlackjackState, card: Card) -> Operation:
        return shoe_card(state, card)

    def verify_shoe_card(self, state: BlackjackState, card: Card) -> None:
        verify_shoe_card(state, card)

    def holds_cards(self, state: BlackjackState) -> bool:
        return holds_cards(state)

    def unread_card(self, state: BlackjackState) -> Operation:
        return unread_card(state)

    def verify_burn(self, state: BlackjackState, card: Card | None) -> None:
        verify_burn(state, card)

    def burn(self, state: BlackjackState, card: Card | None) -> Operation:
        return burn(state, card)

    def betting_open(self, state: BlackjackState) -> bool:
        return state.phase is Phase.BETTING

    def between_rounds(self, state: BlackjackState) -> bool:
        return (state.phase is Phase.BETTING and not state.stakes and not state.hands
                and not state.dealer and not state.insurance and state.pending is None)

    def ready(self, state: BlackjackState) -> bool:
        """Off while the shoe is being shuffled or cut (rules 4.1-4.5, shuffle and cut)."""
        return state.prep.stage in (Stage.BURN, Stage.READY)

    def close_betting(self, state: BlackjackState) -> Operation:
        return close_betting(state)

    def table_minimum(self, rules: BlackjackRules) -> int:
        return rules.minimum

    def table_maximum(self, rules: BlackjackRules) -> int:
        return rules.maximum

    def round_number(self, state: BlackjackState) -> int:
        return state.round

    def rules_of(self, state: BlackjackState) -> BlackjackRules:
        return state.rules

    def cut_card_out(self, state: BlackjackState) -> Operation:
        return cut_card_out(state)

    def next_step(self, state: BlackjackState) -> Said:
        return next_step(state)

    def cut_card_words(self, state: BlackjackState) -> str:
        return cut_card_words(state)
