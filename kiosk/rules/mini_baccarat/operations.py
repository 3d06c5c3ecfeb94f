"""Mini baccarat's own journal records: its opening and the shuffler malfunction procedure
(rules 12.1-12.5). The coup's records (bets, cards, settlement, void) are punto banco's: the
two games are one family (`kiosk/rules/mini_baccarat/spec.py`)."""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.rules.baccarat.house import Bet
from kiosk.rules.cards import Card
from kiosk.rules.mini_baccarat.house import Branch, Device, Fact, MiniBaccaratRules, Who
from kiosk.rules.operations import Operation, RoundVoid, TableOpening


@dataclass(frozen=True, slots=True)
class TableOpened(TableOpening):
    kind = "mini_baccarat.table_opened"
    game: str
    table_id: str
    rules: MiniBaccaratRules


@dataclass(frozen=True, slots=True)
class ShufflerMalfunctioned(Operation):
    """Rule 12.1.2: the shuffling device can no longer operate as intended, in a coup for
    which `cards_dealt` cards have been dealt. `by`: the shuffler's own report or the
    dealer's button; `detail` what it said."""

    kind = "mini_baccarat.shuffler_malfunctioned"
    coup: int
    cards_dealt: int
    detail: str
    by: Who


@dataclass(frozen=True, slots=True)
class FactEstablished(Operation):
    """One fact of rules 12.1.3-12.1.5 and 12.3, as the dealer or the inspector found it."""

    kind = "mini_baccarat.fact_established"
    coup: int
    fact: Fact
    answer: bool
    by: Who


@dataclass(frozen=True, slots=True)
class DamagedCardsRemoved(Operation):
    """Rules 12.3.1, 12.5.2: the damaged cards, removed from play."""

    kind = "mini_baccarat.damaged_cards_removed"
    coup: int
    cards: tuple[Card, ...]
    by: Who


@dataclass(frozen=True, slots=True)
class CardsTransferred(Operation):
    """Rules 12.2, 12.3.2: the (undamaged) cards moved into the spare shuffling device."""

    kind = "mini_baccarat.cards_transferred"
    coup: int
    by: Who


@dataclass(frozen=True, slots=True)
class DamagedCardsReplaced(Operation):
    """Rules 12.3.3, 12.5.2: as many cards from a new deck as were removed."""

    kind = "mini_baccarat.damaged_cards_replaced"
    coup: int
    cards: int
    by: Who


@dataclass(frozen=True, slots=True)
class WagerOffered(Operation):
    """Rule 12.5.1: a seat's player was offered the wagers back; `returned` is the
    player's choice, `bets` the wagers (handed back when `returned`)."""

    kind = "mini_baccarat.wager_offered"
    coup: int
    area: str
    bets: tuple[Bet, ...]
    returned: bool
    by: Who


@dataclass(frozen=True, slots=True)
class CardsReshuffled(Operation):
    """Rule 12.5.3: the replacement and undamaged cards shuffled as under rule 4."""

    kind = "mini_baccarat.cards_reshuffled"
    coup: int
    by: Who


@dataclass(frozen=True, slots=True)
class CutRefused(Operation):
    """Rule 12.5.3 by rule 4.3 (shuffle and cut): the seat offered the cut refused it."""

    kind = "mini_baccarat.cut_refused"
    coup: int
    seat: int


@dataclass(frozen=True, slots=True)
class CardsCut(Operation):
    """Rule 12.5.3 by rules 4.2-4.5 (shuffle and cut): who cut (a seat, or a supervisor),
    where, and where the cutting card went."""

    kind = "mini_baccarat.cards_cut"
    coup: int
    seat: int | None
    supervisor: str
    cut_at: int
    cutting_card_from_back: int


@dataclass(frozen=True, slots=True)
class CoupContinued(Operation):
    """Rules 12.2, 12.3.4, 12.5.4: the coup goes on from `device` (the spare shuffler, or a
    dealing shoe for the players who stayed)."""

    kind = "mini_baccarat.coup_continued"
    coup: int
    device: Device
    branch: Branch
    by: Who


@dataclass(frozen=True, slots=True)
class CoupTerminated(RoundVoid):
    """Rule 12.4 (or 12.5.1 when every player took the wagers back): the coup ends and
    every wager still on the layout is returned, listed per area."""

    kind = "mini_baccarat.coup_terminated"
    coup: int
    returned: tuple[Bet, ...]
    branch: Branch
    by: Who
