"""Punto banco, section 5 of the Mpumalanga rules, as a pure engine.

The coup: bets on banker, player and tie per numbered betting area and the standing players'
area (rules 5.2, 5.6); "no more bets"; cards in the order player, banker, player, banker (5.2);
third cards by the drawing table (5.2); the result; payouts (5.7). Every function here is pure:
cards come in as inputs, the clock and the dice live elsewhere.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

from kiosk.rules.baccarat.outcomes import CoupResult, Winner
from kiosk.rules.cards import BACCARAT_VALUES, Card, ShoeContents
from kiosk.rules.errors import (
    Amount,
    ImpossibleCard,
    NotAllowed,
    Said,
    Word,
    allowed,
    resolve_first,
)
from kiosk.rules.game import foreign
from kiosk.rules.money import ChipRule, format_money, format_ratio
from kiosk.rules.operations import CardQuery, Operation, RoundVoid, TableOpening, TableRecord

GAME = "punto-banco"
STANDING = "standing"  # rule 5.2: the area designated for standing players


class BetKind(StrEnum):
    BANKER = "banker"
    PLAYER = "player"
    TIE = "tie"


class Hand(StrEnum):
    PLAYER = "player"
    BANKER = "banker"


class CommissionMode(StrEnum):
    """Rule 5.7: a winning bank bet is paid "at odds of 19:20 or the total of the original
    bets less 5%". NET pays 19:20 at once; COMMISSION pays 1:1 and the 5% is owed by the
    betting area and collected later."""

    NET = "net"
    COMMISSION = "commission"


class Phase(StrEnum):
    BETTING = "betting"  # "place your bets"
    DEALING = "dealing"  # "no more bets": the cards come out of the shoe
    PAYING = "paying"  # coup complete: the dealer checks and confirms every payout


class CardSource(StrEnum):
    SHOE = "shoe"  # read by the shoe
    KEYED = "keyed"  # keyed in by the dealer (unread card, no shoe, a misread corrected)
    OVERRIDE = "override"  # a card that looked impossible, accepted by an inspector


class Outcome(StrEnum):
    WIN = "win"
    LOSE = "lose"
    STAND_OFF = "stand_off"  # rule 5.7: on a tie, banker and player bets stand off


@dataclass(frozen=True, slots=True)
class Limit:
    """Rule 2.2: the table minimum and maximum for one kind of bet, in cents."""

    kind: BetKind
    minimum: int
    maximum: int


DEFAULT_LIMITS = (
    Limit(BetKind.BANKER, 5_000, 5_000_000),
    Limit(BetKind.PLAYER, 5_000, 5_000_000),
    Limit(BetKind.TIE, 1_000, 500_000),
)

DEFAULT_CHIPS = ChipRule()


@dataclass(frozen=True, slots=True)
class PuntoBancoRules:
    """The house's configuration of punto banco; journaled when the table opens."""

    decks: int = 8  # rule 5.4
    areas: int = 7  # rule 5.2: seven to fourteen numbered betting areas
    standing_area: bool = True  # rule 5.2
    limits: tuple[Limit, ...] = DEFAULT_LIMITS
    commission_mode: CommissionMode = CommissionMode.NET
    banker_odds: Fraction = Fraction(19, 20)  # rule 5.7
    commission_rate: Fraction = Fraction(5, 100)  # rule 5.7
    player_odds: Fraction = Fraction(1)  # rule 5.7
    tie_odds: Fraction = Fraction(8)  # rule 5.7
    chips: ChipRule = DEFAULT_CHIPS
    currency: str = "R"

    def __post_init__(self) -> None:
        if not 7 <= self.areas <= 14:
            raise ValueError(f"punto banco has 7 to 14 numbered betting areas (rule 5.2), "
                             f"not {self.areas}")
        if not 1 <= self.decks <= 16:
            raise ValueError(f"a shoe holds 1 to 16 decks, not {self.decks}")
        kinds = [lim.kind for lim in self.limits]
        if sorted(kinds) != sorted(BetKind):
            raise ValueError("limits must name banker, player and tie once each (rule 2.2)")
        for lim in self.limits:
            if not 0 < lim.minimum <= lim.maximum:
                raise ValueError(f"the {lim.kind} limits must satisfy 0 < minimum <= maximum")

    def limit(self, kind: BetKind) -> Limit:
        for lim in self.limits:
            if lim.kind is kind:
                return lim
        raise KeyError(kind)  # pragma: no cover - __post_init__ guarantees all kinds

    def area_ids(self) -> tuple[str, ...]:
        return _area_ids(self.areas, self.standing_area)

    def odds(self) -> tuple[tuple[str, str], ...]:
        """Rule 2.6: the payment odds as the signage shows them."""
        bank = (
            f"{format_ratio(self.banker_odds)}"
            if self.commission_mode is CommissionMode.NET
            else f"1:1 less {self.commission_rate * 100}% commission"
        )
        return (("Banker", bank), ("Player", format_ratio(self.player_odds)),
                ("Tie", format_ratio(self.tie_odds)))


