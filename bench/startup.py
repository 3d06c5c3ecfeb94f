"""Benchmark: table start-up as the journal grows, with and without snapshots.

    .venv/bin/python bench/startup.py [ROWS] [DIR]

Writes a punto banco journal of ROWS rows (default 1,000,000: about 110,000 coups of real
play through the engine, a shuffle each shoe) into DIR (default: the system's temp folder),
with a snapshot every SNAPSHOT_EVERY rows as the session writes them, then prints the
median time of three starts of the table session (last snapshot plus the rows after it) at
several journal lengths, and one fold of the whole journal from its first row, as start-up
was before snapshots (and as replay still reads it). Figures only, no pass/fail.
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from kiosk.rules.baccarat import engine as pb
from kiosk.rules.cards import Card, Rank, Suit
from kiosk.rules.money import ChipRule
from kiosk.rules.operations import Operation
from kiosk.rules.registry import game
from kiosk.store.journal import Journal
from kiosk.table.fold import EMPTY, fold, step
from kiosk.table.session import TableSession
from kiosk.table.snapshot import SNAPSHOT_EVERY, take

RULES = pb.PuntoBancoRules(chips=ChipRule(500))
DECK = [Card(r, s) for r in Rank for s in Suit]


def write(path: Path, rows: int, marks: list[int]) -> dict[int, int]:
    """The journal, and at each length in `marks` the seq reached (rows written by then)."""
    rng = random.Random(1)
    folded = step(EMPTY, pb.open_table(RULES, "PB-01"), 1)
    opening = pb.open_table(RULES, "PB-01")
    batch: list[tuple[str, dict[str, object]]] = [(opening.kind, opening.to_payload())]
    at: dict[int, int] = {}
    last_snap = 0
    with Journal.open(path, "PB-01") as journal:
        cards: list[Card] = []

        def do(op: Operation) -> None:
            nonlocal folded, last_snap
            folded = step(folded, op)
            batch.append((op.kind, op.to_payload()))
            if folded.seq - last_snap >= SNAPSHOT_EVERY:
                snap = take(folded)
                folded = step(folded, snap)
                batch.append((snap.kind, snap.to_payload()))
                last_snap = folded.seq

        while folded.seq < rows:
            state = folded.state
            if state.shoe is None or state.shoe.remaining < 20:
                cards = [c for c in DECK for _ in range(RULES.decks)]
                rng.shuffle(cards)
                do(pb.shuffle(state))
            for area in rng.sample(RULES.area_ids(), 3):
                do(pb.place_bet(folded.state, area, pb.BetKind.BANKER, 5_500))
            do(pb.close_betting(folded.state))
            while folded.state.phase is pb.Phase.DEALING:
                do(pb.shoe_card(folded.state, cards.pop()))
            do(pb.confirm_payouts(folded.state))
            if len(batch) >= 5_000:
                journal.append_many(batch)
                batch.clear()
            for m in marks:
                if m not in at and folded.seq >= m:
                    journal.append_many(batch)
                    batch.clear()
                    at[m] = folded.seq
        journal.append_many(batch)
    return at


def start(path: Path) -> float:
    t0 = time.perf_counter()
    session = TableSession(game("punto-banco"), Journal.open(path, "PB-01"), RULES, "PB-01")
    took = time.perf_counter() - t0
    session.journal.close()
    return took


def tail(path: Path) -> int:
    """Rows after the last snapshot: what start-up folds."""
    with Journal.open(path, "PB-01") as journal:
        snap = journal.last_of_kind("table_snapshot")
        return journal.count() - (snap.seq if snap else 0)


def main() -> None:
    rows = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    folder = sys.argv[2] if len(sys.argv) > 2 else None
    marks = [m for m in (10_000, 100_000, rows) if m <= rows]
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        path = Path(tmp) / "startup.db"
        t0 = time.perf_counter()
        write(path, rows, marks)
        print(f"wrote {rows:,} rows in {time.perf_counter() - t0:.0f} s "
              f"({path.stat().st_size / 1e6:.0f} MB), a snapshot every {SNAPSHOT_EVERY:,} rows")
        starts = [start(path) for _ in range(3)]
        print(f"start-up at {rows:>9,} rows, from the last snapshot and the {tail(path):,} "
              f"rows after it: median "
              f"{statistics.median(starts) * 1000:.1f} ms (min {min(starts) * 1000:.1f}, "
              f"max {max(starts) * 1000:.1f})")
        t0 = time.perf_counter()
        with Journal.open(path, "PB-01") as journal:
            whole = fold(journal.entries())
        took = time.perf_counter() - t0
        print(f"fold of all {whole.seq:,} rows from the first (start-up before snapshots, "
              f"and replay): {took:.1f} s; ratio {took / statistics.median(starts):,.0f}x")
        per_row = took / whole.seq
        print(f"worst start-up with snapshots (a snapshot just due, {SNAPSHOT_EVERY:,} rows to "
              f"fold): about {per_row * SNAPSHOT_EVERY * 1000:.0f} ms at any journal length")


if __name__ == "__main__":
    if {"-h", "--help"} & set(sys.argv[1:]):  # what it measures, without measuring
        print(__doc__)
        sys.exit(0)
    main()
