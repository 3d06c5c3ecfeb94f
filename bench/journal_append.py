"""Benchmark: journal appends, each its own durable transaction (fsync per commit).

    .venv/bin/python bench/journal_append.py [N] [DIR]

Prints appends/s and p50/p99 latency for N single appends (default 2000) on a temporary file in
DIR (default: the system's temp folder; give a folder on the SD card to measure the card), then
one append_many batch of N and one verify for comparison. Figures only, no pass/fail.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from kiosk.store.journal import Journal, verify


def _payload(i: int) -> dict[str, object]:
    # About the size of a real bet Operation.
    return {"box": i % 7, "spot": "straight_17", "amount": 2500, "dealer": "D042", "round": i // 20}


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    folder = sys.argv[2] if len(sys.argv) > 2 else None
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        path = Path(tmp) / "bench.db"
        latencies: list[float] = []
        with Journal.open(path, "BENCH-1") as journal:
            started = time.perf_counter()
            for i in range(n):
                t0 = time.perf_counter()
                journal.append("bet_placed", _payload(i))
                latencies.append(time.perf_counter() - t0)
            single_total = time.perf_counter() - started

            t0 = time.perf_counter()
            journal.append_many([("bet_placed", _payload(i)) for i in range(n)])
            batch_total = time.perf_counter() - t0

        t0 = time.perf_counter()
        report = verify(path)
        verify_total = time.perf_counter() - t0

        cuts = statistics.quantiles(latencies, n=100, method="inclusive")
        print(f"journal_append  N={n}  file={path.parent}")
        print(f"  single appends : {n / single_total:9.0f} appends/s")
        print(f"  latency p50    : {cuts[49] * 1000:9.3f} ms")
        print(f"  latency p99    : {cuts[98] * 1000:9.3f} ms")
        print(f"  latency max    : {max(latencies) * 1000:9.3f} ms")
        print(f"  append_many({n}): {n / batch_total:9.0f} rows/s (one transaction)")
        print(f"  verify         : {report.rows / verify_total:9.0f} rows/s  ok={report.ok}")


if __name__ == "__main__":
    if {"-h", "--help"} & set(sys.argv[1:]):  # what it measures, without measuring
        print(__doc__)
        sys.exit(0)
    main()