@functools.cache
def _area_ids(areas: int, standing: bool) -> tuple[str, ...]:
    ids = tuple(str(n) for n in range(1, areas + 1))
    return (*ids, STANDING) if standing else ids


@dataclass(frozen=True, slots=True)
class Bet:
    area: str
    kind: BetKind
    amount: int


@dataclass(frozen=True, slots=True)
class PendingCard:
    """A card that needs the dealer's decision before the coup goes on."""

    hand: Hand
    reason: str  # "unread" or "impossible"
    card: Card | None = None
    message: str = ""


@dataclass(frozen=True, slots=True)
class BetSettlement:
    """How one bet was settled. `paid` is the win in chips on top of the returned stake;
    `exact_win` is stake x odds before the chip rule; `rounding` = exact_win - paid."""

    area: str
    kind: BetKind
    stake: int
    outcome: Outcome
    odds: Fraction
    exact_win: Fraction
    paid: int
    rounding: Fraction
    commission: Fraction  # owed to the house by the area (commission mode)

    @property
    def returned(self) -> int:
        """Chips handed back to the area: stake and win, the stake alone, or nothing."""
        if self.outcome is Outcome.WIN:
            return self.stake + self.paid
        return self.stake if self.outcome is Outcome.STAND_OFF else 0

    @property
    def player_net(self) -> Fraction:
        """What the bet gained (+) or lost (-) for its player, commission included."""
        return Fraction(self.returned - self.stake) - self.commission


# --- Operations -------------------------------------------------------------------------


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


# --- State ------------------------------------------------------------------------------


@dataclass(frozen=True)  # no slots: `_replace` copies __dict__ in one step (the hot path)
class PuntoBancoState:
    rules: PuntoBancoRules
    table_id: str = ""
    coup: int = 1
    phase: Phase = Phase.BETTING
    shoe: ShoeContents | None = None  # None until a shuffled shoe is loaded (rule 5.5)
    bets: tuple[Bet, ...] = ()
    player_cards: tuple[Card, ...] = ()
    banker_cards: tuple[Card, ...] = ()
    # The cards' values (rule 5.4), kept beside them for the drawing table's hot path.
    player_values: tuple[int, ...] = ()
    banker_values: tuple[int, ...] = ()
    pending: PendingCard | None = None
    cut_card_out: bool = False
    results: tuple[CoupResult, ...] = ()  # this shoe's results, for the roads
    commission_owed: tuple[tuple[str, Fraction], ...] = ()
    last_settled: CoupSettled | None = None
    burned: int = 0

    def bet_total(self, area: str, kind: BetKind) -> int:
        amount = 0
        for b in self.bets:  # a plain loop: a generator costs more than the few bets it sums
            if b.area == area and b.kind is kind:
                amount += b.amount
        return amount

    def owed_by(self, area: str) -> Fraction:
        return dict(self.commission_owed).get(area, Fraction(0))

    @property
    def total_staked(self) -> int:
        return sum(b.amount for b in self.bets)


# --- The drawing table (rule 5.2) --------------------------------------------------------

# Rule 5.2, "BANKER HAVING / DRAWS WHEN GIVING": the values of the Player's third card on
# which the Banker draws. "10" in the printed table is a ten-value card, value 0 (rule 5.4).
BANKER_DRAWS_WHEN_GIVING: dict[int, frozenset[int]] = {
    3: frozenset({1, 2, 3, 4, 5, 6, 7, 9, 0}),
    4: frozenset({2, 3, 4, 5, 6, 7}),
    5: frozenset({4, 5, 6, 7}),
    6: frozenset({6, 7}),
}


def total(values: Sequence[int]) -> int:
    """Rule 5.2: a hand's total is the last digit of the sum of its card values."""
    return sum(values) % 10


def player_draws(player_total: int) -> bool:
    """Rule 5.2: Player having 0-5 draws a card; 6, 7 stands (8, 9 is a natural)."""
    return player_total <= 5


def banker_draws(banker_total: int, player_third: int | None) -> bool:
    """Rule 5.2, the Banker's side of the drawing table, once neither hand is a natural.

    `player_third` is the value the Player was given, or None when the Player stood. Banker
    0, 1, 2 "draws unless the Player has a natural"; 7 stands. For 3-6 the table lists the
    cards given; when the Player stood there is nothing given and the Banker draws on 0-5 and
    stands on 6, 7 (the standard reading, which reproduces the published house edges).
    """
    if banker_total <= 2:
        return True
    if banker_total >= 7:
        return False
    if player_third is None:
        return banker_total <= 5
    return player_third in BANKER_DRAWS_WHEN_GIVING[banker_total]


def next_to_draw(player: Sequence[int], banker: Sequence[int]) -> Hand | None:
    """Which hand the next card goes to, or None when the coup is complete (rule 5.2).

    The deal order is player, banker, player, banker; then the drawing table. Takes card
    values, so the odds calculator runs this very function over every deal.
    """
    n_p, n_b = len(player), len(banker)
    if n_p + n_b < 4:
        return Hand.PLAYER if n_p == n_b else Hand.BANKER
    p2 = (player[0] + player[1]) % 10
    b2 = (banker[0] + banker[1]) % 10
    if p2 >= 8 or b2 >= 8:  # rule 5.2: natural, no cards drawn
        return None
    if n_p == 2 and n_b == 2:
        if player_draws(p2):
            return Hand.PLAYER
        return Hand.BANKER if banker_draws(b2, None) else None
    if n_p == 3 and n_b == 2:
        return Hand.BANKER if banker_draws(b2, player[2]) else None
    return None


