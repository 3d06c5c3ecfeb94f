"""`apply`: every pai gow record folded into the state (the one transition, live and replay)."""

from __future__ import annotations

from dataclasses import replace

from kiosk.rules.errors import Said
from kiosk.rules.game import foreign
from kiosk.rules.operations import Operation, TableRecord
from kiosk.rules.paigow.hands import Result, hand
from kiosk.rules.paigow.houseway import house_way
from kiosk.rules.paigow.operations import (
    Bank,
    BankHandSet,
    BankTaken,
    BetPlaced,
    BetTakenBack,
    BettingClosed,
    HandSet,
    HandUnset,
    HouseWayConfirmed,
    PaiGowOpened,
    Settled,
    Voided,
    Washed,
)
from kiosk.rules.paigow.state import PaiGowState, Phase, SettledRound

LAST_KEPT = 8  # rounds of bank hands the sign shows


BY_PLAYER = "set by the player/banker"
"""The record's words for a bank hand not set the house way (13.2.3)."""


def _next_round(state: PaiGowState, last: tuple[str, ...],
                history: tuple[SettledRound, ...]) -> PaiGowState:
    return PaiGowState(state.rules, state.table_id, state.round + 1, last=last[-LAST_KEPT:],
                       history=history[-LAST_KEPT:])


def _settled(op: Settled) -> SettledRound:
    results = [a.result for a in op.areas]
    return SettledRound(op.bank_high, op.bank_low, results.count(Result.WIN),
                        results.count(Result.LOSE), results.count(Result.STANDOFF))


def bank_why(state: PaiGowState, op: BankHandSet) -> str:
    """The record's reason as words of the rules (a `Said`, for the dealer's language): the
    house way's, worked out again from the tiles, or the player/banker's own setting; the
    record's English as it is if it is neither (the same English either way)."""
    if op.house_way:
        why = house_way((*op.high, *op.low), state.rules.house_way).why
        if why == op.why:
            return why
    if op.why == BY_PLAYER:
        return Said.words("set by the player/banker")
    return op.why


def apply(state: PaiGowState, op: Operation) -> PaiGowState:
    if isinstance(op, PaiGowOpened):
        return PaiGowState(op.rules, op.table_id, state.round, last=state.last,
                          history=state.history)
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
    if isinstance(op, HandUnset):
        return replace(state, hands=tuple(h for h in state.hands if h[0] != op.area))
    if isinstance(op, BankHandSet):
        phase = Phase.CONFIRM if state.bank is Bank.HOUSE else Phase.REVEAL
        return replace(state, bank_hand=(op.high, op.low), bank_why=bank_why(state, op),
                       phase=phase)
    if isinstance(op, HouseWayConfirmed):
        return replace(state, confirmed_by=op.supervisor, phase=Phase.REVEAL)
    if isinstance(op, Settled):
        words = f"{hand(*op.bank_high).words} / {hand(*op.bank_low).words}"
        return _next_round(state, (*state.last, words), (*state.history, _settled(op)))
    if isinstance(op, Voided):
        return _next_round(state, state.last, state.history)
    if isinstance(op, TableRecord):
        return state
    raise foreign("pai gow", op)
