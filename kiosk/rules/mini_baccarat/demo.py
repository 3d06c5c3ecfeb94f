"""How the simulated dealer plays mini baccarat: punto banco's dealer (the same coup), with
the coup voided on a restart only when no malfunction is in hand."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kiosk.rules.baccarat import demo as pb_demo
from kiosk.rules.mini_baccarat import engine as mb
from kiosk.rules.operations import Operation

Action = Callable[[mb.MiniBaccaratState], Operation]


def card_due(state: mb.MiniBaccaratState) -> bool:
    """A card the drawing table calls for, nobody has to decide, and no malfunction stops."""
    return not state.stopped and pb_demo.card_due(state)


def new_shoe_wanted(state: mb.MiniBaccaratState) -> bool:
    return pb_demo.new_shoe_wanted(state)


def void_for_restart(state: mb.MiniBaccaratState) -> Action | None:
    """The simulator cannot resume a half-dealt coup: it is void, unless the shuffler
    malfunction procedure has it (then the procedure goes on)."""
    if state.phase is mb.Phase.BETTING or state.stopped:
        return None
    return lambda s: mb.void_round(s, "simulated shoe restarted", "demo")


def reshuffle(state: mb.MiniBaccaratState) -> Action | None:
    if state.shoe is None or state.stopped:
        return None
    return lambda s: mb.shuffle(s, "shuffler" if s.device is mb.Device.SHUFFLER else "hand")


def bets(rules: mb.MiniBaccaratRules, rng: Any) -> list[pb_demo.Action]:
    return pb_demo.bets(rules, rng)