def winner_of(player_total: int, banker_total: int) -> Winner:
    """Closest to 9 wins; equal totals are a tie, "egalitie" (rule 5.7)."""
    if player_total > banker_total:
        return Winner.PLAYER
    if banker_total > player_total:
        return Winner.BANKER
    return Winner.TIE


def values(cards: Sequence[Card]) -> tuple[int, ...]:
    return tuple([BACCARAT_VALUES[c.rank] for c in cards])


def coup_result(player_cards: Sequence[Card], banker_cards: Sequence[Card]) -> CoupResult:
    return _coup_result(player_cards, banker_cards, values(player_cards), values(banker_cards))


def _coup_result(player_cards: Sequence[Card], banker_cards: Sequence[Card],
                 pv: Sequence[int], bv: Sequence[int]) -> CoupResult:
    """`coup_result` given the cards' values too (the state keeps them beside the cards)."""
    pt, bt = total(pv), total(bv)
    return CoupResult(
        winner=winner_of(pt, bt),
        player_total=pt,
        banker_total=bt,
        player_pair=player_cards[0].rank is player_cards[1].rank,
        banker_pair=banker_cards[0].rank is banker_cards[1].rank,
        natural=total(pv[:2]) >= 8 or total(bv[:2]) >= 8,
    )


def _state_result(state: PuntoBancoState) -> CoupResult:
    return _coup_result(state.player_cards, state.banker_cards, state.player_values,
                        state.banker_values)


_ZERO = Fraction(0)  # Fractions are immutable: one zero serves every settlement
_EVEN = Fraction(1)


def _owed_commission(bet: Bet, rules: PuntoBancoRules) -> Fraction:
    if rules.commission_mode is CommissionMode.COMMISSION:
        return bet.amount * rules.commission_rate
    return _ZERO


def settle_bet(rules: PuntoBancoRules, bet: Bet, winner: Winner) -> BetSettlement:
    """Rule 5.7 for one bet. Odd amounts follow the house's chip rule; the difference between
    the exact win and what is paid is recorded in `rounding`, never dropped silently."""
    if bet.kind is BetKind.TIE:
        won, odds = winner is Winner.TIE, rules.tie_odds
    elif winner is Winner.TIE:  # rule 5.7: banker and player bets stand off on a tie
        return BetSettlement(bet.area, bet.kind, bet.amount, Outcome.STAND_OFF, _ZERO, _ZERO,
                             0, _ZERO, _ZERO)
    elif bet.kind is BetKind.BANKER:
        won = winner is Winner.BANKER
        odds = rules.banker_odds if rules.commission_mode is CommissionMode.NET else _EVEN
    else:
        won, odds = winner is Winner.PLAYER, rules.player_odds
    if not won:
        return BetSettlement(bet.area, bet.kind, bet.amount, Outcome.LOSE, odds, _ZERO, 0,
                             _ZERO, _ZERO)
    win = bet.amount * odds.numerator
    if odds.denominator == 1 and win % rules.chips.smallest_chip == 0:
        # Whole odds (1:1, 8:1) on whole chips: the exact win is paid as it is, nothing rounds.
        exact, paid, rounding = Fraction(win), win, _ZERO
    else:
        # Built from ints: Fraction arithmetic (`amount * odds`, `exact - paid`) costs twice this.
        exact = Fraction(win, odds.denominator)
        paid = rules.chips.round_payout(exact)
        rounding = Fraction(win - paid * odds.denominator, odds.denominator)  # exact - paid
    commission = _owed_commission(bet, rules) if bet.kind is BetKind.BANKER else _ZERO
    return BetSettlement(bet.area, bet.kind, bet.amount, Outcome.WIN, odds, exact, paid,
                         rounding, commission)


def settlement(state: PuntoBancoState) -> tuple[BetSettlement, ...]:
    """The payout of every bet on the table for the finished coup (rule 5.7)."""
    verify_complete(state)
    return _settle_all(state, _state_result(state).winner)


def _settle_all(state: PuntoBancoState, winner: Winner) -> tuple[BetSettlement, ...]:
    rules = state.rules
    return tuple([settle_bet(rules, b, winner) for b in state.bets])


# --- Game protocol & actions --------------------------------------------------------------


def initial_state(rules: PuntoBancoRules, table_id: str) -> PuntoBancoState:
    return PuntoBancoState(rules=rules, table_id=table_id)


def open_table(rules: PuntoBancoRules, table_id: str) -> TableOpened:
    return TableOpened(game=GAME, table_id=table_id, rules=rules)


def next_hand(state: PuntoBancoState) -> Hand | None:
    return next_to_draw(state.player_values, state.banker_values)


