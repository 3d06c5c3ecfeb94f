"""The reveal and the payouts: every bet of a box at rule 6.6's table (rules 6.2, 6.6)."""

from __future__ import annotations

from kiosk.rules.arizona.hands import evaluate
from kiosk.rules.arizona.operations import BoxResult, Settled, Voided
from kiosk.rules.arizona.paytable import odds_for
from kiosk.rules.arizona.state import ArizonaState, Phase, stake_of
from kiosk.rules.errors import NotAllowed, allowed


def box_result(state: ArizonaState, box: int) -> BoxResult:
    """One box at the reveal: its three cards in line with the two community cards."""
    cards = (*state.cards_of(box), *state.community)
    hand = evaluate(cards)
    odds = odds_for(hand)
    stake = stake_of(state, box)
    return BoxResult(box, cards, hand.words, odds, state.ante_of(box), state.raise_of(box, 1),
                     state.raise_of(box, 2), -stake if odds is None else stake * odds)


def verify_confirm_payouts(state: ArizonaState) -> None:
    if state.phase is not Phase.REVEAL:
        raise NotAllowed.of("Nothing to pay yet: both community cards must be turned",
                            clause="6.2")


def can_confirm_payouts(state: ArizonaState) -> bool:
    return allowed(verify_confirm_payouts, state)


def confirm_payouts(state: ArizonaState) -> Settled:
    """Rule 6.2: hands revealed left to right (box order), each paid at rule 6.6's odds."""
    verify_confirm_payouts(state)
    return Settled(state.round, state.community,
                   tuple(box_result(state, box) for box in state.boxes))


def verify_void_round(state: ArizonaState, reason: str) -> None:
    """Rule 2.7: a round is void before it is settled; every bet goes back."""
    if not reason.strip():
        raise NotAllowed.of("Say why the round is void")
    if state.phase is Phase.BETTING and not state.antes:
        raise NotAllowed.of("No round to void: no bet is on the layout")


def can_void_round(state: ArizonaState, reason: str) -> bool:
    return allowed(verify_void_round, state, reason)


def void_round(state: ArizonaState, reason: str) -> Voided:
    verify_void_round(state, reason)
    return Voided(state.round, reason)
