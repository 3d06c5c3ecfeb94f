"""Standard blackjack (section 4) and Touch 21 (section 7) as one pure engine.

A round: bets on the seven boxes, several on one box with the bet nearest the dealer calling
it (rule 4.2 item 2); "no more bets"; one card to each box with bets, one to the dealer, a
second to each box and none to the dealer (item 3: no hole card); Touch 21's check for
blackjacks (7.2 items 4-5); insurance and even money against a dealer ace (4.7, 7.2 item 6);
each box's decisions (item 4); blackjacks paid at once unless the dealer shows an ace or a ten
(item 5); the dealer's hand by the house's drawing rule; the payouts, which the dealer confirms.

The shoe drives the game: a card read goes to the box or the dealer whose turn it is, and a
card the rules do not allow is flagged with the clause it breaks before it counts. Cards from
a new shuffle go through the shuffle and cut (`cut.py`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

from kiosk.rules.blackjack import cut, settle as st
from kiosk.rules.blackjack.cut import ShoePrep, ShuffleReason, Stage, sc
from kiosk.rules.blackjack.hands import POINTS, Total, is_blackjack, total_of_points
from kiosk.rules.blackjack.house import BlackjackRules, DealerBlackjackTakes, SplitMatch, Variant
from kiosk.rules.blackjack.operations import (  # the records, re-exported: bj.CardDealt
    BetPlaced as BetPlaced,
    BetRemoved as BetRemoved,
    BettingClosed as BettingClosed,
    BlackjackPaid as BlackjackPaid,
    BlackjacksChecked as BlackjacksChecked,
    CallerSet as CallerSet,
    CardBurned as CardBurned,
    CardDealt as CardDealt,
    CardQueried as CardQueried,
    CardsCut as CardsCut,
    CardSetAside as CardSetAside,
    CardSource as CardSource,
    CardsShuffled as CardsShuffled,
    CardUnread as CardUnread,
    CutCardOut as CutCardOut,
    CutRefused as CutRefused,
    Doubled as Doubled,
    EvenMoneyTaken as EvenMoneyTaken,
    Follow as Follow,
    InsuranceClosed as InsuranceClosed,
    InsuranceTaken as InsuranceTaken,
    RoundSettled as RoundSettled,
    RoundVoided as RoundVoided,
    Split as Split,
    Stood as Stood,
    Surrendered as Surrendered,
    TableOpened as TableOpened,
)
from kiosk.rules.blackjack.settle import BetKind, Outcome, Settlement
from kiosk.rules.cards import Card, ShoeContents
from kiosk.rules.errors import ImpossibleCard, NotAllowed
from kiosk.rules.frozen import by_constructor
from kiosk.rules.game import foreign
from kiosk.rules.money import format_money
from kiosk.rules.operations import Operation, TableRecord

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

    def __reduce__(self) -> tuple[Any, ...]:
        return by_constructor(self)  # pickle and copy, compiled too (kiosk/rules/frozen.py)


@dataclass(frozen=True, slots=True)
class HandBet:
    """One player's money on one hand."""

    player: str
    amount: int
    original: bool = True  # their original bet (a split's added bet is False)
    doubled: int = 0  # rule 4.2 item 4d: the added bet of a double
    surrendered: bool = False
    settled: bool = False  # paid at once (a blackjack, even money)

    def __reduce__(self) -> tuple[Any, ...]:
        return by_constructor(self)  # pickle and copy, compiled too (kiosk/rules/frozen.py)

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

    def __reduce__(self) -> tuple[Any, ...]:
        return by_constructor(self)  # pickle and copy, compiled too (kiosk/rules/frozen.py)

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


@dataclass(frozen=True, slots=True)
class Insurance:
    box: int
    player: str
    amount: int

    def __reduce__(self) -> tuple[Any, ...]:
        return by_constructor(self)  # pickle and copy, compiled too (kiosk/rules/frozen.py)


@dataclass(frozen=True, slots=True)
class PendingCard:
    """A card that needs the dealer's decision before the round goes on."""

    box: int  # DEALER, a box, or NOBODY
    hand: int
    reason: str  # "unread", "impossible" or "not allowed"
    card: Card | None = None
    message: str = ""

    def __reduce__(self) -> tuple[Any, ...]:
        return by_constructor(self)  # pickle and copy, compiled too (kiosk/rules/frozen.py)


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

    def __reduce__(self) -> tuple[Any, ...]:
        return by_constructor(self)  # pickle and copy, compiled too (kiosk/rules/frozen.py)

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
        raise NotAllowed(f"There is no hand {number} on box {box} in this round")

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


# Whether this module runs compiled (kiosk/native.py): its objects then have no __dict__.
_COMPILED = not hasattr(BlackjackState(BlackjackRules()), "__dict__")


# --- Queries the dealer screen and the strategy use ---------------------------------------


def initial_state(rules: BlackjackRules, table_id: str) -> BlackjackState:
    return BlackjackState(rules=rules, table_id=table_id)


def open_table(rules: BlackjackRules, table_id: str) -> TableOpened:
    return TableOpened(game=rules.variant.value, table_id=table_id, rules=rules)


def dealer_must_draw(rules: BlackjackRules, points: tuple[int, ...]) -> bool:
    """Rule 4.2: the dealer draws on 16 and stands on 17; rule 7.2 (Touch 21, or a house
    that says so): draws on soft 17 and stands on hard 17."""
    t = total_of_points(points)
    best = t.best
    return best < 17 or (best == 17 and t.soft and rules.dealer_hits_soft_17)


def _initial_target(state: BlackjackState) -> int:
    """Rule 4.2 item 3: a card to each box with bets, one to the dealer, a second to each
    box. The index in `hands` of the hand due a card, -1 for the dealer, -2 when the first
    two cards are all out."""
    n = len(state.hands)
    dealt = state.round_cards
    if dealt < n:
        return dealt
    if dealt == n:
        return -1
    if dealt <= 2 * n:
        return dealt - n - 1
    return -2


def _dealer_needs(state: BlackjackState) -> int:
    """How many more cards the dealer's hand needs now: 0, 1, or 2 meaning 'draws on'.

    A live hand other than a blackjack needs the dealer's whole hand; blackjacks waiting
    against an ace or a ten, and insurance, only need the second card (rule 4.2 item 5)."""
    full = False
    second = bool(state.insurance)
    for h in state.hands:
        if h.active and not h.bust:
            if h.blackjack:
                second = True
            else:
                full = True
                break
    if full:
        if len(state.dealer_points) < 2 or dealer_must_draw(state.rules, state.dealer_points):
            return 2
        return 0
    if second and len(state.dealer) < 2:
        return 1
    return 0


def _blackjack_waits(state: BlackjackState) -> bool:
    """Rule 4.2 item 5: against an ace or a ten the blackjack waits for the dealer's hand."""
    up = state.dealer_points[0] if state.dealer_points else 0
    return up in (1, 10)


def _needs_pay(state: BlackjackState, h: PlayerHand) -> bool:
    return h.blackjack and h.active and not _blackjack_waits(state)


def _next_turn(state: BlackjackState, hands: tuple[PlayerHand, ...], start: int) -> int:
    waits = _blackjack_waits(state)
    for i in range(max(start, 0), len(hands)):
        h = hands[i]
        if h.blackjack and h.active and not waits:
            return i  # pay it straight away
        if not h.finished:
            return i
    return -1


def card_target(state: BlackjackState) -> tuple[int, int] | None:
    """Where the next card from the shoe goes: (box, hand) or (DEALER, 1); None if no hand
    may take one now (the reason is `_no_target_reason`)."""
    if state.prep.stage is not Stage.READY:
        return None  # the shuffle and cut come first (rule 4.1.2)
    if state.phase is Phase.DEALING:
        i = _initial_target(state)
        if i == -1:
            return DEALER, 1
        if i >= 0:
            h = state.hands[i]
            return h.box, h.number
        return None
    if state.phase is Phase.PLAYING:
        cur = state.current
        if cur is None or cur.finished:
            return None
        return cur.box, cur.number
    if state.phase is Phase.DEALER and _dealer_needs(state):
        return DEALER, 1
    return None


def card_due_without_decision(state: BlackjackState) -> bool:
    """Whether the next card is due whatever anyone decides: the burn (rule 4.7 shuffle and
    cut), the first two cards (item 3), a split hand's second card (item 4e), a double's one
    card (item 4d), the dealer's cards. A hand that could stand waits for the player."""
    if state.pending is not None:
        return False
    if burn_due(state):
        return True
    if state.phase is Phase.PLAYING:
        h = state.current
        return (h is not None and not h.finished and not _needs_pay(state, h)
                and (len(h.points) < 2 or h.doubled))
    return state.phase in (Phase.DEALING, Phase.DEALER) and card_target(state) is not None


