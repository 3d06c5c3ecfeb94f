"""Replay audit of mini baccarat (rule 2.8): punto banco's audit of every settled or void coup
(the same settlement), and the malfunction procedure re-derived: the wagers returned by rule
12.4 or offered back by rule 12.5.1, and the coup's completion. A coup the procedure held is
drawn for the pit's round page step by step: the fault, each fact and decision with who made
it, the branch taken (12.2-12.5), the wagers returned per area, and the completion. The
malfunction's start and a terminated coup are alerts at the pit (`alerts`)."""

from __future__ import annotations

import dataclasses
from typing import Any

from kiosk.rules.audit import (
    BetDrawn,
    HandDrawn,
    ReplayReport,
    RoundDrawing,
    RoundReplay,
    Row,
    StepDrawn,
)
from kiosk.rules.baccarat import audit as pb_audit
from kiosk.rules.mini_baccarat import engine as mb
from kiosk.rules.mini_baccarat.house import Branch, Fact, Role
from kiosk.rules.money import format_money
from kiosk.rules.operations import encode


def _money(state: mb.MiniBaccaratState, bets: tuple[mb.Bet, ...]) -> int:
    return sum(b.amount for b in bets)


SHUFFLER_MALFUNCTION = "shuffler_malfunction"
"""The alert the start of the malfunction procedure raises at the pit (rule 12.1.2)."""
ROUND_TERMINATED = "round_terminated"
"""The alert a coup terminated by the malfunction procedure raises at the pit (rule 12.4)."""


def alerts(op: Any) -> tuple[str, str] | None:
    """Mini baccarat's records an inspector must see as alerts (`GameSpec.alerts`): the
    shuffler's malfunction, which holds the coup (rule 12.1.2), and a coup terminated with
    every wager returned (rule 12.4)."""
    if isinstance(op, mb.ShufflerMalfunctioned):
        detail = f": {op.detail}" if op.detail else ""
        return SHUFFLER_MALFUNCTION, (
            f"coup {op.coup}: the shuffler can no longer operate as intended after "
            f"{op.cards_dealt} card(s) dealt{detail}; reported by {_reporter(op.by)} (rule 12.1.2)")
    if isinstance(op, mb.CoupTerminated):
        return ROUND_TERMINATED, (
            f"coup {op.coup} terminated by {op.by}: {len(op.returned)} wager(s) returned "
            f"(rule {op.branch})")
    return None


_FACTS = {
    Fact.DAMAGED: (("cards were damaged", "no cards were damaged"), "12.3"),
    Fact.DISADVANTAGED: (("the casino or a player was disadvantaged",
                          "no one was disadvantaged"), "12.1.3"),
    Fact.SPARE: (("a spare shuffler is readily available", "no spare shuffler is available"),
                 "12.1.4"),
    Fact.TRANSFERABLE: (("the cards can be transferred to it",
                         "the cards cannot be transferred"), "12.1.5"),
}
_BRANCHES = {
    Branch.TRANSFER: "no damage: the cards transferred to the spare shuffler, the coup goes on",
    Branch.REPLACE: ("cards damaged: removed, the rest transferred, the damaged replaced, the "
                     "coup goes on"),
    Branch.TERMINATE: "someone disadvantaged: the coup terminated, every wager returned",
    Branch.DEALING_SHOE: ("no spare or no transfer: the wagers offered back, a shuffle and "
                          "cut, the coup goes on from a dealing shoe"),
}
_KEPT = "_mini_baccarat_procedure"  # the steps of the procedure in hand, on the report


def _procedure(report: ReplayReport) -> list[StepDrawn]:
    """The steps of the malfunction procedure replayed so far (kept with the report: the
    audit sees one record at a time, and who made each decision is only in its record)."""
    kept: list[StepDrawn] = report.__dict__.setdefault(_KEPT, [])
    return kept


def _reporter(who: Any) -> str:
    """Who reported a fault: "the shuffler" (its own report), "the dealer", an inspector."""
    return f"the {who.name or 'shuffler'}" if who.role is Role.DEVICE else str(who)


def _money_of(state: mb.MiniBaccaratState, cents: int) -> str:
    return f"{state.rules.currency}{cents // 100:,}.{cents % 100:02d}"


def _wagers(state: mb.MiniBaccaratState, bets: tuple[mb.Bet, ...]) -> str:
    return ", ".join(f"{b.kind.value} {_money_of(state, b.amount)}" for b in bets)