def verify_shuffle(state: PuntoBancoState) -> None:
    if state.phase is not Phase.BETTING or state.player_cards or state.banker_cards:
        raise NotAllowed.of("The shoe can only be changed between coups", clause="5.5")


def can_shuffle(state: PuntoBancoState) -> bool:
    return allowed(verify_shuffle, state)


def shuffle(state: PuntoBancoState, method: str = "hand") -> ShoeShuffled:
    """Rule 5.5: a freshly shuffled shoe is loaded before the first cards are dealt."""
    verify_shuffle(state)
    if method not in ("hand", "shuffler"):
        raise NotAllowed(f"Shuffle method {method!r}: choose hand or shuffler", clause="5.5")
    return ShoeShuffled(decks=state.rules.decks, method=method)


def verify_place_bet(state: PuntoBancoState, area: str, kind: BetKind, amount: int) -> None:
    """Rules 5.2, 5.6 and 2.2: a bet goes on a real area before "no more bets", in chips,
    within the table maximum for its kind."""
    rules = state.rules
    if state.phase is not Phase.BETTING:
        raise NotAllowed.of("No more bets has been called: bets are closed for this coup",
                         clause="5.6")
    if area not in rules.area_ids():
        raise NotAllowed(f"There is no betting area {area!r} on this table "
                         f"(areas {', '.join(rules.area_ids())})", clause="5.2")
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise NotAllowed(f"A bet must be a positive amount, not {amount!r}")
    rules.chips.verify_stake(amount)
    lim = rules.limit(kind)
    now = state.bet_total(area, kind)
    if now + amount > lim.maximum:
        # TRANSLATORS: %(kind)s is the bet's name as the screens say it (Banker, Player, Tie).
        raise NotAllowed.of(
            "Area %(area)s: %(kind)s bet of %(amount)s is over the table maximum of "
            "%(maximum)s; at most %(more)s more", clause="2.2", area=area, kind=_w(kind),
            amount=_a(state, now + amount), maximum=_a(state, lim.maximum),
            more=_a(state, lim.maximum - now))


def can_place_bet(state: PuntoBancoState, area: str, kind: BetKind, amount: int) -> bool:
    return allowed(verify_place_bet, state, area, kind, amount)


def place_bet(state: PuntoBancoState, area: str, kind: BetKind, amount: int) -> BetPlaced:
    verify_place_bet(state, area, kind, amount)
    # Fields in order (coup, area, bet, amount): keywords make every construction build a dict.
    return BetPlaced(state.coup, area, kind, amount)


def verify_remove_bet(state: PuntoBancoState, area: str, kind: BetKind, amount: int) -> None:
    if state.phase is not Phase.BETTING:
        raise NotAllowed.of("No more bets has been called: bets cannot be taken back now",
                         clause="5.6")
    if amount <= 0 or state.bet_total(area, kind) < amount:
        # TRANSLATORS: %(kind)s is the bet's name as the screens say it (Banker, Player, Tie).
        raise NotAllowed.of("Area %(area)s has only %(amount)s on %(kind)s", area=area,
                            amount=_a(state, state.bet_total(area, kind)), kind=_w(kind))


def can_remove_bet(state: PuntoBancoState, area: str, kind: BetKind, amount: int) -> bool:
    return allowed(verify_remove_bet, state, area, kind, amount)


def remove_bet(state: PuntoBancoState, area: str, kind: BetKind, amount: int) -> BetRemoved:
    verify_remove_bet(state, area, kind, amount)
    return BetRemoved(coup=state.coup, area=area, bet=kind, amount=amount)


def verify_close_betting(state: PuntoBancoState) -> None:
    """ "No more bets": every bet at or above its minimum (2.2), a tie bet only beside a bet
    on Banco or Punto (5.2: "The Player must have a bet on either Banco or Punto"), and a
    shuffled shoe loaded (5.5)."""
    if state.phase is not Phase.BETTING:
        raise NotAllowed.of("Bets are already closed for this coup", clause="5.6")
    if state.shoe is None:
        raise NotAllowed.of("Shuffle and load the shoe before dealing", clause="5.5")
    problems: list[tuple[str, str]] = []  # (what is wrong, the clause it breaks)
    alone: NotAllowed | None = None  # the refusal when there is one problem, as a sentence
    rules = state.rules
    totals: dict[tuple[str, BetKind], int] = {}
    for b in state.bets:
        totals[b.area, b.kind] = totals.get((b.area, b.kind), 0) + b.amount
    for (area, kind), amt in sorted(totals.items()):
        if 0 < amt < rules.limit(kind).minimum:
            problems.append((f"area {area} {kind} {_m(state, amt)} is under the "
                             f"{_m(state, rules.limit(kind).minimum)} minimum", "2.2"))
            # TRANSLATORS: %(kind)s is the bet's name as the screens say it (Banker ...).
            alone = NotAllowed.of(
                "Cannot close bets: area %(area)s %(kind)s %(amount)s is under the "
                "%(minimum)s minimum", clause="2.2", area=area, kind=_w(kind),
                amount=_a(state, amt), minimum=_a(state, rules.limit(kind).minimum))
        if kind is BetKind.TIE and not (totals.get((area, BetKind.BANKER))
                                        or totals.get((area, BetKind.PLAYER))):
            problems.append((f"area {area} has a tie bet without a bet on Banker or Player",
                             "5.2"))
            alone = NotAllowed.of("Cannot close bets: area %(area)s has a tie bet without a "
                                  "bet on Banker or Player", clause="5.2", area=area)
    if problems:
        clauses = {c for _, c in problems}
        if len(problems) == 1 and alone is not None:
            raise alone
        if len(clauses) == 1:
            raise NotAllowed("Cannot close bets: " + "; ".join(t for t, _ in problems),
                             clause=clauses.pop())
        err = NotAllowed("Cannot close bets: " + "; ".join(f"{t} (rule {c})"
                                                           for t, c in problems))
        err.clause = problems[0][1]
        raise err


