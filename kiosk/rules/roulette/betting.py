"""Chips and bets (rules 3.4, 3.5, 2.2): the chip change, cashing in, bets on the layout and
call bets, a "no bet" after no more bets, and bets taken back.
"""

from __future__ import annotations

from kiosk.rules.errors import Amount, NotAllowed, Word, allowed
from kiosk.rules.roulette.bets import BetKind, CallBet, Placement, call_bet, placement
from kiosk.rules.roulette.helpers import colour_word
from kiosk.rules.roulette.house import COLOURS, Phase, RouletteRules
from kiosk.rules.roulette.operations import BetPlaced, BetsTakenBack, CashedIn, ChipChange, NoBet
from kiosk.rules.roulette.state import RouletteState


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


def can_chip_change(state: RouletteState, colour: str, chips: int, value_each: int) -> bool:
    return allowed(verify_chip_change, state, colour, chips, value_each)


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
        raise NotAllowed.of("%(colour)s still has bets on the layout", colour=colour_word(colour))


def can_cash_in(state: RouletteState, colour: str) -> bool:
    return allowed(verify_cash_in, state, colour)


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
                            colour=colour_word(colour), chips=stack.chips, bet=chips)
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
                                "%(maximum)s", "2.2", colour=colour_word(colour), place=p.place,
                                amount=Amount(on_place * stack.value_each, rules.currency),
                                limit=name, maximum=Amount(limit, rules.currency))
    total = (state.staked(colour) + chips) * stack.value_each
    if total > rules.limits.table_maximum:
        # TRANSLATORS: %(colour)s is the player's chip colour as the screens say it (Pink).
        raise NotAllowed.of("%(colour)s: %(amount)s on this spin is over the table maximum of "
                            "%(maximum)s", "2.2", colour=colour_word(colour),
                            amount=Amount(total, rules.currency),
                            maximum=Amount(rules.limits.table_maximum, rules.currency))


def can_place_bet(state: RouletteState, colour: str, placements: tuple[Placement, ...]
                  ) -> bool:
    return allowed(verify_place_bet, state, colour, placements)


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


def can_no_bet(state: RouletteState, colour: str) -> bool:
    return allowed(verify_no_bet, state, colour)


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
        raise NotAllowed.of("%(colour)s has no bets on the layout", colour=colour_word(colour))


def can_take_back(state: RouletteState, colour: str) -> bool:
    return allowed(verify_take_back, state, colour)


def take_back(state: RouletteState, colour: str) -> BetsTakenBack:
    verify_take_back(state, colour)
    return BetsTakenBack(colour, state.staked(colour))
