"""American roulette (rules section 3): the spin from "place your bets" to the payouts.

A spin goes: place your bets (3.2) -> the ball is spun, each spin the other way round (3.2) ->
"final bets" -> "no more bets" (3.4; a bet placed after it is a "no bet", removed and on
record) -> the winning number, with the dolly on it and the losing bets removed (3.4) -> the
payouts per colour, confirmed by the dealer (3.5). A "no spin" puts the ball back in the same
number and the wheel is spun again, on record (3.2). Each player plays wheel chips of one
colour, valued at the chip change (3.5); cashing in is refused while the ball spins (3.5).

Pure: no clock, no randomness, no I/O. Money is int cents; the chips of a colour are counted in
chips and valued by the colour's value per chip.

This module is the game's public API (`from kiosk.rules.roulette import engine as rl`); its
parts live beside it: `house` (the house rules), `state`, `operations` (the records),
`betting`, `spin`, `payouts`, `words` and `fold`.
"""

from __future__ import annotations

from typing import Any

from kiosk.rules.errors import Said
from kiosk.rules.operations import Operation as Operation
from kiosk.rules.roulette.bets import (
    PAYS as PAYS,
    BetKind as BetKind,
    CallBet as CallBet,
    Placement as Placement,
)
from kiosk.rules.roulette.betting import (
    can_cash_in as can_cash_in,
    can_chip_change as can_chip_change,
    can_no_bet as can_no_bet,
    can_place_bet as can_place_bet,
    can_take_back as can_take_back,
    cash_in as cash_in,
    chip_change as chip_change,
    no_bet as no_bet,
    no_call_bet as no_call_bet,
    place_bet as place_bet,
    place_call_bet as place_call_bet,
    take_back as take_back,
    verify_cash_in as verify_cash_in,
    verify_chip_change as verify_chip_change,
    verify_no_bet as verify_no_bet,
    verify_place_bet as verify_place_bet,
    verify_take_back as verify_take_back,
)
from kiosk.rules.roulette.fold import (
    apply as apply,
    initial_state as initial_state,
    open_table as open_table,
)
from kiosk.rules.roulette.house import (
    COLOURS as COLOURS,
    GAME as GAME,
    HISTORY as HISTORY,
    Direction as Direction,
    Limits as Limits,
    Phase as Phase,
    RouletteRules as RouletteRules,
    Source as Source,
)
from kiosk.rules.roulette.operations import (
    BallSpun as BallSpun,
    BetPlaced as BetPlaced,
    BetsTakenBack as BetsTakenBack,
    BettingClosed as BettingClosed,
    CashedIn as CashedIn,
    ChipChange as ChipChange,
    ColourPayout as ColourPayout,
    FinalBets as FinalBets,
    NoBet as NoBet,
    NoSpin as NoSpin,
    NumberCalled as NumberCalled,
    SpinSettled as SpinSettled,
    SpinVoided as SpinVoided,
    TableOpened as TableOpened,
)
from kiosk.rules.roulette.payouts import (
    can_confirm_payouts as can_confirm_payouts,
    can_void_round as can_void_round,
    confirm_payouts as confirm_payouts,
    payout_for as payout_for,
    settlement as settlement,
    verify_confirm_payouts as verify_confirm_payouts,
    verify_void_round as verify_void_round,
    void_round as void_round,
)
from kiosk.rules.roulette.spin import (
    call_number as call_number,
    can_call_number as can_call_number,
    can_close_betting as can_close_betting,
    can_final_bets as can_final_bets,
    can_no_spin as can_no_spin,
    can_spin_ball as can_spin_ball,
    close_betting as close_betting,
    expected_direction as expected_direction,
    final_bets as final_bets,
    no_spin as no_spin,
    spin_ball as spin_ball,
    verify_call_number as verify_call_number,
    verify_close_betting as verify_close_betting,
    verify_final_bets as verify_final_bets,
    verify_no_spin as verify_no_spin,
    verify_spin_ball as verify_spin_ball,
)
from kiosk.rules.roulette.state import (
    Bet as Bet,
    RouletteState as RouletteState,
    Stack as Stack,
)
from kiosk.rules.roulette.wheel import Wheel as Wheel, colour_of as colour_of
from kiosk.rules.roulette.words import (
    legal_actions as legal_actions,
    next_step as next_step,
    payout_words as payout_words,
    pocket_words as pocket_words,
    totals as totals,
)


class Roulette:
    """American roulette as a `kiosk.rules.game.Game` that `SpinsWheel`."""

    name = GAME

    def initial_state(self, rules: Any, table_id: str) -> RouletteState:
        return initial_state(rules, table_id)

    def open_table(self, rules: Any, table_id: str) -> Operation:
        return open_table(rules, table_id)

    def apply(self, state: RouletteState, op: Operation) -> RouletteState:
        return apply(state, op)

    def next_step(self, state: RouletteState) -> Said:
        return next_step(state)

    def betting_open(self, state: RouletteState) -> bool:
        return state.phase in (Phase.BETTING, Phase.FINAL_BETS)

    def between_rounds(self, state: RouletteState) -> bool:
        """Colour chips in the players' hands stay theirs across spins; none on the layout."""
        return state.phase is Phase.BETTING and not state.ball_spinning and not state.layout

    def ready(self, state: RouletteState) -> bool:
        return True  # the wheel needs no shuffle; a wheel fault is the device's alert

    def close_betting(self, state: RouletteState) -> Operation:
        return close_betting(state)

    def table_minimum(self, rules: RouletteRules) -> int:
        return rules.limits.minimum_chip

    def table_maximum(self, rules: RouletteRules) -> int:
        return rules.limits.table_maximum

    def round_number(self, state: RouletteState) -> int:
        return state.spin

    def rules_of(self, state: RouletteState) -> RouletteRules:
        return state.rules

    # SpinsWheel: what the wheel controller reports, as the table's records. Each answers
    # None when the table is already there (the dealer called it first).

    def wheel_spun(self, state: RouletteState, direction: str) -> Operation | None:
        if state.ball_spinning or state.phase is Phase.RESULT:
            return None
        return spin_ball(state, Direction(direction), Source.WHEEL)

    def wheel_closed_betting(self, state: RouletteState) -> Operation | None:
        if state.phase in (Phase.BETTING, Phase.FINAL_BETS) and state.ball_spinning:
            return close_betting(state)
        return None

    def wheel_result(self, state: RouletteState, number: str, direction: str
                     ) -> tuple[Operation, ...]:
        """The records the wheel's winning number makes, in order: the wheel is the
        authority, so a spin or a "no more bets" it reported but the table missed comes
        first (a lost status report), then the number."""
        ops: list[Operation] = []
        if state.phase is Phase.RESULT:
            return ()
        if not state.ball_spinning:
            ops.append(spin_ball(state, Direction(direction), Source.WHEEL))
            state = apply(state, ops[-1])
        if state.phase in (Phase.BETTING, Phase.FINAL_BETS):
            ops.append(close_betting(state))
            state = apply(state, ops[-1])
        ops.append(call_number(state, number, Source.WHEEL))
        return tuple(ops)

    def wheel_void(self, state: RouletteState, reason: str) -> Operation | None:
        if not state.ball_spinning:
            return None
        return no_spin(state, reason, Source.WHEEL)
