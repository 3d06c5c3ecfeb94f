"""The shuffle and the cut (rules 4.1-4.6 of the shuffle-and-cut text): by hand or in the
shuffling device, the cut offered to the players in order, the cutting card placed.
"""

from __future__ import annotations

import dataclasses

from kiosk.rules.blackjack import cut
from kiosk.rules.blackjack.cut import ShoePrep, sc
from kiosk.rules.blackjack.helpers import round_started
from kiosk.rules.blackjack.operations import CardsCut, CardsShuffled, CutRefused
from kiosk.rules.blackjack.state import BlackjackState, Phase
from kiosk.rules.errors import NotAllowed, allowed


def verify_shuffle(state: BlackjackState, method: str = "hand", new_cards: bool = False
                   ) -> None:
    if state.phase not in (Phase.BETTING, Phase.DEALING) or round_started(state):
        raise NotAllowed.of("Cards cannot be shuffled in the middle of a round; the shuffle "
                            "comes at the end of the round", clause=sc("4.1.3"))
    cut.verify_shuffle(state.prep, method, state.rules.shuffler, False, new_cards)


def can_shuffle(state: BlackjackState, method: str = "hand", new_cards: bool = False) -> bool:
    return allowed(verify_shuffle, state, method, new_cards)


def shuffle(state: BlackjackState, method: str = "hand", new_cards: bool = False
            ) -> CardsShuffled:
    """Rule 4.1 (shuffle and cut). A shuffle outside rule 4.1's three moments is the house's
    own decision (Mpumalanga rules 4.4 and, for Touch 21, 7.4)."""
    verify_shuffle(state, method, new_cards)
    return CardsShuffled(method=method, new_cards=new_cards)


def prep_now(state: BlackjackState) -> ShoePrep:
    """The shoe's preparation with the players now at the table: boxes that bet since the
    shuffle are offered the cut too (rules 4.2.1, 4.3)."""
    boxes = state.boxes_in_play
    if not boxes or set(boxes) <= set(state.prep.seated):
        return state.prep
    return dataclasses.replace(state.prep, seated=tuple(sorted({*state.prep.seated, *boxes})))


def verify_refuse_cut(state: BlackjackState, box: int) -> None:
    cut.verify_refuse(prep_now(state), box)


def can_refuse_cut(state: BlackjackState, box: int) -> bool:
    return allowed(verify_refuse_cut, state, box)


def refuse_cut(state: BlackjackState, box: int) -> CutRefused:
    verify_refuse_cut(state, box)
    return CutRefused(box=box)


def verify_cut_cards(state: BlackjackState, box: int | None, cut_at: int,
                     cutting_card_from_back: int, supervisor: str = "") -> None:
    cut.verify_cut(prep_now(state), state.rules.decks, box, supervisor, cut_at,
                   cutting_card_from_back)


def can_cut_cards(state: BlackjackState, box: int | None, cut_at: int,
                  cutting_card_from_back: int, supervisor: str = "") -> bool:
    return allowed(verify_cut_cards, state, box, cut_at, cutting_card_from_back, supervisor)


def cut_cards(state: BlackjackState, box: int | None, cut_at: int, cutting_card_from_back: int,
              supervisor: str = "") -> CardsCut:
    """Rules 4.2-4.5 (shuffle and cut): `box` cut (None: the named supervisor cut)."""
    verify_cut_cards(state, box, cut_at, cutting_card_from_back, supervisor)
    return CardsCut(box=box or 0, supervisor=supervisor.strip() if box is None else "",
                    cut_at=cut_at, cutting_card_from_back=cutting_card_from_back)
