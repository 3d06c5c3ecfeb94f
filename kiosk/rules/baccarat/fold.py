"""The fold: the table's first state and record, and `apply`, the one transition function that
live play and replay both fold every record through.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from kiosk.rules.baccarat.drawing import BACCARAT_VALUES, next_to_draw
from kiosk.rules.baccarat.house import (
    GAME,
    Bet,
    BetKind,
    CardSource,
    Hand,
    PendingCard,
    Phase,
    PuntoBancoRules,
)
from kiosk.rules.baccarat.operations import (
    BetPlaced,
    BetRemoved,
    BettingClosed,
    CardBurned,
    CardDealt,
    CardQueried,
    CardUnread,
    CommissionCollected,
    CoupSettled,
    CoupVoided,
    CutCardOut,
    ShoeShuffled,
    TableOpened,
)
from kiosk.rules.baccarat.payouts import ZERO
from kiosk.rules.baccarat.state import PuntoBancoState
from kiosk.rules.cards import ShoeContents
from kiosk.rules.game import foreign
from kiosk.rules.operations import Operation, TableRecord


def initial_state(rules: PuntoBancoRules, table_id: str) -> PuntoBancoState:
    return PuntoBancoState(rules=rules, table_id=table_id)


def open_table(rules: PuntoBancoRules, table_id: str) -> TableOpened:
    return TableOpened(game=GAME, table_id=table_id, rules=rules)


def _adjust_bets(bets: tuple[Bet, ...], area: str, kind: BetKind, delta: int
                 ) -> tuple[Bet, ...]:
    out: list[Bet] = []
    found = False
    for b in bets:
        if b.area == area and b.kind is kind:
            found = True
            if b.amount + delta > 0:
                out.append(Bet(area, kind, b.amount + delta))
        else:
            out.append(b)
    if not found and delta > 0:
        out.append(Bet(area, kind, delta))
    return tuple(out)


def _next_coup(state: PuntoBancoState, **changes: Any) -> PuntoBancoState:
    shoe_over = state.cut_card_out
    return _replace(
        state, coup=state.coup + 1, phase=Phase.BETTING, bets=(), player_cards=(),
        banker_cards=(), player_values=(), banker_values=(), pending=None,
        shoe=None if shoe_over else state.shoe,
        cut_card_out=False, **changes)


def next_coup(state: PuntoBancoState) -> PuntoBancoState:
    """The table after a coup that ended with every bet handed back (a void, or mini
    baccarat's terminated coup of rule 12.4): the next coup, the shoe as it was."""
    return _next_coup(state)


def _replace(state: PuntoBancoState, **changes: Any) -> PuntoBancoState:
    """`dataclasses.replace` without re-running `__init__` (the fold's hot path); the
    fields are the same, already checked, so copying them is enough. A variant's state (mini
    baccarat's, a subclass with its own fields) stays of its own class."""
    new = object.__new__(type(state))
    fields = state.__dict__.copy()  # one C-level copy, not a key-by-key update
    fields.update(changes)
    object.__setattr__(new, "__dict__", fields)  # frozen: bypass the refusing __setattr__
    return new


def apply(state: PuntoBancoState, op: Operation) -> PuntoBancoState:
    """The one transition function: live play and replay both fold Operations through it."""
    rep = _replace
    if isinstance(op, CardDealt):
        assert state.shoe is not None
        after = (state.shoe.draw_unchecked(op.card) if op.source is CardSource.OVERRIDE
                 else state.shoe.draw(op.card))
        value = BACCARAT_VALUES[op.card.rank]
        # The coup is complete when the drawing table gives no more cards (rule 5.2); the
        # phase is set in the same copy of the state (one `_replace` per card, no ** merge).
        if op.hand is Hand.PLAYER:
            pv = (*state.player_values, value)
            phase = Phase.PAYING if next_to_draw(pv, state.banker_values) is None else state.phase
            return rep(state, player_cards=(*state.player_cards, op.card), player_values=pv,
                       shoe=after, pending=None, phase=phase)
        bv = (*state.banker_values, value)
        phase = Phase.PAYING if next_to_draw(state.player_values, bv) is None else state.phase
        return rep(state, banker_cards=(*state.banker_cards, op.card), banker_values=bv,
                   shoe=after, pending=None, phase=phase)
    if isinstance(op, BetPlaced):
        return rep(state, bets=_adjust_bets(state.bets, op.area, op.bet, op.amount))
    if isinstance(op, BetRemoved):
        return rep(state, bets=_adjust_bets(state.bets, op.area, op.bet, -op.amount))
    if isinstance(op, BettingClosed):
        return rep(state, phase=Phase.DEALING)
    if isinstance(op, CoupSettled):
        commission_owed = state.commission_owed
        if any(s.commission for s in op.settlements):  # never in NET mode: skip the rebuild
            owed = dict(commission_owed)
            for s in op.settlements:
                if s.commission:
                    owed[s.area] = owed.get(s.area, ZERO) + s.commission
            commission_owed = tuple(sorted(owed.items()))
        return _next_coup(state, results=(*state.results, op.result),
                          commission_owed=commission_owed, last_settled=op)
    if isinstance(op, CardUnread):
        return rep(state, pending=PendingCard(op.hand, "unread",
                                              message="The shoe could not read this card"))
    if isinstance(op, CardQueried):
        return rep(state, pending=PendingCard(op.hand, "impossible", op.card, op.message))
    if isinstance(op, ShoeShuffled):
        return rep(state, shoe=ShoeContents(op.decks), results=(), cut_card_out=False,
                   burned=0)
    if isinstance(op, CardBurned):
        shoe: ShoeContents | None = state.shoe
        if shoe is not None and op.card is not None:
            shoe = shoe.draw_unchecked(op.card)
        return rep(state, shoe=shoe, burned=state.burned + 1)
    if isinstance(op, CutCardOut):
        return rep(state, cut_card_out=True)
    if isinstance(op, CoupVoided):
        return _next_coup(state)
    if isinstance(op, CommissionCollected):
        owed = dict(state.commission_owed)
        owed.pop(op.area, None)
        return rep(state, commission_owed=tuple(sorted(owed.items())))
    if isinstance(op, TableOpened):
        if not state.table_id:
            return initial_state(op.rules, op.table_id)
        if type(state) is not PuntoBancoState:  # a variant's table (mini baccarat) reopened
            fields = {f.name: getattr(state, f.name) for f in dataclasses.fields(
                PuntoBancoState)}  # as punto banco: its coup, roads and commission carry on
            state = PuntoBancoState(**fields)
        # The configuration changed on a running table: the coup, the roads and the
        # commission owed carry on; a different number of decks needs a new shoe (rule 5.5).
        same_shoe = op.rules.decks == state.rules.decks
        return rep(state, rules=op.rules, table_id=op.table_id,
                   shoe=state.shoe if same_shoe else None)
    if isinstance(op, TableRecord):  # the table's own records leave the game as it is
        return state
    raise foreign("punto banco", op)  # another game's record is never folded silently
