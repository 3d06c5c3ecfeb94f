"""Coups per second through the punto banco engine alone, and with the journal.

Prints figures; asserts nothing (targets: >= 20,000 coups/s engine only, on 2 cores).
Each coup: two bets, no more bets, 4-6 cards from a seeded shoe, settlement; every action goes
through verify + Operation + apply, exactly as the table session runs it.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kiosk.rules.baccarat import engine as pb
from kiosk.shoe import SeededShoe
from kiosk.store.journal import Journal


def play(coups: int, sink: list[object] | None = None, journal: Journal | None = None) -> float:
    rules = pb.PuntoBancoRules()
    state = pb.initial_state(rules, "BENCH")
    # Shuffled before the clock starts: random.shuffle is the simulator's work, not the engine's
    # (a shoe lasts at least 68 coups; the first one is replaced before the first coup).
    shoes = iter([SeededShoe(8, seed) for seed in range(1, coups // 60 + 3)])
    shoe = next(shoes)

    def do(op: pb.Operation) -> None:
        nonlocal state
        if journal is not None:
            journal.append(op.kind, op.to_payload())
        state = pb.apply(state, op)

    do(pb.open_table(rules, "BENCH"))
    start = time.perf_counter()
    for _ in range(coups):
        if state.shoe is None or shoe.remaining < 6:
            shoe = next(shoes)
            do(pb.shuffle(state, "shuffler"))
        do(pb.place_bet(state, "1", pb.BetKind.BANKER, 10_000))
        do(pb.place_bet(state, "2", pb.BetKind.PLAYER, 5_000))
        do(pb.close_betting(state))
        while state.phase is pb.Phase.DEALING:
            do(pb.shoe_card(state, shoe.deal()))
        do(pb.confirm_payouts(state))
    return time.perf_counter() - start


def main() -> None:
    n = 20_000
    play(500)
    t = play(n)
    print(f"engine only:   {n / t:>10,.0f} coups/s  ({t * 1e6 / n:.1f} us/coup, {n} coups)")
    with tempfile.TemporaryDirectory() as d:
        j = Journal.open(Path(d) / "bench.db", "BENCH")
        m = 300
        t = play(m, journal=j)
        rows = j.count()
        print(f"with journal:  {m / t:>10,.1f} coups/s  ({rows} durable rows, "
              f"{t * 1e3 / rows:.2f} ms/row, synchronous=FULL)")
        j.close()


if __name__ == "__main__":
    if {"-h", "--help"} & set(sys.argv[1:]):  # what it measures, without measuring
        print(__doc__)
        sys.exit(0)
    main()
