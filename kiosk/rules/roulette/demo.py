"""How the simulated dealer plays roulette: there are no cards to deal; the simulated wheel
(hardware/simulators/wheel.py) launches the ball when the dealer's Spin asks it to, and calls
no more bets and the number itself, as a real SS2 wheel does."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kiosk.rules.roulette import engine as rl


def card_due(state: rl.RouletteState) -> bool:
    return False


def new_shoe_wanted(state: rl.RouletteState) -> bool:
    return False


def void_for_restart(state: rl.RouletteState) -> Callable[[Any], Any] | None:
    """A demo restarted in the middle of a spin: the simulated wheel has forgotten its
    ball, so a spin whose ball is in the wheel is void (its bets go back)."""
    if state.ball_spinning:
        return lambda s: rl.void_round(s, "simulated wheel restarted")
    return None


def reshuffle(state: rl.RouletteState) -> Callable[[Any], Any] | None:
    return None
