"""An Arizona Hold'em table's house rules: its boxes, decks and limits (rules 6.3, 6.4)."""

from __future__ import annotations

from dataclasses import dataclass, field

from kiosk.rules.money import ChipRule

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
