"""The fold: mini baccarat's first state and record, and `apply`. The coup's records are
punto banco's and go through its fold (the same drawing and settlement); the malfunction's
records are folded here."""

from __future__ import annotations

import dataclasses
from typing import Any

from kiosk.rules import cut
from kiosk.rules.baccarat.fold import apply as pb_apply, next_coup
from kiosk.rules.baccarat.house import Bet
from kiosk.rules.baccarat.operations import (
    BetPlaced,
    BetRemoved,
    BettingClosed,
    CardDealt,
    CardQueried,
    CardUnread,
    CoupSettled,
    CoupVoided,
    ShoeShuffled,
)
from kiosk.rules.baccarat.state import PuntoBancoState
from kiosk.rules.errors import NotAllowed
from kiosk.rules.game import foreign
from kiosk.rules.mini_baccarat import malfunction as mf
from kiosk.rules.mini_baccarat.house import GAME, MiniBaccaratRules
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
    TableOpened,
    WagerOffered,
)
from kiosk.rules.mini_baccarat.state import Malfunction, MiniBaccaratState
from kiosk.rules.operations import Operation, TableRecord

# Punto banco's records a stopped coup cannot take (rule 12.1: nothing is dealt, bet or
# settled until the procedure lets the coup go on; a void is rule 12.4's terminate).
_STOPPED = (CardDealt, CardQueried, CardUnread, CoupSettled, CoupVoided, BetPlaced, BetRemoved,
            BettingClosed, ShoeShuffled)


def initial_state(rules: MiniBaccaratRules, table_id: str) -> MiniBaccaratState:
    return MiniBaccaratState(rules=rules, table_id=table_id, device=rules.dealt_from)


def open_table(rules: MiniBaccaratRules, table_id: str) -> TableOpened:
    return TableOpened(game=GAME, table_id=table_id, rules=rules)


def _opened(state: PuntoBancoState, op: TableOpened) -> MiniBaccaratState:
    if not state.table_id:
        return initial_state(op.rules, op.table_id)
    # The table ran punto banco (one family): its coup, roads and commission owed carry on.
    if not isinstance(state, MiniBaccaratState):
        carried = {f.name: getattr(state, f.name) for f in dataclasses.fields(PuntoBancoState)}
        carried.update(rules=op.rules, table_id=op.table_id,
                       shoe=state.shoe if state.rules.decks == op.rules.decks else None)
        return MiniBaccaratState(**carried, device=op.rules.dealt_from)
    same_shoe = op.rules.decks == state.rules.decks
    return dataclasses.replace(state, rules=op.rules, table_id=op.table_id,
                               shoe=state.shoe if same_shoe else None,
                               device=state.device if same_shoe else op.rules.dealt_from)


def _procedure(state: MiniBaccaratState, op: Operation) -> MiniBaccaratState:
    """The malfunction's records (rules 12.1-12.5)."""
    rep = dataclasses.replace
    if isinstance(op, ShufflerMalfunctioned):
        return rep(state, malfunction=Malfunction(op.coup, op.cards_dealt, op.detail, op.by))
    m = state.malfunction
    if m is None:
        raise NotAllowed.of("No shuffler malfunction is in hand", clause="12.1")
    if isinstance(op, FactEstablished):
        return rep(state, malfunction=rep(m, facts=(*m.facts, (op.fact, op.answer))))
    if isinstance(op, DamagedCardsRemoved):
        return rep(state, malfunction=rep(m, removed=op.cards))
    if isinstance(op, CardsTransferred):
        return rep(state, malfunction=rep(m, transferred=True))
    if isinstance(op, DamagedCardsReplaced):
        return rep(state, malfunction=rep(m, replaced=True))
    if isinstance(op, WagerOffered):
        offered = rep(m, offered=(*m.offered, op.area))
        if not op.returned:
            return rep(state, malfunction=offered)
        bets = tuple(b for b in state.bets if b.area != op.area)
        return rep(state, bets=bets, malfunction=rep(offered, returned=(*m.returned, *op.bets)))
    if isinstance(op, CardsReshuffled):
        return rep(state, malfunction=rep(m, prep=mf.prep_after_shuffle(state, m)))
    if isinstance(op, CutRefused):
        assert m.prep is not None
        prep = rep(m.prep, refused=(*m.prep.refused, op.seat))
        return rep(state, malfunction=rep(m, prep=prep))
    if isinstance(op, CardsCut):
        assert m.prep is not None
        prep = cut.after_cut(m.prep, op.cut_at, op.cutting_card_from_back)
        return rep(state, malfunction=rep(m, prep=prep))
    if isinstance(op, CoupContinued):
        return rep(state, device=op.device, malfunction=rep(m, continued=op.device))
    if isinstance(op, CoupTerminated):
        ended = next_coup(state)
        assert isinstance(ended, MiniBaccaratState)
        return rep(ended, malfunction=None)
    raise foreign("mini baccarat", op)  # pragma: no cover - _PROCEDURE lists them


_PROCEDURE = (ShufflerMalfunctioned, FactEstablished, DamagedCardsRemoved, CardsTransferred,
              DamagedCardsReplaced, WagerOffered, CardsReshuffled, CutRefused, CardsCut,
              CoupContinued, CoupTerminated)


def apply(state: Any, op: Operation) -> MiniBaccaratState:
    """The one transition function: live play and replay both fold every record through
    it."""
    if isinstance(op, TableOpened):
        return _opened(state, op)
    if not isinstance(state, MiniBaccaratState):
        raise foreign("mini baccarat", op)  # a mini baccarat record before its opening
    if isinstance(op, _PROCEDURE):
        return _procedure(state, op)
    if isinstance(op, TableRecord):
        return state
    if state.stopped and isinstance(op, _STOPPED):
        raise NotAllowed(f"The shuffler malfunctioned: {mf.procedure_words(state)}",
                         clause="12.1")
    after = pb_apply(state, op)  # punto banco's coup: the same drawing and settlement
    assert isinstance(after, MiniBaccaratState)
    if after.coup != state.coup:  # the coup ended: its malfunction with it
        after = dataclasses.replace(after, malfunction=None)
    if isinstance(op, ShoeShuffled):  # a new shoe: dealt from the table's own device again
        after = dataclasses.replace(after, device=after.rules.dealt_from)
    return after


def bets_returned(state: MiniBaccaratState) -> tuple[Bet, ...]:
    """The wagers handed back so far in this coup (rule 12.5.1)."""
    return state.malfunction.returned if state.malfunction is not None else ()