def can_close_betting(state: PuntoBancoState) -> bool:
    return allowed(verify_close_betting, state)


def close_betting(state: PuntoBancoState) -> BettingClosed:
    verify_close_betting(state)
    return BettingClosed(coup=state.coup)


def verify_card(state: PuntoBancoState, card: Card, source: CardSource = CardSource.SHOE
                ) -> None:
    """A card may be dealt while dealing, to the hand rule 5.2 says is next, if the shoe can
    hold it (rule 5.4). A card keyed in by the dealer also resolves an unread or queried card."""
    _verify_card(state, card, source)


def _verify_card(state: PuntoBancoState, card: Card, source: CardSource) -> Hand:
    """`verify_card`, answering the hand the card goes to."""
    if state.phase is not Phase.DEALING:
        if state.phase is Phase.BETTING:
            raise NotAllowed.of("A card cannot be dealt before no more bets", clause="5.2")
        raise NotAllowed.of("A card cannot be dealt after the coup ended", clause="5.2")
    if state.pending is not None and source is not CardSource.KEYED:
        raise resolve_first(state.pending.reason, state.pending.hand)
    hand = next_hand(state)
    if hand is None:
        raise NotAllowed.of("The drawing table gives no more cards in this coup", clause="5.2")
    assert state.shoe is not None  # closing bets needs a loaded shoe
    state.shoe.verify_draw(card)
    return hand


def can_deal_card(state: PuntoBancoState, card: Card,
                  source: CardSource = CardSource.SHOE) -> bool:
    return allowed(verify_card, state, card, source)


def deal_card(state: PuntoBancoState, card: Card,
              source: CardSource = CardSource.SHOE) -> CardDealt:
    hand = _verify_card(state, card, source)
    # Fields in order (coup, hand, card, source): keywords make every construction build a dict.
    return CardDealt(state.coup, hand, card, source)


def shoe_card(state: PuntoBancoState, card: Card) -> CardDealt | CardQueried:
    """A card the shoe read: dealt if allowed; a card the shoe cannot hold is queried, so the
    dealer decides (key the right card, void the coup, or an inspector accepts it)."""
    try:
        return deal_card(state, card, CardSource.SHOE)
    except ImpossibleCard as exc:
        hand = next_hand(state)
        assert hand is not None
        return CardQueried(coup=state.coup, hand=hand, card=card, message=str(exc))


def verify_shoe_card(state: PuntoBancoState, card: Card) -> None:
    """Everything `shoe_card` needs except the shoe's contents (an impossible card becomes a
    query rather than an error)."""
    with contextlib.suppress(ImpossibleCard):
        verify_card(state, card, CardSource.SHOE)


def verify_unread(state: PuntoBancoState) -> None:
    if state.phase is not Phase.DEALING or next_hand(state) is None:
        raise NotAllowed.of("No card is due now, so an unread card cannot belong to this coup",
                            clause="5.2")
    if state.pending is not None:
        raise resolve_first(state.pending.reason, state.pending.hand)


def unread_card(state: PuntoBancoState) -> CardUnread:
    verify_unread(state)
    hand = next_hand(state)
    assert hand is not None
    return CardUnread(coup=state.coup, hand=hand)


def verify_accept_queried(state: PuntoBancoState, by: str) -> None:
    if state.pending is None or state.pending.reason != "impossible":
        raise NotAllowed.of("There is no queried card to accept")
    if not by.strip():
        raise NotAllowed.of("An inspector must accept a card the shoe cannot hold")


def accept_queried_card(state: PuntoBancoState, by: str) -> CardDealt:
    """An inspector accepts the queried card as dealt (recorded with their name)."""
    verify_accept_queried(state, by)
    assert state.pending is not None and state.pending.card is not None
    return CardDealt(coup=state.coup, hand=state.pending.hand, card=state.pending.card,
                     source=CardSource.OVERRIDE, by=by.strip())


def verify_burn(state: PuntoBancoState, card: Card | None = None) -> None:
    if state.shoe is None:
        raise NotAllowed.of("No shoe is loaded: a card cannot be burned before the cards are "
                            "shuffled (rule 5.5)")
    if state.phase is Phase.DEALING and (state.player_cards or state.banker_cards):
        raise NotAllowed.of("A card cannot be burned in the middle of a coup")


