"""Cards from the shoe (rule 4.2 item 3, 4.5; shuffle and cut 4.7): each to the hand whose
turn it is or queried with the clause it breaks; unread cards keyed in; the burn; the cutting
card coming out (shuffle and cut 4.1.2-4.1.3).
"""

from __future__ import annotations

from kiosk.rules.blackjack import cut
from kiosk.rules.blackjack.cut import Stage, sc
from kiosk.rules.blackjack.helpers import round_started
from kiosk.rules.blackjack.house import Variant
from kiosk.rules.blackjack.operations import (
    CardBurned,
    CardDealt,
    CardQueried,
    CardSetAside,
    CardSource,
    CardUnread,
    CutCardOut,
)
from kiosk.rules.blackjack.state import DEALER, NOBODY, BlackjackState, Phase, hand_words
from kiosk.rules.blackjack.turns import burn_due, card_target, needs_pay, no_target_reason
from kiosk.rules.cards import Card
from kiosk.rules.errors import ImpossibleCard, NotAllowed, allowed, resolve_first
from kiosk.rules.operations import Operation


def check_target(state: BlackjackState, box: int | None, hand: int, source: CardSource
                   ) -> tuple[int, int]:
    if burn_due(state):
        raise NotAllowed.of("The first card is burned unseen first", clause=sc("4.7"))
    if state.pending is not None and source is not CardSource.KEYED:
        raise resolve_first(state.pending.reason)
    if state.pending is not None and state.pending.box != NOBODY:
        due: tuple[int, int] | None = (state.pending.box, state.pending.hand)
    else:
        due = card_target(state)
    if due is None or (box is not None and (box, hand) != due):
        words, clause = no_target_reason(state, box, hand)
        if due is not None and box is not None:
            words = f"{words}; the card is due to {_target_words(state, due)}"
        raise NotAllowed(words, clause=clause)
    return due


def _target_words(state: BlackjackState, target: tuple[int, int]) -> str:
    if target[0] == DEALER:
        return "the dealer"
    return state.hand(*target).label


def verify_deal_card(state: BlackjackState, card: Card, source: CardSource = CardSource.SHOE,
                box: int | None = None, hand: int = 1) -> None:
    """A card may go to the hand whose turn it is (or to `box`/`hand` if named and due)
    when the shoe can hold it (rules 4.5, 7.5)."""
    check_target(state, box, hand, source)
    if source is not CardSource.OVERRIDE:
        _verify_in_shoe(state, card)


def _verify_in_shoe(state: BlackjackState, card: Card) -> None:
    assert state.shoe is not None  # closing bets needs the shuffled shoe
    if not state.shoe.can_draw(card):
        clause = "7.5" if state.rules.variant is Variant.TOUCH_21 else "4.5"
        raise ImpossibleCard(
            f"The shoe cannot hold another {card.name} ({card.code}): all "
            f"{state.shoe.decks} have already come out of this {state.shoe.decks}-deck shoe",
            clause=clause)


def can_deal_card(state: BlackjackState, card: Card, source: CardSource = CardSource.SHOE,
                  box: int | None = None, hand: int = 1) -> bool:
    return allowed(verify_deal_card, state, card, source, box, hand)


def deal_card(state: BlackjackState, card: Card, source: CardSource = CardSource.SHOE,
              box: int | None = None, hand: int = 1, by: str = "") -> CardDealt:
    target = check_target(state, box, hand, source)
    if source is not CardSource.OVERRIDE:
        _verify_in_shoe(state, card)
    return CardDealt(state.round, target[0], target[1], card, source, by)


def shoe_card(state: BlackjackState, card: Card) -> Operation:
    """A card the shoe read. The first card after the cut is burned unseen (rule 4.7 shuffle
    and cut); otherwise it goes where it is due, or is queried with the clause it breaks."""
    if burn_due(state):
        return CardBurned(card=card)
    verify_shoe_card(state, card)  # raises when it must wait: the session holds it
    target = card_target(state)
    if target is None:
        words, clause = no_target_reason(state)
        message = f"{words} (rule {clause})" if clause else words
        return CardQueried(state.round, NOBODY, 0, card, "not allowed", message)
    try:
        _verify_in_shoe(state, card)
    except ImpossibleCard as exc:
        return CardQueried(state.round, target[0], target[1], card, "impossible", str(exc))
    return CardDealt(state.round, target[0], target[1], card, CardSource.SHOE)


