"""The fold: the table's first state and record, and `apply`, the one transition function that
live play and replay both fold every record through.
"""

from __future__ import annotations

import dataclasses

from kiosk.rules.game import foreign
from kiosk.rules.operations import Operation, TableRecord
from kiosk.rules.roulette.house import GAME, HISTORY, Direction, Phase, RouletteRules, Source
from kiosk.rules.roulette.operations import (
    BallSpun,
    BetPlaced,
    BetsTakenBack,
    BettingClosed,
    CashedIn,
    ChipChange,
    FinalBets,
    NoBet,
    NoSpin,
    NumberCalled,
    SpinSettled,
    SpinVoided,
    TableOpened,
)
from kiosk.rules.roulette.state import Bet, RouletteState, Stack


def initial_state(rules: RouletteRules, table_id: str) -> RouletteState:
    return RouletteState(rules, table_id)


def open_table(rules: RouletteRules, table_id: str) -> TableOpened:
    return TableOpened(GAME, table_id, rules)


def _with_stack(stacks: tuple[Stack, ...], colour: str, delta: int,
                value_each: int | None = None) -> tuple[Stack, ...]:
    out, found = [], False
    for s in stacks:
        if s.colour == colour:
            found = True
            out.append(Stack(colour, s.value_each if value_each is None else value_each,
                             s.chips + delta))
        else:
            out.append(s)
    if not found:
        assert value_each is not None
        out.append(Stack(colour, value_each, delta))
    return tuple(out)


def _next_spin(state: RouletteState, stacks: tuple[Stack, ...], results: tuple[str, ...],
               directions: tuple[Direction, ...]) -> RouletteState:
    return RouletteState(state.rules, state.table_id, state.spin + 1, stacks=stacks,
                         last_direction=state.last_direction, results=results[-HISTORY:],
                         directions=directions[-HISTORY:])


def apply(state: RouletteState, op: Operation) -> RouletteState:
    rep = dataclasses.replace
    if isinstance(op, TableOpened):
        return rep(state, rules=op.rules, table_id=op.table_id)
    if isinstance(op, ChipChange):
        return rep(state, stacks=_with_stack(state.stacks, op.colour, op.chips, op.value_each))
    if isinstance(op, CashedIn):
        return rep(state, stacks=tuple(s for s in state.stacks if s.colour != op.colour))
    if isinstance(op, BetPlaced):
        chips = sum(p.chips for p in op.placements)
        return rep(state, stacks=_with_stack(state.stacks, op.colour, -chips),
                   layout=(*state.layout, *(Bet(op.colour, p, op.call) for p in op.placements)))
    if isinstance(op, BetsTakenBack):
        return rep(state, stacks=_with_stack(state.stacks, op.colour, op.chips),
                   layout=tuple(b for b in state.layout if b.colour != op.colour))
    if isinstance(op, NoBet):
        places = ", ".join(p.place for p in op.placements)
        return rep(state, no_bets=state.no_bets + 1,
                   notes=(*state.notes, f"no bet: {op.colour} {op.call or places}"))
    if isinstance(op, BallSpun):
        notes = state.notes
        if op.same_direction:
            notes = (*notes, f"spun {op.direction.value}, the same way as the spin before "
                             f"(rule 3.2)")
        return rep(state, ball_spinning=True, spun=True, last_direction=op.direction,
                   notes=notes)
    if isinstance(op, FinalBets):
        return rep(state, phase=Phase.FINAL_BETS)
    if isinstance(op, BettingClosed):
        return rep(state, phase=Phase.NO_MORE_BETS)
    if isinstance(op, NoSpin):
        return rep(state, ball_spinning=False, no_spins=state.no_spins + 1,
                   notes=(*state.notes, f"no spin ({op.source.value}): {op.reason}"))
    if isinstance(op, NumberCalled):
        notes = state.notes
        if op.source is Source.HAND:
            notes = (*notes, f"{op.number} keyed in by hand")
        return rep(state, phase=Phase.RESULT, number=op.number, ball_spinning=False,
                   notes=notes)
    if isinstance(op, SpinSettled):
        stacks = state.stacks
        for pay in op.payouts:
            # The stakes of winning bets and the colour-chip part of the win go back in front
            # of the player; the rest of the win is paid in value chips (`cash`).
            stacks = _with_stack(stacks, pay.colour, pay.stakes_back + pay.colour_chips)
        direction = state.last_direction or Direction.CLOCKWISE
        return _next_spin(state, stacks, (*state.results, op.number),
                          (*state.directions, direction))
    if isinstance(op, SpinVoided):
        stacks = state.stacks
        for b in state.layout:
            stacks = _with_stack(stacks, b.colour, b.placement.chips)
        return _next_spin(state, stacks, state.results, state.directions)
    if isinstance(op, TableRecord):
        return state
    raise foreign("roulette", op)
