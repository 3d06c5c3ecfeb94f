"""The shuffling device malfunction procedure (rules 12.1-12.5): the acts, each as
`verify_x` (raises `NotAllowed` with the rule's words), `can_x` and `x` (the record).

A fault in a coup under way stops it (rule 12.1.2); the dealer and the inspector then
establish the facts one by one (rules 12.1.3-12.1.5, 12.3), each a record saying who
decided, and the facts choose the branch: 12.2 transfer and continue, 12.3 remove the
damaged cards, transfer, replace them from a new deck and continue, 12.4 terminate the coup
and return every wager, or 12.5 offer each player the wagers back, replace the damaged
cards, shuffle and cut under rule 4 (the shared shuffle-and-cut of `kiosk/rules/cut.py`) and
complete the coup from a dealing shoe for the players who stayed.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from kiosk.rules import cut
from kiosk.rules.baccarat.house import Bet, Phase
from kiosk.rules.cards import Card, ShoeContents
from kiosk.rules.errors import NotAllowed, Said, allowed
from kiosk.rules.mini_baccarat.house import DEALER, Branch, Device, Fact, Role, Who
from kiosk.rules.mini_baccarat.operations import (
    CardsCut,
    CardsReshuffled,
    CardsTransferred,
    CoupContinued,
    CoupTerminated,
    CutRefused,
    DamagedCardsRemoved,
    DamagedCardsReplaced,
    FactEstablished,
    ShufflerMalfunctioned,
    WagerOffered,
)
from kiosk.rules.mini_baccarat.state import Malfunction, MiniBaccaratState

FACTS = (Fact.DAMAGED, Fact.DISADVANTAGED, Fact.SPARE, Fact.TRANSFERABLE)


class Step(StrEnum):
    """Where the procedure stands: the one thing to do next."""

    FACT = "fact"  # establish the next fact
    REMOVE = "remove"  # rules 12.3.1, 12.5.2: say which cards are damaged, remove them
    TRANSFER = "transfer"  # rules 12.2, 12.3.2
    REPLACE = "replace"  # rules 12.3.3, 12.5.2
    TERMINATE = "terminate"  # rule 12.4 (or 12.5.1: every wager went back)
    OFFER = "offer"  # rule 12.5.1: the next seat's offer
    RESHUFFLE = "reshuffle"  # rule 12.5.3
    CUT = "cut"  # rule 12.5.3 by rule 4
    CONTINUE = "continue"  # rules 12.2, 12.3.4, 12.5.4 (or no card dealt yet)
    DONE = "done"  # the coup goes on


@dataclass(frozen=True, slots=True)
class Where:
    """The step now and what it is about: the fact to ask, the area to offer to."""

    step: Step
    fact: Fact | None = None
    area: str = ""


def where(state: MiniBaccaratState) -> Where | None:
    """The procedure's next step; None when no malfunction is in hand."""
    m = state.malfunction
    if m is None:
        return None
    if m.continued is not None:
        return Where(Step.DONE)
    if m.cards_dealt == 0:
        return Where(Step.CONTINUE)  # rule 12.1.2: no card dealt, no procedure
    branch = m.branch
    if branch is None:
        return Where(Step.FACT, fact=next(f for f in FACTS if m.fact(f) is None))
    if branch is Branch.TERMINATE:
        return Where(Step.TERMINATE)
    if branch is Branch.DEALING_SHOE:
        for area in _areas_with_bets(state):
            if area not in m.offered:
                return Where(Step.OFFER, area=area)
        if not state.bets:
            return Where(Step.TERMINATE)  # rule 12.5.1: every player took the wagers back
        if m.fact(Fact.DAMAGED) and m.removed is None:
            return Where(Step.REMOVE)
        if m.fact(Fact.DAMAGED) and not m.replaced:
            return Where(Step.REPLACE)
        if m.prep is None:
            return Where(Step.RESHUFFLE)
        if m.prep.stage is cut.Stage.CUT:
            return Where(Step.CUT)
        return Where(Step.CONTINUE)
    if branch is Branch.REPLACE and m.removed is None:
        return Where(Step.REMOVE)
    if not m.transferred:
        return Where(Step.TRANSFER)
    if branch is Branch.REPLACE and not m.replaced:
        return Where(Step.REPLACE)
    return Where(Step.CONTINUE)