def _no_target_reason(state: BlackjackState, box: int | None = None, hand: int = 1
                      ) -> tuple[str, str | None]:
    """Why a card cannot be dealt (to `box`/`hand`, or to whoever is due): words, clause."""
    rules = state.rules
    clause = rules.rule_clause
    if state.phase is Phase.BETTING:
        return "No card is dealt before no more bets", f"{clause} item 3"
    if state.phase in (Phase.CHECK, Phase.INSURANCE):
        what = ("the players to check their cards" if state.phase is Phase.CHECK
                else "insurance to close")
        return f"Wait for {what} before the next card", (
            "7.2 item 4" if state.phase is Phase.CHECK else "4.7")
    if box is not None and box != DEALER:
        try:
            h = state.hand(box, hand)
        except NotAllowed as exc:
            return str(exc), None
        if h.split_aces and len(h.cards) >= 2:
            return (f"A split ace takes one card only: {h.label} has its card",
                    f"{clause} item 4e")
        if h.doubled and len(h.cards) >= 3:
            return f"A doubled hand takes one card only: {h.label} has it", f"{clause} item 4d"
        if h.bust:
            return f"{h.label.capitalize()} is bust", clause
        if h.total.best == 21:
            return f"{h.label.capitalize()} has 21", clause
        if h.stood:
            return f"{h.label.capitalize()} stands", f"{clause} item 4b"
        if not h.active:
            return f"{h.label.capitalize()} is settled", clause
        cur = state.current
        if cur is not None:
            return f"It is {cur.label}'s turn, not {h.label}'s", f"{clause} item 4"
    if state.phase is Phase.PLAYING:
        cur = state.current
        if cur is not None and _needs_pay(state, cur):
            return f"Pay the blackjack on {cur.label} first", f"{clause} item 5"
        if box == DEALER:
            return ("The dealer takes no second card until every box has played",
                    f"{clause} item 3")
    if state.phase in (Phase.DEALER, Phase.PAYING) or box == DEALER:
        t = state.dealer_total
        if len(state.dealer) >= 2 and not dealer_must_draw(rules, state.dealer_points):
            kind = "soft" if t.soft else "hard"
            if t.bust:
                return "The dealer is bust", clause
            stands = ("stands on hard 17 and more" if rules.dealer_hits_soft_17
                      else "stands on all 17s")
            return f"The dealer has {kind} {t.best} and {stands}", clause
        if _dealer_needs(state) == 0:
            return "No hand is left that needs the dealer's cards", clause
    return "No card is due now", None


# --- Actions --------------------------------------------------------------------------------


def _can(verify: Any, *args: Any, **kwargs: Any) -> bool:
    try:
        verify(*args, **kwargs)
    except NotAllowed:
        return False
    return True


def _round_started(state: BlackjackState) -> bool:
    """A card of this round has left the shoe: dealt, or waiting for the dealer (unread or
    queried)."""
    return state.round_cards > 0 or state.pending is not None


def verify_shuffle(state: BlackjackState, method: str = "hand", new_cards: bool = False
                   ) -> None:
    if state.phase not in (Phase.BETTING, Phase.DEALING) or _round_started(state):
        raise NotAllowed("Cards cannot be shuffled in the middle of a round; the shuffle "
                         "comes at the end of the round", clause=sc("4.1.3"))
    cut.verify_shuffle(state.prep, method, state.rules.shuffler, False, new_cards)


def can_shuffle(state: BlackjackState, method: str = "hand", new_cards: bool = False) -> bool:
    return _can(verify_shuffle, state, method, new_cards)


def shuffle(state: BlackjackState, method: str = "hand", new_cards: bool = False
            ) -> CardsShuffled:
    """Rule 4.1 (shuffle and cut). A shuffle outside rule 4.1's three moments is the house's
    own decision (Mpumalanga rules 4.4 and, for Touch 21, 7.4)."""
    verify_shuffle(state, method, new_cards)
    return CardsShuffled(method=method, new_cards=new_cards)


def prep_now(state: BlackjackState) -> ShoePrep:
    """The shoe's preparation with the players now at the table: boxes that bet since the
    shuffle are offered the cut too (rules 4.2.1, 4.3)."""
    boxes = state.boxes_in_play
    if not boxes or set(boxes) <= set(state.prep.seated):
        return state.prep
    return dataclasses.replace(state.prep, seated=tuple(sorted({*state.prep.seated, *boxes})))


def verify_refuse_cut(state: BlackjackState, box: int) -> None:
    cut.verify_refuse(prep_now(state), box)


def can_refuse_cut(state: BlackjackState, box: int) -> bool:
    return _can(verify_refuse_cut, state, box)


def refuse_cut(state: BlackjackState, box: int) -> CutRefused:
    verify_refuse_cut(state, box)
    return CutRefused(box=box)


def verify_cut_cards(state: BlackjackState, box: int | None, cut_at: int,
                     cutting_card_from_back: int, supervisor: str = "") -> None:
    cut.verify_cut(prep_now(state), state.rules.decks, box, supervisor, cut_at,
                   cutting_card_from_back)


def can_cut_cards(state: BlackjackState, box: int | None, cut_at: int,
                  cutting_card_from_back: int, supervisor: str = "") -> bool:
    return _can(verify_cut_cards, state, box, cut_at, cutting_card_from_back, supervisor)


def cut_cards(state: BlackjackState, box: int | None, cut_at: int, cutting_card_from_back: int,
              supervisor: str = "") -> CardsCut:
    """Rules 4.2-4.5 (shuffle and cut): `box` cut (None: the named supervisor cut)."""
    verify_cut_cards(state, box, cut_at, cutting_card_from_back, supervisor)
    return CardsCut(box=box or 0, supervisor=supervisor.strip() if box is None else "",
                    cut_at=cut_at, cutting_card_from_back=cutting_card_from_back)


def verify_place_bet(state: BlackjackState, box: int, amount: int, player: str = "A") -> None:
    rules = state.rules
    if state.phase is not Phase.BETTING:
        raise NotAllowed("No more bets: the round is being dealt", clause="4.2 item 3")
    if not 1 <= box <= rules.boxes:
        raise NotAllowed(f"There is no box {box}: the layout has boxes 1 to {rules.boxes}",
                         clause="4.3")
    if not player.strip():
        raise NotAllowed("Say whose bet it is")
    if amount <= 0:
        raise NotAllowed("A bet must be more than nothing")
    rules.chips.verify_stake(amount)
    after = state.stake_of(box, player) + amount
    if after > rules.maximum:
        raise NotAllowed(f"Box {box}: {_m(state, after)} is over the table maximum of "
                         f"{_m(state, rules.maximum)}", clause="2.2")


def can_place_bet(state: BlackjackState, box: int, amount: int, player: str = "A") -> bool:
    return _can(verify_place_bet, state, box, amount, player)


def place_bet(state: BlackjackState, box: int, amount: int, player: str = "A") -> BetPlaced:
    """Rules 4.6, 7.6: a bet on a box; a second player's bet on a box plays behind (4.2
    item 2)."""
    verify_place_bet(state, box, amount, player)
    return BetPlaced(round=state.round, box=box, player=player.strip(), amount=amount)


def verify_remove_bet(state: BlackjackState, box: int, amount: int, player: str = "A") -> None:
    if state.phase is not Phase.BETTING:
        raise NotAllowed("Bets cannot be taken back after no more bets", clause="4.6")
    if amount <= 0 or state.stake_of(box, player) < amount:
        raise NotAllowed(f"Box {box} has no {_m(state, amount)} bet of player {player} to "
                         f"take back")


def can_remove_bet(state: BlackjackState, box: int, amount: int, player: str = "A") -> bool:
    return _can(verify_remove_bet, state, box, amount, player)


def remove_bet(state: BlackjackState, box: int, amount: int, player: str = "A") -> BetRemoved:
    verify_remove_bet(state, box, amount, player)
    return BetRemoved(round=state.round, box=box, player=player, amount=amount)


def verify_set_caller(state: BlackjackState, box: int, player: str) -> None:
    if state.phase is not Phase.BETTING:
        raise NotAllowed("The caller of a box is settled before no more bets",
                         clause="4.2 item 2")
    if state.stake_of(box, player) <= 0:
        raise NotAllowed(f"Player {player} has no bet on box {box}")


def can_set_caller(state: BlackjackState, box: int, player: str) -> bool:
    """Whether `player` could be made the caller of `box` now and is not already."""
    stakes = state.stakes_on(box)
    return (_can(verify_set_caller, state, box, player) and bool(stakes)
            and stakes[0].player != player)


def set_caller(state: BlackjackState, box: int, player: str) -> CallerSet:
    """Rule 4.2 item 2: the bet nearest the dealer calls the box."""
    verify_set_caller(state, box, player)
    return CallerSet(round=state.round, box=box, player=player)


