"""Rounds per second through the blackjack engine: seven boxes of basic strategy.

Prints figures; asserts nothing (target: >= 5,000 rounds/s here, on one core). Every action
goes through verify + Operation + apply as the table session runs it, the shuffle and cut
included; the strategy is the one computed for the rules (kiosk/rules/blackjack/strategy.py).
Also prints the figure on both cores (the `tableside odds blackjack` set-up) and the
operations per round. The engine is the plain Python a regulator reads; nothing is compiled.
"""

from __future__ import annotations

import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kiosk.rules.blackjack.house import BlackjackRules
from kiosk.rules.blackjack.simulation import Simulator, strategy_for


def rate(rules: BlackjackRules, rounds: int, seed: int = 1) -> tuple[float, float]:
    sim = Simulator(rules, strategy_for(rules), random.Random(seed))
    sim.run(300)  # warm up: the strategy tables, the first shoe
    ops = sim.ops
    start = time.perf_counter()
    sim.run(rounds)
    elapsed = time.perf_counter() - start
    return rounds / elapsed, (sim.ops - ops) / rounds


def _worker(seed: int) -> float:
    return rate(BlackjackRules(), 10_000, seed)[0]


def main() -> None:
    print("engine: plain Python")
    n = 20_000
    for name, rules in (("standard, 6 decks", BlackjackRules()),
                        ("Touch 21, 2 decks", BlackjackRules.touch_21())):
        figures = [rate(rules, n, seed) for seed in (1, 2, 3)]
        rates = sorted(r for r, _ in figures)
        print(f"{name}: {rates[1]:>7,.0f} rounds/s median of 3 (range {rates[0]:,.0f}-"
              f"{rates[-1]:,.0f}), {figures[0][1]:.1f} operations per round, "
              f"{1e6 / rates[1]:.0f} us/round; target >= 5,000")
    with ProcessPoolExecutor(max_workers=2) as pool:
        both = sum(pool.map(_worker, (11, 12)))
    print(f"both cores (two processes): {both:,.0f} rounds/s")


if __name__ == "__main__":
    if {"-h", "--help"} & set(sys.argv[1:]):  # what it measures, without measuring
        print(__doc__)
        sys.exit(0)
    main()