def _areas_with_bets(state: MiniBaccaratState) -> list[str]:
    staked = {b.area for b in state.bets}
    return [a for a in state.rules.area_ids() if a in staked]


def cards_dealt(state: MiniBaccaratState) -> int:
    return len(state.player_cards) + len(state.banker_cards)


# --- who decides -------------------------------------------------------------------------


def verify_who(who: Who, fact: Fact | None = None) -> None:
    """A decision is the dealer's or an inspector's, known by the badge; whether the
    casino or a player was disadvantaged (rule 12.4) is the inspector's to say."""
    if who.role is Role.DEVICE:
        raise NotAllowed.of("Only the dealer or the inspector decides in the malfunction "
                            "procedure", clause="12.1")
    if who.role is Role.INSPECTOR and not who.badge.strip():
        raise NotAllowed.of("The inspector gives a badge number")
    if fact is Fact.DISADVANTAGED and who.role is not Role.INSPECTOR:
        raise NotAllowed.of("Whether anyone was disadvantaged is for the inspector to decide",
                            clause="12.4")


def _verify_at(state: MiniBaccaratState, step: Step) -> Malfunction:
    now = where(state)
    if now is None or state.malfunction is None:
        raise NotAllowed.of("No shuffler malfunction is in hand", clause="12.1")
    if now.step is not step:
        raise NotAllowed.of("Not yet: %(step)s", step=procedure_words(state))
    return state.malfunction


# --- rule 12.1: the malfunction ------------------------------------------------------------


def verify_shuffler_malfunction(state: MiniBaccaratState, detail: str, by: Who) -> None:
    """Rule 12.1: a shuffling device in use (12.1.1) stops working in a coup (12.1.2)."""
    if state.device is not Device.SHUFFLER:
        raise NotAllowed.of("The cards are dealt from a shoe, not a shuffling device",
                            clause="12.1.1")
    if state.malfunction is not None and state.malfunction.continued is None:
        raise NotAllowed.of("The shuffler malfunction is already in hand", clause="12.1")
    if state.phase is not Phase.DEALING:
        raise NotAllowed.of("A shuffler malfunction stops a coup being dealt: change the "
                            "device between coups", clause="12.1.2")
    if by.role is not Role.DEVICE:
        verify_who(by)


def can_shuffler_malfunction(state: MiniBaccaratState, detail: str, by: Who) -> bool:
    return allowed(verify_shuffler_malfunction, state, detail, by)


def shuffler_malfunction(state: MiniBaccaratState, detail: str, by: Who = DEALER
                         ) -> ShufflerMalfunctioned:
    verify_shuffler_malfunction(state, detail, by)
    return ShufflerMalfunctioned(state.coup, cards_dealt(state), detail.strip(), by)


# --- the facts (rules 12.1.3-12.1.5, 12.3) --------------------------------------------------


def verify_establish_fact(state: MiniBaccaratState, fact: Fact, answer: bool, by: Who) -> None:
    now = where(state)
    _verify_at(state, Step.FACT)
    assert now is not None
    if fact is not now.fact:
        raise NotAllowed.of("Not yet: %(step)s", step=procedure_words(state))
    verify_who(by, fact)


def can_establish_fact(state: MiniBaccaratState, fact: Fact, answer: bool, by: Who) -> bool:
    return allowed(verify_establish_fact, state, fact, answer, by)


def establish_fact(state: MiniBaccaratState, fact: Fact, answer: bool, by: Who
                   ) -> FactEstablished:
    verify_establish_fact(state, fact, answer, by)
    return FactEstablished(state.coup, fact, bool(answer), by)


