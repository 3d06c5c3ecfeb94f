"""`apply`: every pai gow record folded into the state (the one transition, live and replay)."""

from __future__ import annotations

from dataclasses import replace

from kiosk.rules.game import foreign
from kiosk.rules.operations import Operation, TableRecord
from kiosk.rules.paigow.hands import hand
from kiosk.rules.paigow.operations import (
    Bank,
    BankHandSet,
    BankTaken,
    BetPlaced,
    BetTakenBack,
    BettingClosed,
    HandSet,
    HouseWayConfirmed,
    PaiGowOpened,
    Settled,
    Voided,
    Washed,
)
from kiosk.rules.paigow.state import PaiGowState, Phase

LAST_KEPT = 8  # rounds of bank hands the sign shows


def _next_round(state: PaiGowState, last: tuple[str, ...]) -> PaiGowState:
    return PaiGowState(state.rules, state.table_id, state.round + 1, last=last[-LAST_KEPT:])


def apply(state: PaiGowState, op: Operation) -> PaiGowState:
    if isinstance(op, PaiGowOpened):
        return PaiGowState(op.rules, op.table_id, state.round, last=state.last)
    if isinstance(op, Washed):
        return replace(state, washed=True)
    if isinstance(op, BankTaken):
        return replace(state, bank=op.bank, chung=op.area, banker_wager=op.wager)
    if isinstance(op, BetPlaced):
        bets = dict(state.bets)
        bets[op.area] = bets.get(op.area, 0) + op.amount
        return replace(state, bets=tuple(sorted(bets.items())))
    if isinstance(op, BetTakenBack):
        return replace(state, bets=tuple(b for b in state.bets if b[0] != op.area))
    if isinstance(op, BettingClosed):
        return replace(state, phase=Phase.SETTING, bank=op.bank, washed=False,
                       fell_to_cobank=bool(op.reason))
    if isinstance(op, HandSet):
        return replace(state, hands=(*state.hands, (op.area, op.high, op.low)))
    if isinstance(op, BankHandSet):
        phase = Phase.CONFIRM if state.bank is Bank.HOUSE else Phase.REVEAL
        return replace(state, bank_hand=(op.high, op.low), bank_why=op.why, phase=phase)
    if isinstance(op, HouseWayConfirmed):
        return replace(state, confirmed_by=op.supervisor, phase=Phase.REVEAL)
    if isinstance(op, Settled):
        words = f"{hand(*op.bank_high).words} / {hand(*op.bank_low).words}"
        return _next_round(state, (*state.last, words))
    if isinstance(op, Voided):
        return _next_round(state, state.last)
    if isinstance(op, TableRecord):
        return state
    raise foreign("pai gow", op)
