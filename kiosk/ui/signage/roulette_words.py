"""What the roulette sign says, from the folded state (pure: tested without drawing).

Rule 2.2 wants the limits shown and rule 2.6 the payment odds; players also follow "place your
bets" / "no more bets" (3.2, 3.4), the winning number, the last 20 numbers with their colours,
the hot and cold numbers and the shares of red/black, odd/even and the dozens over the last
100 spins (the journal's results, not a promise about the next spin).
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.rules.roulette import engine as rl, history
from kiosk.rules.roulette.bets import BetKind
from kiosk.rules.roulette.wheel import colour_of

PAYOUT_ROWS = (("Straight up", BetKind.STRAIGHT), ("Split", BetKind.SPLIT),
               ("Street", BetKind.STREET), ("Corner", BetKind.CORNER),
               ("Six line", BetKind.SIX_LINE), ("Column", BetKind.COLUMN),
               ("Dozen", BetKind.DOZEN), ("Even chances", BetKind.RED))


@dataclass(frozen=True, slots=True)
class RouletteSign:
    headline: str
    number: str | None  # the last winning number (or the one the dolly is on)
    number_colour: str
    last: tuple[tuple[str, str], ...]  # (number, colour), newest first
    hot: tuple[tuple[str, int], ...]
    cold: tuple[tuple[str, int], ...]
    shares: tuple[tuple[str, str], ...]  # ("Red", "48%"), ...
    limits: tuple[tuple[str, str], ...]
    payouts: tuple[tuple[str, str], ...]
    spins_counted: int


def headline(state: rl.RouletteState) -> str:
    if state.phase is rl.Phase.RESULT and state.number is not None:
        return rl.pocket_words(state.number).upper()
    if state.phase is rl.Phase.NO_MORE_BETS:
        return "NO MORE BETS"
    if state.phase is rl.Phase.FINAL_BETS:
        return "FINAL BETS"
    return "PLACE YOUR BETS"


def sign_words(state: rl.RouletteState) -> RouletteSign:
    rules = state.rules
    number = state.number or state.last_number
    pct = history.percentages(state.results)
    w = history.whole_percent
    hot, cold = history.hot_and_cold(state.results, rules.wheel)
    lim = rules.limits
    return RouletteSign(
        headline=headline(state),
        number=number,
        number_colour=colour_of(number).value if number else "",
        last=tuple((n, colour_of(n).value) for n in history.last(state.results, 20)),
        hot=hot,
        cold=cold,
        shares=(("Red", f"{w(pct.red)}%"), ("Black", f"{w(pct.black)}%"),
                ("Odd", f"{w(pct.odd)}%"), ("Even", f"{w(pct.even)}%"),
                ("Zero", f"{w(pct.zero)}%"), ("1st 12", f"{w(pct.dozens[0])}%"),
                ("2nd 12", f"{w(pct.dozens[1])}%"), ("3rd 12", f"{w(pct.dozens[2])}%")),
        limits=(("Minimum chip", rules.money(lim.minimum_chip)),
                ("Straight-up maximum", rules.money(lim.straight_up_maximum)),
                ("Outside maximum", rules.money(lim.outside_maximum)),
                ("Table maximum", rules.money(lim.table_maximum))),
        payouts=tuple((name, f"{kind.pays} to 1") for name, kind in PAYOUT_ROWS),
        spins_counted=pct.spins,
    )