def verify_shoe_card(state: BlackjackState, card: Card) -> None:
    """What `shoe_card` needs before it can record anything: a round being dealt or played
    and no card waiting for the dealer (a card the rules refuse is queried, not raised)."""
    if burn_due(state):
        return
    if state.prep.stage is not Stage.READY:
        raise NotAllowed("The cards are being shuffled and cut: "
                         + cut.step_words(state.prep, state.rules.shuffler), clause=sc("4.1"))
    if state.phase is Phase.BETTING:
        raise NotAllowed.of("No card is dealt before no more bets", clause="4.2 item 3")
    if state.pending is not None:
        raise resolve_first(state.pending.reason)
    if state.phase in (Phase.CHECK, Phase.INSURANCE):
        words, clause = no_target_reason(state)
        raise NotAllowed(words, clause=clause)
    cur = state.current
    if state.phase is Phase.PLAYING and cur is not None and needs_pay(state, cur):
        raise NotAllowed.of("Pay the blackjack on %(hand)s first", clause="4.2 item 5",
                            hand=hand_words(cur))
    # Otherwise the card is recorded: dealt where it is due, or queried (a card after the
    # dealer's hand is over, a card the shoe cannot hold).


def can_shoe_card(state: BlackjackState, card: Card) -> bool:
    return allowed(verify_shoe_card, state, card)


def holds_cards(state: BlackjackState) -> bool:
    """Whether a card from the shoe must wait (the session holds it) rather than count."""
    if burn_due(state) or state.prep.stage is not Stage.READY:
        return False  # the burn counts at once; a card during the shuffle is refused
    try:
        verify_shoe_card(state, _ANY_CARD)
    except NotAllowed:
        return state.phase is not Phase.BETTING
    return False


_ANY_CARD = Card.parse("2C")


def verify_unread_card(state: BlackjackState) -> None:
    if state.pending is not None:
        raise resolve_first(state.pending.reason)
    if burn_due(state):
        return
    if card_target(state) is None:
        words, clause = no_target_reason(state)
        raise NotAllowed(f"An unread card cannot belong to this round: {words}", clause=clause)


def can_unread_card(state: BlackjackState) -> bool:
    return allowed(verify_unread_card, state)


def unread_card(state: BlackjackState) -> Operation:
    verify_unread_card(state)
    if burn_due(state):
        return CardBurned(card=None)  # the burn card is never shown anyway (rule 4.7)
    target = card_target(state)
    assert target is not None
    return CardUnread(state.round, target[0], target[1])


def verify_accept_queried_card(state: BlackjackState, by: str) -> None:
    if state.pending is None or state.pending.reason != "impossible":
        raise NotAllowed.of("There is no queried card to accept")
    if not by.strip():
        raise NotAllowed.of("An inspector must accept a card the shoe cannot hold")


def can_accept_queried_card(state: BlackjackState, by: str = "inspector") -> bool:
    return allowed(verify_accept_queried_card, state, by)


def accept_queried_card(state: BlackjackState, by: str) -> CardDealt:
    verify_accept_queried_card(state, by)
    p = state.pending
    assert p is not None and p.card is not None
    return CardDealt(state.round, p.box, p.hand, p.card, CardSource.OVERRIDE, by.strip())


def verify_set_aside_card(state: BlackjackState) -> None:
    if state.pending is None or state.pending.card is None:
        raise NotAllowed.of("There is no queried card to set aside")


def can_set_aside_card(state: BlackjackState) -> bool:
    return allowed(verify_set_aside_card, state)


def set_aside_card(state: BlackjackState, reason: str = "dealt in error") -> CardSetAside:
    """The queried card is out of the shoe but in no hand (the dealer puts it in the discard
    rack); the round goes on as if it had not been dealt."""
    verify_set_aside_card(state)
    assert state.pending is not None and state.pending.card is not None
    return CardSetAside(state.round, state.pending.card, reason.strip() or "dealt in error")


def verify_burn(state: BlackjackState, card: Card | None = None) -> None:
    if state.prep.stage not in (Stage.BURN, Stage.READY):
        raise NotAllowed.of("No shoe is ready: a card cannot be burned before the cards are "
                            "shuffled and cut (rules 4.1-4.5, shuffle and cut)")
    if round_started(state) and not burn_due(state):
        raise NotAllowed.of("A card cannot be burned in the middle of a round")


def can_burn(state: BlackjackState, card: Card | None = None) -> bool:
    return allowed(verify_burn, state, card)


def burn(state: BlackjackState, card: Card | None) -> CardBurned:
    verify_burn(state, card)
    return CardBurned(card=card)


def verify_cut_card_out(state: BlackjackState) -> None:
    if state.prep.stage is not Stage.READY:
        raise NotAllowed.of("No shoe is in play: the cards are being shuffled and cut (rules "
                            "4.1-4.5, shuffle and cut)")
    if state.shuffle_after_round:
        raise NotAllowed.of("The cutting card is already out: the cards are shuffled at the end "
                            "of this round (rule 4.1.3, shuffle and cut)")


def can_cut_card_out(state: BlackjackState) -> bool:
    return allowed(verify_cut_card_out, state)


def cut_card_out(state: BlackjackState) -> CutCardOut:
    verify_cut_card_out(state)
    return CutCardOut(round=state.round)
