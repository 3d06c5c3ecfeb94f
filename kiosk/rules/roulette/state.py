"""American roulette's one frozen state: the colours in play, the layout, the ball and the
results.
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.rules.roulette.bets import Placement
from kiosk.rules.roulette.house import Direction, Phase, RouletteRules


@dataclass(frozen=True, slots=True)
class Stack:
    """A colour in play: its value per chip and the chips in front of its player."""

    colour: str
    value_each: int
    chips: int


@dataclass(frozen=True, slots=True)
class Bet:
    colour: str
    placement: Placement
    call: str = ""


@dataclass(frozen=True, slots=True)
class RouletteState:
    rules: RouletteRules
    table_id: str = ""
    spin: int = 1
    phase: Phase = Phase.BETTING
    stacks: tuple[Stack, ...] = ()
    layout: tuple[Bet, ...] = ()
    ball_spinning: bool = False
    spun: bool = False  # this spin's ball has been spun (at least once)
    last_direction: Direction | None = None
    number: str | None = None  # the dolly's number, once called
    results: tuple[str, ...] = ()  # the winning numbers, oldest first (the last HISTORY)
    directions: tuple[Direction, ...] = ()  # of the settled spins, as results
    no_spins: int = 0  # this spin's
    no_bets: int = 0  # this spin's
    notes: tuple[str, ...] = ()  # what the inspector should hear of this spin, on record

    def stack(self, colour: str) -> Stack | None:
        return next((s for s in self.stacks if s.colour == colour), None)

    def staked(self, colour: str) -> int:
        return sum(b.placement.chips for b in self.layout if b.colour == colour)

    @property
    def last_number(self) -> str | None:
        return self.results[-1] if self.results else None