def verify_close_betting(state: BlackjackState) -> None:
    rules = state.rules
    if state.phase is not Phase.BETTING:
        raise NotAllowed("Bets are already closed", clause="4.2 item 3")
    if state.prep.stage not in (Stage.BURN, Stage.READY):
        raise NotAllowed("The cards are not ready: " + cut.step_words(state.prep, rules.shuffler),
                         clause=sc("4.1"))
    if not state.stakes:
        raise NotAllowed("No box has a bet", clause="4.2 item 3")
    for s in state.stakes:
        if s.amount < rules.minimum:
            raise NotAllowed(f"Box {s.box}, player {s.player}: {_m(state, s.amount)} is under "
                             f"the table minimum of {_m(state, rules.minimum)}", clause="2.2")


def can_close_betting(state: BlackjackState) -> bool:
    return _can(verify_close_betting, state)


def close_betting(state: BlackjackState) -> BettingClosed:
    verify_close_betting(state)
    return BettingClosed(round=state.round)


def _verify_target(state: BlackjackState, box: int | None, hand: int, source: CardSource
                   ) -> tuple[int, int]:
    if burn_due(state):
        raise NotAllowed("The first card is burned unseen first", clause=sc("4.7"))
    if state.pending is not None and source is not CardSource.KEYED:
        raise NotAllowed(f"First resolve the {state.pending.reason} card")
    if state.pending is not None and state.pending.box != NOBODY:
        due: tuple[int, int] | None = (state.pending.box, state.pending.hand)
    else:
        due = card_target(state)
    if due is None or (box is not None and (box, hand) != due):
        words, clause = _no_target_reason(state, box, hand)
        if due is not None and box is not None:
            words = f"{words}; the card is due to {_target_words(state, due)}"
        raise NotAllowed(words, clause=clause)
    return due


def _target_words(state: BlackjackState, target: tuple[int, int]) -> str:
    if target[0] == DEALER:
        return "the dealer"
    return state.hand(*target).label


def verify_card(state: BlackjackState, card: Card, source: CardSource = CardSource.SHOE,
                box: int | None = None, hand: int = 1) -> None:
    """A card may go to the hand whose turn it is (or to `box`/`hand` if named and due)
    when the shoe can hold it (rules 4.5, 7.5)."""
    _verify_target(state, box, hand, source)
    if source is not CardSource.OVERRIDE:
        _verify_in_shoe(state, card)


def _verify_in_shoe(state: BlackjackState, card: Card) -> None:
    assert state.shoe is not None  # closing bets needs the shuffled shoe
    if not state.shoe.can_draw(card):
        clause = "7.5" if state.rules.variant is Variant.TOUCH_21 else "4.5"
        raise ImpossibleCard(
            f"The shoe cannot hold another {card.name} ({card.code}): all "
            f"{state.shoe.decks} have already come out of this {state.shoe.decks}-deck shoe",
            clause=clause)


def can_deal_card(state: BlackjackState, card: Card, source: CardSource = CardSource.SHOE,
                  box: int | None = None, hand: int = 1) -> bool:
    return _can(verify_card, state, card, source, box, hand)


def deal_card(state: BlackjackState, card: Card, source: CardSource = CardSource.SHOE,
              box: int | None = None, hand: int = 1, by: str = "") -> CardDealt:
    target = _verify_target(state, box, hand, source)
    if source is not CardSource.OVERRIDE:
        _verify_in_shoe(state, card)
    return CardDealt(state.round, target[0], target[1], card, source, by)


def burn_due(state: BlackjackState) -> bool:
    return state.prep.stage is Stage.BURN


def shoe_card(state: BlackjackState, card: Card) -> Operation:
    """A card the shoe read. The first card after the cut is burned unseen (rule 4.7 shuffle
    and cut); otherwise it goes where it is due, or is queried with the clause it breaks."""
    if burn_due(state):
        return CardBurned(card=card)
    verify_shoe_card(state, card)  # raises when it must wait: the session holds it
    target = card_target(state)
    if target is None:
        words, clause = _no_target_reason(state)
        message = f"{words} (rule {clause})" if clause else words
        return CardQueried(state.round, NOBODY, 0, card, "not allowed", message)
    try:
        _verify_in_shoe(state, card)
    except ImpossibleCard as exc:
        return CardQueried(state.round, target[0], target[1], card, "impossible", str(exc))
    return CardDealt(state.round, target[0], target[1], card, CardSource.SHOE)


def verify_shoe_card(state: BlackjackState, card: Card) -> None:
    """What `shoe_card` needs before it can record anything: a round being dealt or played
    and no card waiting for the dealer (a card the rules refuse is queried, not raised)."""
    if burn_due(state):
        return
    if state.prep.stage is not Stage.READY:
        raise NotAllowed("The cards are being shuffled and cut: "
                         + cut.step_words(state.prep, state.rules.shuffler), clause=sc("4.1"))
    if state.phase is Phase.BETTING:
        raise NotAllowed("No card is dealt before no more bets", clause="4.2 item 3")
    if state.pending is not None:
        raise NotAllowed(f"First resolve the {state.pending.reason} card")
    if state.phase in (Phase.CHECK, Phase.INSURANCE):
        words, clause = _no_target_reason(state)
        raise NotAllowed(words, clause=clause)
    cur = state.current
    if state.phase is Phase.PLAYING and cur is not None and _needs_pay(state, cur):
        raise NotAllowed(f"Pay the blackjack on {cur.label} first", clause="4.2 item 5")
    # Otherwise the card is recorded: dealt where it is due, or queried (a card after the
    # dealer's hand is over, a card the shoe cannot hold).


def holds_cards(state: BlackjackState) -> bool:
    """Whether a card from the shoe must wait (the session holds it) rather than count."""
    if burn_due(state) or state.prep.stage is not Stage.READY:
        return False  # the burn counts at once; a card during the shuffle is refused
    try:
        verify_shoe_card(state, _ANY_CARD)
    except NotAllowed:
        return state.phase is not Phase.BETTING
    return False


_ANY_CARD = Card.parse("2C")


def verify_unread(state: BlackjackState) -> None:
    if state.pending is not None:
        raise NotAllowed(f"First resolve the {state.pending.reason} card")
    if burn_due(state):
        return
    if card_target(state) is None:
        words, clause = _no_target_reason(state)
        raise NotAllowed(f"An unread card cannot belong to this round: {words}", clause=clause)


def unread_card(state: BlackjackState) -> Operation:
    verify_unread(state)
    if burn_due(state):
        return CardBurned(card=None)  # the burn card is never shown anyway (rule 4.7)
    target = card_target(state)
    assert target is not None
    return CardUnread(state.round, target[0], target[1])


def verify_accept_queried(state: BlackjackState, by: str) -> None:
    if state.pending is None or state.pending.reason != "impossible":
        raise NotAllowed("There is no queried card to accept")
    if not by.strip():
        raise NotAllowed("An inspector must accept a card the shoe cannot hold")


def can_accept_queried(state: BlackjackState, by: str = "inspector") -> bool:
    return _can(verify_accept_queried, state, by)


def accept_queried_card(state: BlackjackState, by: str) -> CardDealt:
    verify_accept_queried(state, by)
    p = state.pending
    assert p is not None and p.card is not None
    return CardDealt(state.round, p.box, p.hand, p.card, CardSource.OVERRIDE, by.strip())


def verify_set_aside(state: BlackjackState) -> None:
    if state.pending is None or state.pending.card is None:
        raise NotAllowed("There is no queried card to set aside")


def can_set_aside(state: BlackjackState) -> bool:
    return _can(verify_set_aside, state)


def set_aside_card(state: BlackjackState, reason: str = "dealt in error") -> CardSetAside:
    """The queried card is out of the shoe but in no hand (the dealer puts it in the discard
    rack); the round goes on as if it had not been dealt."""
    verify_set_aside(state)
    assert state.pending is not None and state.pending.card is not None
    return CardSetAside(state.round, state.pending.card, reason.strip() or "dealt in error")


def verify_burn(state: BlackjackState, card: Card | None = None) -> None:
    if state.prep.stage not in (Stage.BURN, Stage.READY):
        raise NotAllowed("No shoe is ready: a card cannot be burned before the cards are "
                         "shuffled and cut (rules 4.1-4.5, shuffle and cut)")
    if _round_started(state) and not burn_due(state):
        raise NotAllowed("A card cannot be burned in the middle of a round")


def can_burn(state: BlackjackState, card: Card | None = None) -> bool:
    return _can(verify_burn, state, card)


def burn(state: BlackjackState, card: Card | None) -> CardBurned:
    verify_burn(state, card)
    return CardBurned(card=card)


def verify_cut_card_out(state: BlackjackState) -> None:
    if state.prep.stage is not Stage.READY:
        raise NotAllowed("No shoe is in play: the cards are being shuffled and cut (rules "
                         "4.1-4.5, shuffle and cut)")
    if state.shuffle_after_round:
        raise NotAllowed("The cutting card is already out: the cards are shuffled at the end "
                         "of this round (rule 4.1.3, shuffle and cut)")


def can_cut_card_out(state: BlackjackState) -> bool:
    return _can(verify_cut_card_out, state)


def cut_card_out(state: BlackjackState) -> CutCardOut:
    verify_cut_card_out(state)
    return CutCardOut(round=state.round)


