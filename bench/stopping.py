"""Benchmark: how soon each long-running command stops after SIGTERM or Ctrl-C (the
target: within 2 s). Figures only, no pass/fail; tests/test_cli_signals.py checks that each
stop is clean.

    .venv/bin/python bench/stopping.py [RUNS] [--busy]

Each command runs RUNS times (default 5) as a real process in its own session, is waited on
until it is really up, then stopped; the time is from the signal to its exit. `--busy` keeps
every core busy with a spinning process meanwhile, as the test suite's other workers do.
"""

from __future__ import annotations

import multiprocessing
import signal
import statistics
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.processes import (  # noqa: E402
    Proc,
    backstopped,
    up_demo,
    up_run,
    up_shoe,
    up_signage,
)

TARGET = 2.0  # seconds: every long-running command stops within 2 s (README.md)
Start = Callable[[Path, list[Proc]], Proc]


def run(mode: str, game: str = "blackjack") -> Start:
    return lambda tmp, procs: up_run(tmp, procs, mode, game)[0]


CASES: list[tuple[str, Start, int, bool]] = [
    ("run --headless, SIGTERM", run("--headless"), signal.SIGTERM, False),
    ("run --windowed + signage, SIGTERM", run("--windowed"), signal.SIGTERM, False),
    ("run --windowed + signage, Ctrl-C to the group", run("--windowed"), signal.SIGINT, True),
    ("run --console, SIGTERM", run("--console", "punto-banco"), signal.SIGTERM, False),
    ("signage, SIGTERM", lambda tmp, procs: up_signage(tmp, procs)[0], signal.SIGTERM, False),
    ("demo --headless, Ctrl-C", lambda tmp, procs: up_demo(tmp, procs)[0], signal.SIGINT, True),
    ("simulate shoe, SIGTERM", up_shoe, signal.SIGTERM, False),
]


def _spin() -> None:
    while True:
        pass


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    runs = int(args[0]) if args else 5
    busy = "--busy" in sys.argv
    spinners = []
    if busy:
        for _ in range(multiprocessing.cpu_count()):
            p = multiprocessing.Process(target=_spin, daemon=True)
            p.start()
            spinners.append(p)
    print(f"{runs} stops each, from the signal to the exit; target {TARGET:.0f} s"
          f"{'; every core kept busy meanwhile' if busy else ''}")
    try:
        for name, start, sig, group in CASES:
            took: list[float] = []
            backstops = 0
            for _ in range(runs):
                procs: list[Proc] = []
                with tempfile.TemporaryDirectory() as tmp:
                    try:
                        proc = start(Path(tmp), procs)
                        _status, seconds = proc.stop(sig, group=group)
                        took.append(seconds)
                        backstops += backstopped(proc)
                    finally:
                        for p in procs:
                            p.kill()
            within = sum(t < TARGET for t in took)
            print(f"{name:<48} median {statistics.median(took):.2f} s, max {max(took):.2f} s,"
                  f" {within}/{len(took)} within {TARGET:.0f} s; backstop used {backstops}x")
    finally:
        for p in spinners:
            p.terminate()


if __name__ == "__main__":
    if {"-h", "--help"} & set(sys.argv[1:]):  # what it measures, without measuring
        print(__doc__)
        sys.exit(0)
    main()
