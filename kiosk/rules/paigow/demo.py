"""How the simulated dealer and players play pai gow (the demo; no randomness here: the
caller hands in its own chooser). The tiles are keyed in, never dealt from the shoe; every
player sets the house way."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kiosk.rules.operations import Operation
from kiosk.rules.paigow import engine as pg
from kiosk.rules.paigow.tiles import SET, Tile

Action = Callable[[pg.PaiGowState], Operation]


def card_due(state: pg.PaiGowState) -> bool:
    return False  # no card from a shoe: the tiles are keyed in


def new_shoe_wanted(state: pg.PaiGowState) -> bool:
    return False


def void_for_restart(state: pg.PaiGowState) -> Action | None:
    return None  # nothing comes from the simulated shoe, so nothing to void for it


def reshuffle(state: pg.PaiGowState) -> Action | None:
    return None if state.washed or state.phase is not pg.Phase.BETTING else pg.shuffle


def deal(rng: Any) -> list[tuple[Tile, ...]]:
    """The 32 tiles washed (`rng`: random.Random) into eight stacks of four."""
    tiles = list(SET)
    rng.shuffle(tiles)
    return [tuple(tiles[i:i + 4]) for i in range(0, 32, 4)]


def bets(rules: pg.PaiGowRules, chung: int, rng: Any) -> list[Action]:
    """A few players' wagers, off the chung's area."""
    areas = [a for a in range(1, rules.areas + 1) if a != chung]
    out: list[Action] = []
    for area in sorted(rng.sample(areas, rng.randint(1, min(4, len(areas))))):
        amount = min(rules.maximum, rng.choice([1, 1, 2, 5]) * rules.minimum)
        out.append(_bet(area, amount))
    return out


def _bet(area: int, amount: int) -> Action:
    return lambda s: pg.place_bet(s, area, amount)


def set_by_house_way(area: int, tiles: tuple[Tile, ...]) -> Action:
    """The player of `area` sets the four tiles the house way."""
    def act(state: pg.PaiGowState) -> Operation:
        setting = pg.house_way(tiles, state.rules.house_way).setting
        return pg.set_hand(state, area, setting.high.tiles, setting.low.tiles)
    return act