def can_burn(state: PuntoBancoState, card: Card | None = None) -> bool:
    return allowed(verify_burn, state, card)


def burn(state: PuntoBancoState, card: Card | None) -> CardBurned:
    verify_burn(state, card)
    return CardBurned(card=card)


def verify_cut_card_out(state: PuntoBancoState) -> None:
    if state.shoe is None:
        raise NotAllowed.of("No shoe is loaded: there is no cutting card to come out")
    if state.cut_card_out:
        raise NotAllowed.of("The cutting card is already out: this is the last coup of the shoe")


def can_cut_card_out(state: PuntoBancoState) -> bool:
    return allowed(verify_cut_card_out, state)


def cut_card_out(state: PuntoBancoState) -> CutCardOut:
    verify_cut_card_out(state)
    return CutCardOut(coup=state.coup)


def verify_complete(state: PuntoBancoState) -> None:
    if state.phase is not Phase.PAYING:
        raise NotAllowed.of("The coup is not complete yet", clause="5.2")


def can_confirm_payouts(state: PuntoBancoState) -> bool:
    return allowed(verify_complete, state)


def confirm_payouts(state: PuntoBancoState) -> CoupSettled:
    """The dealer has paid and collected every bet as shown (rule 5.7)."""
    verify_complete(state)
    result = _state_result(state)  # computed once, for the record and for the settlements
    return CoupSettled(coup=state.coup, result=result,
                       player_cards=state.player_cards, banker_cards=state.banker_cards,
                       settlements=_settle_all(state, result.winner))


def verify_void(state: PuntoBancoState, reason: str) -> None:
    if state.phase is Phase.BETTING and not state.bets:
        raise NotAllowed.of("There is no coup in play to void")
    if not reason.strip():
        raise NotAllowed.of("Say why the coup is void")


def can_void_round(state: PuntoBancoState, reason: str = "reason to be given") -> bool:
    """Whether a coup is in play that could be voided (the dealer then gives the reason)."""
    return allowed(verify_void, state, reason)


def void_round(state: PuntoBancoState, reason: str, by: str = "") -> CoupVoided:
    """Void the coup (rule 2.7): every bet goes back. The same verb as every game's."""
    verify_void(state, reason)
    return CoupVoided(coup=state.coup, reason=reason.strip(), by=by)


verify_void_round = verify_void
# The coup's own words (rule 5's), as older callers say them.
verify_void_coup = verify_void
can_void_coup = can_void_round
void_coup = void_round


def verify_collect_commission(state: PuntoBancoState, area: str) -> None:
    if state.phase is Phase.DEALING:
        raise NotAllowed.of("Collect commission between coups, not while dealing")
    if state.owed_by(area) <= 0:
        raise NotAllowed.of("Area %(area)s owes no commission", area=area)


def can_collect_commission(state: PuntoBancoState, area: str) -> bool:
    return allowed(verify_collect_commission, state, area)


def collect_commission(state: PuntoBancoState, area: str) -> CommissionCollected:
    """Rule 5.7, commission mode: collect what the area owes, rounded by the chip rule."""
    verify_collect_commission(state, area)
    owed = state.owed_by(area)
    collected = state.rules.chips.round_owed(owed)
    return CommissionCollected(area=area, owed=owed, collected=collected,
                               rounding=owed - collected)


def _m(state: PuntoBancoState, cents: int) -> str:
    return format_money(cents, state.rules.currency)


def _a(state: PuntoBancoState, cents: int) -> Amount:
    """An amount in a refusal (`NotAllowed.of`): written as `_m` in English."""
    return Amount(cents, state.rules.currency)


def _w(kind: BetKind) -> Word:
    """A bet's kind in a refusal: "banker" in English, the screens' "Banker" on a screen."""
    return Word(kind.value, kind.value.capitalize())


# --- The fold -----------------------------------------------------------------------------


def _adjust_bets(bets: tuple[Bet, ...], area: str, kind: BetKind, delta: int
                 ) -> tuple[Bet, ...]:
    out: list[Bet] = []
    found = False
    for b in bets:
        if b.area == area and b.kind is kind:
            found = True
            if b.amount + delta > 0:
                out.append(Bet(area, kind, b.amount + delta))
        else:
            out.append(b)
    if not found and delta > 0:
        out.append(Bet(area, kind, delta))
    return tuple(out)


def _next_coup(state: PuntoBancoState, **changes: Any) -> PuntoBancoState:
    shoe_over = state.cut_card_out
    return _replace(
        state, coup=state.coup + 1, phase=Phase.BETTING, bets=(), player_cards=(),
        banker_cards=(), player_values=(), banker_values=(), pending=None,
        shoe=None if shoe_over else state.shoe,
        cut_card_out=False, **changes)


def _replace(state: PuntoBancoState, **changes: Any) -> PuntoBancoState:
    """`dataclasses.replace` without re-running `__init__` (the fold's hot path); the
    fields are the same, already checked, so copying them is enough."""
    new = object.__new__(PuntoBancoState)
    fields = state.__dict__.copy()  # one C-level copy, not a key-by-key update
    fields.update(changes)
    object.__setattr__(new, "__dict__", fields)  # frozen: bypass the refusing __setattr__
    return new