def verify_check_blackjacks(state: BlackjackState) -> None:
    if state.phase is not Phase.CHECK:
        raise NotAllowed("There is nothing to check now", clause="7.2 item 4")


def can_check_blackjacks(state: BlackjackState) -> bool:
    return state.phase is Phase.CHECK


def check_blackjacks(state: BlackjackState) -> BlackjacksChecked:
    """Touch 21 (rule 7.2 item 4): the players checked their first two cards; a blackjack
    is turned face up (rule 7.2 item 5)."""
    verify_check_blackjacks(state)
    return BlackjacksChecked(round=state.round)


def max_insurance(state: BlackjackState, box: int, player: str) -> int:
    """Rules 4.7, 7.2 item 6 (read as up to half the original bet, DESIGN.md), in whole
    chips."""
    chip = state.rules.chips.smallest_chip
    return state.stake_of(box, player) // 2 // chip * chip


def verify_insurance(state: BlackjackState, box: int, player: str, amount: int) -> None:
    if state.phase is not Phase.INSURANCE:
        raise NotAllowed("Insurance is offered only when the dealer's first card is an ace",
                         clause="4.7")
    if state.stake_of(box, player) <= 0:
        raise NotAllowed(f"Player {player} has no bet on box {box}")
    if any(i.box == box and i.player == player for i in state.insurance):
        raise NotAllowed(f"Box {box}, player {player} is already insured")
    h = state.hand(box, 1)
    if h.blackjack and state.rules.even_money:
        raise NotAllowed(f"Box {box} has blackjack: offer even money instead", clause="4.7")
    top = max_insurance(state, box, player)
    if not 0 < amount <= top:
        raise NotAllowed(f"Insurance on box {box} is up to half the bet: at most "
                         f"{_m(state, top)}", clause="4.7")
    state.rules.chips.verify_stake(amount)


def can_insure(state: BlackjackState, box: int, player: str, amount: int | None = None) -> bool:
    if amount is None:
        amount = max_insurance(state, box, player)
    return _can(verify_insurance, state, box, player, amount)


def insure(state: BlackjackState, box: int, player: str, amount: int) -> InsuranceTaken:
    verify_insurance(state, box, player, amount)
    return InsuranceTaken(state.round, box, player, amount)


def verify_even_money(state: BlackjackState, box: int, player: str) -> None:
    if state.phase is not Phase.INSURANCE or not state.rules.even_money:
        raise NotAllowed("Even money is offered only on a blackjack against a dealer ace",
                         clause="4.7")
    h = state.hand(box, 1)
    if not h.blackjack:
        raise NotAllowed(f"Box {box} has no blackjack", clause="4.7")
    if not any(b.player == player and b.active for b in h.bets):
        raise NotAllowed(f"Player {player} has no bet in play on box {box}")


def can_take_even_money(state: BlackjackState, box: int, player: str) -> bool:
    return _can(verify_even_money, state, box, player)


def take_even_money(state: BlackjackState, box: int, player: str) -> EvenMoneyTaken:
    """Rule 4.7: even money, paid 1:1 straight away instead of waiting for the dealer."""
    verify_even_money(state, box, player)
    stake = sum(b.stake for b in state.hand(box, 1).bets if b.player == player and b.active)
    paid = st.win(box, 1, player, BetKind.HAND, stake, Fraction(1), state.rules.chips,
                  Outcome.EVEN_MONEY)
    return EvenMoneyTaken(state.round, box, player, paid)


def verify_close_insurance(state: BlackjackState) -> None:
    if state.phase is not Phase.INSURANCE:
        raise NotAllowed("Insurance is not open")


def can_close_insurance(state: BlackjackState) -> bool:
    return state.phase is Phase.INSURANCE


def close_insurance(state: BlackjackState) -> InsuranceClosed:
    verify_close_insurance(state)
    return InsuranceClosed(round=state.round)


Refusal = NotAllowed | None
# What a `can_` query gets instead of a sentence: nobody reads it, so none is built.
_QUIET = NotAllowed("not allowed now")


def _decision_refusal(state: BlackjackState, explain: bool = True) -> Refusal:
    """Why the hand in turn cannot decide now (None: it can). The `_refusal` helpers build
    the dealer's sentence without raising, so `can_` queries cost no exception."""
    if state.pending is not None:
        if not explain:
            return _QUIET
        return NotAllowed(f"First resolve the {state.pending.reason} card")
    h = state.current
    if state.phase is not Phase.PLAYING or h is None:
        if not explain:
            return _QUIET
        return NotAllowed("No box is playing now", clause="4.2 item 4")
    if len(h.points) < 2:
        if not explain:
            return _QUIET
        return NotAllowed(f"{h.label.capitalize()} takes its second card first",
                          clause="4.2 item 4e")
    if _needs_pay(state, h):
        if not explain:
            return _QUIET
        return NotAllowed(f"Pay the blackjack on {h.label} first", clause="4.2 item 5")
    if h.finished:
        if not explain:
            return _QUIET
        return NotAllowed(f"{h.label.capitalize()} is already finished")
    if h.doubled:
        if not explain:
            return _QUIET
        return NotAllowed(f"{h.label.capitalize()} has doubled: deal its one card",
                          clause=_clause(state.rules, "d"))
    return None


def _players_refusal(h: PlayerHand, players: Iterable[str]) -> Refusal:
    for p in players:
        if not any(b.player == p and b.active for b in h.bets):
            return NotAllowed(f"Player {p} has no bet in play on {h.label}")
    return None


def _raise(refusal: Refusal) -> None:
    if refusal is not None:
        raise refusal


def _turn(state: BlackjackState) -> PlayerHand:
    h = state.current
    assert h is not None
    return h


def verify_stand(state: BlackjackState) -> None:
    _raise(_decision_refusal(state))


def can_stand(state: BlackjackState) -> bool:
    return _decision_refusal(state, explain=False) is None


def stand(state: BlackjackState) -> Stood:
    """Rule 4.2 item 4b: stand, no card."""
    verify_stand(state)
    h = _turn(state)
    return Stood(state.round, h.box, h.number)


def _double_refusal(state: BlackjackState, players: Iterable[str] = (),
                    explain: bool = True) -> Refusal:
    refusal = _decision_refusal(state, explain)
    if refusal is not None:
        return refusal
    h = _turn(state)
    rules = state.rules
    if len(h.points) != 2:
        if not explain:
            return _QUIET
        return NotAllowed("Doubling is only on the first two cards", clause=_clause(rules, "d"))
    if h.split and (not rules.double_after_split or h.split_aces):
        if not explain:
            return _QUIET
        return NotAllowed("This house does not allow a double after a split",
                          clause=_clause(rules, "d"))
    return _players_refusal(h, players)


def _clause(rules: BlackjackRules, item: str) -> str:
    """Rule 4.2 item 4d/4e, or its Touch 21 twin 7.2 item 7c/7d."""
    if rules.variant is Variant.TOUCH_21:
        return f"7.2 item 7{'c' if item == 'd' else 'd'}"
    return f"4.2 item 4{item}"


def verify_double(state: BlackjackState, players: Iterable[str] = ()) -> None:
    _raise(_double_refusal(state, players))


def can_double(state: BlackjackState, players: Iterable[str] = ()) -> bool:
    return _double_refusal(state, players, explain=False) is None


def double(state: BlackjackState, behind: Iterable[str] = ()) -> Doubled:
    """Rule 4.2 item 4d: the caller doubles; `behind` names the players behind who double
    too (the others do not have to). One card only follows."""
    behind = tuple(behind)
    verify_double(state, behind)
    h = _turn(state)
    caller = h.caller
    assert caller is not None
    players = (caller.player, *(p for p in behind if p != caller.player))
    return Doubled(state.round, h.box, h.number, players)


def _pair(rules: BlackjackRules, h: PlayerHand) -> bool:
    if len(h.points) != 2:
        return False
    if rules.split_match is SplitMatch.RANK:
        return h.cards[0].rank is h.cards[1].rank
    return h.points[0] == h.points[1]


def _split_refusal(state: BlackjackState, follow: Iterable[str] = (),
                   explain: bool = True) -> Refusal:
    refusal = _decision_refusal(state, explain)
    if refusal is not None:
        return refusal
    h = _turn(state)
    rules = state.rules
    if not _pair(rules, h):
        what = "the same rank" if rules.split_match is SplitMatch.RANK else "equal face value"
        if not explain:
            return _QUIET
        return NotAllowed(f"Only a pair of cards of {what} may be split",
                          clause=_clause(rules, "e"))
    if h.split_aces and not rules.resplit_aces:
        if not explain:
            return _QUIET
        return NotAllowed("Aces may only be split once", clause=_clause(rules, "e"))
    if sum(1 for x in state.hands if x.box == h.box) >= rules.max_hands:
        if not explain:
            return _QUIET
        return NotAllowed(f"Box {h.box} already has {rules.max_hands} hands, the house's most")
    return _players_refusal(h, follow)


