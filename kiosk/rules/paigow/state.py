"""Where a pai gow round stands, and the order of section 13: counter clockwise from the
chung (areas are numbered counter clockwise, so from the chung's area upwards, round to 1)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from kiosk.rules.paigow.config import PaiGowRules
from kiosk.rules.paigow.operations import Bank, Pair
from kiosk.rules.paigow.tiles import Tile


class Phase(StrEnum):
    BETTING = "betting"  # the bank taken, wagers placed
    SETTING = "setting"  # the players' hands entered as set, then the bank's
    CONFIRM = "confirm"  # rule 13.1.5: the supervisor confirms the House hand
    REVEAL = "reveal"  # matched and settled in the order of the bank's procedure


@dataclass(frozen=True, slots=True)
class SettledRound:
    """A settled round as the players' sign shows it: the bank's hands as exposed (13.1.3,
    13.2.4, 13.3.3) and how many areas won, lost and stood off against them."""

    high: Pair
    low: Pair
    wins: int
    losses: int
    stand_offs: int


@dataclass(frozen=True, slots=True)
class PaiGowState:
    rules: PaiGowRules
    table_id: str = ""
    round: int = 1
    phase: Phase = Phase.BETTING
    washed: bool = False
    """The tiles were washed since the last round was dealt."""
    bank: Bank = Bank.HOUSE
    chung: int = 1
    """The area the chung is on: area one when the House banks (13.1.1)."""
    banker_wager: int = 0
    bets: tuple[tuple[int, int], ...] = ()
    """(area, amount), in area order."""
    hands: tuple[tuple[int, Pair, Pair], ...] = ()
    """(area, high, low) as set, in the order entered."""
    bank_hand: tuple[Pair, Pair] | None = None
    bank_why: str = ""
    """Why the bank's hands are set so: a `Said` (the house way's reason, in words the
    dealer's screen translates) when folded from the record, which keeps its English."""
    confirmed_by: str = ""
    fell_to_cobank: bool = False
    """13.2.2: the player/banker did not cover the declared wagers; 13.3 applies."""
    last: tuple[str, ...] = ()
    """The bank's hands of each round settled, newest last, in words."""
    history: tuple[SettledRound, ...] = ()
    """The rounds settled, newest last: the bank's tiles and the areas' results (the sign)."""

    @property
    def areas(self) -> tuple[int, ...]:
        """The areas with a wager, in area order."""
        return tuple(area for area, _ in self.bets)

    def wager_of(self, area: int) -> int:
        return dict(self.bets).get(area, 0)

    @property
    def declared(self) -> int:
        """The total of the players' declared wagers."""
        return sum(amount for _, amount in self.bets)

    def hand_of(self, area: int) -> tuple[Pair, Pair] | None:
        for a, high, low in self.hands:
            if a == area:
                return high, low
        return None

    @property
    def tiles_in_play(self) -> tuple[Tile, ...]:
        out: list[Tile] = []
        for _, high, low in self.hands:
            out.extend((*high, *low))
        if self.bank_hand is not None:
            out.extend((*self.bank_hand[0], *self.bank_hand[1]))
        return tuple(out)

    def in_order(self) -> tuple[int, ...]:
        """The wagered areas counter clockwise from the chung (13.1.6, 13.2.5, 13.3.5)."""
        n = self.rules.areas
        return tuple(sorted(self.areas, key=lambda a: (a - self.chung) % n))

    @property
    def to_set(self) -> int | None:
        """The next area whose hands are to be entered, in the order from the chung."""
        return next((a for a in self.in_order() if self.hand_of(a) is None), None)
