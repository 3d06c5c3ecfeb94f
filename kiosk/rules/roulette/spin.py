"""The spin (rules 3.2, 3.4): the ball spun each time the other way, final bets, no more bets,
a no spin, and the winning number.
"""

from __future__ import annotations

from kiosk.rules.errors import NotAllowed, allowed
from kiosk.rules.roulette.house import Direction, Phase, Source
from kiosk.rules.roulette.operations import BallSpun, BettingClosed, FinalBets, NoSpin, NumberCalled
from kiosk.rules.roulette.state import RouletteState


def expected_direction(state: RouletteState) -> Direction | None:
    """Rule 3.2: each spin the other way from the last one (None before the first)."""
    return state.last_direction.other if state.last_direction is not None else None


def verify_spin_ball(state: RouletteState, direction: Direction) -> None:
    if state.phase is Phase.RESULT:
        raise NotAllowed.of("Pay this spin before the next one")
    if state.ball_spinning:
        raise NotAllowed.of("The ball is already spinning: a no spin first, to spin it again",
                         "3.2")


def can_spin_ball(state: RouletteState, direction: Direction) -> bool:
    return allowed(verify_spin_ball, state, direction)


def spin_ball(state: RouletteState, direction: Direction, source: Source = Source.HAND
              ) -> BallSpun:
    """Rule 3.2: the ball is spun; a spin the same way as the last one is on record as such."""
    verify_spin_ball(state, direction)
    return BallSpun(state.spin, direction, source,
                    same_direction=state.last_direction is direction)


def verify_final_bets(state: RouletteState) -> None:
    if state.phase is not Phase.BETTING:
        raise NotAllowed.of("Final bets come while bets are open")
    if not state.ball_spinning:
        raise NotAllowed.of("Final bets are called when the ball slows: spin it first", "3.4")


def can_final_bets(state: RouletteState) -> bool:
    return allowed(verify_final_bets, state)


def final_bets(state: RouletteState) -> FinalBets:
    verify_final_bets(state)
    return FinalBets()


def verify_close_betting(state: RouletteState) -> None:
    if state.phase not in (Phase.BETTING, Phase.FINAL_BETS):
        raise NotAllowed.of("Bets are already closed")
    if not state.ball_spinning:
        raise NotAllowed.of("No more bets is called while the ball spins: spin it first", "3.4")


def can_close_betting(state: RouletteState) -> bool:
    return allowed(verify_close_betting, state)


def close_betting(state: RouletteState) -> BettingClosed:
    verify_close_betting(state)
    return BettingClosed()


def verify_no_spin(state: RouletteState) -> None:
    if not state.ball_spinning:
        raise NotAllowed.of("The ball is not spinning", "3.2")


def can_no_spin(state: RouletteState) -> bool:
    return allowed(verify_no_spin, state)


def no_spin(state: RouletteState, reason: str, source: Source = Source.HAND) -> NoSpin:
    """Rule 3.2: the ball back in the same number, the wheel spun again."""
    verify_no_spin(state)
    if not reason.strip():
        raise NotAllowed.of("Say why it was no spin (the ball left the wheel, ...)", "3.2")
    return NoSpin(state.spin, reason.strip(), source, state.last_number)


def verify_call_number(state: RouletteState, number: str) -> None:
    if number not in state.rules.wheel.order:
        raise NotAllowed(f"{number!r} is not a number on this wheel")
    if state.phase is Phase.RESULT:
        raise NotAllowed.of("%(number)s is already called: pay it, or void the spin",
                            number=state.number)
    if not state.ball_spinning:
        raise NotAllowed.of("The ball has not been spun", "3.2")
    if state.phase is not Phase.NO_MORE_BETS:
        raise NotAllowed.of("Call no more bets before the number", "3.4")


def can_call_number(state: RouletteState, number: str) -> bool:
    return allowed(verify_call_number, state, number)


def call_number(state: RouletteState, number: str, source: Source = Source.HAND
                ) -> NumberCalled:
    """Rule 3.4: the winning number; the dolly goes on it and the losing bets come off."""
    verify_call_number(state, number)
    return NumberCalled(state.spin, number, source)