def verify_split(state: BlackjackState, follow: Mapping[str, Follow] | None = None) -> None:
    _raise(_split_refusal(state, follow or ()))


def can_split(state: BlackjackState, follow: Mapping[str, Follow] | None = None) -> bool:
    return _split_refusal(state, follow or (), explain=False) is None


def split(state: BlackjackState, follow: Mapping[str, Follow] | None = None) -> Split:
    """Rule 4.2 item 4e: the caller splits; each player behind splits too (BOTH) or says
    which hand they play (FIRST, SECOND) before the second card; unnamed ones follow FIRST."""
    follow = dict(follow or {})
    verify_split(state, follow)
    h = _turn(state)
    caller = h.caller
    choices: list[tuple[str, Follow]] = []
    for b in h.bets:
        if not b.active:
            continue
        choice = Follow.BOTH if b is caller else follow.get(b.player, Follow.FIRST)
        choices.append((b.player, choice))
    return Split(state.round, h.box, h.number, tuple(choices))


def _surrender_refusal(state: BlackjackState, players: Iterable[str] = (),
                       explain: bool = True) -> Refusal:
    rules = state.rules
    if rules.variant is Variant.TOUCH_21:
        if not explain:
            return _QUIET
        return NotAllowed("Surrender is not permitted in Touch 21", clause="7.2 item 8")
    if not rules.surrender:
        if not explain:
            return _QUIET
        return NotAllowed("This house does not allow surrender", clause="4.2 item 4a")
    refusal = _decision_refusal(state, explain)
    if refusal is not None:
        return refusal
    h = _turn(state)
    if state.dealer_points and state.dealer_points[0] == 1:
        if not explain:
            return _QUIET
        return NotAllowed("No surrender against a dealer ace", clause="4.2 item 4a")
    if h.split or len(h.points) != 2 or h.doubled:
        if not explain:
            return _QUIET
        return NotAllowed("Surrender is only on the first two cards", clause="4.2 item 4a")
    return _players_refusal(h, players)


def verify_surrender(state: BlackjackState, players: Iterable[str] = ()) -> None:
    _raise(_surrender_refusal(state, players))


def can_surrender(state: BlackjackState, players: Iterable[str] = ()) -> bool:
    return _surrender_refusal(state, players, explain=False) is None


def surrender(state: BlackjackState, behind: Iterable[str] = ()) -> Surrendered:
    """Rule 4.2 item 4a: the caller surrenders half the original bet; players behind may
    surrender with them (the others play on, called by the next bet)."""
    behind = tuple(behind)
    verify_surrender(state, behind)
    h = _turn(state)
    caller = h.caller
    assert caller is not None
    players = (caller.player, *(p for p in behind if p != caller.player))
    chips = state.rules.chips
    settlements = tuple(st.surrender(h.box, h.number, b.player, b.stake, chips)
                        for b in h.bets if b.active and b.player in players)
    return Surrendered(state.round, h.box, h.number, players, settlements)


def _pay_refusal(state: BlackjackState, explain: bool = True) -> Refusal:
    if state.pending is not None:
        if not explain:
            return _QUIET
        return NotAllowed(f"First resolve the {state.pending.reason} card")
    h = state.current
    if state.phase is not Phase.PLAYING or h is None or not _needs_pay(state, h):
        if not explain:
            return _QUIET
        return NotAllowed("No blackjack is waiting to be paid", clause="4.2 item 5")
    return None


def verify_pay_blackjack(state: BlackjackState) -> None:
    _raise(_pay_refusal(state))


def can_pay_blackjack(state: BlackjackState) -> bool:
    return _pay_refusal(state, explain=False) is None


def pay_blackjack(state: BlackjackState) -> BlackjackPaid:
    """Rule 4.2 item 5: a blackjack is paid 3:2 straight away when the dealer shows 2-9."""
    verify_pay_blackjack(state)
    h = state.current
    assert h is not None
    rules = state.rules
    settlements = tuple(st.win(h.box, h.number, b.player, BetKind.HAND, b.stake,
                               rules.blackjack_odds, rules.chips, Outcome.BLACKJACK)
                        for b in h.bets if b.active)
    return BlackjackPaid(state.round, h.box, h.number, settlements)


def settlement(state: BlackjackState) -> tuple[Settlement, ...]:
    """Every bet still open at the end of the round (rules 4.2, 4.7)."""
    rules = state.rules
    chips = rules.chips
    d_bj = state.dealer_blackjack
    dt = state.dealer_total
    d_best, d_bust = dt.best, dt.bust
    out: list[Settlement] = []
    original_only = rules.dealer_blackjack_takes is DealerBlackjackTakes.ORIGINAL
    for h in state.hands:
        bj = h.blackjack
        t = h.total
        p_best, p_bust = t.best, t.bust
        for b in h.bets:
            if not b.active:
                continue
            if bj:
                if d_bj:
                    out.append(st.push(h.box, h.number, b.player, b.stake))  # rule 4.2 item 5
                else:
                    out.append(st.win(h.box, h.number, b.player, BetKind.HAND, b.stake,
                                      rules.blackjack_odds, chips, Outcome.BLACKJACK))
                continue
            if d_bj and not p_bust:
                # The house setting: a dealer blackjack takes everything, or only the
                # original bet (a split's added bet and a double go back).
                if original_only:
                    lost = b.amount if b.original else 0
                    back = b.stake - lost
                    if lost == 0:
                        out.append(st.push(h.box, h.number, b.player, b.stake,
                                           Outcome.RETURNED))
                    else:
                        out.append(Settlement(h.box, h.number, b.player, BetKind.HAND, b.stake,
                                              Outcome.LOSE, Fraction(0), 0, back))
                    continue
                out.append(st.lose(h.box, h.number, b.player, BetKind.HAND, b.stake))
                continue
            outcome = st.compare(p_best, p_bust, d_best, d_bust)
            if outcome is Outcome.WIN:
                out.append(st.win(h.box, h.number, b.player, BetKind.HAND, b.stake,
                                  Fraction(1), chips))
            elif outcome is Outcome.PUSH:
                out.append(st.push(h.box, h.number, b.player, b.stake))
            else:
                out.append(st.lose(h.box, h.number, b.player, BetKind.HAND, b.stake))
    for ins in state.insurance:
        if d_bj:
            out.append(st.win(ins.box, 0, ins.player, BetKind.INSURANCE, ins.amount,
                              rules.insurance_odds, chips))
        else:
            out.append(st.lose(ins.box, 0, ins.player, BetKind.INSURANCE, ins.amount))
    return tuple(out)


def verify_complete(state: BlackjackState) -> None:
    if state.phase is not Phase.PAYING:
        raise NotAllowed("The round is not complete yet", clause="4.2")
    if state.pending is not None:
        raise NotAllowed(f"First resolve the {state.pending.reason} card")


def can_confirm_payouts(state: BlackjackState) -> bool:
    return _can(verify_complete, state)


def confirm_payouts(state: BlackjackState) -> RoundSettled:
    verify_complete(state)
    return RoundSettled(
        round=state.round, dealer_cards=state.dealer,
        hands=tuple((h.box, h.number, h.cards) for h in state.hands),
        settlements=settlement(state), paid_earlier=state.paid)


def verify_void(state: BlackjackState, reason: str, inspector: str = "") -> None:
    if state.phase is Phase.BETTING and not state.stakes:
        raise NotAllowed("There is no round in play to void")
    if not reason.strip():
        raise NotAllowed("Say why the round is void")
    if void_needs_inspector(state) and not inspector.strip():
        raise NotAllowed("The dealer's hand has begun and winning bets are paid: only an "
                         "inspector can void this round", clause="2.7")


def void_needs_inspector(state: BlackjackState) -> bool:
    """Rule 2.7: once the dealer's hand has started the result is known, so a void (which
    hands back bets that won) is an inspector's decision."""
    return state.phase in (Phase.DEALER, Phase.PAYING)


verify_void_round = verify_void


def can_void_round(state: BlackjackState, reason: str = "reason to be given",
                   inspector: str = "inspector to be named") -> bool:
    """Whether a round is in play that could be voided (the reason, and an inspector when
    `void_needs_inspector`, may be given after)."""
    return _can(verify_void, state, reason, inspector)


def void_round(state: BlackjackState, reason: str, by: str = "", inspector: str = ""
               ) -> RoundVoided:
    verify_void(state, reason, inspector)
    return RoundVoided(round=state.round, reason=reason.strip(), by=by,
                       inspector=inspector.strip(), returned=void_returns(state))


