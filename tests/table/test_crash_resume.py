"""kill -9 at any moment: the table restarts into the same coup, nothing lost or doubled."""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from kiosk.rules.baccarat import engine as pb
from kiosk.rules.operations import operation_from_record
from kiosk.store.journal import Journal, verify
from tests.table.helpers import open_session

SETTLED = re.compile(r"^Coup (\d+): Player", re.M)


def _run_and_kill(journal: Path, seed: int, after: float) -> str:
    """Run the console demo and kill -9 it `after` seconds once its first coup is settled
    (a kill at a set time from the start could land before the journal exists on a loaded
    machine, and test nothing)."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    child = subprocess.Popen(
        [sys.executable, "-m", "kiosk.cli", "demo", "--console", "--rounds", "500", "--pace", "0",
         "--seed", str(seed), "--journal", str(journal)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, text=True)
    assert child.stdout is not None
    seen = []
    for line in child.stdout:
        seen.append(line)
        if SETTLED.match(line):
            break
    time.sleep(after)
    child.send_signal(signal.SIGKILL)
    out, _ = child.communicate(timeout=30)
    out = "".join(seen) + out
    assert child.returncode == -signal.SIGKILL, out[-2000:]
    return out


def test_kill_9_mid_play_loses_and_doubles_nothing(tmp_path: Path) -> None:
    journal = tmp_path / "table.db"
    rng = random.Random(11)
    printed: list[int] = []
    for run in range(4):
        out = _run_and_kill(journal, seed=100 + run, after=rng.uniform(0.0, 1.3))
        printed += [int(n) for n in SETTLED.findall(out)]
        report = verify(journal)
        assert report.ok, report.reason
        with Journal.open(journal, "DEMO-1") as j:
            entries = list(j.entries())
        assert [e.seq for e in entries] == list(range(1, len(entries) + 1))
        ops = [operation_from_record(e.kind, e.payload) for e in entries]
        settled = [op.coup for op in ops if isinstance(op, pb.CoupSettled)]
        voided = [op.coup for op in ops if isinstance(op, pb.CoupVoided)]
        # Every coup the child reported settled is on record, exactly once.
        assert set(printed) <= set(settled)
        assert len(settled) == len(set(settled))
        assert sorted(settled + voided) == list(range(1, len(settled) + len(voided) + 1))
        # The restart lands in the same coup at the same step as the fold of the journal.
        session = open_session_for(journal)
        state = pb.initial_state(session.state.rules, "DEMO-1")
        for op in ops:
            state = pb.apply(state, op)
        assert session.state == state
        session.journal.close()
    assert len(printed) >= 4, "the child never got going"


def open_session_for(path: Path):  # type: ignore[no-untyped-def]
    from kiosk.assembly import demo_config

    cfg = demo_config(path)
    from kiosk.store.journal import Journal as J
    from kiosk.table.session import TableSession

    return TableSession(pb.PuntoBanco(), J.open(path, cfg.table_id), cfg.rules, cfg.table_id)


def test_helpers_session_module_is_importable(tmp_path: Path) -> None:
    s = open_session(tmp_path / "x.db")
    assert s.state.coup == 1
