"""American roulette's journal records: each thing that can happen at the wheel, as it is
journaled."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from kiosk.rules.operations import LateBet, Operation, RoundVoid, TableOpening
from kiosk.rules.roulette.bets import Placement
from kiosk.rules.roulette.house import Direction, RouletteRules, Source


@dataclass(frozen=True, slots=True)
class TableOpened(TableOpening):
    kind: ClassVar[str] = "roulette.table_opened"
    game: str
    table_id: str
    rules: RouletteRules


@dataclass(frozen=True, slots=True)
class ChipChange(Operation):
    """Rule 3.5 "chip change": `chips` wheel chips of `colour`, each worth `value_each`."""

    kind: ClassVar[str] = "roulette.chip_change"
    colour: str
    chips: int
    value_each: int


@dataclass(frozen=True, slots=True)
class CashedIn(Operation):
    """Rule 3.5 "cashing in": the colour's chips exchanged for value chips."""

    kind: ClassVar[str] = "roulette.cashed_in"
    colour: str
    chips: int
    value: int


@dataclass(frozen=True, slots=True)
class BetPlaced(Operation):
    """Chips of one colour on the layout: one placement, or the pieces of a call bet."""

    kind: ClassVar[str] = "roulette.bet_placed"
    colour: str
    placements: tuple[Placement, ...]
    call: str = ""  # the call bet's name ("orphans", "number and neighbours 17")


@dataclass(frozen=True, slots=True)
class BetsTakenBack(Operation):
    """Before no more bets: a colour's bets go back to the player (a mistake put right)."""

    kind: ClassVar[str] = "roulette.bets_taken_back"
    colour: str
    chips: int


@dataclass(frozen=True, slots=True)
class NoBet(LateBet):
    """Rule 3.4: chips placed after "no more bets": a "no bet", removed from the layout."""

    kind: ClassVar[str] = "roulette.no_bet"
    colour: str
    placements: tuple[Placement, ...]
    call: str = ""


@dataclass(frozen=True, slots=True)
class BallSpun(Operation):
    """Rule 3.2: the ball is spun; `same_direction` flags a spin the same way as the one
    before (the rule wants the opposite)."""

    kind: ClassVar[str] = "roulette.ball_spun"
    spin: int
    direction: Direction
    source: Source
    same_direction: bool = False


@dataclass(frozen=True, slots=True)
class FinalBets(Operation):
    kind: ClassVar[str] = "roulette.final_bets"


@dataclass(frozen=True, slots=True)
class BettingClosed(Operation):
    """Rule 3.4 "no more bets"."""

    kind: ClassVar[str] = "roulette.betting_closed"


@dataclass(frozen=True, slots=True)
class NoSpin(Operation):
    """Rule 3.2 "no spin": the ball goes back in `ball_back_in` (the last number) and the
    wheel is spun again; the bets stay locked where they are."""

    kind: ClassVar[str] = "roulette.no_spin"
    spin: int
    reason: str
    source: Source
    ball_back_in: str | None


@dataclass(frozen=True, slots=True)
class NumberCalled(Operation):
    """Rule 3.4: the winning number, announced; the dolly goes on it."""

    kind: ClassVar[str] = "roulette.number_called"
    spin: int
    number: str
    source: Source


@dataclass(frozen=True, slots=True)
class ColourPayout:
    """What one colour gets (rule 3.5): `won` chips of winnings, paid as `colour_chips` of the
    colour and `cash` cents in value chips; `stakes_back` chips of winning bets; `lost` chips
    taken from the layout."""

    colour: str
    staked: int
    won: int
    stakes_back: int
    lost: int
    colour_chips: int
    cash: int


@dataclass(frozen=True, slots=True)
class SpinSettled(Operation):
    kind: ClassVar[str] = "roulette.spin_settled"
    spin: int
    number: str
    payouts: tuple[ColourPayout, ...]


@dataclass(frozen=True, slots=True)
class SpinVoided(RoundVoid):
    """The spin is void: every bet goes back to its player."""

    kind: ClassVar[str] = "roulette.spin_voided"
    spin: int
    reason: str