def void_returns(state: BlackjackState) -> tuple[Settlement, ...]:
    """What a void hands back: every bet not settled yet, untouched (doubles and splits
    included), and every insurance. Blackjacks, even money and surrenders already settled
    stand as paid (`state.paid`)."""
    back: list[Settlement] = []
    if state.hands:
        for h in state.hands:
            for b in h.bets:
                if b.active:
                    back.append(_returned(h.box, h.number, b.player, BetKind.HAND, b.stake))
    else:  # no more bets was not called: the stakes are still only on the layout
        for s in state.stakes:
            back.append(_returned(s.box, 1, s.player, BetKind.HAND, s.amount))
    for i in state.insurance:
        back.append(_returned(i.box, 0, i.player, BetKind.INSURANCE, i.amount))
    return tuple(back)


def _returned(box: int, hand: int, player: str, kind: BetKind, stake: int) -> Settlement:
    return Settlement(box, hand, player, kind, stake, Outcome.RETURNED, Fraction(0), 0, stake)


def _m(state: BlackjackState, cents: int) -> str:
    return format_money(cents, state.rules.currency)


# --- The fold -------------------------------------------------------------------------------


def _replace(state: BlackjackState, **changes: Any) -> BlackjackState:
    """`dataclasses.replace` without its cost (the fold's hot path). In Python: a copy of the
    instance dict, no `__init__`. Compiled (kiosk/native.py) the objects have no __dict__ and
    a frozen dataclass's `__init__` stays interpreted: a new object's fields are stored
    directly, which compiled code may do (from Python the object is as frozen as any). A
    test holds this list to the dataclass's fields."""
    if not _COMPILED:
        new = object.__new__(BlackjackState)
        fields = state.__dict__.copy()
        fields.update(changes)
        object.__setattr__(new, "__dict__", fields)
        return new
    g = changes.get
    new = BlackjackState.__new__(BlackjackState)
    new.rules = g("rules", state.rules)  # type: ignore[misc]
    new.table_id = g("table_id", state.table_id)  # type: ignore[misc]
    new.round = g("round", state.round)  # type: ignore[misc]
    new.phase = g("phase", state.phase)  # type: ignore[misc]
    new.prep = g("prep", state.prep)  # type: ignore[misc]
    new.shoe = g("shoe", state.shoe)  # type: ignore[misc]
    new.stakes = g("stakes", state.stakes)  # type: ignore[misc]
    new.hands = g("hands", state.hands)  # type: ignore[misc]
    new.dealer = g("dealer", state.dealer)  # type: ignore[misc]
    new.dealer_points = g("dealer_points", state.dealer_points)  # type: ignore[misc]
    new.turn = g("turn", state.turn)  # type: ignore[misc]
    new.insurance = g("insurance", state.insurance)  # type: ignore[misc]
    new.paid = g("paid", state.paid)  # type: ignore[misc]
    new.pending = g("pending", state.pending)  # type: ignore[misc]
    new.shuffle_after_round = g("shuffle_after_round", state.shuffle_after_round)  # type: ignore[misc]
    new.cut_card_place = g("cut_card_place", state.cut_card_place)  # type: ignore[misc]
    new.cut_card_waiting = g("cut_card_waiting", state.cut_card_waiting)  # type: ignore[misc]
    new.last_target = g("last_target", state.last_target)  # type: ignore[misc]
    new.round_cards = g("round_cards", state.round_cards)  # type: ignore[misc]
    new.last_settled = g("last_settled", state.last_settled)  # type: ignore[misc]
    new.rounds_in_shoe = g("rounds_in_shoe", state.rounds_in_shoe)  # type: ignore[misc]
    return new


def _hand(box: int, number: int, bets: tuple[HandBet, ...], cards: tuple[Card, ...],
          points: tuple[int, ...], split: bool, split_aces: bool, doubled: bool, stood: bool
          ) -> PlayerHand:
    """`PlayerHand(...)` with every field, stored directly when compiled (as `_replace`)."""
    if not _COMPILED:
        return PlayerHand(box, number, bets, cards, points, split, split_aces, doubled, stood)
    h = PlayerHand.__new__(PlayerHand)
    h.box = box  # type: ignore[misc]
    h.number = number  # type: ignore[misc]
    h.bets = bets  # type: ignore[misc]
    h.cards = cards  # type: ignore[misc]
    h.points = points  # type: ignore[misc]
    h.split = split  # type: ignore[misc]
    h.split_aces = split_aces  # type: ignore[misc]
    h.doubled = doubled  # type: ignore[misc]
    h.stood = stood  # type: ignore[misc]
    return h


def _hand_replace(h: PlayerHand, **changes: Any) -> PlayerHand:
    g = changes.get  # the constructor: `dataclasses.replace` is slow, compiled or not
    return _hand(g("box", h.box), g("number", h.number), g("bets", h.bets),
                      g("cards", h.cards), g("points", h.points), g("split", h.split),
                      g("split_aces", h.split_aces), g("doubled", h.doubled),
                      g("stood", h.stood))


def _after_initial_deal(state: BlackjackState) -> BlackjackState:
    """Rule 7.2 items 4-5 (Touch 21 check), rule 4.7 (insurance on an ace), then play."""
    if state.rules.variant is Variant.TOUCH_21:
        return _replace(state, phase=Phase.CHECK)
    return _after_check(state)


def _after_check(state: BlackjackState) -> BlackjackState:
    if state.dealer_points[0] == 1:
        return _replace(state, phase=Phase.INSURANCE)
    return _enter_play(state)


def _enter_play(state: BlackjackState) -> BlackjackState:
    turn = _next_turn(state, state.hands, 0)
    if turn >= 0:
        return _replace(state, phase=Phase.PLAYING, turn=turn)
    return _enter_dealer(state)


def _enter_dealer(state: BlackjackState) -> BlackjackState:
    state = _replace(state, phase=Phase.DEALER, turn=-1)
    if _dealer_needs(state) == 0:
        return _replace(state, phase=Phase.PAYING)
    return state


def _after_hand_change(state: BlackjackState, hands: tuple[PlayerHand, ...], i: int,
                       **changes: Any) -> BlackjackState:
    """A hand changed: the turn stays or moves on (rule 4.2 item 4)."""
    h = hands[i]
    if state.phase is Phase.PLAYING and h.finished and not _needs_pay(state, h):
        turn = _next_turn(state, hands, i + 1)  # the up card, all it reads, is unchanged
        state = _replace(state, hands=hands, turn=turn, **changes)
        return _enter_dealer(state) if turn < 0 else state
    return _replace(state, hands=hands, **changes)


def _next_round(state: BlackjackState, **changes: Any) -> BlackjackState:
    seated = state.boxes_in_play or state.prep.seated
    prep = state.prep
    shoe = state.shoe
    if state.shuffle_after_round:
        # Rules 4.2 item 6 and 7.2 item 10: the shuffle comes at the end of the round in which
        # the cutting card appeared, and the player it was dealt to cuts.
        if state.cut_card_waiting:
            # No card came after the cutting card: it was exposed as the next round's first
            # card would be, so the player farthest right cuts (rule 4.2.4).
            prep = cut.needs_shuffle(ShuffleReason.CUT_CARD_FIRST, seated)
        else:
            prep = cut.needs_shuffle(ShuffleReason.CUT_CARD_ROUND, seated,
                                     state.cut_card_place)  # rule 4.1.3
        shoe = None
    elif prep.stage is Stage.READY:
        prep = ShoePrep(stage=Stage.READY, reason=prep.reason, seated=seated,
                        cutting_card_from_back=prep.cutting_card_from_back,
                        cut_at=prep.cut_at, method=prep.method)
    return _replace(
        state, round=state.round + 1, phase=Phase.BETTING, stakes=(), hands=(), dealer=(),
        dealer_points=(), turn=-1, insurance=(), paid=(), pending=None, prep=prep, shoe=shoe,
        shuffle_after_round=False, cut_card_place=None, cut_card_waiting=False,
        last_target=None, rounds_in_shoe=state.rounds_in_shoe + 1, round_cards=0, **changes)


def _deal(state: BlackjackState, op: CardDealt) -> BlackjackState:
    assert state.shoe is not None
    shoe = (state.shoe.draw_unchecked(op.card) if op.source is CardSource.OVERRIDE
            else state.shoe.draw(op.card))
    value = POINTS[op.card.rank]
    extra: dict[str, Any] = {"shoe": shoe, "pending": None, "last_target": op.box,
                             "round_cards": state.round_cards + 1}
    if state.cut_card_waiting:  # rules 4.2.2-4.2.3: the cutting card appeared here
        extra["cut_card_place"] = op.box
        extra["cut_card_waiting"] = False
    if op.box == DEALER:
        state = _replace(state, dealer=(*state.dealer, op.card),
                         dealer_points=(*state.dealer_points, value), **extra)
        if state.phase is Phase.DEALING:
            return state
        if _dealer_needs(state) == 0:
            return _replace(state, phase=Phase.PAYING)
        return state
    i = state.index_of(op.box, op.hand)
    h = state.hands[i]
    # The constructor with every field in order: `dataclasses.replace` costs twice as much,
    # and this is the fold's busiest line.
    h = _hand(h.box, h.number, h.bets, (*h.cards, op.card), (*h.points, value), h.split,
              h.split_aces, h.doubled, h.stood)
    hands = (*state.hands[:i], h, *state.hands[i + 1:])
    if state.phase is Phase.DEALING:
        state = _replace(state, hands=hands, **extra)
        if _initial_target(state) == -2:
            return _after_initial_deal(state)
        return state
    return _after_hand_change(state, hands, i, **extra)


