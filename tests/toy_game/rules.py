"""High card, a toy: each player bets on the Player or the Dealer; the shoe deals one card to
each; the higher card wins even money, equal ranks push. Pure rules, like a real game's: the
records, the state and its one `apply`, each act as `verify_x` / `can_x` / `x`, the next
step as a `Said`, `legal_actions`, and the `Game` object (docs/adding-a-game.md, part 1)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar

from kiosk.rules.cards import Card
from kiosk.rules.errors import NotAllowed, Said, Word, allowed
from kiosk.rules.game import foreign
from kiosk.rules.money import ChipRule
from kiosk.rules.operations import CardQuery, Operation, RoundVoid, TableOpening, TableRecord

RANKS = "23456789TJQKA"


class Side(StrEnum):
    PLAYER = "player"
    DEALER = "dealer"


class Phase(StrEnum):
    BETTING = "betting"
    DEALING = "dealing"
    PAYING = "paying"


@dataclass(frozen=True, slots=True)
class HighCardRules:
    minimum: int = 1_000
    maximum: int = 100_000
    decks: int = 1
    chips: ChipRule = field(default_factory=ChipRule)
    currency: str = "R"

    def __post_init__(self) -> None:
        if not 0 < self.minimum <= self.maximum:
            raise ValueError("the limits must satisfy 0 < minimum <= maximum")


@dataclass(frozen=True, slots=True)
class Opened(TableOpening):
    kind: ClassVar[str] = "high_card.table_opened"
    game: str
    table_id: str
    rules: HighCardRules


@dataclass(frozen=True, slots=True)
class Shuffled(Operation):
    kind: ClassVar[str] = "high_card.shuffled"


@dataclass(frozen=True, slots=True)
class BetPlaced(Operation):
    kind: ClassVar[str] = "high_card.bet_placed"
    side: Side
    amount: int


@dataclass(frozen=True, slots=True)
class BettingClosed(Operation):
    kind: ClassVar[str] = "high_card.betting_closed"


@dataclass(frozen=True, slots=True)
class CardDealt(Operation):
    kind: ClassVar[str] = "high_card.card_dealt"
    side: Side
    card: Card


@dataclass(frozen=True, slots=True)
class Queried(CardQuery):
    kind: ClassVar[str] = "high_card.card_queried"
    card: Card
    message: str


@dataclass(frozen=True, slots=True)
class Burned(Operation):
    kind: ClassVar[str] = "high_card.burned"
    face_down: ClassVar[bool] = True
    card: Card | None


@dataclass(frozen=True, slots=True)
class CutCardOut(Operation):
    kind: ClassVar[str] = "high_card.cut_card_out"


@dataclass(frozen=True, slots=True)
class Settled(Operation):
    kind: ClassVar[str] = "high_card.round_settled"
    round: int
    winner: str  # player | dealer | push
    paid: tuple[tuple[str, int], ...]  # (side, the win in cents on top of the stake)


@dataclass(frozen=True, slots=True)
class Voided(RoundVoid):
    kind: ClassVar[str] = "high_card.round_voided"
    round: int
    reason: str


@dataclass(frozen=True, slots=True)
class HighCardState:
    rules: HighCardRules
    table_id: str = ""
    round: int = 1
    phase: Phase = Phase.BETTING
    shuffled: bool = False
    bets: tuple[tuple[Side, int], ...] = ()
    player: Card | None = None
    dealer: Card | None = None
    results: tuple[str, ...] = ()


def initial_state(rules: HighCardRules, table_id: str) -> HighCardState:
    return HighCardState(rules, table_id)


def verify_place_bet(state: HighCardState, side: Side, amount: int) -> None:
    if state.phase is not Phase.BETTING:
        raise NotAllowed("No more bets")
    if not state.rules.minimum <= amount <= state.rules.maximum:
        raise NotAllowed("The bet is outside the table's limits")


def can_place_bet(state: HighCardState, side: Side, amount: int) -> bool:
    return allowed(verify_place_bet, state, side, amount)


def place_bet(state: HighCardState, side: Side, amount: int) -> BetPlaced:
    verify_place_bet(state, side, amount)
    return BetPlaced(side, amount)


def verify_close_betting(state: HighCardState) -> None:
    if state.phase is not Phase.BETTING or not state.bets or not state.shuffled:
        raise NotAllowed("Shuffle and take a bet first")


def can_close_betting(state: HighCardState) -> bool:
    return allowed(verify_close_betting, state)


def close_betting(state: HighCardState) -> BettingClosed:
    verify_close_betting(state)
    return BettingClosed()


def verify_shoe_card(state: HighCardState, card: Card) -> None:
    if state.phase is not Phase.DEALING:
        raise NotAllowed("A card cannot be dealt before no more bets")


def can_shoe_card(state: HighCardState, card: Card) -> bool:
    return allowed(verify_shoe_card, state, card)


def shoe_card(state: HighCardState, card: Card) -> Operation:
    verify_shoe_card(state, card)
    return CardDealt(Side.PLAYER if state.player is None else Side.DEALER, card)


def verify_confirm_payouts(state: HighCardState) -> None:
    if state.phase is not Phase.PAYING or state.player is None or state.dealer is None:
        raise NotAllowed("The round is not complete")


def can_confirm_payouts(state: HighCardState) -> bool:
    return allowed(verify_confirm_payouts, state)


def confirm_payouts(state: HighCardState) -> Settled:
    """The payouts paid: the round settled (the same verb as every game's)."""
    return settlement(state)


def settlement(state: HighCardState) -> Settled:
    """The round's result and payouts from its two cards (replay's audit recomputes it)."""
    verify_confirm_payouts(state)
    if state.player is None or state.dealer is None:  # never, once verified
        raise NotAllowed("The round is not complete")
    p, d = RANKS.index(state.player.rank), RANKS.index(state.dealer.rank)
    winner = "push" if p == d else "player" if p > d else "dealer"
    paid = tuple((side.value, amount if side.value == winner else 0)
                 for side, amount in state.bets)
    return Settled(state.round, winner, paid)


def verify_shuffle(state: HighCardState) -> None:
    if state.phase is not Phase.BETTING:
        raise NotAllowed("Not in the middle of a round")


def can_shuffle(state: HighCardState) -> bool:
    return allowed(verify_shuffle, state)


def shuffle(state: HighCardState) -> Shuffled:
    verify_shuffle(state)
    return Shuffled()


def verify_void_round(state: HighCardState, reason: str) -> None:
    if not reason.strip():
        raise NotAllowed("Say why the round is void")
    if state.phase is Phase.BETTING and not state.bets:
        raise NotAllowed("No round in play to void")


def can_void_round(state: HighCardState, reason: str) -> bool:
    return allowed(verify_void_round, state, reason)


def void_round(state: HighCardState, reason: str) -> Voided:
    verify_void_round(state, reason)
    return Voided(state.round, reason)


def apply(state: HighCardState, op: Operation) -> HighCardState:
    rep = dataclasses.replace
    if isinstance(op, Opened):
        return rep(state, rules=op.rules, table_id=op.table_id)
    if isinstance(op, Shuffled):
        return rep(state, shuffled=True)
    if isinstance(op, BetPlaced):
        return rep(state, bets=(*state.bets, (op.side, op.amount)))
    if isinstance(op, BettingClosed):
        return rep(state, phase=Phase.DEALING)
    if isinstance(op, CardDealt):
        if op.side is Side.PLAYER:
            return rep(state, player=op.card)
        return rep(state, dealer=op.card, phase=Phase.PAYING)
    if isinstance(op, Settled | Voided):
        results = (*state.results, op.winner) if isinstance(op, Settled) else state.results
        return HighCardState(state.rules, state.table_id, state.round + 1,
                             shuffled=state.shuffled, results=results)
    if isinstance(op, Queried | Burned | CutCardOut | TableRecord):
        return state
    raise foreign("high card", op)


WINNER = {"player": Word("Player"), "dealer": Word("Dealer's hand"), "push": Word("Tie")}
"""The winner as the dealer screen names it. The toy words its steps with sentences the
catalogues hold already, so it adds no words for the translators; a real game's own
sentences go into assets/locale (scripts/catalogues) with their translations."""


def next_step(state: HighCardState) -> Said:
    """The one next thing the dealer must do, in words every catalogue translates."""
    if state.phase is Phase.BETTING:
        return Said.words("Place your bets") if state.shuffled else \
            Said.words("Shuffle and load a new shoe")
    if state.phase is Phase.DEALING:
        return Said.words("%(hand)s's first card", hand=Word("Player")) \
            if state.player is None else Said.words("Dealer's card")
    return Said.words("%(number)s: pay and confirm", number=WINNER[settlement(state).winner])


def legal_actions(state: HighCardState) -> frozenset[str]:
    """The dealer's acts allowed now, by name (the same names as every game's)."""
    acts = {"void_round"} if state.phase is not Phase.BETTING or state.bets else set()
    if state.phase is Phase.BETTING:
        acts |= {"shuffle", "place_bet"}
        if can_close_betting(state):
            acts.add("close_betting")
    elif state.phase is Phase.DEALING:
        acts.add("shoe_card")
    else:
        acts.add("confirm_payouts")
    return frozenset(acts)


class HighCard:
    """High card as a `kiosk.rules.game.Game` that deals from a shoe."""

    name = "high-card"

    def initial_state(self, rules: Any, table_id: str) -> HighCardState:
        return initial_state(rules, table_id)

    def open_table(self, rules: Any, table_id: str) -> Operation:
        return Opened(self.name, table_id, rules)

    def apply(self, state: HighCardState, op: Operation) -> HighCardState:
        return apply(state, op)

    def next_step(self, state: HighCardState) -> Said:
        return next_step(state)

    def betting_open(self, state: HighCardState) -> bool:
        return state.phase is Phase.BETTING

    def between_rounds(self, state: HighCardState) -> bool:
        return state.phase is Phase.BETTING and not state.bets and state.player is None

    def ready(self, state: HighCardState) -> bool:
        return state.shuffled

    def close_betting(self, state: HighCardState) -> Operation:
        return close_betting(state)

    def table_minimum(self, rules: HighCardRules) -> int:
        return rules.minimum

    def table_maximum(self, rules: HighCardRules) -> int:
        return rules.maximum

    def round_number(self, state: HighCardState) -> int:
        return state.round

    def rules_of(self, state: HighCardState) -> HighCardRules:
        return state.rules

    def shoe_card(self, state: HighCardState, card: Card) -> Operation:
        return shoe_card(state, card)

    def verify_shoe_card(self, state: HighCardState, card: Card) -> None:
        verify_shoe_card(state, card)

    def holds_cards(self, state: HighCardState) -> bool:
        return False

    def unread_card(self, state: HighCardState) -> Operation:
        raise NotAllowed("Key in the card from its face")

    def verify_burn(self, state: HighCardState, card: Card | None) -> None:
        if state.phase is not Phase.BETTING:
            raise NotAllowed("A card cannot be burned in the middle of a round")

    def burn(self, state: HighCardState, card: Card | None) -> Operation:
        self.verify_burn(state, card)
        return Burned(card)

    def cut_card_out(self, state: HighCardState) -> Operation:
        return CutCardOut()

    def cut_card_words(self, state: HighCardState) -> str:
        return "Cutting card out: shuffle after this round"
