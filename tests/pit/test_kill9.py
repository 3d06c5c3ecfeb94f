"""kill -9 in the middle of a batch, 50 times over, of the table's sync and of the pit server:
afterwards every row is at the pit exactly once and the heads are equal."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from kiosk.store.journal import Journal, head_of
from kiosk.sync.client import SyncClient
from kiosk.sync.state import load, state_path
from pit.app import open_pit
from tests.pit.conftest import PitServer, free_port
from tests.pit.day import Day
from tests.pit.helpers import wire_rows
from tests.pit.test_sync import pit_rows, wait_for_rows

TRIALS = 50
ROOT = Path(__file__).resolve().parents[2]


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def test_the_sync_killed_50_times_mid_batch_loses_and_doubles_nothing(
        pit_server: Callable[..., PitServer], tmp_path: Path) -> None:
    server = pit_server()
    token = server.state.store.enroll("PB-01")
    journal = Journal.open(tmp_path / "PB-01.db", "PB-01")
    day = Day(journal)
    rng = random.Random(9)
    interrupted = 0
    for _ in range(TRIALS):
        day.play(6)
        child = subprocess.Popen(
            [sys.executable, "-m", "tests.pit.sync_child", str(journal.path), "PB-01",
             server.url, token, "4"], env=_env(), cwd=ROOT)
        time.sleep(rng.uniform(0.05, 0.35))
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        if child.returncode == -signal.SIGKILL and \
                server.state.store.head("PB-01")[0] < journal.count():
            interrupted += 1
    assert interrupted >= TRIALS // 2  # most kills landed while rows were still going

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
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    journal = Journal.open(tmp_path / "PB-01.db", "PB-01")
    day = Day(journal)
    day.play(5)
    playing = threading.Event()

    def play() -> None:  # the table goes on playing through every crash of the pit
        while not playing.is_set():
            day.play(1)
            time.sleep(0.05)  # a coup every ~50 ms: rows for every batch, a backlog to catch up

    player = threading.Thread(target=play, daemon=True)
    player.start()
    client = SyncClient(journal.path, "PB-01", url, token, batch=10, max_backoff=0.1)
    client.start()
    rng = random.Random(11)
    heads = []
    try:
        for _ in range(TRIALS):
            pit = subprocess.Popen(
                [sys.executable, "-m", "kiosk.cli", "pit", "serve", "--db", pit_url,
                 "--port", str(port)], env=_env(), cwd=ROOT, stderr=subprocess.DEVNULL)
            _wait_up(url, pit)
            time.sleep(rng.uniform(0.02, 0.4))
            os.kill(pit.pid, signal.SIGKILL)
            pit.wait()
            heads.append(client.state.acked_seq)
    finally:
        playing.set()
        player.join()
    assert len(set(heads)) > TRIALS // 2  # the pit was taking rows when it was killed
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
        server.stop()
        server.state.store.db.close()
        journal.close()


def _wait_up(url: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"the pit server exited with {process.returncode}")
        try:
            if httpx.get(f"{url}/api/v1/health", timeout=0.5).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.02)
    pytest.fail("the pit server did not start within 15 s")
