"""What the roulette sign says, from the folded state (pure: tested without drawing).

Rule 2.2 wants the limits shown and rule 2.6 the payment odds; players also follow "place your
bets" / "no more bets" (3.2, 3.4), the winning number, the last 20 numbers with their colours,
the hot and cold numbers and the shares of red/black, odd/even and the dozens over the last
100 spins (the journal's results, not a promise about the next spin).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from kiosk.i18n import N_, _, money, ngettext, number as count, percent
from kiosk.rules.roulette import engine as rl, history
from kiosk.rules.roulette.bets import BetKind
from kiosk.rules.roulette.wheel import Colour, colour_of

# TRANSLATORS: the roulette bets and what they are called on the sign's payout table.
PAYOUT_ROWS = ((N_("Straight up"), BetKind.STRAIGHT), (N_("Split"), BetKind.SPLIT),
               (N_("Street"), BetKind.STREET), (N_("Corner"), BetKind.CORNER),
               (N_("Six line"), BetKind.SIX_LINE), (N_("Column"), BetKind.COLUMN),
               (N_("Dozen"), BetKind.DOZEN), (N_("Even chances"), BetKind.RED))
# TRANSLATORS: the captions of rule 2.2's limits on the roulette sign, in capitals.
LIMITS = (("Minimum chip", N_("MIN CHIP")), ("Straight-up maximum", N_("STRAIGHT UP")),
          ("Outside maximum", N_("OUTSIDE")), ("Table maximum", N_("TABLE MAX")))
"""Rule 2.2's limits: each one's name (a key, in English) and its caption on the sign."""
# TRANSLATORS: the winning number and its pocket's colour, as the headline calls it.
POCKET_WORDS = {Colour.RED: N_("%(number)s red"), Colour.BLACK: N_("%(number)s black"),
                Colour.GREEN: N_("%(number)s green")}


@dataclass(frozen=True, slots=True)
class RouletteSign:
    headline: str
    number: str | None  # the last winning number (or the one the dolly is on)
    number_colour: str
    last: tuple[tuple[str, str], ...]  # (number, colour), newest first
    hot: tuple[tuple[str, int], ...]
    cold: tuple[tuple[str, int], ...]
    shares: tuple[tuple[str, str], ...]  # ("Red", "48%"), ...
    limits: tuple[tuple[str, str], ...]  # ("Minimum chip", "R5"), ... (names: keys)
    limit_captions: tuple[str, ...]  # "MIN CHIP", ... (the sign's short words for `limits`)
    payouts: tuple[tuple[str, str], ...]
    spins_counted: int
    shares_text: str  # the shares of the last spins, in lines
    hot_cold_text: str


def headline(state: rl.RouletteState) -> str:
    if state.phase is rl.Phase.RESULT and state.number is not None:
        return (_(POCKET_WORDS[colour_of(state.number)]) % {"number": state.number}).upper()
    if state.phase is rl.Phase.NO_MORE_BETS:
        return _("NO MORE BETS")
    if state.phase is rl.Phase.FINAL_BETS:
        return _("FINAL BETS")
    return _("PLACE YOUR BETS")


def shares_words(spins: int, shares: dict[str, str]) -> str:
    """The shares of the last spins, four lines for the sign."""
    return "\n".join((
        ngettext("Last %(n)s spin", "Last %(n)s spins", spins) % {"n": count(spins)},
        _("Red %(red)s · Black %(black)s") % {"red": shares["Red"],
                                             "black": shares["Black"]},
        _("Odd %(odd)s · Even %(even)s · Zero %(zero)s") % {
            "odd": shares["Odd"], "even": shares["Even"], "zero": shares["Zero"]},
        _("Dozens %(first)s · %(second)s · %(third)s") % {
            "first": shares["1st 12"], "second": shares["2nd 12"], "third": shares["3rd 12"]}))


def hot_cold_words(hot: tuple[tuple[str, int], ...], cold: tuple[tuple[str, int], ...]
                   ) -> str:
    """The hot and cold numbers with how often each came: "Hot: 17 (3)  32 (2)"."""
    def listed(numbers: tuple[tuple[str, int], ...]) -> str:
        return "  ".join(f"{n} ({count(c)})" for n, c in numbers)

    return (_("Hot: %(numbers)s") % {"numbers": listed(hot)} + "\n"
            + _("Cold: %(numbers)s") % {"numbers": listed(cold)})


def sign_words(state: rl.RouletteState) -> RouletteSign:
    rules = state.rules
    number = state.number or state.last_number
    pct = history.percentages(state.results)

    def w(share: Fraction) -> str:
        return percent(Fraction(history.whole_percent(share), 100))

    hot, cold = history.hot_and_cold(state.results, rules.wheel)
    lim = rules.limits
    shares = (("Red", w(pct.red)), ("Black", w(pct.black)), ("Odd", w(pct.odd)),
              ("Even", w(pct.even)), ("Zero", w(pct.zero)), ("1st 12", w(pct.dozens[0])),
              ("2nd 12", w(pct.dozens[1])), ("3rd 12", w(pct.dozens[2])))
    amounts = (lim.minimum_chip, lim.straight_up_maximum, lim.outside_maximum,
               lim.table_maximum)
    return RouletteSign(
        headline=headline(state),
        number=number,
        number_colour=colour_of(number).value if number else "",
        last=tuple((n, colour_of(n).value) for n in history.last(state.results, 20)),
        hot=hot,
        cold=cold,
        shares=shares,
        limits=tuple((name, money(cents, rules.currency))
                     for (name, _caption), cents in zip(LIMITS, amounts, strict=True)),
        limit_captions=tuple(_(caption) for _name, caption in LIMITS),
        payouts=tuple((_(name), _("%(n)s to 1") % {"n": kind.pays})
                      for name, kind in PAYOUT_ROWS),
        spins_counted=pct.spins,
        shares_text=shares_words(pct.spins, dict(shares)),
        hot_cold_text=hot_cold_words(hot, cold),
    )
