"""The pit's new-card move (`tableside pit new-card`): figures, no assertions.

    .venv/bin/python bench/new_card.py [--rows N] [--db URL]

Fills a pit with N rows of table PB-07's journal (default 200,000; straight into the
database, as a year of play would leave them) and its anchors, then starts a new card for
PB-07, which keeps those rows as PB-07.card1 in one transaction. Meanwhile another table,
PB-08, sends a one-row batch every 20 ms. Prints the move's time, rows moved per second, and
PB-08's batches' p50, p99 and longest answer while the move ran: on SQLite they wait for it
(docs/pit.md, "A new card for a table"). `--db` names the database: a new SQLite file in a
temporary folder by default, or an empty PostgreSQL database (postgresql://...).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kiosk.store.journal import Journal  # noqa: E402
from pit.app import open_pit  # noqa: E402
from pit.ingest import WireRow  # noqa: E402
from pit.state import PitState  # noqa: E402
from tests.pit.helpers import wire_rows  # noqa: E402

BATCH = 10_000


def _fill(state: PitState, rows: int) -> None:
    """PB-07's rows and an anchor every 100, written as the ingest would store them."""
    now = state.store.clock()
    with state.store.db.transaction() as tx:
        for start in range(1, rows + 1, BATCH):
            seqs = range(start, min(start + BATCH, rows + 1))
            tx.many("INSERT INTO pit_rows (table_id, seq, wall_time, kind, payload, prev_hash, "
                    "hash, received_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    [("PB-07", s, now, "bet_placed", '{"amount":2500,"box":3}', f"{s - 1:064x}",
                      f"{s:064x}", now) for s in seqs])
            tx.many("INSERT INTO pit_anchors (table_id, seq, hash, signature, received_at) "
                    "VALUES (?, ?, ?, ?, ?)",
                    [("PB-07", s, f"{s:064x}", "bench", now) for s in seqs if s % 100 == 0])
        tx.execute("UPDATE pit_tables SET head_seq = ?, head_hash = ? WHERE table_id = ?",
                   (rows, f"{rows:064x}", "PB-07"))


def _other_table(state: PitState, folder: Path, stop: threading.Event) -> list[float]:
    """PB-08's one-row batches, one every 20 ms until `stop`: how long each took."""
    journal = Journal.open(folder / "PB-08.db", "PB-08")
    waits: list[float] = []
    while not stop.is_set():
        journal.append("bet_placed", {"amount": 2500, "box": 1})
        row: WireRow = wire_rows(journal.path, journal.count() - 1)[0]
        began = time.perf_counter()
        state.store.ingest("PB-08", [row])
        waits.append(time.perf_counter() - began)
        time.sleep(0.02)
    journal.close()
    return waits


def main() -> None:
    if {"-h", "--help"} & set(sys.argv[1:]):  # what it measures, without measuring
        print(__doc__.strip())
        return
    rows = int(sys.argv[sys.argv.index("--rows") + 1]) if "--rows" in sys.argv else 200_000
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        url = (sys.argv[sys.argv.index("--db") + 1] if "--db" in sys.argv
               else str(folder / "pit.db"))
        state = open_pit(url, folder / "pit.key")
        try:
            state.store.enroll_with_key("PB-07")
            state.store.enroll("PB-08")
            began = time.perf_counter()
            _fill(state, rows)
            print(f"{state.store.db.dialect}: {rows:,} rows of PB-07 written in "
                  f"{time.perf_counter() - began:.1f} s")
            stop = threading.Event()
            waits: list[float] = []
            other = threading.Thread(
                target=lambda: waits.extend(_other_table(state, folder, stop)))
            other.start()
            time.sleep(0.5)  # PB-08 sending before the move
            began = time.perf_counter()
            card = state.store.new_card("PB-07", "bench")
            took = time.perf_counter() - began
            time.sleep(0.5)
            stop.set()
            other.join()
            moved = state.store.head(card.closed_as)[0]
            print(f"new card: {moved:,} rows kept as {card.closed_as} in {took:.2f} s, "
                  f"{moved / took:,.0f} rows/s")
            ms = sorted(w * 1000 for w in waits)
            p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
            print(f"PB-08 meanwhile: {len(ms)} batches, p50 {statistics.median(ms):.1f} ms, "
                  f"p99 {p99:.1f} ms, longest {ms[-1]:.1f} ms")
        finally:
            state.close()


if __name__ == "__main__":
    main()
