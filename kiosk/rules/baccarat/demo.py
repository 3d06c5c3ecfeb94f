"""How the simulated dealer plays punto banco (the demo and bench checks; no randomness here:
the caller hands in its own chooser)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kiosk.rules.baccarat import engine as pb
from kiosk.rules.operations import Operation

Action = Callable[[pb.PuntoBancoState], Operation]


def card_due(state: pb.PuntoBancoState) -> bool:
    """A card the drawing table calls for and nobody has to decide (rule 5.2)."""
    return (state.phase is pb.Phase.DEALING and state.pending is None
            and pb.next_hand(state) is not None)


def new_shoe_wanted(state: pb.PuntoBancoState) -> bool:
    """The dealer asked for a new shoe: the demo's first shoe is already a fresh one."""
    return state.coup > 1


def void_for_restart(state: pb.PuntoBancoState) -> Action | None:
    """The simulator cannot resume a half-dealt coup's shoe order: the coup is void."""
    if state.phase is pb.Phase.BETTING:
        return None
    return lambda s: pb.void_round(s, "simulated shoe restarted", "demo")


def reshuffle(state: pb.PuntoBancoState) -> Action | None:
    """... and the cards are shuffled again (rule 5.5) when a shoe was in play."""
    if state.shoe is None:
        return None
    return lambda s: pb.shuffle(s, "hand")


def bets(rules: pb.PuntoBancoRules, rng: Any) -> list[Action]:
    """A few players' bets, as the console demo places them (`rng`: random.Random)."""
    out: list[Action] = []
    chip = rules.chips.smallest_chip
    for area in rng.sample(rules.area_ids(), rng.randint(1, 4)):
        kind = rng.choice([pb.BetKind.BANKER, pb.BetKind.BANKER, pb.BetKind.PLAYER])
        lim = rules.limit(kind)
        amount = max(lim.minimum, rng.choice([1, 2, 5, 10, 25]) * lim.minimum)
        amount += rng.choice([0, 0, 1, 3]) * chip  # odd stakes show the 19:20 rounding
        amount = min(amount, lim.maximum)
        out.append(_bet(area, kind, amount))
        if rng.random() < 0.25:
            out.append(_bet(area, pb.BetKind.TIE, rules.limit(pb.BetKind.TIE).minimum))
    return out


def _bet(area: str, kind: pb.BetKind, amount: int) -> Action:
    return lambda s: pb.place_bet(s, area, kind, amount)
