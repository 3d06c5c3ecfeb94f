"""Replay audit of punto banco (rule 2.8): every settled coup recomputed from its cards."""

from __future__ import annotations

from typing import Any

from kiosk.rules.audit import (
    BetDrawn,
    HandDrawn,
    ReplayReport,
    RoundDrawing,
    RoundReplay,
    Row,
    codes,
    odds_words,
    outcome_word,
)
from kiosk.rules.baccarat import engine as pb
from kiosk.rules.errors import TablesideError
from kiosk.rules.operations import encode


def audit(state: pb.PuntoBancoState, op: Any, row: Row, report: ReplayReport) -> None:
    if isinstance(op, pb.CoupSettled):
        coup = _with_outcome(_audit_settlement(state, op, row))
    elif isinstance(op, pb.CoupVoided):
        coup = _with_outcome(RoundReplay(
            op.coup, "voided", row.seq, row.wall_time,
            [c.code for c in state.player_cards], [c.code for c in state.banker_cards],
            reason=op.reason))
    else:
        return
    coup.drawing = draw(state, coup)
    report.rounds.append(coup)


def draw(state: pb.PuntoBancoState, coup: RoundReplay) -> RoundDrawing:
    """The coup for an inspector: both hands with their totals, the winner, every bet (a
    void's: every bet on the layout, handed back, rule 2.7)."""
    result = coup.result or {}
    winner = str(result.get("winner") or "")
    hands = tuple(
        HandDrawn(side, tuple(cards), str(result.get(f"{side}_total", "")),
                  "wins" if winner == side else "")
        for side, cards in (("player", coup.player_cards), ("banker", coup.banker_cards)))
    if coup.status == "voided":
        bets = tuple(BetDrawn(f"area {b.area} {b.kind}", b.amount, "handed back", 0, b.amount)
                     for b in state.bets)
        return RoundDrawing(state.rules.currency, hands, f"void: {coup.reason}", bets=bets,
                            voided=True)
    totals = f"{result.get('player_total', '')} to {result.get('banker_total', '')}"
    said = (f"tie, {totals}" if winner == "tie" else
            f"{winner} wins, {result.get(f'{winner}_total', '')} to "
            f"{result.get('banker_total' if winner == 'player' else 'player_total', '')}")
    return RoundDrawing(state.rules.currency, hands, said, bets=tuple(
        BetDrawn(f"area {s['area']} {s['kind']}", int(s["stake"]), outcome_word(s["outcome"]),
                 int(s["paid"]), int(s["returned"]),
                 f"pays {odds_words(s['odds'])}" if s["paid"] else "")
        for s in coup.settlements))


def _with_outcome(coup: RoundReplay) -> RoundReplay:
    """"banker 7-6" (the winner, then the player's and the banker's totals), or a void's
    reason."""
    result = coup.result or {}
    if result.get("winner"):
        coup.outcome = (f"{result['winner']} {result.get('player_total', '')}-"
                        f"{result.get('banker_total', '')}")
    else:
        coup.outcome = f"voided: {coup.reason}" if coup.reason else coup.status
    return coup


def _settlement_json(s: pb.BetSettlement) -> dict[str, Any]:
    data: dict[str, Any] = encode(s)
    data["returned"] = s.returned
    return data


def _audit_settlement(state: pb.PuntoBancoState, op: pb.CoupSettled, row: Row) -> RoundReplay:
    """Recompute the coup the journal says was settled and list every difference."""
    out = RoundReplay(op.coup, "settled", row.seq, row.wall_time,
                     [c.code for c in state.player_cards], [c.code for c in state.banker_cards])
    diffs = out.differences
    if op.coup != state.coup:
        diffs.append(f"recorded as coup {op.coup}, but the journal is at coup {state.coup}")
    if op.player_cards != state.player_cards or op.banker_cards != state.banker_cards:
        diffs.append(
            f"cards recorded with the settlement (player {codes(op.player_cards)}, banker "
            f"{codes(op.banker_cards)}) differ from the cards dealt (player "
            f"{codes(state.player_cards)}, banker {codes(state.banker_cards)})")
    try:
        expected = pb.confirm_payouts(state)
    except TablesideError as exc:
        diffs.append(f"settled although {exc}")
        out.result = encode(op.result)
        out.settlements = [_settlement_json(s) for s in op.settlements]
        return out
    out.result = encode(expected.result)
    out.settlements = [_settlement_json(s) for s in expected.settlements]
    if expected.result != op.result:
        diffs.append(f"result recorded {encode(op.result)}, recomputed "
                     f"{encode(expected.result)}")
    recorded = {(s.area, s.kind): s for s in op.settlements}
    for s in expected.settlements:
        r = recorded.pop((s.area, s.kind), None)
        if r is None:
            diffs.append(f"area {s.area} {s.kind}: stake {s.stake} was never settled")
        elif r != s:
            fields = [f for f in ("stake", "outcome", "odds", "exact_win", "paid", "rounding",
                                  "commission") if getattr(r, f) != getattr(s, f)]
            diffs.append(f"area {s.area} {s.kind}: " + ", ".join(
                f"{f} recorded {encode(getattr(r, f))}, recomputed {encode(getattr(s, f))}"
                for f in fields))
    for (area, kind), r in recorded.items():
        diffs.append(f"area {area} {kind}: settled {r.stake} that was never staked")
    return out
