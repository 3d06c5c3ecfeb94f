"""The shoe (rules 5.2, 5.4, 5.5): the shuffle, each card to the hand the drawing table names,
unread and queried cards, burns and the cutting card.
"""

from __future__ import annotations

import contextlib

from kiosk.rules.baccarat.drawing import next_hand
from kiosk.rules.baccarat.house import CardSource, Hand, Phase
from kiosk.rules.baccarat.operations import (
    CardBurned,
    CardDealt,
    CardQueried,
    CardUnread,
    CutCardOut,
    ShoeShuffled,
)
from kiosk.rules.baccarat.state import PuntoBancoState
from kiosk.rules.cards import Card
from kiosk.rules.errors import ImpossibleCard, NotAllowed, allowed, resolve_first


def verify_shuffle(state: PuntoBancoState) -> None:
    if state.phase is not Phase.BETTING or state.player_cards or state.banker_cards:
        raise NotAllowed.of("The shoe can only be changed between coups", clause="5.5")


def can_shuffle(state: PuntoBancoState) -> bool:
    return allowed(verify_shuffle, state)


def shuffle(state: PuntoBancoState, method: str = "hand") -> ShoeShuffled:
    """Rule 5.5: a freshly shuffled shoe is loaded before the first cards are dealt."""
    verify_shuffle(state)
    if method not in ("hand", "shuffler"):
        raise NotAllowed(f"Shuffle method {method!r}: choose hand or shuffler", clause="5.5")
    return ShoeShuffled(decks=state.rules.decks, method=method)


def verify_deal_card(state: PuntoBancoState, card: Card, source: CardSource = CardSource.SHOE
                ) -> None:
    """A card may be dealt while dealing, to the hand rule 5.2 says is next, if the shoe can
    hold it (rule 5.4). A card keyed in by the dealer also resolves an unread or queried card."""
    _verify_card(state, card, source)


def _verify_card(state: PuntoBancoState, card: Card, source: CardSource) -> Hand:
    """`verify_deal_card`, answering the hand the card goes to."""
    if state.phase is not Phase.DEALING:
        if state.phase is Phase.BETTING:
            raise NotAllowed.of("A card cannot be dealt before no more bets", clause="5.2")
        raise NotAllowed.of("A card cannot be dealt after the coup ended", clause="5.2")
    if state.pending is not None and source is not CardSource.KEYED:
        raise resolve_first(state.pending.reason, state.pending.hand)
    hand = next_hand(state)
    if hand is None:
        raise NotAllowed.of("The drawing table gives no more cards in this coup", clause="5.2")
    assert state.shoe is not None  # closing bets needs a loaded shoe
    state.shoe.verify_draw(card)
    return hand


def can_deal_card(state: PuntoBancoState, card: Card,
                  source: CardSource = CardSource.SHOE) -> bool:
    return allowed(verify_deal_card, state, card, source)


def deal_card(state: PuntoBancoState, card: Card,
              source: CardSource = CardSource.SHOE) -> CardDealt:
    hand = _verify_card(state, card, source)
    # Fields in order (coup, hand, card, source): keywords make every construction build a dict.
    return CardDealt(state.coup, hand, card, source)


def shoe_card(state: PuntoBancoState, card: Card) -> CardDealt | CardQueried:
    """A card the shoe read: dealt if allowed; a card the shoe cannot hold is queried, so the
    dealer decides (key the right card, void the coup, or an inspector accepts it)."""
    try:
        return deal_card(state, card, CardSource.SHOE)
    except ImpossibleCard as exc:
        hand = next_hand(state)
        assert hand is not None
        return CardQueried(coup=state.coup, hand=hand, card=card, message=str(exc))


def verify_shoe_card(state: PuntoBancoState, card: Card) -> None:
    """Everything `shoe_card` needs except the shoe's contents (an impossible card becomes a
    query rather than an error)."""
    with contextlib.suppress(ImpossibleCard):
        verify_deal_card(state, card, CardSource.SHOE)


def can_shoe_card(state: PuntoBancoState, card: Card) -> bool:
    return allowed(verify_shoe_card, state, card)


def verify_unread_card(state: PuntoBancoState) -> None:
    if state.phase is not Phase.DEALING or next_hand(state) is None:
        raise NotAllowed.of("No card is due now, so an unread card cannot belong to this coup",
                            clause="5.2")
    if state.pending is not None:
        raise resolve_first(state.pending.reason, state.pending.hand)


def can_unread_card(state: PuntoBancoState) -> bool:
    return allowed(verify_unread_card, state)


def unread_card(state: PuntoBancoState) -> CardUnread:
    verify_unread_card(state)
    hand = next_hand(state)
    assert hand is not None
    return CardUnread(coup=state.coup, hand=hand)


def verify_accept_queried_card(state: PuntoBancoState, by: str) -> None:
    if state.pending is None or state.pending.reason != "impossible":
        raise NotAllowed.of("There is no queried card to accept")
    if not by.strip():
        raise NotAllowed.of("An inspector must accept a card the shoe cannot hold")


def can_accept_queried_card(state: PuntoBancoState, by: str) -> bool:
    return allowed(verify_accept_queried_card, state, by)


def accept_queried_card(state: PuntoBancoState, by: str) -> CardDealt:
    """An inspector accepts the queried card as dealt (recorded with their name)."""
    verify_accept_queried_card(state, by)
    assert state.pending is not None and state.pending.card is not None
    return CardDealt(coup=state.coup, hand=state.pending.hand, card=state.pending.card,
                     source=CardSource.OVERRIDE, by=by.strip())


def verify_burn(state: PuntoBancoState, card: Card | None = None) -> None:
    if state.shoe is None:
        raise NotAllowed.of("No shoe is loaded: a card cannot be burned before the cards are "
                            "shuffled (rule 5.5)")
    if state.phase is Phase.DEALING and (state.player_cards or state.banker_cards):
        raise NotAllowed.of("A card cannot be burned in the middle of a coup")


def can_burn(state: PuntoBancoState, card: Card | None = None) -> bool:
    return allowed(verify_burn, state, card)


def burn(state: PuntoBancoState, card: Card | None) -> CardBurned:
    verify_burn(state, card)
    return CardBurned(card=card)


def verify_cut_card_out(state: PuntoBancoState) -> None:
    if state.shoe is None:
        raise NotAllowed.of("No shoe is loaded: there is no cutting card to come out")
    if state.cut_card_out:
        raise NotAllowed.of("The cutting card is already out: this is the last coup of the shoe")


def can_cut_card_out(state: PuntoBancoState) -> bool:
    return allowed(verify_cut_card_out, state)


def cut_card_out(state: PuntoBancoState) -> CutCardOut:
    verify_cut_card_out(state)
    return CutCardOut(coup=state.coup)
