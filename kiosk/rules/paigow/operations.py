"""Pai gow's records: what happened at the table, in the words of section 13.

The settlement is one record, `Settled`, holding every movement of chips in the order the
procedure of its bank makes them (`Step`: what moved, how much, from where to where, under
which clause), so replay re-derives each payment and its source: the float, the losing wager
area, the banker's wager or the co-bank wager.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from kiosk.rules.operations import Operation, RoundVoid, TableOpening
from kiosk.rules.paigow.config import PaiGowRules
from kiosk.rules.paigow.hands import Result
from kiosk.rules.paigow.tiles import Tile

Pair = tuple[Tile, Tile]


class Bank(StrEnum):
    """Who banks the round (section 13)."""

    HOUSE = "house"  # rule 13.1
    PLAYER = "player/banker"  # rule 13.2
    COBANK = "co-bank"  # rule 13.3: the player/banker and the House


class Place(StrEnum):
    """Where chips are or go in a settlement."""

    PLAYER = "player"  # the player of `Step.area`
    BANKER = "player/banker"
    FLOAT = "float"  # the House's
    LOSING = "losing wager area"
    BANKER_WAGER = "banker's wager"
    COBANK_WAGER = "co-bank wager"
    COMMISSION = "commission"  # the House's
    NONE = ""


class Move(StrEnum):
    """What a step of a settlement does."""

    WAGER = "wager"  # the bank's wager put up (13.2.2, 13.3.2)
    EXPOSE = "expose"  # the bank's hands exposed (13.1.3, 13.2.4, 13.3.3)
    LOSE = "lose"  # a losing wager picked up (13.1.7, 13.2.6, 13.3.6)
    PAY = "pay"  # a winning wager paid (13.1.8, 13.2.7, 13.3.7)
    SHORTFALL = "shortfall"  # the part of a payment the losing wager area lacked
    COMMISSION = "commission"  # 5% of a win
    STANDOFF = "stand-off"  # the wager remains (13.1.9, 13.2.9, 13.3.8)
    REMAINDER = "remainder"  # the losing wager area's rest to the player/banker (13.2.7)
    SPLIT = "split"  # a co-banker's half (13.3.9, 13.3.11)
    RETURN = "return"  # an original wager returned (13.3.10)


@dataclass(frozen=True, slots=True)
class Step:
    clause: str
    move: Move
    area: int  # the area concerned (the chung's for the bank's own steps)
    amount: int
    source: Place
    to: Place


@dataclass(frozen=True, slots=True)
class AreaResult:
    """One player's area at the settlement: the hands as set, the result, the player's net
    (a win is the wager less commission)."""

    area: int
    wager: int
    high: Pair
    low: Pair
    result: Result
    net: int


@dataclass(frozen=True, slots=True)
class PaiGowOpened(TableOpening):
    kind: ClassVar[str] = "paigow.table_opened"
    game: str
    table_id: str
    rules: PaiGowRules


@dataclass(frozen=True, slots=True)
class Washed(Operation):
    """The tiles were washed and stacked into the woodpile for the next round."""

    kind: ClassVar[str] = "paigow.washed"


@dataclass(frozen=True, slots=True)
class BankTaken(Operation):
    """Who banks this round: the House on area one (13.1.1), a player/banker (13.2.1) or a
    player/banker with the House as co-bank (13.3.1), with the banker's wager."""

    kind: ClassVar[str] = "paigow.bank_taken"
    bank: Bank
    area: int
    wager: int


@dataclass(frozen=True, slots=True)
class BetPlaced(Operation):
    kind: ClassVar[str] = "paigow.bet_placed"
    area: int
    amount: int


@dataclass(frozen=True, slots=True)
class BetTakenBack(Operation):
    kind: ClassVar[str] = "paigow.bet_taken_back"
    area: int


@dataclass(frozen=True, slots=True)
class BettingClosed(Operation):
    """No more bets. `bank` is who banks the round from here: a player/banker whose wager
    does not cover the declared wagers makes it a co-bank (13.2.2), `reason` says so."""

    kind: ClassVar[str] = "paigow.betting_closed"
    bank: Bank
    reason: str = ""


@dataclass(frozen=True, slots=True)
class HandSet(Operation):
    """A player's four tiles as the player set them, high and low."""

    kind: ClassVar[str] = "paigow.hand_set"
    area: int
    high: Pair
    low: Pair


@dataclass(frozen=True, slots=True)
class HandUnset(Operation):
    """An area's hands, keyed wrong, taken off before the bank's hands are set, to be keyed
    again (the house's procedure: the rules' text does not speak of it)."""

    kind: ClassVar[str] = "paigow.hand_unset"
    area: int


@dataclass(frozen=True, slots=True)
class BankHandSet(Operation):
    """The bank's tiles set, after every other hand (13.1.2, 13.2.3, 13.3.4); `house_way`
    says the house way set them, `why` in its words."""

    kind: ClassVar[str] = "paigow.bank_hand_set"
    high: Pair
    low: Pair
    house_way: bool
    why: str


@dataclass(frozen=True, slots=True)
class HouseWayConfirmed(Operation):
    """Rule 13.1.5: the game supervisor confirmed the House hand was set the House way."""

    kind: ClassVar[str] = "paigow.house_way_confirmed"
    supervisor: str


@dataclass(frozen=True, slots=True)
class Settled(Operation):
    """The round settled: every area's result and every chip's movement, in order."""

    kind: ClassVar[str] = "paigow.settled"
    round: int
    bank: Bank
    chung: int
    banker_wager: int
    bank_high: Pair
    bank_low: Pair
    areas: tuple[AreaResult, ...]
    steps: tuple[Step, ...]


@dataclass(frozen=True, slots=True)
class Voided(RoundVoid):
    """Rule 2.7: the round is void; every wager goes back."""

    kind: ClassVar[str] = "paigow.voided"
    round: int
    reason: str
