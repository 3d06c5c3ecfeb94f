"""The one next thing the dealer does, in the words of rule 6.2."""

from __future__ import annotations

from kiosk.rules.arizona.betting import (
    verify_close_betting,
    verify_place_bet,
    verify_remove_bet,
    verify_shuffle,
)
from kiosk.rules.arizona.dealing import verify_accept_queried_card, verify_burn, verify_misdeal
from kiosk.rules.arizona.operations import COMMUNITY
from kiosk.rules.arizona.payouts import verify_confirm_payouts, verify_void_round
from kiosk.rules.arizona.raises import verify_check, verify_raise_bet, verify_turn_community
from kiosk.rules.arizona.state import ArizonaState, Phase, circle_in_play, deciding, next_place
from kiosk.rules.errors import Said, allowed


def next_step(state: ArizonaState) -> Said:
    match state.phase:
        case Phase.BETTING:
            if not state.shuffled:
                return Said.words("Place your bets. %(step)s",
                                  step=Said.words("Shuffle the cards for this hand",
                                                  clause="6.5"))
            return Said.words("Place your bets")
        case Phase.DEALING:
            if not state.shuffled:
                return Said.words("Shuffle the cards for this hand", clause="6.5")
            place = next_place(state)
            assert place is not None
            box, slot = place
            if box == COMMUNITY:
                return (Said.words("Deal the first community card face down") if slot == 0
                        else Said.words("Deal the second community card face down"))
            return Said.words("Deal a card face down to box %(box)s", box=box)
        case Phase.FIRST_RAISE | Phase.SECOND_RAISE:
            circle = circle_in_play(state)
            turn = deciding(state)
            if turn is not None:
                return Said.words("Box %(box)s: raise in circle %(circle)s, or check",
                                  box=turn, circle=circle)
            return (Said.words("Turn the first community card") if circle == 1
                    else Said.words("Turn the second community card"))
    return Said.words("Reveal the hands left to right, pay and confirm")


def legal_actions(state: ArizonaState) -> frozenset[str]:
    """The dealer's acts allowed now, by name (the dealer screen enables its buttons from
    it): `place_bet` means some box may take an ante, `deal_card` that a card may be keyed,
    `raise_bet` and `check` that the player whose turn it is may decide."""
    out = {name for name, ok in (
        ("shuffle", allowed(verify_shuffle, state)),
        ("close_betting", allowed(verify_close_betting, state)),
        ("confirm_payouts", allowed(verify_confirm_payouts, state)),
        ("void_round", allowed(verify_void_round, state, "reason to be given")),
        ("misdeal", allowed(verify_misdeal, state)),
        ("turn_community", allowed(verify_turn_community, state)),
        ("burn", allowed(verify_burn, state, None)),
        ("accept_queried_card", allowed(verify_accept_queried_card, state, "inspector")),
    ) if ok}
    rules = state.rules
    if any(allowed(verify_place_bet, state, box, rules.minimum)
           for box in range(1, rules.boxes + 1)):
        out.add("place_bet")
    if any(allowed(verify_remove_bet, state, box) for box in state.boxes):
        out.add("remove_bet")
    if state.phase is Phase.DEALING and state.shuffled:
        out.add("deal_card")
    turn, circle = deciding(state), circle_in_play(state)
    if turn is not None and circle is not None:
        if allowed(verify_raise_bet, state, turn, circle):
            out.add("raise_bet")
        if allowed(verify_check, state, turn, circle):
            out.add("check")
    return frozenset(out)
