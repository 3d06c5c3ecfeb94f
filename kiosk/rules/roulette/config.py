"""[roulette] in table.toml: the house's choices within rules 2.2 and 3.1-3.5."""

from __future__ import annotations

from kiosk.rules.registry import HouseSettings, SectionReader
from kiosk.rules.roulette.engine import COLOURS, Limits, RouletteRules
from kiosk.rules.roulette.wheel import Wheel

SECTION = "roulette"
MAX_IN_COLOUR = 1_000
"""The most wheel chips a win is paid in (`pay_in_colour_up_to`)."""

EXAMPLE = f"""\
[roulette]
wheel = "single-zero"       # or "double-zero" (call bets, rule 3.4, are then off)
colours = 7                 # colours of wheel chips, one a player: 1 to {len(COLOURS)}
pay_in_colour_up_to = 100   # 1 to {MAX_IN_COLOUR}: wheel chips a win is paid in; more: value chips

[roulette.limits]           # rule 2.2, shown on the sign; each 5 to 10_000_000 in whole chips
minimum_chip = 5            # 5 to 10_000_000: the least a wheel chip is worth at the change
straight_up_maximum = 500   # 5 to 10_000_000: a number; a split takes twice this...
outside_maximum = 5000      # 5 to 10_000_000: a column, a dozen, an even chance
table_maximum = 20000       # 5 to 10_000_000: one player's chips on one spin
"""


def parse(reader: SectionReader, house: HouseSettings) -> RouletteRules:
    sec = reader.section(SECTION, required=False)
    lim = reader.table(sec, SECTION, "limits")
    where = f"{SECTION}.limits"
    defaults = Limits()
    amounts = {key: reader.money(lim, where, key, getattr(defaults, key))
               for key in ("minimum_chip", "straight_up_maximum", "outside_maximum",
                           "table_maximum")}
    for key, cents in amounts.items():
        if cents <= 0 or cents % house.chips.smallest_chip:
            reader.fail(where, key, "must be a whole number of the smallest chip")
    try:
        limits = Limits(**amounts)
    except ValueError as exc:
        reader.fail(where, "table_maximum", str(exc))
    try:
        return RouletteRules(
            wheel=Wheel(reader.choice(sec, SECTION, "wheel", [w.value for w in Wheel],
                                      Wheel.SINGLE_ZERO.value)),
            limits=limits,
            colours=reader.integer(sec, SECTION, "colours", 7, lo=1, hi=len(COLOURS),
                                   why="colours of wheel chips, one a player"),
            pay_in_colour_up_to=reader.integer(
                sec, SECTION, "pay_in_colour_up_to", 100, lo=1, hi=MAX_IN_COLOUR,
                why="wheel chips: a bigger win is paid this many in colour, the rest in "
                    "value chips"),
            chips=house.chips,
            currency=house.currency,
        )
    except ValueError as exc:
        key = "colours" if "colour" in str(exc) else "pay_in_colour_up_to"
        reader.fail(SECTION, key, str(exc))
