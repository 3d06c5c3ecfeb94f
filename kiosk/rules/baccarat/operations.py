"""Punto banco's journal records: each thing that can happen at the table, as it is journaled."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from kiosk.rules.baccarat.house import BetKind, BetSettlement, CardSource, Hand, PuntoBancoRules
from kiosk.rules.baccarat.outcomes import CoupResult
from kiosk.rules.cards import Card
from kiosk.rules.operations import CardQuery, Operation, RoundVoid, TableOpening


@dataclass(frozen=True, slots=True)
class TableOpened(TableOpening):
    kind = "punto_banco.table_opened"
    aliases = ("table_opened",)
    game: str
    table_id: str
    rules: PuntoBancoRules


@dataclass(frozen=True, slots=True)
class ShoeShuffled(Operation):
    """Rule 5.5: the cards are shuffled before the first cards are dealt."""

    kind = "punto_banco.shoe_shuffled"
    aliases = ("shoe_shuffled",)
    decks: int
    method: str = "hand"  # "hand" or "shuffler"


@dataclass(frozen=True, slots=True)
class BetPlaced(Operation):
    kind = "punto_banco.bet_placed"
    aliases = ("bet_placed",)
    coup: int
    area: str
    bet: BetKind
    amount: int


@dataclass(frozen=True, slots=True)
class BetRemoved(Operation):
    kind = "punto_banco.bet_removed"
    aliases = ("bet_removed",)
    coup: int
    area: str
    bet: BetKind
    amount: int


@dataclass(frozen=True, slots=True)
class BettingClosed(Operation):
    """ "No more bets" (rule 5.6)."""

    kind = "punto_banco.betting_closed"
    aliases = ("betting_closed",)
    coup: int


@dataclass(frozen=True, slots=True)
class CardDealt(Operation):
    kind = "punto_banco.card_dealt"
    aliases = ("card_dealt",)
    coup: int
    hand: Hand
    card: Card
    source: CardSource = CardSource.SHOE
    by: str = ""  # who accepted an override


@dataclass(frozen=True, slots=True)
class CardUnread(Operation):
    """A card left the shoe but could not be read: the dealer keys it in."""

    kind = "punto_banco.card_unread"
    aliases = ("card_unread",)
    coup: int
    hand: Hand


@dataclass(frozen=True, slots=True)
class CardQueried(CardQuery):
    """A card the shoe reported that the rules do not allow: flagged, never counted silently."""

    kind = "punto_banco.card_queried"
    aliases = ("card_queried",)
    coup: int
    hand: Hand
    card: Card
    message: str


@dataclass(frozen=True, slots=True)
class CardBurned(Operation):
    kind = "punto_banco.card_burned"
    aliases = ("card_burned",)
    face_down = True
    card: Card | None  # never shown; None when the shoe could not read it


@dataclass(frozen=True, slots=True)
class CutCardOut(Operation):
    """The cutting card came out: this coup is the last of the shoe."""

    kind = "punto_banco.cut_card_out"
    aliases = ("cut_card_out",)
    coup: int


@dataclass(frozen=True, slots=True)
class CoupSettled(Operation):
    """The dealer confirmed every payout of the coup (rule 5.7)."""

    kind = "punto_banco.coup_settled"
    aliases = ("coup_settled",)
    coup: int
    result: CoupResult
    player_cards: tuple[Card, ...]
    banker_cards: tuple[Card, ...]
    settlements: tuple[BetSettlement, ...]


@dataclass(frozen=True, slots=True)
class CoupVoided(RoundVoid):
    """The coup is void: every bet goes back to its area untouched."""

    kind = "punto_banco.coup_voided"
    aliases = ("coup_voided",)
    coup: int
    reason: str
    by: str = ""


@dataclass(frozen=True, slots=True)
class CommissionCollected(Operation):
    """Commission mode (rule 5.7): the 5% an area owes, collected in whole chips."""

    kind = "punto_banco.commission_collected"
    aliases = ("commission_collected",)
    area: str
    owed: Fraction
    collected: int
    rounding: Fraction
