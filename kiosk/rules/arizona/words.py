"""The one next thing the dealer does, in the words of rule 6.2."""

from __future__ import annotations

from kiosk.rules.arizona.operations import COMMUNITY
from kiosk.rules.arizona.state import ArizonaState, Phase, circle_in_play, deciding, next_place
from kiosk.rules.errors import Said


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