def apply(state: PuntoBancoState, op: Operation) -> PuntoBancoState:
    """The one transition function: live play and replay both fold Operations through it."""
    rep = _replace
    if isinstance(op, CardDealt):
        assert state.shoe is not None
        after = (state.shoe.draw_unchecked(op.card) if op.source is CardSource.OVERRIDE
                 else state.shoe.draw(op.card))
        value = BACCARAT_VALUES[op.card.rank]
        # The coup is complete when the drawing table gives no more cards (rule 5.2); the
        # phase is set in the same copy of the state (one `_replace` per card, no ** merge).
        if op.hand is Hand.PLAYER:
            pv = (*state.player_values, value)
            phase = Phase.PAYING if next_to_draw(pv, state.banker_values) is None else state.phase
            return rep(state, player_cards=(*state.player_cards, op.card), player_values=pv,
                       shoe=after, pending=None, phase=phase)
        bv = (*state.banker_values, value)
        phase = Phase.PAYING if next_to_draw(state.player_values, bv) is None else state.phase
        return rep(state, banker_cards=(*state.banker_cards, op.card), banker_values=bv,
                   shoe=after, pending=None, phase=phase)
    if isinstance(op, BetPlaced):
        return rep(state, bets=_adjust_bets(state.bets, op.area, op.bet, op.amount))
    if isinstance(op, BetRemoved):
        return rep(state, bets=_adjust_bets(state.bets, op.area, op.bet, -op.amount))
    if isinstance(op, BettingClosed):
        return rep(state, phase=Phase.DEALING)
    if isinstance(op, CoupSettled):
        commission_owed = state.commission_owed
        if any(s.commission for s in op.settlements):  # never in NET mode: skip the rebuild
            owed = dict(commission_owed)
            for s in op.settlements:
                if s.commission:
                    owed[s.area] = owed.get(s.area, _ZERO) + s.commission
            commission_owed = tuple(sorted(owed.items()))
        return _next_coup(state, results=(*state.results, op.result),
                          commission_owed=commission_owed, last_settled=op)
    if isinstance(op, CardUnread):
        return rep(state, pending=PendingCard(op.hand, "unread",
                                              message="The shoe could not read this card"))
    if isinstance(op, CardQueried):
        return rep(state, pending=PendingCard(op.hand, "impossible", op.card, op.message))
    if isinstance(op, ShoeShuffled):
        return rep(state, shoe=ShoeContents(op.decks), results=(), cut_card_out=False,
                   burned=0)
    if isinstance(op, CardBurned):
        shoe: ShoeContents | None = state.shoe
        if shoe is not None and op.card is not None:
            shoe = shoe.draw_unchecked(op.card)
        return rep(state, shoe=shoe, burned=state.burned + 1)
    if isinstance(op, CutCardOut):
        return rep(state, cut_card_out=True)
    if isinstance(op, CoupVoided):
        return _next_coup(state)
    if isinstance(op, CommissionCollected):
        owed = dict(state.commission_owed)
        owed.pop(op.area, None)
        return rep(state, commission_owed=tuple(sorted(owed.items())))
    if isinstance(op, TableOpened):
        if not state.table_id:
            return initial_state(op.rules, op.table_id)
        # The configuration changed on a running table: the coup, the roads and the
        # commission owed carry on; a different number of decks needs a new shoe (rule 5.5).
        same_shoe = op.rules.decks == state.rules.decks
        return rep(state, rules=op.rules, table_id=op.table_id,
                   shoe=state.shoe if same_shoe else None)
    if isinstance(op, TableRecord):  # the table's own records leave the game as it is
        return state
    raise foreign("punto banco", op)  # another game's record is never folded silently


# --- Words for the dealer ---------------------------------------------------------------


def next_step(state: PuntoBancoState) -> Said:
    """The one next thing the dealer must do, in the words of rule 5.2 (a `Said`: English,
    with its sentence for the dealer's language)."""
    if state.phase is Phase.BETTING:
        if state.shoe is None:
            return Said.words("Shuffle and load a new shoe")
        return Said.words("Place your bets")
    if state.phase is Phase.PAYING:
        r = coup_result(state.player_cards, state.banker_cards)
        if r.winner is Winner.TIE:
            head = Said.words("Tie %(player)s to %(banker)s", player=r.player_total,
                           banker=r.banker_total)
        else:
            won, lost = ((r.banker_total, r.player_total) if r.winner is Winner.BANKER
                         else (r.player_total, r.banker_total))
            head = Said.words("%(winner)s wins %(won)s to %(lost)s",
                           winner=_hand_word(r.winner.value), won=won, lost=lost)
        return Said.words("Coup complete: %(result)s. Pay and confirm", result=head)
    if state.pending is not None:
        p = state.pending
        if p.reason == "unread":
            return Said.words("Key in the unread %(hand)s card", hand=_hand_word(p.hand.value))
        return Said.words("Queried card for the %(hand)s: key the right card or void",
                       hand=_hand_word(p.hand.value))
    n_p, n_b = len(state.player_cards), len(state.banker_cards)
    nxt = next_hand(state)
    if n_p + n_b < 4:
        hand = _hand_word((nxt or Hand.PLAYER).value)
        if n_p + n_b < 2:
            return Said.words("%(hand)s's first card", hand=hand)
        return Said.words("%(hand)s's second card", hand=hand)
    if nxt is Hand.PLAYER:
        return Said.words("Player draws")
    if nxt is Hand.BANKER:
        return Said.words("Banker draws")
    return Said.words("Coup complete")  # pragma: no cover - PAYING covers it


