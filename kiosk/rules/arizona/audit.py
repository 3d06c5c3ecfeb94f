"""Replay audit of Arizona Hold'em (rule 2.8): every settled hand recomputed from its cards
and the raises on the journal, bet by bet at rule 6.6's table."""

from __future__ import annotations

from typing import Any

from kiosk.rules.amounts import format_money
from kiosk.rules.arizona import payouts
from kiosk.rules.arizona.operations import BoxResult, Misdealt, Settled, Voided
from kiosk.rules.arizona.state import ArizonaState
from kiosk.rules.audit import BetDrawn, HandDrawn, ReplayReport, RoundDrawing, RoundReplay, Row
from kiosk.rules.errors import TablesideError
from kiosk.rules.operations import encode


def _hands(state: ArizonaState) -> dict[str, list[str]]:
    hands = {"community": [c.code for c in state.community]}
    for box in state.boxes:
        hands[f"box {box}"] = [c.code for c in state.cards_of(box)]
    return hands


def outcome(boxes: tuple[BoxResult, ...], currency: str) -> str:
    """"box 1 a pair of tens +R20; box 3 king high -R40": each box's hand and net."""
    def net(cents: int) -> str:
        return ("+" if cents >= 0 else "-") + format_money(abs(cents), currency)
    return "; ".join(f"box {b.box} {b.hand} {net(b.net)}" for b in boxes) or "no box played"


def audit(state: ArizonaState, op: Any, row: Row, report: ReplayReport) -> None:
    if isinstance(op, Voided):
        coup = RoundReplay(op.round, "voided", row.seq, row.wall_time, hands=_hands(state),
                          reason=op.reason, outcome=f"voided: {op.reason}")
    elif isinstance(op, Settled):
        coup = _audit_settlement(state, op, row)
    else:
        return
    coup.drawing = draw(state, coup)
    report.rounds.append(coup)


def draw(state: ArizonaState, coup: RoundReplay) -> RoundDrawing:
    """The hand for an inspector: the community cards, each box's three cards with its
    best hand, and each box's ante and raises (rule 6.6), or a void's handed back."""
    currency = state.rules.currency
    hands = [HandDrawn("community", tuple(c.code for c in state.community))]
    results = {int(s["box"]): s for s in coup.settlements}
    for box in state.boxes:
        found = results.get(box)
        hands.append(HandDrawn(f"box {box}", tuple(c.code for c in state.cards_of(box)),
                               str(found["hand"]) if found else ""))
    if coup.status == "voided":
        bets = [BetDrawn(f"box {box} ante", amount, "handed back", 0, amount)
                for box, amount in state.antes]
        bets += [BetDrawn(f"box {box} raise {circle}", amount, "handed back", 0, amount)
                 for box, circle, amount in state.raises]
        return RoundDrawing(currency, tuple(hands), f"void: {coup.reason}", bets=tuple(bets),
                            voided=True)
    drawn = []
    for s in coup.settlements:
        stake = int(s["ante"]) + int(s["first"]) + int(s["second"])
        net = int(s["net"])
        word = "win" if net > 0 else "push" if net == 0 else "lose"
        pays = f", pays {s['odds']} to 1" if s["odds"] is not None else ""
        drawn.append(BetDrawn(f"box {s['box']}", stake, word, max(net, 0),
                              max(stake + net, 0), f"{s['hand']}{pays}; ante "
                              f"{format_money(int(s['ante']), currency)}, raises "
                              f"{format_money(int(s['first']), currency)} and "
                              f"{format_money(int(s['second']), currency)}"))
    return RoundDrawing(currency, tuple(hands), coup.outcome, bets=tuple(drawn))


MISDEAL = "misdeal"
"""The alert a misdeal raises at the pit (rule 6.2)."""


def alerts(op: Any) -> tuple[str, str] | None:
    """Arizona Hold'em's records an inspector must see as alerts (`GameSpec.alerts`): a
    misdeal, dealt again after a new shuffle (rules 6.2, 6.5)."""
    if isinstance(op, Misdealt):
        why = f": {op.reason}" if op.reason else ""
        return MISDEAL, f"hand {op.round} misdealt{why} (rule 6.2)"
    return None


def _audit_settlement(state: ArizonaState, op: Settled, row: Row) -> RoundReplay:
    out = RoundReplay(op.round, "settled", row.seq, row.wall_time, hands=_hands(state))
    currency = state.rules.currency
    if op.round != state.round:
        out.differences.append(f"recorded as hand {op.round}, but the journal is at hand "
                               f"{state.round}")
    try:
        again = payouts.confirm_payouts(state)
    except TablesideError as exc:
        out.differences.append(f"settled although {exc}")
        out.settlements = [encode(b) for b in op.boxes]
        out.outcome = outcome(op.boxes, currency)
        return out
    out.settlements = [encode(b) for b in again.boxes]
    out.result = {"community": [c.code for c in again.community]}
    out.outcome = outcome(again.boxes, currency)
    recorded = {b.box: b for b in op.boxes}
    for box in again.boxes:
        was = recorded.pop(box.box, None)
        if was is None:
            out.differences.append(f"box {box.box}: never settled")
        elif was != box:
            fields = [f for f in ("cards", "hand", "odds", "ante", "first", "second", "net")
                      if getattr(was, f) != getattr(box, f)]
            out.differences.append(f"box {box.box}: " + ", ".join(
                f"{f} recorded {encode(getattr(was, f))}, recomputed {encode(getattr(box, f))}"
                for f in fields))
    for box_number in recorded:
        out.differences.append(f"box {box_number}: settled but never staked")
    if op.community != again.community:
        out.differences.append("community cards recorded differ from those dealt")
    return out



