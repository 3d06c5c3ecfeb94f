"""Replay audit of mini baccarat (rule 2.8): punto banco's audit of every settled or void coup
(the same settlement), and the malfunction procedure re-derived: the wagers returned by rule
12.4 or offered back by rule 12.5.1, and the coup's completion."""

from __future__ import annotations

from typing import Any

from kiosk.rules.audit import ReplayReport, RoundReplay, Row
from kiosk.rules.baccarat import audit as pb_audit
from kiosk.rules.mini_baccarat import engine as mb
from kiosk.rules.money import format_money
from kiosk.rules.operations import encode


def _money(state: mb.MiniBaccaratState, bets: tuple[mb.Bet, ...]) -> int:
    return sum(b.amount for b in bets)


def audit(state: Any, op: Any, row: Row, report: ReplayReport) -> None:
    if not isinstance(state, mb.MiniBaccaratState):
        pb_audit.audit(state, op, row, report)
        return
    if isinstance(op, mb.CoupTerminated):
        report.rounds.append(_terminated(state, op, row))
        return
    if isinstance(op, mb.WagerOffered):
        expected = tuple(b for b in mb.returned_per_area(state) if b.area == op.area)
        if op.bets != expected:
            report.problems.append(
                f"row {row.seq}: seat {op.area}'s wagers recorded as {encode(op.bets)}, "
                f"on the layout {encode(expected)} (rule 12.5.1)")
        return
    before = len(report.rounds)
    pb_audit.audit(state, op, row, report)
    m = state.malfunction
    if m is not None and len(report.rounds) > before:
        coup = report.rounds[-1]
        returned = len(m.returned)
        words = f"shuffler fault, rule {m.branch or '12.1'}"
        if returned:
            words += f", {returned} wager(s) returned"
        coup.outcome = f"{coup.outcome} ({words})"


def _terminated(state: mb.MiniBaccaratState, op: mb.CoupTerminated, row: Row) -> RoundReplay:
    out = RoundReplay(op.coup, "terminated", row.seq, row.wall_time,
                     [c.code for c in state.player_cards], [c.code for c in state.banker_cards],
                     reason=f"shuffler fault, rule {op.branch}")
    expected = mb.returned_per_area(state)
    out.settlements = [{"area": b.area, "kind": b.kind.value, "stake": b.amount,
                        "outcome": "returned", "returned": b.amount} for b in expected]
    if op.coup != state.coup:
        out.differences.append(f"recorded as coup {op.coup}, but the journal is at coup "
                               f"{state.coup}")
    if op.returned != expected:
        out.differences.append(f"wagers returned recorded {encode(op.returned)}, on the "
                               f"layout {encode(expected)} (rule {op.branch})")
    m = state.malfunction
    earlier = len(m.returned) if m is not None else 0
    total = _money(state, expected)
    out.outcome = (f"terminated: shuffler fault, rule {op.branch}; {len(expected)} wager(s) "
                   f"returned" + (f", {earlier} earlier" if earlier else "")
                   + f" ({format_money(total, state.rules.currency)})")
    return out
