"""Punto banco's acts on a mini baccarat table, each refused while a shuffler malfunction
stops the coup (rule 12.1): the cards, the void and the payouts wait for the procedure."""

from __future__ import annotations

from kiosk.rules.baccarat import engine as pb
from kiosk.rules.cards import Card
from kiosk.rules.errors import NotAllowed, allowed
from kiosk.rules.mini_baccarat.state import MiniBaccaratState


def verify_running(state: pb.PuntoBancoState) -> None:
    """Rule 12.1: nothing is dealt, voided or settled while the malfunction stops the coup."""
    if isinstance(state, MiniBaccaratState) and state.stopped:
        raise NotAllowed.of("The shuffler malfunction stops the coup", clause="12.1")


def verify_deal_card(state: MiniBaccaratState, card: Card,
                     source: pb.CardSource = pb.CardSource.SHOE) -> None:
    verify_running(state)
    pb.verify_deal_card(state, card, source)


def can_deal_card(state: MiniBaccaratState, card: Card,
                  source: pb.CardSource = pb.CardSource.SHOE) -> bool:
    return allowed(verify_deal_card, state, card, source)


def deal_card(state: MiniBaccaratState, card: Card,
              source: pb.CardSource = pb.CardSource.SHOE) -> pb.CardDealt:
    verify_running(state)
    return pb.deal_card(state, card, source)


def verify_shoe_card(state: MiniBaccaratState, card: Card) -> None:
    verify_running(state)
    pb.verify_shoe_card(state, card)


def can_shoe_card(state: MiniBaccaratState, card: Card) -> bool:
    return allowed(verify_shoe_card, state, card)


def shoe_card(state: MiniBaccaratState, card: Card) -> pb.CardDealt | pb.CardQueried:
    verify_running(state)
    return pb.shoe_card(state, card)


def verify_unread_card(state: MiniBaccaratState) -> None:
    verify_running(state)
    pb.verify_unread_card(state)


def can_unread_card(state: MiniBaccaratState) -> bool:
    return allowed(verify_unread_card, state)


def unread_card(state: MiniBaccaratState) -> pb.CardUnread:
    verify_running(state)
    return pb.unread_card(state)


def verify_accept_queried_card(state: MiniBaccaratState, by: str) -> None:
    verify_running(state)
    pb.verify_accept_queried_card(state, by)


def can_accept_queried_card(state: MiniBaccaratState, by: str) -> bool:
    return allowed(verify_accept_queried_card, state, by)


def accept_queried_card(state: MiniBaccaratState, by: str) -> pb.CardDealt:
    verify_running(state)
    return pb.accept_queried_card(state, by)


def verify_void_round(state: MiniBaccaratState, reason: str) -> None:
    """A stopped coup ends only by the procedure (rule 12.4's terminate)."""
    verify_running(state)
    pb.verify_void_round(state, reason)


def can_void_round(state: MiniBaccaratState, reason: str) -> bool:
    return allowed(verify_void_round, state, reason)


def void_round(state: MiniBaccaratState, reason: str, by: str = "") -> pb.CoupVoided:
    verify_running(state)
    return pb.void_round(state, reason, by)


def verify_confirm_payouts(state: MiniBaccaratState) -> None:
    verify_running(state)
    pb.verify_confirm_payouts(state)


def can_confirm_payouts(state: MiniBaccaratState) -> bool:
    return allowed(verify_confirm_payouts, state)


def confirm_payouts(state: MiniBaccaratState) -> pb.CoupSettled:
    verify_running(state)
    return pb.confirm_payouts(state)
