"""Touch 21's check for blackjacks (7.2 items 4-5), insurance and even money against a dealer
ace (4.7; 7.2 item 6, "half of half" read as up to half the bet).
"""

from __future__ import annotations

from fractions import Fraction

from kiosk.rules.blackjack import settle as st
from kiosk.rules.blackjack.helpers import amount_of
from kiosk.rules.blackjack.operations import (
    BlackjacksChecked,
    EvenMoneyTaken,
    InsuranceClosed,
    InsuranceTaken,
)
from kiosk.rules.blackjack.settle import BetKind, Outcome
from kiosk.rules.blackjack.state import BlackjackState, Phase
from kiosk.rules.errors import NotAllowed, allowed


def verify_check_blackjacks(state: BlackjackState) -> None:
    if state.phase is not Phase.CHECK:
        raise NotAllowed.of("There is nothing to check now", clause="7.2 item 4")


def can_check_blackjacks(state: BlackjackState) -> bool:
    return state.phase is Phase.CHECK


def check_blackjacks(state: BlackjackState) -> BlackjacksChecked:
    """Touch 21 (rule 7.2 item 4): the players checked their first two cards; a blackjack
    is turned face up (rule 7.2 item 5)."""
    verify_check_blackjacks(state)
    return BlackjacksChecked(round=state.round)


def max_insurance(state: BlackjackState, box: int, player: str) -> int:
    """Rules 4.7, 7.2 item 6 (read as up to half the original bet, docs/architecture.md), in whole
    chips."""
    chip = state.rules.chips.smallest_chip
    return state.stake_of(box, player) // 2 // chip * chip


def verify_insure(state: BlackjackState, box: int, player: str, amount: int) -> None:
    if state.phase is not Phase.INSURANCE:
        raise NotAllowed.of("Insurance is offered only when the dealer's first card is an ace",
                         clause="4.7")
    if state.stake_of(box, player) <= 0:
        raise NotAllowed.of("Player %(player)s has no bet on box %(box)s", player=player,
                            box=box)
    if any(i.box == box and i.player == player for i in state.insurance):
        raise NotAllowed.of("Box %(box)s, player %(player)s is already insured", box=box,
                            player=player)
    h = state.hand(box, 1)
    if h.blackjack and state.rules.even_money:
        raise NotAllowed.of("Box %(box)s has blackjack: offer even money instead",
                            clause="4.7", box=box)
    top = max_insurance(state, box, player)
    if not 0 < amount <= top:
        raise NotAllowed.of("Insurance on box %(box)s is up to half the bet: at most "
                            "%(amount)s", clause="4.7", box=box, amount=amount_of(state, top))
    state.rules.chips.verify_stake(amount)


def can_insure(state: BlackjackState, box: int, player: str, amount: int | None = None) -> bool:
    if amount is None:
        amount = max_insurance(state, box, player)
    return allowed(verify_insure, state, box, player, amount)


def insure(state: BlackjackState, box: int, player: str, amount: int) -> InsuranceTaken:
    verify_insure(state, box, player, amount)
    return InsuranceTaken(state.round, box, player, amount)


def verify_take_even_money(state: BlackjackState, box: int, player: str) -> None:
    if state.phase is not Phase.INSURANCE or not state.rules.even_money:
        raise NotAllowed.of("Even money is offered only on a blackjack against a dealer ace",
                            clause="4.7")
    h = state.hand(box, 1)
    if not h.blackjack:
        raise NotAllowed.of("Box %(box)s has no blackjack", clause="4.7", box=box)
    if not any(b.player == player and b.active for b in h.bets):
        raise NotAllowed.of("Player %(player)s has no bet in play on box %(box)s",
                            player=player, box=box)


def can_take_even_money(state: BlackjackState, box: int, player: str) -> bool:
    return allowed(verify_take_even_money, state, box, player)


def take_even_money(state: BlackjackState, box: int, player: str) -> EvenMoneyTaken:
    """Rule 4.7: even money, paid 1:1 straight away instead of waiting for the dealer."""
    verify_take_even_money(state, box, player)
    stake = sum(b.stake for b in state.hand(box, 1).bets if b.player == player and b.active)
    paid = st.win(box, 1, player, BetKind.HAND, stake, Fraction(1), state.rules.chips,
                  Outcome.EVEN_MONEY)
    return EvenMoneyTaken(state.round, box, player, paid)


def verify_close_insurance(state: BlackjackState) -> None:
    if state.phase is not Phase.INSURANCE:
        raise NotAllowed.of("Insurance is not open")


def can_close_insurance(state: BlackjackState) -> bool:
    return state.phase is Phase.INSURANCE


def close_insurance(state: BlackjackState) -> InsuranceClosed:
    verify_close_insurance(state)
    return InsuranceClosed(round=state.round)
