"""The deal of rule 6.2, card by card as the shoe, the shuffler or the keypad gives them, and
the misdeal that sends it back to the shuffle (rules 6.2, 6.5)."""

from __future__ import annotations

from kiosk.rules.arizona.operations import (
    Burned,
    CardDealt,
    CardQueried,
    CutCardOut,
    Misdealt,
    QueryAccepted,
)
from kiosk.rules.arizona.state import ArizonaState, Phase, next_place
from kiosk.rules.cards import Card
from kiosk.rules.errors import NotAllowed, allowed
from kiosk.rules.operations import Operation


def verify_shoe_card(state: ArizonaState, card: Card) -> None:
    """A card may be dealt only after "no more bets", from cards shuffled for this hand
    (rule 6.5), while the deal is not complete, and only as often as the decks hold it."""
    if state.phase is not Phase.DEALING:
        raise NotAllowed.of("No card is dealt now: the deal is complete or not yet begun",
                            clause="6.2")
    if not state.shuffled:
        raise NotAllowed.of("The cards were not shuffled for this hand: shuffle, then deal",
                            clause="6.5")
    copies = sum(1 for _, _, dealt in state.dealt if dealt == card)
    if copies >= state.rules.decks:
        raise NotAllowed.of("%(card)s was dealt already: the %(decks)s-deck pack holds no "
                            "other", clause="6.4", card=card.code, decks=state.rules.decks)


def can_shoe_card(state: ArizonaState, card: Card) -> bool:
    return allowed(verify_shoe_card, state, card)


def shoe_card(state: ArizonaState, card: Card) -> Operation:
    """The card goes to the next place of rule 6.2's order; one that may not be dealt now is
    a query for the dealer, never dropped."""
    try:
        verify_shoe_card(state, card)
    except NotAllowed as refused:
        return CardQueried(card, str(refused))
    place = next_place(state)
    assert place is not None  # the phase is DEALING only while places are left
    box, slot = place
    return CardDealt(box, slot, card)


def verify_deal_card(state: ArizonaState, card: Card) -> None:
    """A card keyed in by the dealer (no shoe, or a card the shoe could not read) is dealt
    as the shoe's would be, to the next place of rule 6.2's order."""
    verify_shoe_card(state, card)


def can_deal_card(state: ArizonaState, card: Card) -> bool:
    return allowed(verify_deal_card, state, card)


def deal_card(state: ArizonaState, card: Card) -> CardDealt:
    verify_deal_card(state, card)
    place = next_place(state)
    assert place is not None
    return CardDealt(place[0], place[1], card)


def verify_accept_queried_card(state: ArizonaState, inspector: str) -> None:
    """An inspector may accept the queried card while a card is due; the shuffle of rule 6.5
    is never set aside."""
    if not inspector.strip():
        raise NotAllowed.of("Say which inspector accepts the card")
    if state.queried is None or state.phase is not Phase.DEALING:
        raise NotAllowed.of("No queried card is waiting")
    if not state.shuffled:
        raise NotAllowed.of("The cards were not shuffled for this hand: shuffle, then deal",
                            clause="6.5")


def can_accept_queried_card(state: ArizonaState, inspector: str) -> bool:
    return allowed(verify_accept_queried_card, state, inspector)


def accept_queried_card(state: ArizonaState, inspector: str) -> QueryAccepted:
    verify_accept_queried_card(state, inspector)
    place = next_place(state)
    assert place is not None and state.queried is not None
    return QueryAccepted(inspector.strip(), place[0], place[1], state.queried)


def holds_cards(state: ArizonaState) -> bool:
    return False


def unread_card(state: ArizonaState) -> Operation:
    return CardQueried(None, "The shoe could not read a card: key it in, or misdeal")


def verify_misdeal(state: ArizonaState) -> None:
    """Rule 6.2: a misdeal is called during the deal, or once it is complete and before any
    player has decided on circle 1 (the cards have not been picked up before then)."""
    if state.phase not in (Phase.DEALING, Phase.FIRST_RAISE) or state.raises or state.checks:
        raise NotAllowed.of("A misdeal is called while the cards are dealt, before anyone "
                            "raises", clause="6.2")
    if not state.dealt:
        raise NotAllowed.of("No card has been dealt yet", clause="6.2")


def can_misdeal(state: ArizonaState) -> bool:
    return allowed(verify_misdeal, state)


def misdeal(state: ArizonaState, reason: str) -> Misdealt:
    verify_misdeal(state)
    return Misdealt(state.round, reason, tuple(card for _, _, card in state.dealt))


def verify_burn(state: ArizonaState, card: Card | None) -> None:
    if state.dealt and state.phase is not Phase.BETTING:
        raise NotAllowed.of("The hand is being played: shuffle before the next one",
                            clause="6.5")


def can_burn(state: ArizonaState, card: Card | None) -> bool:
    return allowed(verify_burn, state, card)


def burn(state: ArizonaState, card: Card | None) -> Burned:
    verify_burn(state, card)
    return Burned(card)


def cut_card_out(state: ArizonaState) -> CutCardOut:
    return CutCardOut()


def cut_card_words(state: ArizonaState) -> str:
    return "The cards are shuffled before every hand (rule 6.5)"
