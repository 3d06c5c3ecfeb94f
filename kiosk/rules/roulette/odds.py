"""The house edge of every roulette bet, from the engine's own payout code (`tableside odds
roulette`): each bet is settled on every pocket of the wheel, one result per pocket, and the
net over the wheel divided by the stakes is the edge, an exact Fraction."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from kiosk.rules.roulette.bets import BetKind, CallBet, Placement, call_bet, placement
from kiosk.rules.roulette.engine import RouletteRules, payout_for
from kiosk.rules.roulette.wheel import Wheel


@dataclass(frozen=True, slots=True)
class BetOdds:
    bet: str
    pays: str  # "35:1", or "call" for a call bet
    chips: int
    covers: int  # pockets on which it wins something
    house_edge: Fraction

    def as_json(self) -> dict[str, object]:
        return {"bet": self.bet, "pays": self.pays, "chips": self.chips, "covers": self.covers,
                "house_edge": f"{self.house_edge.numerator}/{self.house_edge.denominator}",
                "house_edge_percent": percent(self.house_edge)}


def percent(edge: Fraction) -> str:
    """An edge as a percentage to four places, rounded half up, with integers only."""
    scaled = edge * 1_000_000
    n = (scaled.numerator * 2 + scaled.denominator) // (2 * scaled.denominator)
    return f"{n // 10_000}.{n % 10_000:04d}%"


def edge_of(rules: RouletteRules, pieces: tuple[Placement, ...]) -> tuple[Fraction, int]:
    """The house edge of `pieces` staked together, and how many pockets pay something."""
    net, winning = 0, 0
    staked = sum(p.chips for p in pieces)
    for pocket in rules.wheel.order:
        pay = payout_for(rules, "any", 1, list(pieces), pocket)
        net += pay.won - pay.lost
        winning += pay.won > 0
    return Fraction(-net, staked * rules.wheel.pockets), winning


def examples(wheel: Wheel) -> list[tuple[str, tuple[Placement, ...], str]]:
    """One of every bet the layout and the calls offer on `wheel`."""
    zero_street = ("0", "1", "2")
    out: list[tuple[str, tuple[Placement, ...], str]] = [
        ("straight 17", (placement(BetKind.STRAIGHT, 1, ("17",), wheel=wheel),), "35:1"),
        ("straight 0", (placement(BetKind.STRAIGHT, 1, ("0",), wheel=wheel),), "35:1"),
        ("split 17/20", (placement(BetKind.SPLIT, 1, ("17", "20"), wheel=wheel),), "17:1"),
        ("street 13-15", (placement(BetKind.STREET, 1, ("13", "14", "15"), wheel=wheel),),
         "11:1"),
        ("street 0/1/2", (placement(BetKind.STREET, 1, zero_street, wheel=wheel),), "11:1"),
        ("corner 17/18/20/21", (placement(BetKind.CORNER, 1, ("17", "18", "20", "21"),
                                          wheel=wheel),), "8:1"),
        ("six line 31-36", (placement(BetKind.SIX_LINE, 1, tuple(str(n) for n in
                                                                  range(31, 37)),
                                      wheel=wheel),), "5:1"),
        ("column 2", (placement(BetKind.COLUMN, 1, which=2, wheel=wheel),), "2:1"),
        ("dozen 25-36", (placement(BetKind.DOZEN, 1, which=3, wheel=wheel),), "2:1"),
    ]
    if wheel is Wheel.SINGLE_ZERO:
        out.append(("corner 0/1/2/3", (placement(BetKind.CORNER, 1, ("0", "1", "2", "3")),),
                    "8:1"))
    else:
        out.append(("split 0/00", (placement(BetKind.SPLIT, 1, ("0", "00"), wheel=wheel),),
                    "17:1"))
    for kind in (BetKind.RED, BetKind.BLACK, BetKind.ODD, BetKind.EVEN, BetKind.LOW,
                 BetKind.HIGH):
        out.append((kind.value, (placement(kind, 1, wheel=wheel),), "1:1"))
    if wheel is Wheel.SINGLE_ZERO:
        for call in CallBet:
            number = "17" if call is CallBet.NEIGHBOURS else None
            name = call.value if number is None else "17 and the neighbours"
            out.append((name, call_bet(call, 1, number), "call"))
    return out


def table(rules: RouletteRules) -> list[BetOdds]:
    out = []
    for name, pieces, pays in examples(rules.wheel):
        edge, covers = edge_of(rules, pieces)
        out.append(BetOdds(name, pays, sum(p.chips for p in pieces), covers, edge))
    return out
