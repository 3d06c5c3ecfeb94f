"""[roulette] in table.toml: the house's choices within rules 2.2 and 3.1-3.5."""

from __future__ import annotations

from kiosk.rules.registry import HouseSettings, SectionReader
from kiosk.rules.roulette.engine import COLOURS, Limits, RouletteRules
from kiosk.rules.roulette.wheel import Wheel

SECTION = "roulette"

EXAMPLE = f"""\
[roulette]
wheel = "single-zero"       # or "double-zero" (call bets, rule 3.4, are then off)
colours = 7                 # colours of wheel chips, one a player (up to {len(COLOURS)})
pay_in_colour_up_to = 100   # a bigger win: this many wheel chips, the rest in value chips

[roulette.limits]           # rule 2.2, shown on the sign
minimum_chip = 5            # the least a wheel chip may be worth at the chip change
straight_up_maximum = 500   # a number; a split takes twice this, a street three times...
outside_maximum = 5000      # a column, a dozen, an even chance
table_maximum = 20000       # one player's chips on one spin
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
            colours=reader.integer(sec, SECTION, "colours", 7),
            pay_in_colour_up_to=reader.integer(sec, SECTION, "pay_in_colour_up_to", 100),
            chips=house.chips,
            currency=house.currency,
        )
    except ValueError as exc:
        key = "colours" if "colour" in str(exc) else "pay_in_colour_up_to"
        reader.fail(SECTION, key, str(exc))