# --- rules 12.3.1, 12.5.2: the damaged cards ----------------------------------------------


def verify_remove_damaged_cards(state: MiniBaccaratState, cards: tuple[Card, ...], by: Who
                                ) -> None:
    _verify_at(state, Step.REMOVE)
    verify_who(by)
    if not cards:
        raise NotAllowed.of("Say which cards are damaged: at least one", clause="12.3.1")
    # The damaged cards were still in the device: never more of a card than it can hold.
    shoe = state.shoe if state.shoe is not None else ShoeContents(state.rules.decks)
    for card in cards:
        shoe.verify_draw(card)
        shoe = shoe.draw(card)


def can_remove_damaged_cards(state: MiniBaccaratState, cards: tuple[Card, ...], by: Who
                             ) -> bool:
    return allowed(verify_remove_damaged_cards, state, cards, by)


def remove_damaged_cards(state: MiniBaccaratState, cards: tuple[Card, ...], by: Who
                         ) -> DamagedCardsRemoved:
    verify_remove_damaged_cards(state, cards, by)
    return DamagedCardsRemoved(state.coup, tuple(cards), by)


def verify_replace_damaged_cards(state: MiniBaccaratState, by: Who) -> None:
    _verify_at(state, Step.REPLACE)
    verify_who(by)


def can_replace_damaged_cards(state: MiniBaccaratState, by: Who) -> bool:
    return allowed(verify_replace_damaged_cards, state, by)


def replace_damaged_cards(state: MiniBaccaratState, by: Who) -> DamagedCardsReplaced:
    """Rules 12.3.3, 12.5.2: a card from a new deck for each damaged one, the same cards,
    so the cards left to deal are as before."""
    verify_replace_damaged_cards(state, by)
    m = state.malfunction
    assert m is not None and m.removed is not None
    return DamagedCardsReplaced(state.coup, len(m.removed), by)


# --- rules 12.2, 12.3.2: the transfer ------------------------------------------------------


def verify_transfer_cards(state: MiniBaccaratState, by: Who) -> None:
    _verify_at(state, Step.TRANSFER)
    verify_who(by)


def can_transfer_cards(state: MiniBaccaratState, by: Who) -> bool:
    return allowed(verify_transfer_cards, state, by)


def transfer_cards(state: MiniBaccaratState, by: Who) -> CardsTransferred:
    verify_transfer_cards(state, by)
    return CardsTransferred(state.coup, by)


# --- rule 12.4 (and 12.5.1 when nobody stayed): terminate ---------------------------------


def verify_terminate_coup(state: MiniBaccaratState, by: Who) -> None:
    _verify_at(state, Step.TERMINATE)
    verify_who(by)


def can_terminate_coup(state: MiniBaccaratState, by: Who) -> bool:
    return allowed(verify_terminate_coup, state, by)


def terminate_coup(state: MiniBaccaratState, by: Who) -> CoupTerminated:
    """Rule 12.4: the coup ends; each player's wagers still on the layout go back, listed
    per area."""
    verify_terminate_coup(state, by)
    m = state.malfunction
    assert m is not None
    branch = m.branch or Branch.TERMINATE
    return CoupTerminated(state.coup, returned_per_area(state), branch, by)


def returned_per_area(state: MiniBaccaratState) -> tuple[Bet, ...]:
    """Every wager on the layout, area by area in the table's order (rule 12.4)."""
    order = {a: i for i, a in enumerate(state.rules.area_ids())}
    return tuple(sorted(state.bets, key=lambda b: (order.get(b.area, len(order)), b.kind)))


# --- rule 12.5.1: the offers, seat by seat -------------------------------------------------


def verify_offer_wager_back(state: MiniBaccaratState, area: str, returned: bool, by: Who
                            ) -> None:
    now = where(state)
    _verify_at(state, Step.OFFER)
    assert now is not None
    if area != now.area:
        raise NotAllowed.of("Offer seat %(due)s first, one player at a time", clause="12.5.1",
                            due=now.area)
    verify_who(by)


