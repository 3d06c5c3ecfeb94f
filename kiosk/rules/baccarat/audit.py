"""Replay audit of punto banco (rule 2.8): every settled coup recomputed from its cards."""

from __future__ import annotations

from typing import Any

from kiosk.rules.audit import CoupReplay, ReplayReport, Row, codes
from kiosk.rules.baccarat import engine as pb
from kiosk.rules.errors import TablesideError
from kiosk.rules.operations import encode


def audit(state: pb.PuntoBancoState, op: Any, row: Row, report: ReplayReport) -> None:
    if isinstance(op, pb.CoupSettled):
        report.coups.append(_with_outcome(_audit_settlement(state, op, row)))
    elif isinstance(op, pb.CoupVoided):
        report.coups.append(_with_outcome(CoupReplay(
            op.coup, "voided", row.seq, row.wall_time,
            [c.code for c in state.player_cards], [c.code for c in state.banker_cards],
            reason=op.reason)))


def _with_outcome(coup: CoupReplay) -> CoupReplay:
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


def _audit_settlement(state: pb.PuntoBancoState, op: pb.CoupSettled, row: Row) -> CoupReplay:
    """Recompute the coup the journal says was settled and list every difference."""
    out = CoupReplay(op.coup, "settled", row.seq, row.wall_time,
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