def _step(state: mb.MiniBaccaratState, op: Any) -> StepDrawn | None:
    """One record of the procedure as a step of the round's page, None for any other."""
    m = state.malfunction
    branch = (m.branch if m is not None else None) or Branch.TRANSFER
    if isinstance(op, mb.ShufflerMalfunctioned):
        detail = f": {op.detail}" if op.detail else ""
        return StepDrawn(f"shuffler fault after {op.cards_dealt} card(s) dealt{detail}, "
                         f"reported by {_reporter(op.by)}", None, "12.1.2")
    if isinstance(op, mb.FactEstablished):
        (yes, no), clause = _FACTS[op.fact]
        return StepDrawn(f"{op.by}: {yes if op.answer else no}", None, clause)
    if isinstance(op, mb.DamagedCardsRemoved):
        return StepDrawn(f"{op.by}: damaged cards removed from play: "
                         f"{' '.join(c.code for c in op.cards) or 'none'}", None,
                         "12.5.2" if branch is Branch.DEALING_SHOE else "12.3.1")
    if isinstance(op, mb.CardsTransferred):
        return StepDrawn(f"{op.by}: the cards transferred to the spare shuffler", None,
                         "12.3.2" if branch is Branch.REPLACE else "12.2")
    if isinstance(op, mb.DamagedCardsReplaced):
        return StepDrawn(f"{op.by}: {op.cards} damaged card(s) replaced", None,
                         "12.5.2" if branch is Branch.DEALING_SHOE else "12.3.3")
    if isinstance(op, mb.WagerOffered):
        what = "returned" if op.returned else "kept in play"
        return StepDrawn(f"{op.by}: area {op.area}'s wagers offered back "
                         f"({_wagers(state, op.bets)}): {what}",
                         sum(b.amount for b in op.bets) if op.returned else None, "12.5.1")
    if isinstance(op, mb.CardsReshuffled):
        return StepDrawn(f"{op.by}: the cards shuffled again", None, "12.5.3")
    if isinstance(op, mb.CutRefused):
        return StepDrawn(f"seat {op.seat} refused the cut", None, "12.5.3")
    if isinstance(op, mb.CardsCut):
        who = f"seat {op.seat}" if op.seat is not None else (op.supervisor or "the supervisor")
        return StepDrawn(f"the cards cut by {who}", None, "12.5.3")
    if isinstance(op, mb.CoupContinued):
        return StepDrawn(f"{op.by}: the coup goes on from the {op.device.value}", None,
                         op.branch.value)
    return None


def _follow(state: mb.MiniBaccaratState, op: Any, report: ReplayReport) -> None:
    """Keep the procedure's steps as its records come: the branch taken once the facts
    lead to one (before the record that follows them), then the record's own step."""
    steps = _procedure(report)
    if isinstance(op, mb.ShufflerMalfunctioned):
        steps.clear()
    m = state.malfunction
    if m is not None and m.branch is not None and not any(
            s.words.startswith("branch taken") for s in steps):
        steps.append(StepDrawn(f"branch taken: {_BRANCHES[m.branch]}", None, m.branch.value))
    step = _step(state, op)
    if step is not None:
        steps.append(step)


def _drawn_with_procedure(state: mb.MiniBaccaratState, coup: RoundReplay, report: ReplayReport,
                          completion: StepDrawn) -> None:
    """The coup's drawing with the malfunction procedure's steps, the wagers returned on
    the way (rule 12.5.1) among its bets, and its completion."""
    steps = _procedure(report)
    m = state.malfunction
    if m is not None and not any(s.clause == "12.1.2" for s in steps):
        # Replayed from a snapshot taken inside the procedure: what the rows before it
        # decided is in the state (the fault, the facts), who decided it is not.
        found = {s.words.split(": ", 1)[-1] for s in steps}
        detail = f": {m.detail}" if m.detail else ""
        earlier = [StepDrawn(f"shuffler fault after {m.cards_dealt} card(s) dealt{detail}, "
                             f"reported by {_reporter(m.by)}", None, "12.1.2")]
        for fact, answer in m.facts:
            (yes, no), clause = _FACTS[fact]
            if (yes if answer else no) not in found:
                earlier.append(StepDrawn(f"{yes if answer else no} (on record before the "
                                         f"rows replayed)", None, clause))
        steps[:0] = earlier
    drawing = coup.drawing or RoundDrawing(state.rules.currency)
    returned = tuple(BetDrawn(f"area {b.area} {b.kind.value}", b.amount, "handed back", 0,
                              b.amount, "rule 12.5.1")
                     for b in (m.returned if m is not None else ()))
    coup.drawing = dataclasses.replace(drawing, bets=drawing.bets + returned,
                                       steps=(*steps, completion))
    steps.clear()


def audit(state: Any, op: Any, row: Row, report: ReplayReport) -> None:
    if not isinstance(state, mb.MiniBaccaratState):
        pb_audit.audit(state, op, row, report)
        return
    _follow(state, op, report)
    if isinstance(op, mb.CoupTerminated):
        coup = _terminated(state, op, row)
        draw_terminated(state, coup, op, report)
        report.rounds.append(coup)
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
        drawn = coup.drawing.winner if coup.drawing is not None else coup.status
        _drawn_with_procedure(state, coup, report, StepDrawn(
            f"the coup completed: {drawn}", None, (m.branch or Branch.TRANSFER).value))


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
    hands = (HandDrawn("player", tuple(out.player_cards)),
             HandDrawn("banker", tuple(out.banker_cards)))
    out.drawing = RoundDrawing(
        state.rules.currency, hands, f"coup terminated: shuffler fault, rule {op.branch}",
        bets=tuple(BetDrawn(f"area {b.area} {b.kind.value}", b.amount, "handed back", 0,
                            b.amount) for b in expected), voided=True)
    return out


def draw_terminated(state: mb.MiniBaccaratState, coup: RoundReplay, op: mb.CoupTerminated,
                    report: ReplayReport) -> None:
    """A terminated coup's drawing completed with its procedure (rule 12.4)."""
    total = sum(b.amount for b in op.returned)
    _drawn_with_procedure(state, coup, report, StepDrawn(
        f"{op.by}: the coup terminated, {len(op.returned)} wager(s) returned", total,
        op.branch.value))