def can_offer_wager_back(state: MiniBaccaratState, area: str, returned: bool, by: Who) -> bool:
    return allowed(verify_offer_wager_back, state, area, returned, by)


def offer_wager_back(state: MiniBaccaratState, area: str, returned: bool, by: Who
                     ) -> WagerOffered:
    """The player at `area` takes every wager of the seat back (`returned`) or stays in
    the coup. A seat's wagers go together, so a tie bet never stays alone (rule 5.2)."""
    verify_offer_wager_back(state, area, returned, by)
    bets = tuple(b for b in returned_per_area(state) if b.area == area)
    return WagerOffered(state.coup, area, bets, bool(returned), by)


# --- rule 12.5.3: shuffle and cut as under rule 4 ------------------------------------------


def seated(state: MiniBaccaratState) -> tuple[int, ...]:
    """The seats still in the coup, in seat order: the cut is offered among them."""
    return tuple(int(a) for a in _areas_with_bets(state) if a.isdigit())


def _reason(m: Malfunction) -> cut.ShuffleReason:
    return cut.ShuffleReason.NEW_CARDS if m.replaced else cut.ShuffleReason.HOUSE


def verify_reshuffle_cards(state: MiniBaccaratState, by: Who) -> None:
    m = _verify_at(state, Step.RESHUFFLE)
    verify_who(by)
    cut.verify_shuffle(cut.needs_shuffle(_reason(m), seated(state)), "hand", False, False,
                       m.replaced)


def can_reshuffle_cards(state: MiniBaccaratState, by: Who) -> bool:
    return allowed(verify_reshuffle_cards, state, by)


def reshuffle_cards(state: MiniBaccaratState, by: Who) -> CardsReshuffled:
    verify_reshuffle_cards(state, by)
    return CardsReshuffled(state.coup, by)


def prep_after_shuffle(state: MiniBaccaratState, m: Malfunction) -> cut.ShoePrep:
    prep = cut.needs_shuffle(_reason(m), seated(state))
    return cut.after_shuffle(prep, "hand", False, m.replaced, seated(state))


def verify_refuse_cut(state: MiniBaccaratState, seat: int) -> None:
    m = _verify_at(state, Step.CUT)
    assert m.prep is not None
    cut.verify_refuse(m.prep, seat)


def can_refuse_cut(state: MiniBaccaratState, seat: int) -> bool:
    return allowed(verify_refuse_cut, state, seat)


def refuse_cut(state: MiniBaccaratState, seat: int) -> CutRefused:
    verify_refuse_cut(state, seat)
    return CutRefused(state.coup, seat)


def verify_cut_cards(state: MiniBaccaratState, seat: int | None, cut_at: int,
                     cutting_card_from_back: int, supervisor: str = "") -> None:
    m = _verify_at(state, Step.CUT)
    assert m.prep is not None
    cut.verify_cut(m.prep, state.rules.decks, seat, supervisor, cut_at, cutting_card_from_back)


def can_cut_cards(state: MiniBaccaratState, seat: int | None, cut_at: int,
                  cutting_card_from_back: int, supervisor: str = "") -> bool:
    return allowed(verify_cut_cards, state, seat, cut_at, cutting_card_from_back, supervisor)


def cut_cards(state: MiniBaccaratState, seat: int | None, cut_at: int,
              cutting_card_from_back: int, supervisor: str = "") -> CardsCut:
    verify_cut_cards(state, seat, cut_at, cutting_card_from_back, supervisor)
    return CardsCut(state.coup, seat, supervisor.strip(), cut_at, cutting_card_from_back)


# --- rules 12.2, 12.3.4, 12.5.4: the coup goes on -------------------------------------------


