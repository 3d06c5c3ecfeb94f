"""The whole core end to end: the shoe simulator writes frames to a real pseudo-terminal, the
shoe driver reads them, the session steps punto banco and journals every Operation."""

from __future__ import annotations

import asyncio
from pathlib import Path

from kiosk.assembly import demo_config
from kiosk.console import run_demo
from kiosk.replay import replay
from kiosk.rules.baccarat import engine as pb
from kiosk.rules.operations import operation_from_record
from kiosk.store.journal import iter_entries, verify


def test_demo_plays_coups_through_the_serial_driver(tmp_path: Path) -> None:
    path = tmp_path / "demo.db"
    cfg = demo_config(path)
    session = asyncio.run(run_demo(cfg, rounds=6, seed=5, pace=0.0))
    assert session.state.coup == 7
    entries = list(iter_entries(path))
    ops = [operation_from_record(e.kind, e.payload) for e in entries]
    settled = [op for op in ops if isinstance(op, pb.CoupSettled)]
    assert [op.coup for op in settled] == [1, 2, 3, 4, 5, 6]
    # The cards the journal holds are the simulator's shoe order, all read from the
    # simulated shoe, and on record as the simulator's.
    from kiosk.shoe import SeededShoe

    shoe = SeededShoe(8, 5)
    dealt = [op for op in ops if isinstance(op, pb.CardDealt)]
    assert [op.card for op in dealt] == [shoe.deal() for _ in dealt]
    assert {op.source for op in dealt} == {pb.CardSource.SIMULATED}
    assert verify(path).ok
    report = replay(entries)
    assert report.ok and len(report.rounds) == 6
    # The shoe said hello over the line and the session recorded it.
    hello = [e for e in entries if e.kind == "device_report" and e.payload["event"] == "hello"]
    assert hello and "TABLESIDE-SIM" in hello[0].payload["detail"]
