"""Payouts (rule 3.5): each colour's win in its own chips and in value chips, the dealer's
confirmation, and voiding a spin (rule 2.7).
"""

from __future__ import annotations

from kiosk.rules.errors import NotAllowed, allowed
from kiosk.rules.roulette.bets import PAYS, Placement
from kiosk.rules.roulette.house import Phase, RouletteRules
from kiosk.rules.roulette.operations import ColourPayout, SpinSettled, SpinVoided
from kiosk.rules.roulette.state import RouletteState


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


def can_confirm_payouts(state: RouletteState) -> bool:
    return allowed(verify_confirm_payouts, state)


def confirm_payouts(state: RouletteState) -> SpinSettled:
    return settlement(state)


def verify_void_round(state: RouletteState, reason: str) -> None:
    if not reason.strip():
        raise NotAllowed.of("Say why the spin is void")
    if not (state.layout or state.spun or state.number):
        raise NotAllowed.of("Nothing has happened on this spin")


def can_void_round(state: RouletteState, reason: str) -> bool:
    return allowed(verify_void_round, state, reason)


def void_round(state: RouletteState, reason: str) -> SpinVoided:
    verify_void_round(state, reason)
    return SpinVoided(state.spin, reason.strip())
