"""`apply`: the one transition of Arizona Hold'em's state, live and in replay."""

from __future__ import annotations

from dataclasses import replace

from kiosk.rules.arizona.hands import evaluate
from kiosk.rules.arizona.operations import (
    AntePlaced,
    AnteTakenBack,
    ArizonaOpened,
    BettingClosed,
    Burned,
    CardDealt,
    CardQueried,
    Checked,
    CommunityTurned,
    CutCardOut,
    Misdealt,
    QueryAccepted,
    Raised,
    Settled,
    Shuffled,
    Voided,
)
from kiosk.rules.arizona.state import COMMUNITY_CARDS, ArizonaState, Phase, next_place
from kiosk.rules.game import foreign
from kiosk.rules.operations import Operation, TableRecord

HISTORY = 20  # hands the players' sign can show


def _next_round(state: ArizonaState, hand: str | None = None) -> ArizonaState:
    hands = state.hands if hand is None else (*state.hands, hand)[-HISTORY:]
    return ArizonaState(state.rules, state.table_id, state.round + 1, hands=hands)


def apply(state: ArizonaState, op: Operation) -> ArizonaState:
    if isinstance(op, ArizonaOpened):
        return ArizonaState(op.rules, op.table_id, state.round, hands=state.hands)
    if isinstance(op, Shuffled):
        return replace(state, shuffled=True)
    if isinstance(op, AntePlaced):
        antes = dict(state.antes)
        antes[op.box] = antes.get(op.box, 0) + op.amount
        return replace(state, antes=tuple(sorted(antes.items())))
    if isinstance(op, AnteTakenBack):
        return replace(state, antes=tuple((b, a) for b, a in state.antes if b != op.box))
    if isinstance(op, BettingClosed):
        return replace(state, phase=Phase.DEALING)
    if isinstance(op, CardDealt | QueryAccepted):
        dealt = replace(state, dealt=(*state.dealt, (op.box, op.slot, op.card)), queried=None)
        if next_place(dealt) is None:  # rule 6.2: the cycle is finished, players look
            return replace(dealt, phase=Phase.FIRST_RAISE, shuffled=False)
        return dealt
    if isinstance(op, Misdealt):
        # Rule 6.2: dealt again, after a new shuffle (6.5); the antes stay.
        return replace(state, phase=Phase.DEALING, dealt=(), shuffled=False, queried=None,
                       misdeals=state.misdeals + 1)
    if isinstance(op, Raised):
        return replace(state, raises=(*state.raises, (op.box, op.circle, op.amount)))
    if isinstance(op, Checked):
        return replace(state, checks=(*state.checks, (op.box, op.circle)))
    if isinstance(op, CommunityTurned):
        turned = state.turned + 1
        phase = Phase.REVEAL if turned == COMMUNITY_CARDS else Phase.SECOND_RAISE
        return replace(state, turned=turned, phase=phase)
    if isinstance(op, Settled):
        # The round's best hand is the strongest at the reveal, whatever was staked on it.
        best = max(op.boxes, key=lambda b: evaluate(b.cards), default=None)
        return _next_round(state, best.hand if best is not None else None)
    if isinstance(op, Voided):
        # Cards shuffled for a hand that was never dealt are still shuffled (rule 6.5).
        return replace(_next_round(state), shuffled=state.shuffled and not state.dealt)
    if isinstance(op, CardQueried):
        due = op.card is not None and state.phase is Phase.DEALING
        return replace(state, queried=op.card) if due else state
    if isinstance(op, Burned | CutCardOut | TableRecord):
        return state
    raise foreign("Arizona Hold'em", op)
