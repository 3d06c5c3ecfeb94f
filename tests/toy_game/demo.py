"""How the simulated dealer plays high card."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.toy_game import rules as hc


def card_due(state: hc.HighCardState) -> bool:
    return state.phase is hc.Phase.DEALING


def new_shoe_wanted(state: hc.HighCardState) -> bool:
    return True


def void_for_restart(state: hc.HighCardState) -> Callable[[Any], Any] | None:
    if state.phase is hc.Phase.BETTING:
        return None
    return lambda s: hc.void_round(s, "simulated shoe restarted")


def reshuffle(state: hc.HighCardState) -> Callable[[Any], Any] | None:
    return hc.shuffle if state.phase is hc.Phase.BETTING else None