def _set_bets(h: PlayerHand, players: tuple[str, ...], *, double: bool = False,
              surrender: bool = False, settle: bool = False) -> PlayerHand:
    """The hand with these players' live bets doubled (the added bet equals the bet, rule
    4.2 item 4d), surrendered (4a) or settled (paid at once)."""
    bets = tuple(
        HandBet(b.player, b.amount, b.original, b.amount if double else b.doubled,
                b.surrendered or surrender, b.settled or settle)
        if b.active and b.player in players else b
        for b in h.bets)
    return _hand_replace(h, bets=bets)


def _split(state: BlackjackState, op: Split) -> BlackjackState:
    i = state.index_of(op.box, op.hand)
    h = state.hands[i]
    choice = dict(op.follow)
    first: list[HandBet] = []
    second: list[HandBet] = []
    for b in h.bets:
        c = choice.get(b.player) if b.active else None
        if c is None:
            first.append(b)  # settled or surrendered bets stay where they were
        elif c is Follow.BOTH:
            first.append(b)
            second.append(HandBet(b.player, b.amount, original=False))
        elif c is Follow.FIRST:
            first.append(b)
        else:
            second.append(b)
    aces = h.points[0] == 1
    a = PlayerHand(h.box, h.number, tuple(first), (h.cards[0],), (h.points[0],), split=True,
                   split_aces=aces)
    b2 = PlayerHand(h.box, h.number + 1, tuple(second), (h.cards[1],), (h.points[1],),
                    split=True, split_aces=aces)
    later = tuple(_hand_replace(x, number=x.number + 1) if x.box == h.box and x.number > h.number
                  else x for x in state.hands[i + 1:])
    hands = (*state.hands[:i], a, b2, *later)
    return _replace(state, hands=hands, turn=i)


def apply(state: BlackjackState, op: Operation) -> BlackjackState:
    """The one transition function: live play and replay both fold Operations through it."""
    rep = _replace
    if isinstance(op, CardDealt):
        return _deal(state, op)
    if isinstance(op, Stood):
        i = state.index_of(op.box, op.hand)
        h = state.hands[i]
        h = _hand(h.box, h.number, h.bets, h.cards, h.points, h.split, h.split_aces,
                  h.doubled, True)  # stood (rule 4.2 item 4b)
        return _after_hand_change(state, (*state.hands[:i], h, *state.hands[i + 1:]), i)
    if isinstance(op, BetPlaced):
        return rep(state, stakes=_adjust(state.stakes, op.box, op.player, op.amount))
    if isinstance(op, BetRemoved):
        return rep(state, stakes=_adjust(state.stakes, op.box, op.player, -op.amount))
    if isinstance(op, BettingClosed):
        hands = tuple(
            PlayerHand(box, 1, tuple(HandBet(s.player, s.amount) for s in state.stakes
                                     if s.box == box))
            for box in state.boxes_in_play)
        return rep(state, phase=Phase.DEALING, hands=hands, turn=-1)
    if isinstance(op, Doubled):
        i = state.index_of(op.box, op.hand)
        h = _set_bets(state.hands[i], op.players, double=True)
        h = _hand_replace(h, doubled=True)
        return _after_hand_change(state, (*state.hands[:i], h, *state.hands[i + 1:]), i)
    if isinstance(op, Split):
        return _split(state, op)
    if isinstance(op, Surrendered):
        i = state.index_of(op.box, op.hand)
        h = _set_bets(state.hands[i], op.players, surrender=True)
        return _after_hand_change(state, (*state.hands[:i], h, *state.hands[i + 1:]), i,
                                  paid=(*state.paid, *op.settlements))
    if isinstance(op, BlackjackPaid):
        i = state.index_of(op.box, op.hand)
        h = state.hands[i]
        h = _set_bets(h, tuple(b.player for b in h.bets), settle=True)
        state = rep(state, paid=(*state.paid, *op.settlements))
        hands = (*state.hands[:i], h, *state.hands[i + 1:])
        return _after_hand_change(state, hands, i)
    if isinstance(op, RoundSettled):
        return _next_round(state, last_settled=op)
    if isinstance(op, CardBurned):
        shoe = state.shoe
        prep = state.prep
        if prep.stage is Stage.BURN:  # rule 4.7: the first card after the shuffle
            shoe = ShoeContents(state.rules.decks)
            prep = ShoePrep(stage=Stage.READY, reason=prep.reason, seated=prep.seated,
                            cut_at=prep.cut_at, method=prep.method,
                            cutting_card_from_back=prep.cutting_card_from_back)
        if shoe is not None and op.card is not None:
            shoe = shoe.draw(op.card) if shoe.can_draw(op.card) else shoe.draw_unchecked(op.card)
        elif shoe is not None:
            shoe = ShoeContents(shoe.decks, shoe.seen, shoe.dealt + 1)
        return rep(state, shoe=shoe, prep=prep)
    if isinstance(op, CardUnread):
        return rep(state, pending=PendingCard(op.box, op.hand, "unread",
                                              message="The shoe could not read this card"))
    if isinstance(op, CardQueried):
        return rep(state, pending=PendingCard(op.box, op.hand, op.reason, op.card, op.message))
    if isinstance(op, CardSetAside):
        assert state.shoe is not None
        return rep(state, pending=None, shoe=state.shoe.draw_unchecked(op.card))
    if isinstance(op, InsuranceTaken):
        return rep(state, insurance=(*state.insurance, Insurance(op.box, op.player, op.amount)))
    if isinstance(op, EvenMoneyTaken):
        i = state.index_of(op.box, 1)
        h = _set_bets(state.hands[i], (op.player,), settle=True)
        return rep(state, hands=(*state.hands[:i], h, *state.hands[i + 1:]),
                   paid=(*state.paid, op.settlement))
    if isinstance(op, InsuranceClosed):
        return _enter_play(state)
    if isinstance(op, BlackjacksChecked):
        return _after_check(state)
    if isinstance(op, CallerSet):
        mine = tuple(s for s in state.stakes if s.box == op.box and s.player == op.player)
        rest = tuple(s for s in state.stakes if not (s.box == op.box and s.player == op.player))
        return rep(state, stakes=mine + rest)
    if isinstance(op, CardsShuffled):
        seated = state.boxes_in_play or state.prep.seated
        prep = cut.after_shuffle(state.prep, op.method, state.rules.shuffler, op.new_cards,
                                 seated)
        return rep(state, prep=prep, shoe=None, rounds_in_shoe=0, shuffle_after_round=False,
                   cut_card_waiting=False, cut_card_place=None)
    if isinstance(op, CutRefused):
        prep = prep_now(state)
        return rep(state, prep=dataclasses.replace(prep, refused=(*prep.refused, op.box)))
    if isinstance(op, CardsCut):
        return rep(state, prep=cut.after_cut(state.prep, op.cut_at, op.cutting_card_from_back))
    if isinstance(op, CutCardOut):
        if state.prep.stage is not Stage.READY:
            return state  # the cards are being shuffled and cut: nothing to act on
        if not _round_started(state):
            # Rule 4.1.2 (shuffle and cut): the cutting card came out as the first card of
            # a new round: shuffle now. The bets stay, and stay closed if they were (rules
            # 4.2 item 3, 4.6); the round is dealt from the new shoe after the cut and burn.
            seated = state.boxes_in_play or state.prep.seated
            return rep(state, prep=cut.needs_shuffle(ShuffleReason.CUT_CARD_FIRST, seated),
                       shoe=None)
        return rep(state, shuffle_after_round=True, cut_card_waiting=True)  # rule 4.1.3
    if isinstance(op, RoundVoided):
        return _next_round(state)
    if isinstance(op, TableOpened):
        if not state.table_id:
            return initial_state(op.rules, op.table_id)
        same_shoe = op.rules.decks == state.rules.decks
        changes: dict[str, Any] = {"rules": op.rules, "table_id": op.table_id}
        if not same_shoe:
            changes.update(shoe=None, prep=cut.needs_shuffle(ShuffleReason.NEW_CARDS,
                                                             state.prep.seated))
        return rep(state, **changes)
    if isinstance(op, TableRecord):  # the table's own records leave the game as it is
        return state
    raise foreign("blackjack", op)  # another game's record is never folded silently


def _adjust(stakes: tuple[Stake, ...], box: int, player: str, delta: int) -> tuple[Stake, ...]:
    out: list[Stake] = []
    found = False
    for s in stakes:
        if s.box == box and s.player == player:
            found = True
            if s.amount + delta > 0:
                out.append(Stake(box, player, s.amount + delta))
        else:
            out.append(s)
    if not found and delta > 0:
        out.append(Stake(box, player, delta))
    return tuple(out)


