"""The blackjack journal's records: what happened at the table, in the words of the rules.

Each is a frozen Operation the engine (`engine.py`) builds after verifying it and folds with
`apply`; the journal stores them, sync ships them, and replay folds them again. The
journal's registry (kiosk/rules/operations.py) knows them by kind; the game registry
(kiosk/rules/registry.py) knows them as blackjack's.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from kiosk.rules.blackjack.house import BlackjackRules
from kiosk.rules.blackjack.settle import Settlement
from kiosk.rules.cards import Card
from kiosk.rules.operations import CardQuery, Operation, RoundVoid, TableOpening


class CardSource(StrEnum):
    SHOE = "shoe"
    SIMULATED = "simulated"  # read by the shoe simulator (`port = "simulated"`): no real card
    KEYED = "keyed"  # keyed in by the dealer (unread, no shoe, a misread corrected)
    OVERRIDE = "override"  # looked impossible; an inspector accepted it


class Follow(StrEnum):
    """Rule 4.2 item 4e: a player behind the box on a split splits too, or says which hand
    they play before the second card is dealt."""

    BOTH = "both"
    FIRST = "first"
    SECOND = "second"


# --- Operations (kinds are namespaced by the game: "blackjack."; the older "bj_" kinds are
# still read, as aliases) ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableOpened(TableOpening):
    kind: ClassVar[str] = "blackjack.table_opened"
    aliases: ClassVar[tuple[str, ...]] = ("bj_table_opened",)
    game: str
    table_id: str
    rules: BlackjackRules


@dataclass(frozen=True, slots=True)
class CardsShuffled(Operation):
    """Rule 4.1 (shuffle and cut): by hand, or in the shuffling device (4.6)."""

    kind: ClassVar[str] = "blackjack.shuffled"
    aliases: ClassVar[tuple[str, ...]] = ("bj_shuffled",)
    method: str
    new_cards: bool = False


@dataclass(frozen=True, slots=True)
class CutRefused(Operation):
    """Rule 4.3 (shuffle and cut): the player offered the cut refused it."""

    kind: ClassVar[str] = "blackjack.cut_refused"
    aliases: ClassVar[tuple[str, ...]] = ("bj_cut_refused",)
    box: int


@dataclass(frozen=True, slots=True)
class CardsCut(Operation):
    """Rules 4.4-4.5 (shuffle and cut), as the dealer entered them: where the stack was cut
    (cards from the front) and where the cutting card went (cards from the back)."""

    kind: ClassVar[str] = "blackjack.cut"
    aliases: ClassVar[tuple[str, ...]] = ("bj_cut",)
    box: int  # 0 when a supervisor cut (rule 4.3)
    supervisor: str
    cut_at: int
    cutting_card_from_back: int


@dataclass(frozen=True, slots=True)
class CardBurned(Operation):
    """Rule 4.7 (shuffle and cut): the first card, burned face down and never shown."""

    kind: ClassVar[str] = "blackjack.burned"
    aliases: ClassVar[tuple[str, ...]] = ("bj_burned",)
    face_down: ClassVar[bool] = True
    card: Card | None


@dataclass(frozen=True, slots=True)
class CutCardOut(Operation):
    kind: ClassVar[str] = "blackjack.cut_card_out"
    aliases: ClassVar[tuple[str, ...]] = ("bj_cut_card_out",)
    round: int


@dataclass(frozen=True, slots=True)
class BetPlaced(Operation):
    kind: ClassVar[str] = "blackjack.bet_placed"
    aliases: ClassVar[tuple[str, ...]] = ("bj_bet_placed",)
    round: int
    box: int
    player: str
    amount: int


@dataclass(frozen=True, slots=True)
class BetRemoved(Operation):
    kind: ClassVar[str] = "blackjack.bet_removed"
    aliases: ClassVar[tuple[str, ...]] = ("bj_bet_removed",)
    round: int
    box: int
    player: str
    amount: int


@dataclass(frozen=True, slots=True)
class CallerSet(Operation):
    """Rule 4.2 item 2: the dealer ascertained which bet is nearest and calls the box."""

    kind: ClassVar[str] = "blackjack.caller_set"
    aliases: ClassVar[tuple[str, ...]] = ("bj_caller_set",)
    round: int
    box: int
    player: str


@dataclass(frozen=True, slots=True)
class BettingClosed(Operation):
    """ "No more bets" (rule 4.2 item 3)."""

    kind: ClassVar[str] = "blackjack.betting_closed"
    aliases: ClassVar[tuple[str, ...]] = ("bj_betting_closed",)
    round: int


@dataclass(frozen=True, slots=True)
class CardDealt(Operation):
    kind: ClassVar[str] = "blackjack.card_dealt"
    aliases: ClassVar[tuple[str, ...]] = ("bj_card_dealt",)
    round: int
    box: int  # DEALER (0) or the box
    hand: int  # the hand within the box (1 for the dealer)
    card: Card
    source: CardSource = CardSource.SHOE
    by: str = ""


@dataclass(frozen=True, slots=True)
class CardUnread(Operation):
    kind: ClassVar[str] = "blackjack.card_unread"
    aliases: ClassVar[tuple[str, ...]] = ("bj_card_unread",)
    round: int
    box: int
    hand: int


@dataclass(frozen=True, slots=True)
class CardQueried(CardQuery):
    """A card the shoe dealt that the rules do not allow: flagged, never counted silently."""

    kind: ClassVar[str] = "blackjack.card_queried"
    aliases: ClassVar[tuple[str, ...]] = ("bj_card_queried",)
    round: int
    box: int
    hand: int
    card: Card
    reason: str
    message: str


@dataclass(frozen=True, slots=True)
class CardSetAside(Operation):
    """A queried card taken out of play: it left the shoe but belongs to no hand."""

    kind: ClassVar[str] = "blackjack.card_set_aside"
    aliases: ClassVar[tuple[str, ...]] = ("bj_card_set_aside",)
    round: int
    card: Card
    reason: str


@dataclass(frozen=True, slots=True)
class BlackjacksChecked(Operation):
    """Touch 21 (rule 7.2 items 4-5): the players checked their cards; blackjacks face up."""

    kind: ClassVar[str] = "blackjack.blackjacks_checked"
    aliases: ClassVar[tuple[str, ...]] = ("bj_blackjacks_checked",)
    round: int


@dataclass(frozen=True, slots=True)
class InsuranceTaken(Operation):
    kind: ClassVar[str] = "blackjack.insurance_taken"
    aliases: ClassVar[tuple[str, ...]] = ("bj_insurance_taken",)
    round: int
    box: int
    player: str
    amount: int


@dataclass(frozen=True, slots=True)
class EvenMoneyTaken(Operation):
    """Rule 4.7: a blackjack against a dealer ace takes even money, paid at once."""

    kind: ClassVar[str] = "blackjack.even_money"
    aliases: ClassVar[tuple[str, ...]] = ("bj_even_money",)
    round: int
    box: int
    player: str
    settlement: Settlement


@dataclass(frozen=True, slots=True)
class InsuranceClosed(Operation):
    kind: ClassVar[str] = "blackjack.insurance_closed"
    aliases: ClassVar[tuple[str, ...]] = ("bj_insurance_closed",)
    round: int


@dataclass(frozen=True, slots=True)
class Stood(Operation):
    kind: ClassVar[str] = "blackjack.stood"
    aliases: ClassVar[tuple[str, ...]] = ("bj_stood",)
    round: int
    box: int
    hand: int


@dataclass(frozen=True, slots=True)
class Doubled(Operation):
    """Rule 4.2 item 4d: the caller doubles; `players` are every bet that doubles with it
    (those behind may decline); the hand takes one card either way."""

    kind: ClassVar[str] = "blackjack.doubled"
    aliases: ClassVar[tuple[str, ...]] = ("bj_doubled",)
    round: int
    box: int
    hand: int
    players: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Split(Operation):
    """Rule 4.2 item 4e: the caller splits; each player behind splits too or follows one
    hand (`follow`, as (player, Follow) pairs)."""

    kind: ClassVar[str] = "blackjack.split"
    aliases: ClassVar[tuple[str, ...]] = ("bj_split",)
    round: int
    box: int
    hand: int
    follow: tuple[tuple[str, Follow], ...]


@dataclass(frozen=True, slots=True)
class Surrendered(Operation):
    """Rule 4.2 item 4a: the players who give up half their bet on the hand."""

    kind: ClassVar[str] = "blackjack.surrendered"
    aliases: ClassVar[tuple[str, ...]] = ("bj_surrendered",)
    round: int
    box: int
    hand: int
    players: tuple[str, ...]
    settlements: tuple[Settlement, ...]


@dataclass(frozen=True, slots=True)
class BlackjackPaid(Operation):
    """Rule 4.2 item 5: a blackjack paid straight away (the dealer shows 2 to 9)."""

    kind: ClassVar[str] = "blackjack.blackjack_paid"
    aliases: ClassVar[tuple[str, ...]] = ("bj_blackjack_paid",)
    round: int
    box: int
    hand: int
    settlements: tuple[Settlement, ...]


@dataclass(frozen=True, slots=True)
class RoundSettled(Operation):
    """The dealer confirmed every payout of the round."""

    kind: ClassVar[str] = "blackjack.round_settled"
    aliases: ClassVar[tuple[str, ...]] = ("bj_round_settled",)
    round: int
    dealer_cards: tuple[Card, ...]
    hands: tuple[tuple[int, int, tuple[Card, ...]], ...]  # (box, hand, cards)
    settlements: tuple[Settlement, ...]  # settled now
    paid_earlier: tuple[Settlement, ...]  # blackjacks, even money, surrenders


@dataclass(frozen=True, slots=True)
class RoundVoided(RoundVoid):
    """The round is void: every bet not yet settled goes back untouched, each listed in
    `returned` (journals written before it was recorded have none listed)."""

    kind: ClassVar[str] = "blackjack.round_voided"
    aliases: ClassVar[tuple[str, ...]] = ("bj_round_voided",)
    round: int
    reason: str
    by: str = ""
    inspector: str = ""  # rule 2.7: who allowed a void once the result was known
    returned: tuple[Settlement, ...] = ()  # the bets handed back, insurance included
