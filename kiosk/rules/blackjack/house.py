"""The house's configuration of a blackjack table: standard blackjack (section 4) or Touch 21
(section 7), on the same engine.

Where the rules leave a choice to the casino ("enquire with the Casino licensee as to what the
house Rules are", rule 4.2), it is a field here, journaled when the table opens; the defaults
follow docs/architecture.md, "Readings where the rules are silent".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

from kiosk.rules.money import ChipRule, format_money, format_ratio

BOXES = 7  # rules 4.3, 7.3: seven marked boxes


class Variant(StrEnum):
    STANDARD = "blackjack"  # section 4
    TOUCH_21 = "touch-21"  # section 7


class DealerBlackjackTakes(StrEnum):
    """With no hole card the players double and split before the dealer's second card; what a
    dealer blackjack then takes is a house setting (our reading): ALL the bets on the hand, or
    only the ORIGINAL bet (the doubles and split bets go back)."""

    ALL = "all"
    ORIGINAL = "original"


class SplitMatch(StrEnum):
    """Rule 4.2 item 4e "a pair of cards of equal face value": any two ten-value cards (VALUE,
    the default reading) or only two of the same rank (RANK)."""

    VALUE = "value"
    RANK = "rank"


@dataclass(frozen=True, slots=True)
class BlackjackRules:
    """One table's house rules. Money in cents, ratios as Fractions."""

    variant: Variant = Variant.STANDARD
    decks: int = 6  # rule 4.5: four to eight decks; rule 7.5: one or two for Touch 21
    boxes: int = BOXES
    minimum: int = 5_000  # rule 2.2, per bet on a box
    maximum: int = 1_000_000
    dealer_hits_soft_17: bool = False  # rule 4.2: stands on 17; rule 7.2: draws soft 17
    surrender: bool = False  # rule 4.2 item 4a: a house option; rule 7.2 item 8: never in Touch 21
    double_after_split: bool = True  # rule 4.2 item 4e: "the Player may double or split"
    max_hands: int = 4  # docs/architecture.md: resplits up to four hands per box
    resplit_aces: bool = False  # rule 4.2 item 4e: aces split once, one card each
    split_match: SplitMatch = SplitMatch.VALUE
    dealer_blackjack_takes: DealerBlackjackTakes = DealerBlackjackTakes.ALL
    blackjack_odds: Fraction = Fraction(3, 2)  # rules 4.7, 7.7
    insurance_odds: Fraction = Fraction(2)  # rules 4.7, 7.7
    even_money: bool = True  # rules 4.7, 7.7
    shuffler: bool = False  # rule 4.6 (shuffle and cut): a shuffling device, no cut
    chips: ChipRule = field(default_factory=ChipRule)
    currency: str = "R"

    def __post_init__(self) -> None:
        low, high, clause = ((4, 8, "4.5") if self.variant is Variant.STANDARD
                             else (1, 2, "7.5"))
        if not low <= self.decks <= high:
            raise ValueError(f"{self.game_name} is played with {low} to {high} decks "
                             f"(rule {clause}), not {self.decks}")
        if not 1 <= self.boxes <= BOXES:
            raise ValueError(f"the layout has {BOXES} boxes (rule 4.3), not {self.boxes}")
        if not 0 < self.minimum <= self.maximum:
            raise ValueError("the limits must satisfy 0 < minimum <= maximum (rule 2.2)")
        if self.variant is Variant.TOUCH_21 and self.surrender:
            raise ValueError("surrender is not permitted in Touch 21 (rule 7.2 item 8)")
        if self.variant is Variant.TOUCH_21 and not self.dealer_hits_soft_17:
            raise ValueError("in Touch 21 the dealer draws on soft 17 (rule 7.2)")
        if self.resplit_aces:
            raise ValueError("aces may only be split once (rule 4.2 item 4e); resplitting "
                             "aces is not offered")
        if not 2 <= self.max_hands <= 8:
            raise ValueError(f"a box may split into 2 to 8 hands, not {self.max_hands}")
        if self.minimum % self.chips.smallest_chip or self.maximum % self.chips.smallest_chip:
            raise ValueError("the limits must be whole chips of the smallest chip")


    @classmethod
    def touch_21(cls, **changes: object) -> BlackjackRules:
        """Section 7: one or two decks, the dealer draws soft 17, no surrender."""
        base: dict[str, object] = {"variant": Variant.TOUCH_21, "decks": 2,
                                   "dealer_hits_soft_17": True, "surrender": False}
        base.update(changes)
        return cls(**base)  # type: ignore[arg-type]

    @property
    def game_name(self) -> str:
        return "Touch 21" if self.variant is Variant.TOUCH_21 else "Blackjack"

    @property
    def dealer_rule(self) -> str:
        """The dealer's drawing rule in the words the signage shows (rules 4.2, 7.2)."""
        if self.dealer_hits_soft_17:
            return "Dealer draws to soft 17, stands on hard 17"
        return "Dealer draws to 16, stands on all 17s"

    @property
    def rule_clause(self) -> str:
        return "7.2" if self.variant is Variant.TOUCH_21 else "4.2"

    def odds(self) -> tuple[tuple[str, str], ...]:
        """Rule 2.6 with rules 4.7 / 7.7: the payment odds as the signage shows them."""
        rows = [("Blackjack", format_ratio(self.blackjack_odds)),
                ("Insurance", format_ratio(self.insurance_odds))]
        if self.even_money:
            rows.append(("Even money", "1:1"))
        if self.surrender:
            rows.append(("Surrender", "half the bet back"))
        return tuple(rows)

    def limits_text(self) -> str:
        return (f"{format_money(self.minimum, self.currency)} – "
                f"{format_money(self.maximum, self.currency)}")