# --- Words for the dealer ---------------------------------------------------------------------


def next_step(state: BlackjackState) -> str:
    """The one next thing the dealer must do."""
    rules = state.rules
    if state.pending is not None:
        p = state.pending
        where = "" if p.box == NOBODY else f" for {_target_words(state, (p.box, p.hand))}"
        if p.reason == "unread":
            return f"Key in the unread card{where}"
        if p.reason == "impossible":
            return f"Queried card{where}: key the right card, or an inspector accepts it"
        return f"Card not allowed: {p.message}. Set it aside or void the round"
    if state.prep.stage is not Stage.READY and not _round_started(state):
        words = cut.step_words(prep_now(state), rules.shuffler)
        if state.prep.stage is Stage.BURN and state.phase is Phase.BETTING:
            return f"Place your bets. {words}"
        return words
    if state.phase is Phase.BETTING:
        return "Place your bets"
    if state.phase is Phase.DEALING:
        i = _initial_target(state)
        if i == -1:
            return "Dealer's card"
        n = len(state.hands)
        h = state.hands[i]
        return f"Box {h.box}: {'first' if len(state.dealer) == 0 and i < n else 'second'} card"
    if state.phase is Phase.CHECK:
        return "Players check their cards; a blackjack is turned face up (rule 7.2 items 4-5)"
    if state.phase is Phase.INSURANCE:
        return "Dealer shows an ace: insurance? (blackjacks: even money?) Then close insurance"
    if state.phase is Phase.PLAYING:
        cur = state.current
        assert cur is not None
        h = cur
        if _needs_pay(state, h):
            return f"Pay the blackjack on {h.label}: {format_ratio_words(rules)}"
        if len(h.cards) < 2:
            return f"{h.label.capitalize()}: its second card"
        if h.doubled:
            return f"{h.label.capitalize()} doubled: one card only"
        up = state.dealer_points[0]
        options = ["draw", "stand"]
        if can_double(state):
            options.append("double")
        if can_split(state):
            options.append("split")
        if can_surrender(state):
            options.append("surrender")
        return (f"{h.label.capitalize()}: {h.total} against {_up_words(up)}: "
                f"{', '.join(options)}?")
    if state.phase is Phase.DEALER:
        if len(state.dealer) < 2:
            return "Dealer's second card"
        return f"Dealer draws ({state.dealer_total}): {rules.dealer_rule.lower()}"
    t = state.dealer_total
    head = ("Dealer has blackjack" if state.dealer_blackjack
            else f"Dealer {t if t.bust else t.best}" if state.dealer_points
            else "No dealer card needed")
    return f"Round complete: {head}. Pay and confirm"


def format_ratio_words(rules: BlackjackRules) -> str:
    r = rules.blackjack_odds
    return f"{r.numerator}:{r.denominator}"


def _up_words(points: int) -> str:
    return "an ace" if points == 1 else str(points)


def decision_flags(state: BlackjackState) -> tuple[bool, bool, bool] | None:
    """(can double, can split, can surrender) for the hand in turn, or None when it cannot
    decide now: `decisions` in one pass, for a strategy asking many times a second."""
    if _decision_refusal(state, explain=False) is not None:
        return None
    h = state.current
    assert h is not None
    rules = state.rules
    two = len(h.points) == 2
    double = two and not (h.split and (not rules.double_after_split or h.split_aces))
    split = (two and _pair(rules, h) and not h.split_aces
             and sum(1 for x in state.hands if x.box == h.box) < rules.max_hands)
    surrender = (two and rules.surrender and rules.variant is Variant.STANDARD
                 and not h.split and state.dealer_points[0] != 1)
    return double, split, surrender


def decisions(state: BlackjackState) -> tuple[str, ...]:
    """The decisions the rules allow the hand in turn now (the dealer screen's buttons)."""
    if _decision_refusal(state, explain=False) is not None:
        return ()
    out = ["draw", "stand"]
    if can_double(state):
        out.append("double")
    if can_split(state):
        out.append("split")
    if can_surrender(state):
        out.append("surrender")
    return tuple(out)


class Blackjack:
    """Standard blackjack and Touch 21 as a `kiosk.rules.game.Game`."""

    name = "blackjack"

    def initial_state(self, rules: Any, table_id: str) -> BlackjackState:
        return initial_state(rules, table_id)

    def open_table(self, rules: Any, table_id: str) -> Operation:
        return open_table(rules, table_id)

    def apply(self, state: BlackjackState, op: Operation) -> BlackjackState:
        return apply(state, op)

    def shoe_card(self, state: BlackjackState, card: Card) -> Operation:
        return shoe_card(state, card)

    def verify_shoe_card(self, state: BlackjackState, card: Card) -> None:
        verify_shoe_card(state, card)

    def holds_cards(self, state: BlackjackState) -> bool:
        return holds_cards(state)

    def unread_card(self, state: BlackjackState) -> Operation:
        return unread_card(state)

    def verify_burn(self, state: BlackjackState, card: Card | None) -> None:
        verify_burn(state, card)

    def burn(self, state: BlackjackState, card: Card | None) -> Operation:
        return burn(state, card)

    def betting_open(self, state: BlackjackState) -> bool:
        return state.phase is Phase.BETTING

    def ready(self, state: BlackjackState) -> bool:
        """Off while the shoe is being shuffled or cut (rules 4.1-4.5, shuffle and cut)."""
        return state.prep.stage in (Stage.BURN, Stage.READY)

    def close_betting(self, state: BlackjackState) -> Operation:
        return close_betting(state)

    def table_minimum(self, rules: BlackjackRules) -> int:
        return rules.minimum

    def round_number(self, state: BlackjackState) -> int:
        return state.round

    def rules_of(self, state: BlackjackState) -> BlackjackRules:
        return state.rules

    def cut_card_out(self, state: BlackjackState) -> Operation:
        return cut_card_out(state)

    def next_step(self, state: BlackjackState) -> str:
        return next_step(state)

    def cut_card_words(self, state: BlackjackState) -> str:
        return cut_card_words(state)


def cut_card_words(state: BlackjackState) -> str:
    """What the cutting card means now (rules 4.1.2, 4.1.3 shuffle and cut)."""
    if state.prep.stage is Stage.SHUFFLE:
        return ("Cutting card out before the round: shuffle now (rule 4.1.2 shuffle and "
                "cut); the bets stay")
    return ("Cutting card out: the cards are shuffled at the end of this round (rule 4.1.3 "
            "shuffle and cut)")



def legal_actions(state: BlackjackState) -> frozenset[str]:
    """The dealer's acts allowed now, by name, without probing each card, box or amount:
    the dealer screen enables its buttons from this set. An act that needs a box or a player
    is in the set when it is allowed for one of them; `deal_card` means a card may be keyed
    in for the hand whose turn it is."""
    out: set[str] = set()
    checks: dict[str, tuple[Any, tuple[Any, ...]]] = {
        "shuffle": (verify_shuffle, ()),
        "close_betting": (verify_close_betting, ()),
        "confirm_payouts": (verify_complete, ()),
        "void_round": (verify_void, ("reason to be given", "inspector to be named")),
        "unread_card": (verify_unread, ()),
        "accept_queried_card": (verify_accept_queried, ("inspector",)),
        "set_aside_card": (verify_set_aside, ()),
        "check_blackjacks": (verify_check_blackjacks, ()),
        "close_insurance": (verify_close_insurance, ()),
        "stand": (verify_stand, ()),
        "pay_blackjack": (verify_pay_blackjack, ()),
        "burn": (verify_burn, (None,)),
        "cut_card_out": (verify_cut_card_out, ()),
    }
    for name, (verify, args) in checks.items():
        if _can(verify, state, *args):
            out.add(name)
    flags = decision_flags(state)
    if flags is not None:
        for name, allowed in zip(("double", "split", "surrender"), flags, strict=True):
            if allowed:
                out.add(name)
    if state.phase is Phase.BETTING and any(
            _can(verify_place_bet, state, box, state.rules.minimum)
            for box in range(1, state.rules.boxes + 1)):
        out.add("place_bet")
    if state.phase is Phase.BETTING and state.stakes:
        out.add("remove_bet")
    if (_can(_verify_target, state, None, 1, CardSource.KEYED)
            and state.shoe is not None and state.shoe.remaining > 0):
        out.add("deal_card")
    seated = {(s.box, s.player) for s in state.stakes} | {
        (h.box, b.player) for h in state.hands for b in h.bets}
    if any(_can(verify_insurance, state, box, player, max_insurance(state, box, player))
           for box, player in seated):
        out.add("insure")
    if any(_can(verify_even_money, state, box, player) for box, player in seated):
        out.add("take_even_money")
    return frozenset(out)


# One name for each act in every game: verify_x, can_x (the same arguments) and x.
verify_deal_card = verify_card
verify_insure = verify_insurance
verify_take_even_money = verify_even_money
verify_confirm_payouts = verify_complete