def _hand_word(value: str) -> Word:
    """Player or Banker as the step says it ("Player"), the screens' word in another
    language ("Speler")."""
    return Word(value.title())


class PuntoBanco:
    """Punto banco as a `kiosk.rules.game.Game`."""

    name = GAME

    def initial_state(self, rules: Any, table_id: str) -> PuntoBancoState:
        return initial_state(rules, table_id)

    def open_table(self, rules: Any, table_id: str) -> Operation:
        return open_table(rules, table_id)

    def apply(self, state: PuntoBancoState, op: Operation) -> PuntoBancoState:
        return apply(state, op)

    def shoe_card(self, state: PuntoBancoState, card: Card) -> Operation:
        return shoe_card(state, card)

    def verify_shoe_card(self, state: PuntoBancoState, card: Card) -> None:
        verify_shoe_card(state, card)

    def holds_cards(self, state: PuntoBancoState) -> bool:
        return state.pending is not None

    def unread_card(self, state: PuntoBancoState) -> Operation:
        return unread_card(state)

    def verify_burn(self, state: PuntoBancoState, card: Card | None) -> None:
        verify_burn(state, card)

    def burn(self, state: PuntoBancoState, card: Card | None) -> Operation:
        return burn(state, card)

    def cut_card_words(self, state: PuntoBancoState) -> str:
        return "Cutting card out: this is the last coup of the shoe"

    def betting_open(self, state: PuntoBancoState) -> bool:
        return state.phase is Phase.BETTING

    def between_rounds(self, state: PuntoBancoState) -> bool:
        return (state.phase is Phase.BETTING and not state.bets and not state.player_cards
                and not state.banker_cards and state.pending is None)

    def ready(self, state: PuntoBancoState) -> bool:
        return state.shoe is not None

    def close_betting(self, state: PuntoBancoState) -> Operation:
        return close_betting(state)

    def table_minimum(self, rules: PuntoBancoRules) -> int:
        """On Banco or Punto (rule 5.2: a tie bet alone is not a bet)."""
        return min(rules.limit(BetKind.BANKER).minimum, rules.limit(BetKind.PLAYER).minimum)

    def table_maximum(self, rules: PuntoBancoRules) -> int:
        return max(rules.limit(BetKind.BANKER).maximum, rules.limit(BetKind.PLAYER).maximum)

    def round_number(self, state: PuntoBancoState) -> int:
        return state.coup

    def rules_of(self, state: PuntoBancoState) -> PuntoBancoRules:
        return state.rules

    def cut_card_out(self, state: PuntoBancoState) -> Operation:
        return cut_card_out(state)

    def next_step(self, state: PuntoBancoState) -> Said:
        return next_step(state)


def legal_actions(state: PuntoBancoState) -> frozenset[str]:
    """The dealer's acts allowed now, by name, without probing each card or amount: the
    dealer screen enables its buttons from this set. `place_bet` means some bet is allowed
    (its amount and area are checked when made); `deal_card` that a card may be keyed in."""
    rules = state.rules
    out: set[str] = set()
    checks: dict[str, tuple[Any, tuple[Any, ...]]] = {
        "shuffle": (verify_shuffle, ()),
        "close_betting": (verify_close_betting, ()),
        "confirm_payouts": (verify_complete, ()),
        "void_round": (verify_void, ("reason to be given",)),
        "unread_card": (verify_unread, ()),
        "accept_queried_card": (verify_accept_queried, ("inspector",)),
        "burn": (verify_burn, (None,)),
        "cut_card_out": (verify_cut_card_out, ()),
    }
    for name, (verify, args) in checks.items():
        if allowed(verify, state, *args):
            out.add(name)
    if state.phase is Phase.BETTING and any(
            allowed(verify_place_bet, state, area, kind, rules.limit(kind).minimum)
            for area in rules.area_ids() for kind in BetKind):
        out.add("place_bet")
    if state.phase is Phase.BETTING and state.bets:
        out.add("remove_bet")
    if (state.phase is Phase.DEALING and next_hand(state) is not None
            and state.shoe is not None and state.shoe.remaining > 0):
        out.add("deal_card")
    if any(allowed(verify_collect_commission, state, area) for area, _ in state.commission_owed):
        out.add("collect_commission")
    return frozenset(out)


# One name for each act in every game: verify_x, can_x (the same arguments) and x.
verify_deal_card = verify_card
verify_confirm_payouts = verify_complete