def verify_continue_coup(state: MiniBaccaratState, by: Who) -> None:
    _verify_at(state, Step.CONTINUE)
    verify_who(by)


def can_continue_coup(state: MiniBaccaratState, by: Who) -> bool:
    return allowed(verify_continue_coup, state, by)


def continue_coup(state: MiniBaccaratState, by: Who) -> CoupContinued:
    """The coup goes on: from the spare shuffler (12.2, 12.3.4), or from a dealing shoe for
    the players who stayed (12.5.4). With no card dealt yet (rule 12.1.2 not met) the cards
    go into the spare device, or a shoe, as the dealer has them."""
    verify_continue_coup(state, by)
    m = state.malfunction
    assert m is not None
    branch = m.branch or Branch.TRANSFER
    device = Device.SHOE if branch is Branch.DEALING_SHOE else Device.SHUFFLER
    return CoupContinued(state.coup, device, branch, by)


# --- the words ----------------------------------------------------------------------------


def procedure_words(state: MiniBaccaratState) -> Said:
    """The procedure's next step in the dealer's words, citing the clause."""
    now = where(state)
    m = state.malfunction
    if now is None or m is None:
        return Said("")
    if now.step is Step.FACT:
        if now.fact is Fact.DAMAGED:
            return Said.words("Shuffler malfunction: are any cards in it damaged?",
                              clause="12.3")
        if now.fact is Fact.DISADVANTAGED:
            return Said.words("Inspector: was the casino or any player disadvantaged by the "
                              "malfunction?", clause="12.4")
        if now.fact is Fact.SPARE:
            return Said.words("Is another shuffling device readily available?",
                              clause="12.1.4")
        return Said.words("Can the cards be transferred to the other shuffling device?",
                          clause="12.1.5")
    if now.step is Step.REMOVE:
        return Said.words("Remove the damaged cards from play: key each one in",
                          clause="12.3.1")
    if now.step is Step.TRANSFER:
        if m.branch is Branch.REPLACE:
            return Said.words("Transfer the undamaged cards to the other shuffling device",
                              clause="12.3.2")
        return Said.words("Transfer the cards to the other shuffling device", clause="12.2")
    if now.step is Step.REPLACE:
        if m.branch is Branch.REPLACE:
            return Said.words("Replace the damaged cards from a new deck, into the receiving "
                              "shuffling device", clause="12.3.3")
        return Said.words("Replace the damaged cards with cards from a new deck",
                          clause="12.5.2")
    if now.step is Step.TERMINATE:
        if m.branch is Branch.TERMINATE:
            return Said.words("The coup is terminated: return every wager, area by area",
                              clause="12.4")
        return Said.words("Every player took the wagers back: end the coup", clause="12.5.1")
    if now.step is Step.OFFER:
        return Said.words("Seat %(seat)s: offer the player the wagers back", clause="12.5.1",
                          seat=now.area)
    if now.step is Step.RESHUFFLE:
        return Said.words("Shuffle the cards by hand for a dealing shoe", clause="12.5.3")
    if now.step is Step.CUT:
        assert m.prep is not None
        if m.prep.supervisor_must_cut():
            return Said.words("Every player refused the cut: a game supervisor cuts, as under "
                              "rule 4", clause="12.5.3")
        return Said.words("Offer the cut to seat %(seat)s, as under rule 4", clause="12.5.3",
                          seat=m.prep.offered_to())
    if now.step is Step.CONTINUE:
        if m.cards_dealt == 0:
            return Said.words("No card of this coup was dealt: load the spare shuffler or a "
                              "shoe and deal", clause="12.1.2")
        if m.branch is Branch.DEALING_SHOE:
            return Said.words("Load the dealing shoe and complete the coup for the players "
                              "who stayed", clause="12.5.4")
        if m.branch is Branch.REPLACE:
            return Said.words("Continue the coup from the other shuffling device",
                              clause="12.3.4")
        return Said.words("Continue the coup from the other shuffling device", clause="12.2")
    return Said("")
