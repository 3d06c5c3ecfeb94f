"""How the simulated dealer plays blackjack and Touch 21 (the demo and bench checks)."""

from __future__ import annotations

from collections.abc import Callable

from kiosk.rules.blackjack import engine as bj
from kiosk.rules.operations import Operation

Action = Callable[[bj.BlackjackState], Operation]

card_due = bj.card_due_without_decision


def new_shoe_wanted(state: bj.BlackjackState) -> bool:
    return True


def void_for_restart(state: bj.BlackjackState) -> Action | None:
    """The simulator cannot resume a half-dealt round's shoe order: the round is void."""
    if state.phase is bj.Phase.BETTING:
        return None
    return lambda s: bj.void_round(s, "simulated shoe restarted", "demo")


def reshuffle(state: bj.BlackjackState) -> Action | None:
    """... and the cards are shuffled again (rule 4.1, shuffle and cut)."""
    return bj.shuffle if bj.can_shuffle(state) else None
