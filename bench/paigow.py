"""Pai gow: rounds per second through the engine, the house way's time, and the exact odds'.

    .venv/bin/python bench/paigow.py [ROUNDS]

Each round goes through the engine as the table session runs it (verify + record + `apply`):
the wash, a bank (the House, a player/banker or a co-bank in turn), wagers on six areas, no
more bets, each area's four tiles set the house way and keyed in, the bank's set the house
way, the supervisor's confirmation and the settlement step by step. Then the house way over
all 35,960 four-tile hands, and `tableside odds paigow`'s count (every one of the 736,281,000
deals, over the 8,130 kinds of four-tile hand), timed once each. Prints times; asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kiosk.rules.operations import Operation
from kiosk.rules.paigow import engine as pg
from kiosk.rules.paigow.odds import paigow_odds
from kiosk.rules.paigow.tiles import SET


def play(rounds: int, seed: int = 1) -> float:
    """Seconds to play `rounds` rounds (the tiles washed before the clock counts each)."""
    rules = pg.PaiGowRules(minimum=1_000, maximum=100_000, areas=7)
    state = pg.initial_state(rules, "BENCH")
    rng = random.Random(seed)
    deals = [rng.sample(SET, 32) for _ in range(rounds)]
    banks = [(pg.Bank.HOUSE, 1, 0), (pg.Bank.PLAYER, 1, 100_000), (pg.Bank.COBANK, 1, 10_000)]

    def do(op: Operation) -> None:
        nonlocal state
        state = pg.apply(state, op)

    do(pg.open_table(rules, "BENCH"))
    start = time.perf_counter()
    for n, tiles in enumerate(deals):
        do(pg.shuffle(state))
        do(pg.take_bank(state, *banks[n % 3]))
        for area in range(2, 8):
            do(pg.place_bet(state, area, 1_000))
        do(pg.close_betting(state))
        for i, area in enumerate(state.in_order()):
            s = pg.house_way(tiles[4 * i + 4:4 * i + 8], rules.house_way).setting
            do(pg.set_hand(state, area, s.high.tiles, s.low.tiles))
        do(pg.set_bank(state, tiles[:4]))
        if state.phase is pg.Phase.CONFIRM:
            do(pg.confirm_house_way(state, "bench"))
        do(pg.confirm_payouts(state))
    return time.perf_counter() - start


def house_way_all() -> float:
    start = time.perf_counter()
    for places in combinations(range(32), 4):
        pg.house_way([SET[i] for i in places])
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rounds", type=int, nargs="?", default=500,
                        help="rounds a run plays (default 500)")
    args = parser.parse_args()
    took = play(args.rounds)
    print(f"{args.rounds} rounds in {took:.2f} s: {args.rounds / took:,.0f} rounds/s")
    print(f"the house way, all 35,960 four-tile hands: {house_way_all():.2f} s")
    start = time.perf_counter()
    odds = paigow_odds()
    print(f"odds: {odds.deals:,} deals in {time.perf_counter() - start:.1f} s, house edge "
          f"{float(odds.house_edge * 100):.4f}%")


if __name__ == "__main__":
    main()
