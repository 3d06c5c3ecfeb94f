"""The blackjack table's state: the bets on the boxes, the hands, the dealer's cards, the
shoe and its preparation (rules 4.1-4.7; shuffle and cut 4.1-4.7). Frozen values; the fold
(`fold.py`) makes each new state.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from kiosk.rules.blackjack.cut import ShoePrep
from kiosk.rules.blackjack.hands import Total, is_blackjack, total_of_points
from kiosk.rules.blackjack.house import BlackjackRules
from kiosk.rules.blackjack.operations import RoundSettled
from kiosk.rules.blackjack.settle import Settlement
from kiosk.rules.cards import Card, ShoeContents
from kiosk.rules.errors import NotAllowed, Said

DEALER = 0  # the dealer's hand, where a box number would go


NOBODY = -1  # a card no hand may take


class Phase(StrEnum):
    BETTING = "betting"  # "place your bets please" (rule 4.2 item 1, 7.2 item 1)
    DEALING = "dealing"  # "no more bets": the first two cards (item 3)
    CHECK = "check"  # Touch 21: players check for blackjack, turn it face up (7.2 items 4-5)
    INSURANCE = "insurance"  # the dealer shows an ace (rule 4.7, 7.2 item 6)
    PLAYING = "playing"  # the boxes decide in turn (item 4)
    DEALER = "dealer"  # the dealer's hand
    PAYING = "paying"  # the round is complete: the dealer pays and confirms


# --- Values --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Stake:
    """One player's bet on a box before the deal. Order matters: the first on a box is the
    bet nearest the dealer and calls the box (rule 4.2 item 2; in Touch 21 the players say
    who calls, rule 7.2 item 2); the others play behind."""

    box: int
    player: str
    amount: int



@dataclass(frozen=True, slots=True)
class HandBet:
    """One player's money on one hand."""

    player: str
    amount: int
    original: bool = True  # their original bet (a split's added bet is False)
    doubled: int = 0  # rule 4.2 item 4d: the added bet of a double
    surrendered: bool = False
    settled: bool = False  # paid at once (a blackjack, even money)


    @property
    def stake(self) -> int:
        return self.amount + self.doubled

    @property
    def active(self) -> bool:
        return not (self.surrendered or self.settled)


@dataclass(frozen=True, slots=True)
class PlayerHand:
    box: int
    number: int  # 1, 2, ... within the box (more than one after a split)
    bets: tuple[HandBet, ...]
    cards: tuple[Card, ...] = ()
    points: tuple[int, ...] = ()
    split: bool = False  # made by a split: two cards to 21 are not a blackjack
    split_aces: bool = False  # rule 4.2 item 4e: one card on each split ace
    doubled: bool = False  # rule 4.2 item 4d: one card only
    stood: bool = False


    @property
    def total(self) -> Total:
        return total_of_points(self.points)

    @property
    def blackjack(self) -> bool:
        """Rule 4.2 item 5: an ace and a ten-value card as the box's first two cards (two
        cards to 21 after a split are not a blackjack)."""
        p = self.points
        return len(p) == 2 and p[0] + p[1] == 11 and not self.split and 1 in p

    @property
    def bust(self) -> bool:
        return sum(self.points) > 21

    @property
    def active(self) -> bool:
        """Someone still has money on the hand that the round's end settles."""
        for b in self.bets:  # noqa: SIM110 - a plain loop: any() over a generator costs more
            if not (b.surrendered or b.settled):
                return True
        return False

    @property
    def caller(self) -> HandBet | None:
        """The bet that calls the hand: the first still in play (rule 4.2 item 2)."""
        for b in self.bets:
            if b.active:
                return b
        return None

    @property
    def finished(self) -> bool:
        """No more cards and no decision: by a rule or by the player's choice."""
        if self.stood:
            return True
        p = self.points
        n = len(p)
        if n < 2:
            return False  # a split hand waits for its second card
        hard = sum(p)
        if hard >= 21 or (hard == 11 and 1 in p):  # bust, or 21 hard or soft
            return True
        if (self.doubled and n >= 3) or self.split_aces:
            return True  # rule 4.2 items 4d, 4e: one card only
        return not self.active

    @property
    def label(self) -> str:
        return f"box {self.box}" + (f", hand {self.number}" if self.split else "")


