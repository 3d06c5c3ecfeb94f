"""An Arizona Hold'em table's house rules: its boxes, decks and limits (rules 6.3, 6.4)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from kiosk.rules.money import ChipRule

if TYPE_CHECKING:  # the registry loads the built-in games, this one's config among them
    from kiosk.rules.registry import HouseSettings, SectionReader

MAX_BOXES = 7
MAX_DECKS = 8


@dataclass(frozen=True, slots=True)
class ArizonaRules:
    """`minimum` and `maximum` bound the ante in box "A"; each raise in circle 1 or 2 is
    the ante's amount exactly (rule 6.2: "a bet of equal amount to the ante bet"), so the
    circles' limits are the ante's."""

    minimum: int = 5_000
    maximum: int = 500_000
    boxes: int = MAX_BOXES  # rule 6.3: three circles per player
    decks: int = 1  # rule 6.4: one deck, or as many as the house has approved
    chips: ChipRule = field(default_factory=ChipRule)
    currency: str = "R"

    def __post_init__(self) -> None:
        if not 0 < self.minimum <= self.maximum:
            raise ValueError("the limits must satisfy 0 < minimum <= maximum")
        if not 1 <= self.boxes <= MAX_BOXES:
            raise ValueError(f"an Arizona Hold'em table has 1 to {MAX_BOXES} boxes")
        if not 1 <= self.decks <= MAX_DECKS:
            raise ValueError(f"an Arizona Hold'em table deals from 1 to {MAX_DECKS} decks")
        self.chips.verify_stake(self.minimum)
        self.chips.verify_stake(self.maximum)


SECTION = "arizona"

EXAMPLE = """\
[arizona]
decks = 1                   # rule 6.4: 1 to 8 (one deck, or as the Board approved)
boxes = 7                   # rule 6.3: the players' boxes on the layout, 1 to 7
minimum = 50                # rule 2.2, the ante in box "A": 0.01 to 10_000_000, whole chips
maximum = 5000              # 0.01 to 10_000_000, whole chips, at least the minimum
"""


def parse(reader: SectionReader, house: HouseSettings) -> ArizonaRules:
    """[arizona] in table.toml: the house's choices within section 6."""
    sec = reader.section(SECTION, required=False)
    decks = reader.integer(sec, SECTION, "decks", 1, lo=1, hi=MAX_DECKS, why="rule 6.4")
    boxes = reader.integer(sec, SECTION, "boxes", MAX_BOXES, lo=1, hi=MAX_BOXES,
                           why="rule 6.3")
    minimum = reader.money(sec, SECTION, "minimum", 5_000)
    maximum = reader.money(sec, SECTION, "maximum", 500_000)
    if not 0 < minimum <= maximum:
        reader.fail(SECTION, "maximum", "the minimum must be above zero and at most the "
                                        "maximum")
    for key, amount in (("minimum", minimum), ("maximum", maximum)):
        if amount % house.chips.smallest_chip:
            reader.fail(SECTION, key, "must be whole chips of the table's smallest chip")
    return ArizonaRules(minimum, maximum, boxes, decks, house.chips, house.currency)
