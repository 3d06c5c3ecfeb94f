"""Antes, the shuffle and "no more bets" (rules 2.2, 6.2, 6.5)."""

from __future__ import annotations

from kiosk.rules.arizona.operations import AntePlaced, AnteTakenBack, BettingClosed, Shuffled
from kiosk.rules.arizona.state import ArizonaState, Phase
from kiosk.rules.errors import Amount, NotAllowed, allowed


def _amount(state: ArizonaState, cents: int) -> Amount:
    return Amount(cents, state.rules.currency)


def verify_place_bet(state: ArizonaState, box: int, amount: int) -> None:
    """Rule 6.2: the ante, in box "A" of a player's box, within the table's limits (2.2)."""
    rules = state.rules
    if state.phase is not Phase.BETTING:
        raise NotAllowed.of("No more bets: the round is being dealt", clause="6.2")
    if not 1 <= box <= rules.boxes:
        raise NotAllowed.of("There is no box %(box)s: the layout has boxes 1 to %(boxes)s",
                            clause="6.3", box=box, boxes=rules.boxes)
    if amount <= 0:
        raise NotAllowed.of("A bet must be more than nothing")
    rules.chips.verify_stake(amount)
    after = state.ante_of(box) + amount
    if after > rules.maximum:
        raise NotAllowed.of("Box %(box)s: %(amount)s is over the table maximum of "
                            "%(maximum)s", clause="2.2", box=box, amount=_amount(state, after),
                            maximum=_amount(state, rules.maximum))


def can_place_bet(state: ArizonaState, box: int, amount: int) -> bool:
    return allowed(verify_place_bet, state, box, amount)


def place_bet(state: ArizonaState, box: int, amount: int) -> AntePlaced:
    verify_place_bet(state, box, amount)
    return AntePlaced(box, amount)


def verify_remove_bet(state: ArizonaState, box: int) -> None:
    if state.phase is not Phase.BETTING:
        raise NotAllowed.of("No more bets has been called: bets cannot be taken back now")
    if state.ante_of(box) == 0:
        raise NotAllowed.of("Box %(box)s has no ante to take back", box=box)


def can_remove_bet(state: ArizonaState, box: int) -> bool:
    return allowed(verify_remove_bet, state, box)


def remove_bet(state: ArizonaState, box: int) -> AnteTakenBack:
    verify_remove_bet(state, box)
    return AnteTakenBack(box)


def verify_close_betting(state: ArizonaState) -> None:
    """Rule 6.2: "No more bets", once every ante is at least the table minimum (2.2)."""
    if state.phase is not Phase.BETTING:
        raise NotAllowed.of("No more bets: the round is being dealt", clause="6.2")
    if not state.antes:
        raise NotAllowed.of("No ante on the layout yet: place your bets")
    for box, amount in state.antes:
        if amount < state.rules.minimum:
            raise NotAllowed.of("Box %(box)s: the ante of %(amount)s is under the table "
                                "minimum of %(minimum)s", clause="2.2", box=box,
                                amount=_amount(state, amount),
                                minimum=_amount(state, state.rules.minimum))


def can_close_betting(state: ArizonaState) -> bool:
    return allowed(verify_close_betting, state)


def close_betting(state: ArizonaState) -> BettingClosed:
    verify_close_betting(state)
    return BettingClosed()


def verify_shuffle(state: ArizonaState) -> None:
    """Rule 6.5: the cards are shuffled before each hand, so not while one is dealt."""
    if state.dealt:
        raise NotAllowed.of("The hand is being played: shuffle before the next one",
                            clause="6.5")


def can_shuffle(state: ArizonaState) -> bool:
    return allowed(verify_shuffle, state)


def shuffle(state: ArizonaState) -> Shuffled:
    verify_shuffle(state)
    return Shuffled()