def hand_words(hand: PlayerHand, capital: bool = False) -> Said:
    """A hand as the dealer names it, `PlayerHand.label` ("box 3, hand 2"), for the dealer's
    language; `capital` at the head of a sentence ("Box 3, hand 2")."""
    if hand.split:
        return (Said.words("Box %(box)s, hand %(hand)s", box=hand.box, hand=hand.number)
                if capital else
                Said.words("box %(box)s, hand %(hand)s", box=hand.box, hand=hand.number))
    return (Said.words("Box %(box)s", box=hand.box) if capital
            else Said.words("box %(box)s", box=hand.box))


@dataclass(frozen=True, slots=True)
class Insurance:
    box: int
    player: str
    amount: int



@dataclass(frozen=True, slots=True)
class PendingCard:
    """A card that needs the dealer's decision before the round goes on."""

    box: int  # DEALER, a box, or NOBODY
    hand: int
    reason: str  # "unread", "impossible" or "not allowed"
    card: Card | None = None
    message: str = ""



_FRESH_PREP = ShoePrep()  # rule 4.1.1 (shuffle and cut): shuffle before play starts


# --- State ----------------------------------------------------------------------------------


@dataclass(frozen=True)  # no slots: `_replace` copies __dict__ in one step
class BlackjackState:
    rules: BlackjackRules
    table_id: str = ""
    round: int = 1
    phase: Phase = Phase.BETTING
    prep: ShoePrep = _FRESH_PREP
    shoe: ShoeContents | None = None
    stakes: tuple[Stake, ...] = ()
    hands: tuple[PlayerHand, ...] = ()
    dealer: tuple[Card, ...] = ()
    dealer_points: tuple[int, ...] = ()
    turn: int = -1  # index into `hands` of the hand to act, -1 when none
    insurance: tuple[Insurance, ...] = ()
    paid: tuple[Settlement, ...] = ()  # settled during the round
    pending: PendingCard | None = None
    shuffle_after_round: bool = False  # rule 4.1.3 (shuffle and cut)
    cut_card_place: int | None = None  # where the cutting card appeared (rules 4.2.2-3)
    cut_card_waiting: bool = False  # out; its place is the next card's
    last_target: int | None = None  # the box (or DEALER) that took the last card
    round_cards: int = 0  # cards dealt in this round (the initial deal's position)
    last_settled: RoundSettled | None = None
    rounds_in_shoe: int = 0


    @property
    def dealer_total(self) -> Total:
        return total_of_points(self.dealer_points)

    @property
    def up_card(self) -> Card | None:
        return self.dealer[0] if self.dealer else None

    @property
    def dealer_blackjack(self) -> bool:
        return len(self.dealer) == 2 and is_blackjack(self.dealer)

    def stakes_on(self, box: int) -> tuple[Stake, ...]:
        return tuple(s for s in self.stakes if s.box == box)

    def stake_of(self, box: int, player: str) -> int:
        return sum(s.amount for s in self.stakes if s.box == box and s.player == player)

    def hand(self, box: int, number: int) -> PlayerHand:
        return self.hands[self.index_of(box, number)]

    def index_of(self, box: int, number: int) -> int:
        for i, h in enumerate(self.hands):
            if h.box == box and h.number == number:
                return i
        raise NotAllowed.of("There is no hand %(number)s on box %(box)s in this round",
                            number=number, box=box)

    @property
    def current(self) -> PlayerHand | None:
        return self.hands[self.turn] if 0 <= self.turn < len(self.hands) else None

    @property
    def boxes_in_play(self) -> tuple[int, ...]:
        return tuple(sorted({s.box for s in self.stakes}))

    @property
    def penetration(self) -> Fraction:
        """How much of the shoe has been dealt (0 to 1), for the signage."""
        if self.shoe is None:
            return Fraction(0)
        return Fraction(self.shoe.dealt, self.shoe.size)

    @property
    def cutting_card_at(self) -> Fraction:
        """Where the cutting card sits, as a share of the shoe from the front."""
        if self.shoe is None or not self.prep.cutting_card_from_back:
            return Fraction(1)
        return Fraction(self.shoe.size - self.prep.cutting_card_from_back, self.shoe.size)


