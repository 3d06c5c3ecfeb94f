"""Arizona Hold'em's records: what happened at the table, in the words of section 6.

Every card is dealt face down (rule 6.2), so the records that carry a dealt card are
`face_down`: the players' signs show a community card only when `CommunityTurned` says it
was turned, and a player's cards only in the round's `Settled` record (the reveal).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from kiosk.rules.arizona.config import ArizonaRules
from kiosk.rules.cards import Card
from kiosk.rules.operations import CardQuery, Operation, RoundVoid, TableOpening

COMMUNITY = 0
"""The place of a community card in `CardDealt.box` (the players' boxes are 1 to 7)."""


@dataclass(frozen=True, slots=True)
class ArizonaOpened(TableOpening):
    kind: ClassVar[str] = "arizona.table_opened"
    game: str
    table_id: str
    rules: ArizonaRules


@dataclass(frozen=True, slots=True)
class Shuffled(Operation):
    """Rule 6.5: the cards were shuffled for the next hand."""

    kind: ClassVar[str] = "arizona.shuffled"


@dataclass(frozen=True, slots=True)
class AntePlaced(Operation):
    """Rule 6.2: a bet in box "A" (the ante) of a player's box."""

    kind: ClassVar[str] = "arizona.ante_placed"
    box: int
    amount: int


@dataclass(frozen=True, slots=True)
class AnteTakenBack(Operation):
    """The ante of a box handed back before "no more bets"."""

    kind: ClassVar[str] = "arizona.ante_taken_back"
    box: int


@dataclass(frozen=True, slots=True)
class BettingClosed(Operation):
    """Rule 6.2: "No more bets thank you"."""

    kind: ClassVar[str] = "arizona.betting_closed"


@dataclass(frozen=True, slots=True)
class CardDealt(Operation):
    """One card of the deal, face down, to a box (1-7) or to community box `slot` (box 0)."""

    kind: ClassVar[str] = "arizona.card_dealt"
    face_down: ClassVar[bool] = True
    box: int
    slot: int
    card: Card


@dataclass(frozen=True, slots=True)
class CardQueried(CardQuery):
    """A card read when none may be dealt, or out of rule 6.2's order: the dealer decides."""

    kind: ClassVar[str] = "arizona.card_queried"
    card: Card | None
    message: str


@dataclass(frozen=True, slots=True)
class QueryAccepted(Operation):
    """An inspector accepted the queried card (one the pack seemed unable to hold again, or
    one read out of turn): it is dealt, face down, to the next place of rule 6.2's order."""

    kind: ClassVar[str] = "arizona.query_accepted"
    face_down: ClassVar[bool] = True
    inspector: str
    box: int
    slot: int
    card: Card


@dataclass(frozen=True, slots=True)
class Misdealt(Operation):
    """Rule 6.2: a card exposed or the wrong number dealt. The hand is dealt again after a
    new shuffle (rule 6.5); no bet is lost, so nothing is paid or taken."""

    kind: ClassVar[str] = "arizona.misdealt"
    round: int
    reason: str
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Raised(Operation):
    """Rule 6.2: a bet equal to the ante placed in circle 1 or 2 of a box."""

    kind: ClassVar[str] = "arizona.raised"
    box: int
    circle: int
    amount: int


@dataclass(frozen=True, slots=True)
class Checked(Operation):
    """Rule 6.2: the player of a box chose not to raise in circle 1 or 2."""

    kind: ClassVar[str] = "arizona.checked"
    box: int
    circle: int


@dataclass(frozen=True, slots=True)
class CommunityTurned(Operation):
    """Rule 6.2: a community card turned face up, after every player decided its circle."""

    kind: ClassVar[str] = "arizona.community_turned"
    slot: int
    card: Card


@dataclass(frozen=True, slots=True)
class Burned(Operation):
    kind: ClassVar[str] = "arizona.burned"
    face_down: ClassVar[bool] = True
    card: Card | None


@dataclass(frozen=True, slots=True)
class CutCardOut(Operation):
    kind: ClassVar[str] = "arizona.cut_card_out"


@dataclass(frozen=True, slots=True)
class BoxResult:
    """One box at the reveal: its five cards, the hand, and each circle's bet and result."""

    box: int
    cards: tuple[Card, ...]
    hand: str
    odds: int | None
    """Rule 6.6's odds to one, or None: below a pair of tens, every bet of the box loses."""
    ante: int
    first: int
    second: int
    net: int
    """What the box wins (above its stakes) or, negative, loses."""


@dataclass(frozen=True, slots=True)
class Settled(Operation):
    """The reveal, left to right (rule 6.2), and every bet paid at rule 6.6's table."""

    kind: ClassVar[str] = "arizona.round_settled"
    round: int
    community: tuple[Card, ...]
    boxes: tuple[BoxResult, ...]


@dataclass(frozen=True, slots=True)
class Voided(RoundVoid):
    """Rule 2.7: the round is void and every bet goes back."""

    kind: ClassVar[str] = "arizona.round_voided"
    round: int
    reason: str
