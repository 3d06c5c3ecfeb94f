"""Benchmark: the last row of a kind in a long journal, with and without the kind index.

    .venv/bin/python bench/journal_kind_index.py [N] [DIR]

Writes a journal of N rows (default 200,000: bets, with one `limits_changed` and one
`pin_locked_out` near the start, as on a table that changed its limits once, weeks ago) on a
temporary file in DIR (default: the system's temp folder), then times the lookups a table
start and a PIN check make (`last_of_kind` for limits_changed, pin_locked_out and a kind
never written; the PIN tally's `newest_of_kinds`) on a copy without the index (a journal
as an earlier Tableside left it) and on the journal with it. Prints the median of several
runs of each, in milliseconds. Figures only, no pass/fail.
"""

from __future__ import annotations

import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from kiosk.store.journal import Journal

BATCH = 5_000
RUNS = 7


def _payload(i: int) -> dict[str, object]:
    return {"box": i % 7, "spot": "straight_17", "amount": 2500, "dealer": "D042",
            "round": i // 20}


def _write(path: Path, n: int) -> None:
    with Journal.open(path, "BENCH-1") as journal:
        journal.append("limits_changed", {"bet": "", "minimum": 500, "maximum": 500_000,
                                          "section": "punto_banco", "data": "{}"})
        journal.append("pin_locked_out", {"person": "4471", "attempts": 5, "seconds": 900})
        done = 2
        while done < n:
            size = min(BATCH, n - done)
            journal.append_many([("bet_placed", _payload(done + i)) for i in range(size)])
            done += size


def _median_ms(look: Callable[[], object]) -> float:
    times = []
    for _ in range(RUNS):
        t0 = time.perf_counter()
        look()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


def _measure(path: Path) -> dict[str, float]:
    with Journal.open(path, "BENCH-1", read_only=True) as journal:
        return {
            "last limits_changed": _median_ms(lambda: journal.last_of_kind("limits_changed")),
            "last pin_locked_out": _median_ms(lambda: journal.last_of_kind("pin_locked_out")),
            "last of a kind never written": _median_ms(
                lambda: journal.last_of_kind("no_such_kind")),
            "PIN tally (newest_of_kinds)": _median_ms(lambda: list(journal.newest_of_kinds(
                ("pin_refused", "pin_locked_out", "override", "dealer_signed_in")))),
        }


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
    folder = sys.argv[2] if len(sys.argv) > 2 else None
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        path = Path(tmp) / "bench.db"
        t0 = time.perf_counter()
        _write(path, n)
        written = time.perf_counter() - t0
        old = Path(tmp) / "old.db"
        shutil.copyfile(path, old)
        with sqlite3.connect(old) as conn:  # as an earlier Tableside wrote it: no index
            conn.execute("DROP INDEX journal_kind")
        before, after = _measure(old), _measure(path)
        t0 = time.perf_counter()
        Journal.open(old, "BENCH-1").close()  # the migration: the index made on opening
        migrated = time.perf_counter() - t0
        print(f"journal_kind_index  N={n}  file={path.parent}")
        print(f"  written in {written:.1f} s; the index added to the copy on opening in "
              f"{migrated * 1000:.0f} ms")
        print(f"  {'lookup':<30} {'no index':>12} {'kind index':>12}")
        for name in before:
            print(f"  {name:<30} {before[name]:>9.3f} ms {after[name]:>9.3f} ms")


if __name__ == "__main__":
    if {"-h", "--help"} & set(sys.argv[1:]):  # what it measures, without measuring
        print(__doc__)
    else:
        main()
