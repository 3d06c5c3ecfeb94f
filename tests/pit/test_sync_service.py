"""The sync as the SD image runs it (image-build/system/tableside-sync.service): its own
process, Type=notify, READY=1 once it runs and WATCHDOG=1 while its sending thread lives;
with no [sync] pit it exits 3, which the unit does not restart."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from kiosk.config import example
from kiosk.store.journal import Journal
from pit.app import open_pit
from tests.pit.conftest import PitServer
from tests.pit.day import Day

ROOT = Path(__file__).resolve().parents[2]


def _sync_run(config: Path, notify: Path | None) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if notify is not None:
        env["NOTIFY_SOCKET"] = str(notify)
    return subprocess.Popen([sys.executable, "-m", "kiosk.cli", "sync", "run", "--config",
                             str(config)], cwd=config.parent, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def test_the_sync_service_tells_systemd_it_is_ready_and_alive(tmp_path: Path) -> None:
    state = open_pit(str(tmp_path / "pit.db"))
    token = state.store.enroll("PB-01")
    server = PitServer(state).start()
    (tmp_path / "PB-01.credential").write_text(token)
    config = tmp_path / "table.toml"
    config.write_text(example("punto-banco").replace('journal = "data/PB-01.db"',
                                                     'journal = "PB-01.db"')
                      + f'\n[sync]\npit = "{server.url}"\ncredential_file = "PB-01.credential"\n')
    journal = Journal.open(tmp_path / "PB-01.db", "PB-01")
    Day(journal).play(5)
    notify = tmp_path / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(notify))
    sock.settimeout(10)
    proc = _sync_run(config, notify)
    try:
        heard = [sock.recv(64).decode() for _ in range(3)]
        assert heard[0] == "READY=1" and heard[1:] == ["WATCHDOG=1", "WATCHDOG=1"]
        deadline = time.monotonic() + 10
        while state.store.head("PB-01")[0] < journal.count() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert state.store.head("PB-01")[0] == journal.count()  # and it did sync
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=10)
        assert proc.returncode == 0, err
    finally:
        if proc.poll() is None:
            proc.kill()
        sock.close()
        journal.close()
        server.stop()


def test_with_no_pit_it_exits_3_and_says_why(tmp_path: Path) -> None:
    config = tmp_path / "table.toml"
    config.write_text(example("punto-banco"))
    proc = _sync_run(config, None)
    _out, err = proc.communicate(timeout=30)
    assert proc.returncode == 3
    assert "no [sync] pit; nothing to sync" in err
