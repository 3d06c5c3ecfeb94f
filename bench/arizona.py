"""Arizona Hold'em: hands per second through the engine, and the exact odds' time.

    .venv/bin/python bench/arizona.py [HANDS]

Each hand goes through the engine as the table session runs it (verify + record + `apply`):
the shuffle, an ante in each of seven boxes, no more bets, rule 6.2's 23 cards from a seeded
deck, each player deciding both circles by the best strategy, both community cards turned,
and the payouts. Then `tableside odds arizona`'s count (the whole enumeration), timed three
times. Prints medians; asserts nothing (target for the odds: under 10 s here).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kiosk.rules.arizona import engine as az
from kiosk.rules.arizona.demo import decision
from kiosk.rules.arizona.odds import arizona_odds
from kiosk.rules.cards import deck
from kiosk.rules.operations import Operation


def play(hands: int, seed: int = 1) -> float:
    """Seconds to play `hands` hands (the deck shuffled before the clock counts each)."""
    rules = az.ArizonaRules(minimum=1_000, maximum=10_000, boxes=7)
    state = az.initial_state(rules, "BENCH")
    rng = random.Random(seed)
    orders = [rng.sample(deck(), 23) for _ in range(hands)]

    def do(op: Operation) -> None:
        nonlocal state
        state = az.apply(state, op)

    do(az.open_table(rules, "BENCH"))
    start = time.perf_counter()
    for cards in orders:
        do(az.shuffle(state))
        for box in range(1, 8):
            do(az.place_bet(state, box, 1_000))
        do(az.close_betting(state))
        for card in cards:
            do(az.shoe_card(state, card))
        while state.phase is not az.Phase.REVEAL:
            act = decision(state)
            do(act(state) if act is not None else az.turn_community(state))
        do(az.confirm_payouts(state))
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("hands", type=int, nargs="?", default=2_000,
                        help="hands a run plays (default 2,000)")
    hands = parser.parse_args().hands
    runs = [play(hands, seed) for seed in range(1, 4)]
    print(f"engine: {hands / statistics.median(runs):,.0f} hands/s, 7 boxes each "
          f"(median of 3 runs of {hands})")
    times = []
    for _ in range(3):
        start = time.perf_counter()
        result = arizona_odds()
        times.append(time.perf_counter() - start)
    print(f"odds: {statistics.median(times):.2f} s median of 3 (house edge "
          f"{float(result.house_edge * 100):.4f}% per ante; target under 10 s)")


if __name__ == "__main__":
    main()
