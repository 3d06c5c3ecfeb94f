"""What the dealer reads and what the screens ask: the next step in words, the acts allowed now
(`legal_actions`), and the totals and payouts as the dealer says them.
"""

from __future__ import annotations

from kiosk.rules.errors import Said
from kiosk.rules.roulette.betting import can_cash_in, can_take_back
from kiosk.rules.roulette.house import Direction, Phase, RouletteRules
from kiosk.rules.roulette.operations import ColourPayout
from kiosk.rules.roulette.payouts import can_void_round
from kiosk.rules.roulette.spin import (
    can_close_betting,
    can_final_bets,
    can_no_spin,
    can_spin_ball,
    expected_direction,
)
from kiosk.rules.roulette.state import RouletteState
from kiosk.rules.roulette.wheel import colour_of


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


def legal_actions(state: RouletteState) -> frozenset[str]:
    """The dealer's acts allowed now, by name (the same in every game): the dealer screen
    enables its buttons from this set."""
    out: list[str] = []
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
    return frozenset(out)


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
