"""American roulette's house rules and the values they are made of: the wheel, the limits
(rule 2.2), the colours of wheel chips (3.5), the spin's phases and directions (3.2, 3.4).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from kiosk.rules.money import ChipRule, format_money
from kiosk.rules.roulette.wheel import Wheel

GAME = "roulette"
HISTORY = 500  # results kept in the state: the signage's 100 and the integrity window
COLOURS = ("pink", "yellow", "blue", "green", "purple", "orange", "brown", "white", "grey",
           "lime")
"""The wheel-chip colours a table may issue, one per player (3.5 "chip change")."""


class Phase(StrEnum):
    BETTING = "place your bets"  # rule 3.2
    FINAL_BETS = "final bets"  # rule 3.4: the ball slows
    NO_MORE_BETS = "no more bets"  # rule 3.4
    RESULT = "result"  # the dolly is on the winning number; payouts to confirm (3.4, 3.5)


class Direction(StrEnum):
    CLOCKWISE = "clockwise"
    ANTICLOCKWISE = "anticlockwise"

    @property
    def other(self) -> Direction:
        return Direction.ANTICLOCKWISE if self is Direction.CLOCKWISE else Direction.CLOCKWISE


class Source(StrEnum):
    WHEEL = "wheel"  # the wheel controller reported it
    HAND = "hand"  # the dealer keyed it in (no wheel attached, or the wheel's report is off)


@dataclass(frozen=True, slots=True)
class Limits:
    """Rule 2.2's limits in cents. Inside bets: the straight-up maximum for each number a bet
    covers (a split takes twice a straight's); outside: per place; table: one colour's chips
    on one spin."""

    minimum_chip: int = 500  # the smallest value a wheel chip may be given
    straight_up_maximum: int = 50_000
    outside_maximum: int = 500_000
    table_maximum: int = 2_000_000

    def __post_init__(self) -> None:
        if not 0 < self.minimum_chip <= self.straight_up_maximum <= self.table_maximum:
            raise ValueError("the limits must satisfy 0 < minimum chip <= straight-up maximum "
                             "<= table maximum")
        if not self.minimum_chip <= self.outside_maximum <= self.table_maximum:
            raise ValueError("the outside maximum must lie between the minimum chip and the "
                             "table maximum")


@dataclass(frozen=True, slots=True)
class RouletteRules:
    wheel: Wheel = Wheel.SINGLE_ZERO
    limits: Limits = field(default_factory=Limits)
    colours: int = 7  # colours of wheel chips (players) the table issues
    pay_in_colour_up_to: int = 100  # a win over this many chips: the rest in value chips
    chips: ChipRule = field(default_factory=ChipRule)
    currency: str = "R"

    def __post_init__(self) -> None:
        if not 1 <= self.colours <= len(COLOURS):
            raise ValueError(f"a table issues 1 to {len(COLOURS)} colours of wheel chips")
        if self.pay_in_colour_up_to < 1:
            raise ValueError("pay_in_colour_up_to must be at least one chip")

    @property
    def call_bets(self) -> bool:
        """Call bets exist only on the single-zero wheel: rule 3.4's call bets are sections of
        its order (`wheel.py`)."""
        return self.wheel is Wheel.SINGLE_ZERO

    def money(self, cents: int) -> str:
        return format_money(cents, self.currency)
