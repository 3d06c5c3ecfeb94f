"""kill -9 in the middle of a batch, 50 times over, of the table's sync and of the pit server:
afterwards every row is at the pit exactly once and the heads are equal.

Each kill lands mid-batch by construction, not by timing: the child process stops at a
chosen point of a batch and says so in a marker file (tests/pit/sync_child.py,
tests/pit/pit_child.py), and only then is it killed. So the test asserts, for every kill,
where the batch was, whatever the machine's speed. Every trial's child is a process of its own,
forked from one that imported the sync or the pit once (tests/pit/forks.py): Python's start
is not paid 50 times over."""

from __future__ import annotations

import json
import os
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kiosk.store.journal import Journal, head_of
from kiosk.sync.client import SyncClient
from kiosk.sync.state import load, state_path
from pit.app import open_pit
from pit.db import Database
from tests.pit.conftest import PitServer, free_port
from tests.pit.day import Day
from tests.pit.forks import Forked, ForkServer
from tests.pit.helpers import wire_rows
from tests.pit.pit_child import STAGES
from tests.pit.test_sync import pit_rows, wait_for_rows

TRIALS = 50
ROOT = Path(__file__).resolve().parents[2]


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def _stopped_at(marker: Path, process: Forked) -> dict[str, Any]:
    """The child's marker, once it has stopped mid-batch (the wait is only a deadline for a
    child that never gets there, which fails the test)."""
    deadline = time.monotonic() + 60
    while not marker.exists():
        if process.poll() is not None:
            pytest.fail(f"the child exited with {process.returncode} before stopping mid-batch")
        if time.monotonic() > deadline:
            process.kill()
            pytest.fail("the child did not reach the middle of a batch within 60 s")
        time.sleep(0.01)
    found: dict[str, Any] = json.loads(marker.read_text())
    marker.unlink()
    return found


def _kill(process: Forked) -> None:
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    assert process.returncode == -signal.SIGKILL


def _held(db: Database, table_id: str) -> tuple[int, int]:
    """The pit's head for the table and the rows it holds, read from its database."""
    head = db.one("SELECT head_seq FROM pit_tables WHERE table_id = ?", (table_id,))
    count = db.one("SELECT count(*) FROM pit_rows WHERE table_id = ?", (table_id,))
    assert head is not None and count is not None
    return int(head[0]), int(count[0])


def test_the_sync_killed_50_times_mid_batch_loses_and_doubles_nothing(
        pit_server: Callable[..., PitServer], tmp_path: Path) -> None:
    server = pit_server()
    token = server.state.store.enroll("PB-01")
    journal = Journal.open(tmp_path / "PB-01.db", "PB-01")
    day = Day(journal)
    marker = tmp_path / "stopped.json"
    with ForkServer("tests.pit.sync_child", _env(), ROOT) as forks:
        for _ in range(TRIALS):
            day.play(6)
            child = forks.spawn([str(journal.path), "PB-01", server.url, token, "4",
                                 str(marker)])
            stopped = _stopped_at(marker, child)
            _kill(child)
            # The pit stored the batch; the table was killed before it recorded so.
            assert server.state.store.head("PB-01")[0] == stopped["pit"]
            assert load(state_path(journal.path)).acked_seq == stopped["recorded"] \
                < stopped["pit"]
            assert stopped["pit"] < journal.count()  # rows were still to go

    client = SyncClient(journal.path, "PB-01", server.url, token)
    client.sync_all()
    client.close()
    assert pit_rows(server, "PB-01") == wire_rows(journal.path)
    assert server.state.store.head("PB-01") == head_of(journal.path)
    assert server.state.store.quarantined("PB-01") == []
    journal.close()


def test_the_pit_killed_50_times_mid_batch_loses_and_doubles_nothing(
        pit_url: str, tmp_path: Path) -> None:
    state = open_pit(pit_url)
    token = state.store.enroll("PB-01")
    state.store.db.close()
    db = Database(pit_url)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    journal = Journal.open(tmp_path / "PB-01.db", "PB-01")
    day = Day(journal)
    client = SyncClient(journal.path, "PB-01", url, token, batch=10, max_backoff=0.1)
    client.start()
    marker = tmp_path / "stopped.json"
    kills = dict.fromkeys(STAGES, 0)
    forks = ForkServer("tests.pit.pit_child", _env(), ROOT, quiet=True)
    try:
        for trial in range(TRIALS):
            day.play(2)  # the table plays on through every crash of the pit: rows to send
            stage = STAGES[trial % len(STAGES)]
            pit = forks.spawn([stage, str(marker), "--db", pit_url, "--port", str(port)])
            stopped = _stopped_at(marker, pit)
            assert stopped["stage"] == stage
            _kill(pit)
            kills[stage] += 1
            assert stopped["before"] < stopped["after"]
            # The table never heard how the batch ended.
            assert client.state.acked_seq <= stopped["before"]
            if stage == "uncommitted":  # none of the batch is stored, not a row of it
                assert _held(db, "PB-01") == (stopped["before"], stopped["before"])
            else:  # all of it is stored, once
                assert _held(db, "PB-01") == (stopped["after"], stopped["after"])
    finally:
        forks.close()
        db.close()
    assert kills == {"uncommitted": TRIALS // 2, "unanswered": TRIALS // 2}
    print(f"after {TRIALS} kills: the pit holds row {client.state.acked_seq} of {journal.count()}")

    server = PitServer(open_pit(pit_url), port).start()
    try:
        wait_for_rows(client, journal)
        client.stop()
        assert pit_rows(server, "PB-01") == wire_rows(journal.path)
        assert server.state.store.head("PB-01") == head_of(journal.path)
        assert server.state.store.quarantined("PB-01") == []
        assert load(state_path(journal.path)).head == head_of(journal.path)
    finally:
        client.stop()
        server.stop()
        server.state.store.db.close()
        journal.close()
