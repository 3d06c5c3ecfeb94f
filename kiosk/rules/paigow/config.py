"""A pai gow table's house rules: its areas, limits and house way (section 13)."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

from kiosk.rules.money import ChipRule
from kiosk.rules.paigow.houseway import HouseWay, Way

if TYPE_CHECKING:  # the registry loads the built-in games, this one's config among them
    from kiosk.rules.registry import HouseSettings, SectionReader

MIN_AREAS = 2
MAX_AREAS = 8  # the banker and seven players: every area gets four of the 32 tiles
COMMISSION = Fraction(5, 100)
"""5% of a winning wager, and of a player/banker's winnings (rules 14.1 and 14.2 name it;
they are not in the text this build implements, so the rate is the one the Board approved
for this table: docs/paigow.md)."""


@dataclass(frozen=True, slots=True)
class PaiGowRules:
    """`minimum` and `maximum` bound each player's wager; `areas` are the playing areas on
    the layout, numbered counter clockwise from area one (the House's chung, rule 13.1.1)."""

    minimum: int = 5_000
    maximum: int = 500_000
    areas: int = 7
    house_way: HouseWay = field(default_factory=HouseWay)
    chips: ChipRule = field(default_factory=ChipRule)
    currency: str = "R"

    def __post_init__(self) -> None:
        if not 0 < self.minimum <= self.maximum:
            raise ValueError("the limits must satisfy 0 < minimum <= maximum")
        if not MIN_AREAS <= self.areas <= MAX_AREAS:
            raise ValueError(f"a pai gow table has {MIN_AREAS} to {MAX_AREAS} playing areas")
        self.chips.verify_stake(self.minimum)
        self.chips.verify_stake(self.maximum)

    def commission(self, winnings: int) -> int:
        """5% of `winnings`, rounded by the house's chip rule as an amount owed."""
        return self.chips.round_owed(winnings * COMMISSION)


SECTION = "paigow"

EXAMPLE = """\
[paigow]
areas = 7                   # playing areas, counted counter clockwise from area one: 2 to 8
minimum = 50                # each wager: 0.01 to 10_000_000, whole chips
maximum = 5000              # 0.01 to 10_000_000, whole chips, at least the minimum
house_way = "low-first"     # the House's hands (13.1.2, 13.3.4): "low-first" or "high-first"
split_pairs = false         # true: the house way weighs a pair like any two tiles
"""


def parse(reader: SectionReader, house: HouseSettings) -> PaiGowRules:
    """[paigow] in table.toml: the house's choices within section 13."""
    sec = reader.section(SECTION, required=False)
    areas = reader.integer(sec, SECTION, "areas", 7, lo=MIN_AREAS, hi=MAX_AREAS,
                           why="playing areas")
    minimum = reader.money(sec, SECTION, "minimum", 5_000)
    maximum = reader.money(sec, SECTION, "maximum", 500_000)
    if not 0 < minimum <= maximum:
        reader.fail(SECTION, "maximum", "the minimum must be above zero and at most the "
                                        "maximum")
    for key, amount in (("minimum", minimum), ("maximum", maximum)):
        if amount % house.chips.smallest_chip:
            reader.fail(SECTION, key, "must be whole chips of the table's smallest chip")
    way = reader.choice(sec, SECTION, "house_way", [w.value for w in Way], Way.LOW_FIRST.value)
    split = reader.boolean(sec, SECTION, "split_pairs", False)
    return PaiGowRules(minimum, maximum, areas, HouseWay(Way(way), split), house.chips,
                       house.currency)
