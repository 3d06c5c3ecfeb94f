"""American roulette (rules section 3): the spin from "place your bets" to the payouts.

A spin goes: place your bets (3.2) -> the ball is spun, each spin the other way round (3.2) ->
"final bets" -> "no more bets" (3.4; a bet placed after it is a "no bet", removed and on
record) -> the winning number, with the dolly on it and the losing bets removed (3.4) -> the
payouts per colour, confirmed by the dealer (3.5). A "no spin" puts the ball back in the same
number and the wheel is spun again, on record (3.2). Each player plays wheel chips of one
colour, valued at the chip change (3.5); cashing in is refused while the ball spins (3.5).

Pure: no clock, no randomness, no I/O. Money is int cents; the chips of a colour are counted in
chips and valued by the colour's value per chip.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar

from kiosk.rules.errors import Amount, NotAllowed, Said, Word, allowed
from kiosk.rules.game import foreign
from kiosk.rules.money import ChipRule, format_money
from kiosk.rules.operations import (
    LateBet,
    Operation,
    RoundVoid,
    TableOpening,
    TableRecord,
)
from kiosk.rules.roulette.bets import PAYS, BetKind, CallBet, Placement, call_bet, placement
from kiosk.rules.roulette.wheel import Wheel, colour_of

GAME = "roulette"
HISTORY = 500  # results kept in the state: the signage's 100 and the integrity window
COLOURS = ("pink", "yellow", "blue", "green", "purple", "orange", "brown", "white", "grey",
           "lime")
"""The wheel-chip colours a table may issue, one per player (3.5 "chip change")."""


class Phase(StrEnum):
    BETTING = "place your bets"  # rule 3.2
    FINAL_BETS = "final bets"  # rule 3.4: the ball slows
    NO_MORE_BETS = "no more bets"  # rule 3.4
    RESULT = "result"  # the dolly is on the winning number; payouts to confirm (3.4, 3.5)


class Direction(StrEnum):
    CLOCKWISE = "clockwise"
    ANTICLOCKWISE = "anticlockwise"

    @property
    def other(self) -> Direction:
        return Direction.ANTICLOCKWISE if self is Direction.CLOCKWISE else Direction.CLOCKWISE


class Source(StrEnum):
    WHEEL = "wheel"  # the wheel controller reported it
    HAND = "hand"  # the dealer keyed it in (no wheel attached, or the wheel's report is off)


@dataclass(frozen=True, slots=True)
class Limits:
    """Rule 2.2's limits in cents. Inside bets: the straight-up maximum for each number a bet
    covers (a split takes twice a straight's); outside: per place; table: one colour's chips
    on one spin."""

    minimum_chip: int = 500  # the smallest value a wheel chip may be given
    straight_up_maximum: int = 50_000
    outside_maximum: int = 500_000
    table_maximum: int = 2_000_000

    def __post_init__(self) -> None:
        if not 0 < self.minimum_chip <= self.straight_up_maximum <= self.table_maximum:
            raise ValueError("the limits must satisfy 0 < minimum chip <= straight-up maximum "
                             "<= table maximum")
        if not self.minimum_chip <= self.outside_maximum <= self.table_maximum:
            raise ValueError("the outside maximum must lie between the minimum chip and the "
                             "table maximum")


@dataclass(frozen=True, slots=True)
class RouletteRules:
    wheel: Wheel = Wheel.SINGLE_ZERO
    limits: Limits = field(default_factory=Limits)
    colours: int = 7  # colours of wheel chips (players) the table issues
    pay_in_colour_up_to: int = 100  # a win over this many chips: the rest in value chips
    chips: ChipRule = field(default_factory=ChipRule)
    currency: str = "R"

    def __post_init__(self) -> None:
        if not 1 <= self.colours <= len(COLOURS):
            raise ValueError(f"a table issues 1 to {len(COLOURS)} colours of wheel chips")
        if self.pay_in_colour_up_to < 1:
            raise ValueError("pay_in_colour_up_to must be at least one chip")

    @property
    def call_bets(self) -> bool:
        """Call bets exist only on the single-zero wheel (3.4; docs/architecture.md)."""
        return self.wheel is Wheel.SINGLE_ZERO

    def money(self, cents: int) -> str:
        return format_money(cents, self.currency)


# --- Records (the journal) ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableOpened(TableOpening):
    kind: ClassVar[str] = "roulette.table_opened"
    game: str
    table_id: str
    rules: RouletteRules


@dataclass(frozen=True, slots=True)
class ChipChange(Operation):
    """Rule 3.5 "chip change": `chips` wheel chips of `colour`, each worth `value_each`."""

    kind: ClassVar[str] = "roulette.chip_change"
    colour: str
    chips: int
    value_each: int


@dataclass(frozen=True, slots=True)
class CashedIn(Operation):
    """Rule 3.5 "cashing in": the colour's chips exchanged for value chips."""

    kind: ClassVar[str] = "roulette.cashed_in"
    colour: str
    chips: int
    value: int


@dataclass(frozen=True, slots=True)
class BetPlaced(Operation):
    """Chips of one colour on the layout: one placement, or the pieces of a call bet."""

    kind: ClassVar[str] = "roulette.bet_placed"
    colour: str
    placements: tuple[Placement, ...]
    call: str = ""  # the call bet's name ("orphans", "number and neighbours 17")


@dataclass(frozen=True, slots=True)
class BetsTakenBack(Operation):
    """Before no more bets: a colour's bets go back to the player (a mistake put right)."""

    kind: ClassVar[str] = "roulette.bets_taken_back"
    colour: str
    chips: int


@dataclass(frozen=True, slots=True)
class NoBet(LateBet):
    """Rule 3.4: chips placed after "no more bets": a "no bet", removed from the layout."""

    kind: ClassVar[str] = "roulette.no_bet"
    colour: str
    placements: tuple[Placement, ...]
    call: str = ""


@dataclass(frozen=True, slots=True)
class BallSpun(Operation):
    """Rule 3.2: the ball is spun; `same_direction` flags a spin the same way as the one
    before (the rule wants the opposite)."""

    kind: ClassVar[str] = "roulette.ball_spun"
    spin: int
    direction: Direction
    source: Source
    same_direction: bool = False


@dataclass(frozen=True, slots=True)
class FinalBets(Operation):
    kind: ClassVar[str] = "roulette.final_bets"


@dataclass(frozen=True, slots=True)
class BettingClosed(Operation):
    """Rule 3.4 "no more bets"."""

    kind: ClassVar[str] = "roulette.betting_closed"


@dataclass(frozen=True, slots=True)
class NoSpin(Operation):
    """Rule 3.2 "no spin": the ball goes back in `ball_back_in` (the last number) and the
    wheel is spun again; the bets stay locked where they are."""

    kind: ClassVar[str] = "roulette.no_spin"
    spin: int
    reason: str
    source: Source
    ball_back_in: str | None


@dataclass(frozen=True, slots=True)
class NumberCalled(Operation):
    """Rule 3.4: the winning number, announced; the dolly goes on it."""

    kind: ClassVar[str] = "roulette.number_called"
    spin: int
    number: str
    source: Source


@dataclass(frozen=True, slots=True)
class ColourPayout:
    """What one colour gets (rule 3.5): `won` chips of winnings, paid as `colour_chips` of the
    colour and `cash` cents in value chips; `stakes_back` chips of winning bets; `lost` chips
    taken from the layout."""

    colour: str
    staked: int
    won: int
    stakes_back: int
    lost: int
    colour_chips: int
    cash: int


@dataclass(frozen=True, slots=True)
class SpinSettled(Operation):
    kind: ClassVar[str] = "roulette.spin_settled"
    spin: int
    number: str
    payouts: tuple[ColourPayout, ...]


@dataclass(frozen=True, slots=True)
class SpinVoided(RoundVoid):
    """The spin is void: every bet goes back to its player."""

    kind: ClassVar[str] = "roulette.spin_voided"
    spin: int
    reason: str


# --- State ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Stack:
    """A colour in play: its value per chip and the chips in front of its player."""

    colour: str
    value_each: int
    chips: int


@dataclass(frozen=True, slots=True)
class Bet:
    colour: str
    placement: Placement
    call: str = ""


@dataclass(frozen=True, slots=True)
class RouletteState:
    rules: RouletteRules
    table_id: str = ""
    spin: int = 1
    phase: Phase = Phase.BETTING
    stacks: tuple[Stack, ...] = ()
    layout: tuple[Bet, ...] = ()
    ball_spinning: bool = False
    spun: bool = False  # this spin's ball has been spun (at least once)
    last_direction: Direction | None = None
    number: str | None = None  # the dolly's number, once called
    results: tuple[str, ...] = ()  # the winning numbers, oldest first (the last HISTORY)
    directions: tuple[Direction, ...] = ()  # of the settled spins, as results
    no_spins: int = 0  # this spin's
    no_bets: int = 0  # this spin's
    notes: tuple[str, ...] = ()  # what the inspector should hear of this spin, on record

    def stack(self, colour: str) -> Stack | None:
        return next((s for s in self.stacks if s.colour == colour), None)

    def staked(self, colour: str) -> int:
        return sum(b.placement.chips for b in self.layout if b.colour == colour)

    @property
    def last_number(self) -> str | None:
        return self.results[-1] if self.results else None


def initial_state(rules: RouletteRules, table_id: str) -> RouletteState:
    return RouletteState(rules, table_id)


# --- Actions: verify_x raises NotAllowed, can_x answers, x returns the record ---------------


def _can(verify: Callable[..., None]) -> Callable[..., bool]:
    def can(*args: Any, **kwargs: Any) -> bool:
        return allowed(verify, *args, **kwargs)

    can.__doc__ = f"Whether {verify.__name__.removeprefix('verify_')} is allowed now."
    return can


def _colour(colour: str) -> Word:
    """A player's chip colour in a refusal: "Pink", in English and as the screens name it."""
    return Word(colour.capitalize())


def verify_chip_change(state: RouletteState, colour: str, chips: int, value_each: int) -> None:
    rules = state.rules
    if colour not in COLOURS[:rules.colours]:
        raise NotAllowed(f"This table's wheel chips are {', '.join(COLOURS[:rules.colours])}")
    if chips <= 0:
        raise NotAllowed.of("A chip change is at least one chip", "3.5")
    if value_each < rules.limits.minimum_chip:
        raise NotAllowed.of("A wheel chip is worth at least %(amount)s at this table", "2.2",
                            amount=Amount(rules.limits.minimum_chip, rules.currency))
    rules.chips.verify_stake(value_each)
    stack = state.stack(colour)
    if stack is not None and stack.value_each != value_each and (
            stack.chips or state.staked(colour)):
        raise NotAllowed(f"{colour.capitalize()} chips are worth {rules.money(stack.value_each)}"
                         f" each; cash them in before giving them another value", "3.5")


can_chip_change = _can(verify_chip_change)


def chip_change(state: RouletteState, colour: str, chips: int, value_each: int) -> ChipChange:
    verify_chip_change(state, colour, chips, value_each)
    return ChipChange(colour, chips, value_each)


def verify_cash_in(state: RouletteState, colour: str) -> None:
    if state.ball_spinning:
        raise NotAllowed.of("No cashing in while the ball is being spun", "3.5")
    stack = state.stack(colour)
    if stack is None:
        raise NotAllowed.of("No %(colour)s chips are in play",
                            colour=Word(colour, colour.capitalize()))
    if state.staked(colour):
        raise NotAllowed.of("%(colour)s still has bets on the layout", colour=_colour(colour))


can_cash_in = _can(verify_cash_in)


def cash_in(state: RouletteState, colour: str) -> CashedIn:
    verify_cash_in(state, colour)
    stack = state.stack(colour)
    assert stack is not None
    return CashedIn(colour, stack.chips, stack.chips * stack.value_each)


def _limit_for(rules: RouletteRules, p: Placement) -> tuple[int, str]:
    lim = rules.limits
    if p.kind.inside:
        return lim.straight_up_maximum * len(p.numbers), "straight-up maximum"
    return lim.outside_maximum, "outside maximum"


def verify_place_bet(state: RouletteState, colour: str, placements: tuple[Placement, ...]
                     ) -> None:
    if state.phase not in (Phase.BETTING, Phase.FINAL_BETS):
        raise NotAllowed.of("No more bets: chips placed now are a no bet", "3.4")
    stack = state.stack(colour)
    if stack is None:
        raise NotAllowed.of("No %(colour)s chips are in play: make a chip change first", "3.5",
                            colour=Word(colour, colour.capitalize()))
    chips = sum(p.chips for p in placements)
    if not placements or chips <= 0:
        raise NotAllowed.of("A bet is at least one chip")
    if chips > stack.chips:
        raise NotAllowed.of("%(colour)s has %(chips)s chip(s) in front of them, not %(bet)s",
                            colour=_colour(colour), chips=stack.chips, bet=chips)
    rules = state.rules
    for p in placements:
        if p.numbers and any(n not in rules.wheel.order for n in p.numbers):
            raise NotAllowed(f"{p.place} is not on this layout")
        on_place = p.chips + sum(b.placement.chips for b in state.layout
                                 if b.colour == colour and b.placement.kind is p.kind
                                 and b.placement.numbers == p.numbers)
        limit, name = _limit_for(rules, p)
        if on_place * stack.value_each > limit:
            raise NotAllowed.of("%(colour)s on %(place)s: %(amount)s is over the %(limit)s of "
                                "%(maximum)s", "2.2", colour=_colour(colour), place=p.place,
                                amount=Amount(on_place * stack.value_each, rules.currency),
                                limit=name, maximum=Amount(limit, rules.currency))
    total = (state.staked(colour) + chips) * stack.value_each
    if total > rules.limits.table_maximum:
        # TRANSLATORS: %(colour)s is the player's chip colour as the screens say it (Pink).
        raise NotAllowed.of("%(colour)s: %(amount)s on this spin is over the table maximum of "
                            "%(maximum)s", "2.2", colour=_colour(colour),
                            amount=Amount(total, rules.currency),
                            maximum=Amount(rules.limits.table_maximum, rules.currency))


can_place_bet = _can(verify_place_bet)


def place_bet(state: RouletteState, colour: str, kind: BetKind, chips: int,
              numbers: tuple[str, ...] = (), which: int = 1) -> BetPlaced:
    """A layout bet: inside bets name their numbers; a column or dozen `which` (1-3)."""
    p = placement(kind, chips, numbers, which, state.rules.wheel)
    verify_place_bet(state, colour, (p,))
    return BetPlaced(colour, (p,))


def _call(state: RouletteState, call: CallBet, units: int, number: str | None
          ) -> tuple[tuple[Placement, ...], str]:
    if not state.rules.call_bets:
        raise NotAllowed.of("Call bets are off on a double-zero wheel", "3.4")
    pieces = call_bet(call, units, number, state.rules.wheel)
    name = call.value if call is not CallBet.NEIGHBOURS else f"{number} and the neighbours"
    return pieces, name


def place_call_bet(state: RouletteState, colour: str, call: CallBet, units: int = 1,
                   number: str | None = None) -> BetPlaced:
    """Rule 3.4: a call bet, as the chips it puts on the layout."""
    pieces, name = _call(state, call, units, number)
    verify_place_bet(state, colour, pieces)
    return BetPlaced(colour, pieces, name)


def verify_no_bet(state: RouletteState, colour: str) -> None:
    if state.phase is not Phase.NO_MORE_BETS:
        raise NotAllowed.of("Bets are still open: place the bet instead")


can_no_bet = _can(verify_no_bet)


def no_bet(state: RouletteState, colour: str, kind: BetKind, chips: int,
           numbers: tuple[str, ...] = (), which: int = 1) -> NoBet:
    """Rule 3.4: chips put down after "no more bets" are a no bet, removed; on record."""
    verify_no_bet(state, colour)
    return NoBet(colour, (placement(kind, chips, numbers, which, state.rules.wheel),))


def no_call_bet(state: RouletteState, colour: str, call: CallBet, units: int = 1,
                number: str | None = None) -> NoBet:
    verify_no_bet(state, colour)
    pieces, name = _call(state, call, units, number)
    return NoBet(colour, pieces, name)


def verify_take_back(state: RouletteState, colour: str) -> None:
    if state.phase not in (Phase.BETTING, Phase.FINAL_BETS):
        raise NotAllowed.of("The bets are locked after no more bets", "3.4")
    if not state.staked(colour):
        raise NotAllowed.of("%(colour)s has no bets on the layout", colour=_colour(colour))


can_take_back = _can(verify_take_back)


def take_back(state: RouletteState, colour: str) -> BetsTakenBack:
    verify_take_back(state, colour)
    return BetsTakenBack(colour, state.staked(colour))


def expected_direction(state: RouletteState) -> Direction | None:
    """Rule 3.2: each spin the other way from the last one (None before the first)."""
    return state.last_direction.other if state.last_direction is not None else None


def verify_spin_ball(state: RouletteState, direction: Direction) -> None:
    if state.phase is Phase.RESULT:
        raise NotAllowed.of("Pay this spin before the next one")
    if state.ball_spinning:
        raise NotAllowed.of("The ball is already spinning: a no spin first, to spin it again",
                         "3.2")


can_spin_ball = _can(verify_spin_ball)


def spin_ball(state: RouletteState, direction: Direction, source: Source = Source.HAND
              ) -> BallSpun:
    """Rule 3.2: the ball is spun; a spin the same way as the last one is on record as such."""
    verify_spin_ball(state, direction)
    return BallSpun(state.spin, direction, source,
                    same_direction=state.last_direction is direction)


def verify_final_bets(state: RouletteState) -> None:
    if state.phase is not Phase.BETTING:
        raise NotAllowed.of("Final bets come while bets are open")
    if not state.ball_spinning:
        raise NotAllowed.of("Final bets are called when the ball slows: spin it first", "3.4")


can_final_bets = _can(verify_final_bets)


def final_bets(state: RouletteState) -> FinalBets:
    verify_final_bets(state)
    return FinalBets()


def verify_close_betting(state: RouletteState) -> None:
    if state.phase not in (Phase.BETTING, Phase.FINAL_BETS):
        raise NotAllowed.of("Bets are already closed")
    if not state.ball_spinning:
        raise NotAllowed.of("No more bets is called while the ball spins: spin it first", "3.4")


can_close_betting = _can(verify_close_betting)


def close_betting(state: RouletteState) -> BettingClosed:
    verify_close_betting(state)
    return BettingClosed()


def verify_no_spin(state: RouletteState) -> None:
    if not state.ball_spinning:
        raise NotAllowed.of("The ball is not spinning", "3.2")


can_no_spin = _can(verify_no_spin)


def no_spin(state: RouletteState, reason: str, source: Source = Source.HAND) -> NoSpin:
    """Rule 3.2: the ball back in the same number, the wheel spun again."""
    verify_no_spin(state)
    if not reason.strip():
        raise NotAllowed.of("Say why it was no spin (the ball left the wheel, ...)", "3.2")
    return NoSpin(state.spin, reason.strip(), source, state.last_number)


def verify_call_number(state: RouletteState, number: str) -> None:
    if number not in state.rules.wheel.order:
        raise NotAllowed(f"{number!r} is not a number on this wheel")
    if state.phase is Phase.RESULT:
        raise NotAllowed.of("%(number)s is already called: pay it, or void the spin",
                            number=state.number)
    if not state.ball_spinning:
        raise NotAllowed.of("The ball has not been spun", "3.2")
    if state.phase is not Phase.NO_MORE_BETS:
        raise NotAllowed.of("Call no more bets before the number", "3.4")


can_call_number = _can(verify_call_number)


def call_number(state: RouletteState, number: str, source: Source = Source.HAND
                ) -> NumberCalled:
    """Rule 3.4: the winning number; the dolly goes on it and the losing bets come off."""
    verify_call_number(state, number)
    return NumberCalled(state.spin, number, source)


def payout_for(rules: RouletteRules, colour: str, value_each: int, bets: list[Placement],
               number: str) -> ColourPayout:
    staked = won = back = lost = 0
    for p in bets:
        staked += p.chips
        if number in p.numbers:
            won += p.chips * PAYS[p.kind]
            back += p.chips
        else:
            lost += p.chips
    colour_chips = min(won, rules.pay_in_colour_up_to)
    return ColourPayout(colour, staked, won, back, lost, colour_chips,
                        (won - colour_chips) * value_each)



def settlement(state: RouletteState) -> SpinSettled:
    """The payouts per colour for the called number (rule 3.5)."""
    if state.phase is not Phase.RESULT or state.number is None:
        raise NotAllowed.of("No number has been called")
    by_colour: dict[str, list[Placement]] = {}
    for b in state.layout:
        by_colour.setdefault(b.colour, []).append(b.placement)
    payouts = []
    for stack in state.stacks:
        bets = by_colour.get(stack.colour)
        if bets:
            payouts.append(payout_for(state.rules, stack.colour, stack.value_each, bets,
                                      state.number))
    return SpinSettled(state.spin, state.number, tuple(payouts))


def verify_confirm_payouts(state: RouletteState) -> None:
    settlement(state)


can_confirm_payouts = _can(verify_confirm_payouts)


def confirm_payouts(state: RouletteState) -> SpinSettled:
    return settlement(state)


def verify_void_round(state: RouletteState, reason: str) -> None:
    if not reason.strip():
        raise NotAllowed.of("Say why the spin is void")
    if not (state.layout or state.spun or state.number):
        raise NotAllowed.of("Nothing has happened on this spin")


can_void_round = _can(verify_void_round)


def void_round(state: RouletteState, reason: str) -> SpinVoided:
    verify_void_round(state, reason)
    return SpinVoided(state.spin, reason.strip())


# --- The fold -------------------------------------------------------------------------------


def _with_stack(stacks: tuple[Stack, ...], colour: str, delta: int,
                value_each: int | None = None) -> tuple[Stack, ...]:
    out, found = [], False
    for s in stacks:
        if s.colour == colour:
            found = True
            out.append(Stack(colour, s.value_each if value_each is None else value_each,
                             s.chips + delta))
        else:
            out.append(s)
    if not found:
        assert value_each is not None
        out.append(Stack(colour, value_each, delta))
    return tuple(out)


def _next_spin(state: RouletteState, stacks: tuple[Stack, ...], results: tuple[str, ...],
               directions: tuple[Direction, ...]) -> RouletteState:
    return RouletteState(state.rules, state.table_id, state.spin + 1, stacks=stacks,
                         last_direction=state.last_direction, results=results[-HISTORY:],
                         directions=directions[-HISTORY:])


def apply(state: RouletteState, op: Operation) -> RouletteState:
    rep = dataclasses.replace
    if isinstance(op, TableOpened):
        return rep(state, rules=op.rules, table_id=op.table_id)
    if isinstance(op, ChipChange):
        return rep(state, stacks=_with_stack(state.stacks, op.colour, op.chips, op.value_each))
    if isinstance(op, CashedIn):
        return rep(state, stacks=tuple(s for s in state.stacks if s.colour != op.colour))
    if isinstance(op, BetPlaced):
        chips = sum(p.chips for p in op.placements)
        return rep(state, stacks=_with_stack(state.stacks, op.colour, -chips),
                   layout=(*state.layout, *(Bet(op.colour, p, op.call) for p in op.placements)))
    if isinstance(op, BetsTakenBack):
        return rep(state, stacks=_with_stack(state.stacks, op.colour, op.chips),
                   layout=tuple(b for b in state.layout if b.colour != op.colour))
    if isinstance(op, NoBet):
        places = ", ".join(p.place for p in op.placements)
        return rep(state, no_bets=state.no_bets + 1,
                   notes=(*state.notes, f"no bet: {op.colour} {op.call or places}"))
    if isinstance(op, BallSpun):
        notes = state.notes
        if op.same_direction:
            notes = (*notes, f"spun {op.direction.value}, the same way as the spin before "
                             f"(rule 3.2)")
        return rep(state, ball_spinning=True, spun=True, last_direction=op.direction,
                   notes=notes)
    if isinstance(op, FinalBets):
        return rep(state, phase=Phase.FINAL_BETS)
    if isinstance(op, BettingClosed):
        return rep(state, phase=Phase.NO_MORE_BETS)
    if isinstance(op, NoSpin):
        return rep(state, ball_spinning=False, no_spins=state.no_spins + 1,
                   notes=(*state.notes, f"no spin ({op.source.value}): {op.reason}"))
    if isinstance(op, NumberCalled):
        notes = state.notes
        if op.source is Source.HAND:
            notes = (*notes, f"{op.number} keyed in by hand")
        return rep(state, phase=Phase.RESULT, number=op.number, ball_spinning=False,
                   notes=notes)
    if isinstance(op, SpinSettled):
        stacks = state.stacks
        for pay in op.payouts:
            # The stakes of winning bets and the colour-chip part of the win go back in front
            # of the player; the rest of the win is paid in value chips (`cash`).
            stacks = _with_stack(stacks, pay.colour, pay.stakes_back + pay.colour_chips)
        direction = state.last_direction or Direction.CLOCKWISE
        return _next_spin(state, stacks, (*state.results, op.number),
                          (*state.directions, direction))
    if isinstance(op, SpinVoided):
        stacks = state.stacks
        for b in state.layout:
            stacks = _with_stack(stacks, b.colour, b.placement.chips)
        return _next_spin(state, stacks, state.results, state.directions)
    if isinstance(op, TableRecord):
        return state
    raise foreign("roulette", op)


# --- What the dealer reads ------------------------------------------------------------------


def next_step(state: RouletteState) -> Said:
    """The one next thing the dealer must do (rules 3.2, 3.4; a `Said`: English, with its
    sentence for the dealer's language)."""
    if state.phase is Phase.RESULT:
        return Said.words("%(number)s: pay and confirm", number=state.number)
    if state.phase is Phase.NO_MORE_BETS:
        return Said.words("No more bets: wait for the number") if state.ball_spinning else \
            Said.words("No spin: spin the ball again")
    if not state.ball_spinning:
        want = expected_direction(state)
        if want is Direction.CLOCKWISE:
            return Said.words("Place your bets; spin the ball clockwise")
        if want is Direction.ANTICLOCKWISE:
            return Said.words("Place your bets; spin the ball anticlockwise")
        return Said.words("Place your bets; spin the ball")
    if state.phase is Phase.FINAL_BETS:
        return Said.words("Final bets: call no more bets")
    return Said.words("Place your bets: the ball is spinning")


def legal_actions(state: RouletteState) -> list[str]:
    """The actions allowed now, by name (docs/architecture.md, "Same verbs everywhere")."""
    out = []
    if state.phase in (Phase.BETTING, Phase.FINAL_BETS):
        out.append("place_bet")
        if state.rules.call_bets:
            out.append("place_call_bet")
    checks: list[tuple[str, bool]] = [
        ("chip_change", True),
        ("cash_in", any(can_cash_in(state, s.colour) for s in state.stacks)),
        ("take_back", any(can_take_back(state, s.colour) for s in state.stacks)),
        ("no_bet", state.phase is Phase.NO_MORE_BETS),
        ("spin_ball", can_spin_ball(state, Direction.CLOCKWISE)),
        ("final_bets", can_final_bets(state)),
        ("close_betting", can_close_betting(state)),
        ("no_spin", can_no_spin(state)),
        ("call_number", state.phase is Phase.NO_MORE_BETS and state.ball_spinning),
        ("confirm_payouts", state.phase is Phase.RESULT),
        ("void_round", can_void_round(state, "void")),
    ]
    out.extend(name for name, ok in checks if ok)
    return out


def totals(state: RouletteState) -> list[tuple[str, int, int]]:
    """Each colour on the layout: (colour, chips, their value in cents)."""
    out = []
    for s in state.stacks:
        chips = state.staked(s.colour)
        if chips:
            out.append((s.colour, chips, chips * s.value_each))
    return out


def payout_words(pay: ColourPayout, rules: RouletteRules) -> str:
    """Rule 3.5 as the dealer pays it: "Pink: 35 chips + R0 in cash value"."""
    return (f"{pay.colour.capitalize()}: {pay.colour_chips} chips + {rules.money(pay.cash)} "
            f"in cash value")


def pocket_words(number: str) -> str:
    return f"{number} {colour_of(number).value}"


class Roulette:
    """American roulette as a `kiosk.rules.game.Game` that `SpinsWheel`."""

    name = GAME

    def initial_state(self, rules: Any, table_id: str) -> RouletteState:
        return initial_state(rules, table_id)

    def open_table(self, rules: Any, table_id: str) -> Operation:
        return TableOpened(self.name, table_id, rules)

    def apply(self, state: RouletteState, op: Operation) -> RouletteState:
        return apply(state, op)

    def next_step(self, state: RouletteState) -> Said:
        return next_step(state)

    def betting_open(self, state: RouletteState) -> bool:
        return state.phase in (Phase.BETTING, Phase.FINAL_BETS)

    def between_rounds(self, state: RouletteState) -> bool:
        """Colour chips in the players' hands stay theirs across spins; none on the layout."""
        return state.phase is Phase.BETTING and not state.ball_spinning and not state.layout

    def ready(self, state: RouletteState) -> bool:
        return True  # the wheel needs no shuffle; a wheel fault is the device's alert

    def close_betting(self, state: RouletteState) -> Operation:
        return close_betting(state)

    def table_minimum(self, rules: RouletteRules) -> int:
        return rules.limits.minimum_chip

    def table_maximum(self, rules: RouletteRules) -> int:
        return rules.limits.table_maximum

    def round_number(self, state: RouletteState) -> int:
        return state.spin

    def rules_of(self, state: RouletteState) -> RouletteRules:
        return state.rules

    # SpinsWheel: what the wheel controller reports, as the table's records. Each answers
    # None when the table is already there (the dealer called it first).

    def wheel_spun(self, state: RouletteState, direction: str) -> Operation | None:
        if state.ball_spinning or state.phase is Phase.RESULT:
            return None
        return spin_ball(state, Direction(direction), Source.WHEEL)

    def wheel_closed_betting(self, state: RouletteState) -> Operation | None:
        if state.phase in (Phase.BETTING, Phase.FINAL_BETS) and state.ball_spinning:
            return close_betting(state)
        return None

    def wheel_result(self, state: RouletteState, number: str, direction: str
                     ) -> tuple[Operation, ...]:
        """The records the wheel's winning number makes, in order: the wheel is the
        authority, so a spin or a "no more bets" it reported but the table missed comes
        first (a lost status report), then the number."""
        ops: list[Operation] = []
        if state.phase is Phase.RESULT:
            return ()
        if not state.ball_spinning:
            ops.append(spin_ball(state, Direction(direction), Source.WHEEL))
            state = apply(state, ops[-1])
        if state.phase in (Phase.BETTING, Phase.FINAL_BETS):
            ops.append(close_betting(state))
            state = apply(state, ops[-1])
        ops.append(call_number(state, number, Source.WHEEL))
        return tuple(ops)

    def wheel_void(self, state: RouletteState, reason: str) -> Operation | None:
        if not state.ball_spinning:
            return None
        return no_spin(state, reason, Source.WHEEL)
