"""The settlement confirmed, and the void (rules 2.7, 13.1-13.3)."""

from __future__ import annotations

from kiosk.rules.errors import NotAllowed, allowed
from kiosk.rules.paigow.operations import Settled, Voided
from kiosk.rules.paigow.settlement import settle
from kiosk.rules.paigow.state import PaiGowState, Phase


def verify_confirm_payouts(state: PaiGowState) -> None:
    if state.phase is Phase.CONFIRM:
        raise NotAllowed.of("The supervisor confirms the House hand first", clause="13.1.5")
    if state.phase is not Phase.REVEAL:
        raise NotAllowed.of("Nothing to pay yet: every hand must be set")


def can_confirm_payouts(state: PaiGowState) -> bool:
    return allowed(verify_confirm_payouts, state)


def confirm_payouts(state: PaiGowState) -> Settled:
    """The bank's procedure, in the order of its text (settlement.py)."""
    verify_confirm_payouts(state)
    areas, steps = settle(state)
    assert state.bank_hand is not None
    high, low = state.bank_hand
    return Settled(state.round, state.bank, state.chung, state.banker_wager, high, low, areas,
                   steps)


def verify_void_round(state: PaiGowState, reason: str) -> None:
    """Rule 2.7: a round is void before it is settled; every wager goes back."""
    if not reason.strip():
        raise NotAllowed.of("Say why the round is void")
    if state.phase is Phase.BETTING and not state.bets:
        raise NotAllowed.of("No round to void: no bet is on the layout")


def can_void_round(state: PaiGowState, reason: str) -> bool:
    return allowed(verify_void_round, state, reason)


def void_round(state: PaiGowState, reason: str) -> Voided:
    verify_void_round(state, reason)
    return Voided(state.round, reason)
