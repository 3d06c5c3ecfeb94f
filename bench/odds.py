"""Exact punto banco odds: the engine's count beside a plain enumeration written here.

    .venv/bin/python bench/odds.py

`reference_counts` below is written from rule 5.2's drawing table alone, sharing nothing with
the engine; `kiosk.rules.baccarat.odds.baccarat_odds` asks the engine's own `next_to_draw` and
`winner_of`. The bench checks that both count the same deals, then prints the median of
five runs of each and the ratio (target: the engine at most twice the reference), and the
whole `tableside odds punto-banco` command (target < 2 s). Figures only, no pass/fail.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kiosk.rules.baccarat.odds import baccarat_odds


def _banker_draws(banker: int, third: int | None) -> bool:
    """Rule 5.2's table for the banker's third card."""
    if third is None:
        return banker <= 5
    if banker <= 2:
        return True
    stands_on = {3: (8,), 4: (0, 1, 8, 9), 5: (0, 1, 2, 3, 8, 9), 6: (0, 1, 2, 3, 4, 5, 8, 9)}
    return banker in stands_on and third not in stands_on[banker]


def reference_counts(decks: int) -> tuple[int, int, int]:
    """(banker, player, tie): every ordered deal of six places, unused places counted."""
    counts = [16 * decks] + [4 * decks] * 9
    size = 52 * decks
    rest = [1] * 7
    for k in range(7):
        for i in range(k, 6):
            rest[k] *= size - i
    out = [0, 0, 0]

    def score(p: int, b: int, weight: int) -> None:
        out[0 if b > p else 1 if p > b else 2] += weight

    for p1 in range(10):
        w1 = counts[p1]
        counts[p1] -= 1
        for b1 in range(10):
            w2 = w1 * counts[b1]
            counts[b1] -= 1
            for p2 in range(10):
                w3 = w2 * counts[p2]
                counts[p2] -= 1
                for b2 in range(10):
                    w4 = w3 * counts[b2]
                    if not w4:
                        continue
                    counts[b2] -= 1
                    p, b = (p1 + p2) % 10, (b1 + b2) % 10
                    if p >= 8 or b >= 8:
                        score(p, b, w4 * rest[4])
                    elif p <= 5:
                        for p3 in range(10):
                            w5 = w4 * counts[p3]
                            if not w5:
                                continue
                            pp = (p + p3) % 10
                            if not _banker_draws(b, p3):
                                score(pp, b, w5 * rest[5])
                                continue
                            counts[p3] -= 1
                            for b3 in range(10):
                                if counts[b3]:
                                    score(pp, (b + b3) % 10, w5 * counts[b3] * rest[6])
                            counts[p3] += 1
                    elif _banker_draws(b, None):
                        for b3 in range(10):
                            if counts[b3]:
                                score(p, (b + b3) % 10, w4 * counts[b3] * rest[5])
                    else:
                        score(p, b, w4 * rest[4])
                    counts[b2] += 1
                counts[p2] += 1
            counts[b1] += 1
        counts[p1] += 1
    return out[0], out[1], out[2]


def median_seconds(fn: Callable[[], object], runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    for decks in (1, 6, 8):
        engine = baccarat_odds(decks)
        same = (engine.banker, engine.player, engine.tie) == reference_counts(decks)
        t_engine = median_seconds(lambda d=decks: baccarat_odds(d))
        t_ref = median_seconds(lambda d=decks: reference_counts(d))
        print(f"{decks} deck(s): engine {t_engine * 1000:.1f} ms, reference "
              f"{t_ref * 1000:.1f} ms, ratio {t_engine / t_ref:.2f} (target <= 2); "
              f"same counts: {same}")
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "kiosk.cli", "odds", "punto-banco", "--decks", "8"],
                   check=True, capture_output=True)
    print(f"tableside odds punto-banco --decks 8 (whole process): "
          f"{time.perf_counter() - t:.3f} s")


if __name__ == "__main__":
    if {"-h", "--help"} & set(sys.argv[1:]):  # what it measures, without measuring
        print(__doc__)
        sys.exit(0)
    main()
