"""How the simulated dealer and players play Arizona Hold'em (the demo and bench checks; no
randomness here: the caller hands in its own chooser). The players raise by the best
strategy (`strategy.py`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kiosk.rules.arizona import engine as az
from kiosk.rules.arizona.state import circle_in_play, deciding
from kiosk.rules.arizona.strategy import raises_first, raises_second
from kiosk.rules.operations import Operation

Action = Callable[[az.ArizonaState], Operation]


def card_due(state: az.ArizonaState) -> bool:
    return state.phase is az.Phase.DEALING and state.shuffled


def new_shoe_wanted(state: az.ArizonaState) -> bool:
    """Rule 6.5: every hand is dealt from freshly shuffled cards."""
    return True


def void_for_restart(state: az.ArizonaState) -> Action | None:
    """The simulator cannot resume a half-dealt hand's order: the hand is void."""
    if state.phase is az.Phase.BETTING:
        return None
    return lambda s: az.void_round(s, "simulated shoe restarted")


def reshuffle(state: az.ArizonaState) -> Action | None:
    return None if state.shuffled else az.shuffle


def bets(rules: az.ArizonaRules, rng: Any) -> list[Action]:
    """A few players' antes (`rng`: random.Random)."""
    out: list[Action] = []
    for box in sorted(rng.sample(range(1, rules.boxes + 1), rng.randint(1, min(4, rules.boxes)))):
        amount = min(rules.maximum, rng.choice([1, 1, 2, 5]) * rules.minimum)
        out.append(_ante(box, amount))
    return out


def _ante(box: int, amount: int) -> Action:
    return lambda s: az.place_bet(s, box, amount)


def decision(state: az.ArizonaState) -> Action | None:
    """What the player whose turn it is does, by the best strategy; None: nobody decides."""
    box, circle = deciding(state), circle_in_play(state)
    if box is None or circle is None:
        return None
    cards = state.cards_of(box)
    raise_it = (raises_first(cards) if circle == 1
                else raises_second((*cards, state.community[0])))
    act = az.raise_bet if raise_it else az.check
    return lambda s: act(s, box, circle)
