"""Punto banco's house rules and the values they are made of: bets, hands, phases, limits,
commission (rules 5.2, 5.4, 5.7, 2.2).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from kiosk.rules.cards import Card
from kiosk.rules.money import ChipRule, format_ratio

GAME = "punto-banco"
STANDING = "standing"  # rule 5.2: the area designated for standing players


class BetKind(StrEnum):
    BANKER = "banker"
    PLAYER = "player"
    TIE = "tie"


class Hand(StrEnum):
    PLAYER = "player"
    BANKER = "banker"


class CommissionMode(StrEnum):
    """Rule 5.7: a winning bank bet is paid "at odds of 19:20 or the total of the original
    bets less 5%". NET pays 19:20 at once; COMMISSION pays 1:1 and the 5% is owed by the
    betting area and collected later."""

    NET = "net"
    COMMISSION = "commission"


class Phase(StrEnum):
    BETTING = "betting"  # "place your bets"
    DEALING = "dealing"  # "no more bets": the cards come out of the shoe
    PAYING = "paying"  # coup complete: the dealer checks and confirms every payout


class CardSource(StrEnum):
    SHOE = "shoe"  # read by the shoe
    SIMULATED = "simulated"  # read by the shoe simulator (`port = "simulated"`): no real card
    KEYED = "keyed"  # keyed in by the dealer (unread card, no shoe, a misread corrected)
    OVERRIDE = "override"  # a card that looked impossible, accepted by an inspector


class Outcome(StrEnum):
    WIN = "win"
    LOSE = "lose"
    STAND_OFF = "stand_off"  # rule 5.7: on a tie, banker and player bets stand off


@dataclass(frozen=True, slots=True)
class Limit:
    """Rule 2.2: the table minimum and maximum for one kind of bet, in cents."""

    kind: BetKind
    minimum: int
    maximum: int


DEFAULT_LIMITS = (
    Limit(BetKind.BANKER, 5_000, 5_000_000),
    Limit(BetKind.PLAYER, 5_000, 5_000_000),
    Limit(BetKind.TIE, 1_000, 500_000),
)
DEFAULT_CHIPS = ChipRule()


@dataclass(frozen=True, slots=True)
class PuntoBancoRules:
    """The house's configuration of punto banco; journaled when the table opens."""

    decks: int = 8  # rule 5.4
    areas: int = 7  # rule 5.2: seven to fourteen numbered betting areas
    standing_area: bool = True  # rule 5.2
    limits: tuple[Limit, ...] = DEFAULT_LIMITS
    commission_mode: CommissionMode = CommissionMode.NET
    banker_odds: Fraction = Fraction(19, 20)  # rule 5.7
    commission_rate: Fraction = Fraction(5, 100)  # rule 5.7
    player_odds: Fraction = Fraction(1)  # rule 5.7
    tie_odds: Fraction = Fraction(8)  # rule 5.7
    chips: ChipRule = DEFAULT_CHIPS
    currency: str = "R"

    def __post_init__(self) -> None:
        if not 7 <= self.areas <= 14:
            raise ValueError(f"punto banco has 7 to 14 numbered betting areas (rule 5.2), "
                             f"not {self.areas}")
        if not 1 <= self.decks <= 16:
            raise ValueError(f"a shoe holds 1 to 16 decks, not {self.decks}")
        kinds = [lim.kind for lim in self.limits]
        if sorted(kinds) != sorted(BetKind):
            raise ValueError("limits must name banker, player and tie once each (rule 2.2)")
        for lim in self.limits:
            if not 0 < lim.minimum <= lim.maximum:
                raise ValueError(f"the {lim.kind} limits must satisfy 0 < minimum <= maximum")

    def limit(self, kind: BetKind) -> Limit:
        for lim in self.limits:
            if lim.kind is kind:
                return lim
        raise KeyError(kind)  # pragma: no cover - __post_init__ guarantees all kinds

    def area_ids(self) -> tuple[str, ...]:
        return _area_ids(self.areas, self.standing_area)

    def odds(self) -> tuple[tuple[str, str], ...]:
        """Rule 2.6: the payment odds as the signage shows them."""
        bank = (
            f"{format_ratio(self.banker_odds)}"
            if self.commission_mode is CommissionMode.NET
            else f"1:1 less {self.commission_rate * 100}% commission"
        )
        return (("Banker", bank), ("Player", format_ratio(self.player_odds)),
                ("Tie", format_ratio(self.tie_odds)))


@functools.cache
def _area_ids(areas: int, standing: bool) -> tuple[str, ...]:
    ids = tuple(str(n) for n in range(1, areas + 1))
    return (*ids, STANDING) if standing else ids


@dataclass(frozen=True, slots=True)
class Bet:
    area: str
    kind: BetKind
    amount: int


@dataclass(frozen=True, slots=True)
class PendingCard:
    """A card that needs the dealer's decision before the coup goes on."""

    hand: Hand
    reason: str  # "unread" or "impossible"
    card: Card | None = None
    message: str = ""


@dataclass(frozen=True, slots=True)
class BetSettlement:
    """How one bet was settled. `paid` is the win in chips on top of the returned stake;
    `exact_win` is stake x odds before the chip rule; `rounding` = exact_win - paid."""

    area: str
    kind: BetKind
    stake: int
    outcome: Outcome
    odds: Fraction
    exact_win: Fraction
    paid: int
    rounding: Fraction
    commission: Fraction  # owed to the house by the area (commission mode)

    @property
    def returned(self) -> int:
        """Chips handed back to the area: stake and win, the stake alone, or nothing."""
        if self.outcome is Outcome.WIN:
            return self.stake + self.paid
        return self.stake if self.outcome is Outcome.STAND_OFF else 0

    @property
    def player_net(self) -> Fraction:
        """What the bet gained (+) or lost (-) for its player, commission included."""
        return Fraction(self.returned - self.stake) - self.commission
