"""Replay for disputes (rule 2.8): recompute every round of a journal and compare.

Reads a journal database or its JSONL export (docs/journal.md), checks the hash chain, folds
the Operations with the one fold (`kiosk/table/fold.py`) from the first, whatever games the
table ran, and lets each game's audit (`GameSpec.audit`) recompute every round it settled or
voided from the recorded cards with today's engine. Any difference from what was recorded (a
card, a result, a payout, a commission, a rounding) is reported, and so is any row the rules
cannot follow.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from kiosk.rules.audit import ReplayReport, RoundReplay
from kiosk.rules.errors import UnreadableInput
from kiosk.rules.operations import Operation, TableOpening
from kiosk.store.canonical import GENESIS_HASH
from kiosk.store.journal import Entry, verify_entries
from kiosk.store.source import load_entries, verify_source
from kiosk.table.cash import ChipExchange, Exchange
from kiosk.table.disputes import RoundDisputed
from kiosk.table.fold import EMPTY, Folded, FoldError, fold
from kiosk.table.records import Snapshot
from kiosk.table.roles import OverrideApproved, RoundDealer
from kiosk.table.snapshot import restore

__all__ = [
    "Replay",
    "ReplayReport",
    "RoundReplay",
    "load_entries",
    "replay",
    "replay_round",
    "replay_source",
]


def replay_source(source: str | Path, anchors: Mapping[int, str] | None = None
                  ) -> ReplayReport:
    """`replay` of the file at `source` (database or export), its chain checked exactly as
    `journal verify` checks it (`verify_source`: the stored bytes, the outside `anchors`), so
    the two never disagree on whether the chain holds."""
    chain = verify_source(source, anchors=anchors)
    try:
        entries = load_entries(source)
    except UnreadableInput:
        if chain.ok:
            raise
        entries = []  # a row that does not read: the chain check below names it
    report = replay(entries, str(source))
    report.chain_ok, report.chain_reason = chain.ok, chain.reason
    return report


def replay(entries: Iterable[Entry], source: str = "") -> ReplayReport:
    return Replay(source).feed(entries)


def replay_round(entries: Iterable[Entry], round_number: int) -> list[RoundReplay]:
    """The replay's recomputation of round `round_number` (rule 2.8: a disputed round shown
    to the inspector on the table's screen), each time the journal settled or voided a round
    of that number (a table that changed game counts again from 1), newest last."""
    return [c for c in replay(entries).rounds if c.number == round_number]


class Replay:
    """`replay` in pieces: the rows are fed as they come (the pit's dashboard feeds each
    table's new rows), and `report` is at every moment what `replay` of all the rows fed so
    far gives: the chain checked on from the last row, the fold and the audits carried on."""

    def __init__(self, source: str = "", start: Folded = EMPTY,
                 head: tuple[int, str] = (0, GENESIS_HASH), table_id: str | None = None
                 ) -> None:
        """From the first row, or from `start` (a snapshot restored: the table folded up to
        row `head[0]`, whose hash is `head[1]`) to replay only the rows after it."""
        self.report = ReplayReport(source, True, f"chain intact: {head[0]} rows", 0)
        self._folded: Folded = start
        self._head: tuple[int, str] = head
        self._table: str | None = table_id
        self._dealer = ""  # the round's dealer on record (`RoundDealer`), for its report
        self._overrides: list[dict[str, str]] = []  # since the last round reported
        self._currency = "R"  # the table's, from its opening

    @property
    def seq(self) -> int:
        """The last row fed."""
        return self._folded.seq

    def feed(self, entries: Iterable[Entry]) -> ReplayReport:
        rows = list(entries)
        report = self.report
        if not rows:
            return report
        if report.chain_ok:
            chain = verify_entries(rows, table_id=self._table, start=self._head)
            report.chain_ok, report.chain_reason = chain.ok, chain.reason
            self._head = (chain.rows, chain.head_hash)
            self._table = self._table or rows[0].table_id
        report.entries += len(rows)
        self._folded = fold(rows, self._folded, before=self._audit, on_error=self._problem)
        return report

    def _audit(self, folded: Folded, op: Operation, row: Any) -> None:
        report = self.report
        if isinstance(op, TableOpening):
            report.table_id = op.table_id
            self._currency = str(getattr(op.rules, "currency", "R"))
        elif isinstance(op, Snapshot):
            _check_snapshot(folded, op, row, report)
        elif isinstance(op, RoundDisputed):  # rule 2.8
            report.disputes.append(f"row {row.seq} ({row.wall_time}): {op.line()}")
        elif isinstance(op, ChipExchange):  # rule 2.1: broken down by chip where on record
            what = "colour-up" if op.what is Exchange.COLOUR_UP else "chip change"
            place = f" at {op.place}" if op.place else ""
            report.exchanges.append(f"row {row.seq} ({row.wall_time}): {what}{place}: "
                                    f"{op.words(self._currency)}")
        elif isinstance(op, RoundDealer):
            self._dealer = f"{op.dealer} {op.name}".strip() if op.name != op.dealer \
                else op.dealer
        elif isinstance(op, OverrideApproved):
            self._overrides.append({k: str(v) for k, v in op.to_payload().items()})
        elif folded.game is not None and folded.game.audit is not None:
            before = len(report.rounds)
            folded.game.audit(folded.state, op, row, report)
            for done in report.rounds[before:]:  # who dealt it, who approved what in it
                done.word = folded.game.round_word
                done.dealer, done.overrides = self._dealer, self._overrides
                self._dealer, self._overrides = "", []  # the next round journals its own
                if done.drawing is not None and done.who():  # the pit's drawing of it
                    done.drawing = dataclasses.replace(done.drawing, by=done.who())

    def _problem(self, exc: FoldError) -> None:
        self.report.problems.append(str(exc))


def _check_snapshot(folded: Folded, snap: Snapshot, row: Any, report: ReplayReport) -> None:
    """A snapshot must hold exactly the table the rows before it fold to: start-up trusts
    it instead of those rows."""
    try:
        held = restore(snap)
    except UnreadableInput as exc:
        report.problems.append(f"row {row.seq}: {exc}")
        return
    if held != folded:
        report.problems.append(f"row {row.seq}: the snapshot of row {snap.covers} differs "
                               f"from the table the journal folds to there")
