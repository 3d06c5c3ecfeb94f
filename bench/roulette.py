"""Roulette benchmarks (issue: American roulette with a real wheel). Prints figures; asserts
nothing.

1. Settlement: 7 players x 40 chips each, spread over straights, splits, corners, streets,
   outside bets and call bets: spins settled per second (target >= 5,000 on one core).
2. SS2 line to journal commit: the wheel's packet written to a real pseudo-terminal ->
   pyserial-asyncio-fast -> the SS2 parser -> the table session -> roulette -> the journal
   (WAL, synchronous=FULL): p50 / p99 / max in ms for the lines that make a record (the ball
   in the rim, no more bets, the number). Target p99 < 15 ms.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hardware.link import SerialLink
from hardware.protocols import protocol
from hardware.simulators.wheel import WheelSimulator
from kiosk.rules.operations import Operation
from kiosk.rules.roulette import engine as rl
from kiosk.rules.roulette.bets import BetKind, CallBet
from kiosk.rules.roulette.wheel import SINGLE_ZERO_ORDER
from kiosk.store.journal import Journal
from kiosk.table.session import TableSession


def loaded_table(seed: int = 7) -> rl.RouletteState:
    """Seven colours, 40 chips each on the layout."""
    rng = random.Random(seed)
    s = rl.initial_state(rl.RouletteRules(), "BENCH")
    for colour in rl.COLOURS[:7]:
        s = rl.apply(s, rl.chip_change(s, colour, 200, 500))
        left = 40
        while left:
            pick = rng.randrange(6)
            try:
                if pick == 0:
                    op = rl.place_call_bet(s, colour, rng.choice(
                        [CallBet.ORPHANS, CallBet.SERIES_5_8]))
                elif pick == 1:
                    op = rl.place_bet(s, colour, BetKind.STRAIGHT, 1,
                                      (rng.choice(SINGLE_ZERO_ORDER),))
                elif pick == 2:
                    a = rng.randrange(1, 34)
                    op = rl.place_bet(s, colour, BetKind.SPLIT, 1, (str(a), str(a + 3)))
                elif pick == 3:
                    a = rng.choice([n for n in range(1, 33) if n % 3])
                    op = rl.place_bet(s, colour, BetKind.CORNER, 1,
                                      (str(a), str(a + 1), str(a + 3), str(a + 4)))
                elif pick == 4:
                    op = rl.place_bet(s, colour, BetKind.DOZEN, 1, which=rng.randint(1, 3))
                else:
                    op = rl.place_bet(s, colour, rng.choice([BetKind.RED, BetKind.ODD]), 1)
            except Exception:
                continue
            chips = sum(p.chips for p in op.placements)
            if chips > left:
                continue
            s = rl.apply(s, op)
            left -= chips
    s = rl.apply(s, rl.spin_ball(s, rl.Direction.CLOCKWISE))
    return rl.apply(s, rl.close_betting(s))


def settlement_rate(seconds: float = 2.0) -> tuple[int, float, int]:
    table = loaded_table()
    called = [rl.apply(table, rl.call_number(table, n)) for n in SINGLE_ZERO_ORDER]
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for state in called:
            rl.apply(state, rl.settlement(state))  # the payouts and the next spin's state
        n += len(called)
    elapsed = time.perf_counter() - start
    return n, elapsed, len(table.layout)


async def line_to_commit(games: int, db: Path) -> list[float]:
    import os
    import tty

    master, slave = os.openpty()
    tty.setraw(master)
    session: TableSession[rl.RouletteState] = TableSession(
        rl.Roulette(), Journal.open(db, "BENCH"), rl.RouletteRules(), "BENCH")
    done = asyncio.Event()

    def on_commit(_state: object, op: Operation | None) -> None:
        if op is not None:
            done.set()

    session.listeners.append(on_commit)
    link = SerialLink(os.ttyname(slave), protocol("wheel-ss2"), session.on_device_event)
    task = asyncio.create_task(link.run())
    await link.wait_connected(5)
    sim = WheelSimulator(seed=3)
    session.perform(lambda s: rl.chip_change(s, "pink", 1_000_000, 500))
    samples: list[float] = []
    for _ in range(games):
        session.perform(lambda s: rl.place_bet(s, "pink", BetKind.RED, 1))
        lines = sim.game(reports=1)
        for line in lines:
            # the ball in the rim, no more bets and the plain number line each make a record
            makes_record = line.startswith((b"*X;3;", b"*X;4;")) or not line.startswith(b"*")
            done.clear()
            t0 = time.perf_counter()
            os.write(master, line)
            if makes_record:
                await asyncio.wait_for(done.wait(), 5)
                samples.append((time.perf_counter() - t0) * 1000)
            else:
                await asyncio.sleep(0.001)
        session.perform(rl.confirm_payouts)
    link.stop()
    await asyncio.gather(task, return_exceptions=True)
    session.journal.close()
    os.close(master)
    os.close(slave)
    return samples


def main() -> None:
    n, elapsed, places = settlement_rate()
    print(f"settlement, 7 colours x 40 chips ({places} places on the layout): "
          f"{n / elapsed:,.0f} spins/s ({elapsed / n * 1e6:.1f} us a spin; target >= 5,000)")
    with tempfile.TemporaryDirectory() as tmp:
        samples = asyncio.run(line_to_commit(300, Path(tmp) / "bench.db"))
    samples.sort()
    p99 = samples[int(len(samples) * 0.99) - 1]
    print(f"SS2 line to journal commit, {len(samples)} records: "
          f"p50 {statistics.median(samples):.2f} ms, p99 {p99:.2f} ms, max {samples[-1]:.2f} ms "
          f"(target p99 < 15 ms)")


if __name__ == "__main__":
    if {"-h", "--help"} & set(sys.argv[1:]):  # what it measures, without measuring
        print(__doc__)
        sys.exit(0)
    main()
