"""The two raises, each player in turn, and the community cards turned after each (rule 6.2).

The raises are independent: a player may raise in circle 2 without having raised in circle 1
(rule 6.2 says only that each is a bet equal to the ante).
"""

from __future__ import annotations

from kiosk.rules.arizona.operations import Checked, CommunityTurned, Raised
from kiosk.rules.arizona.state import ArizonaState, circle_in_play, deciding
from kiosk.rules.errors import NotAllowed, allowed


def verify_raise_bet(state: ArizonaState, box: int, circle: int) -> None:
    """Rule 6.2: a raise equal to the ante, in the circle in play, by the player whose
    turn it is."""
    in_play = circle_in_play(state)
    if in_play is None:
        raise NotAllowed.of("No raise is taken now", clause="6.2")
    if circle != in_play:
        raise NotAllowed.of("Circle %(circle)s is not in play: circle %(in_play)s is",
                            clause="6.2", circle=circle, in_play=in_play)
    turn = deciding(state)
    if turn is None:
        raise NotAllowed.of("Every player has decided on circle %(circle)s: turn the "
                            "community card", clause="6.2", circle=circle)
    if box != turn:
        raise NotAllowed.of("Box %(turn)s decides first: each player in turn", clause="6.2",
                            turn=turn)


def can_raise_bet(state: ArizonaState, box: int, circle: int) -> bool:
    return allowed(verify_raise_bet, state, box, circle)


def raise_bet(state: ArizonaState, box: int, circle: int) -> Raised:
    verify_raise_bet(state, box, circle)
    return Raised(box, circle, state.ante_of(box))


def verify_check(state: ArizonaState, box: int, circle: int) -> None:
    verify_raise_bet(state, box, circle)  # the same turn, the other choice


def can_check(state: ArizonaState, box: int, circle: int) -> bool:
    return allowed(verify_check, state, box, circle)


def check(state: ArizonaState, box: int, circle: int) -> Checked:
    verify_check(state, box, circle)
    return Checked(box, circle)


def verify_turn_community(state: ArizonaState) -> None:
    """Rule 6.2: a community card is turned once every player has decided on its circle."""
    circle = circle_in_play(state)
    if circle is None:
        raise NotAllowed.of("No community card is turned now", clause="6.2")
    turn = deciding(state)
    if turn is not None:
        raise NotAllowed.of("Box %(turn)s decides first: each player in turn", clause="6.2",
                            turn=turn)


def can_turn_community(state: ArizonaState) -> bool:
    return allowed(verify_turn_community, state)


def turn_community(state: ArizonaState) -> CommunityTurned:
    verify_turn_community(state)
    slot = state.turned
    return CommunityTurned(slot, state.community[slot])
