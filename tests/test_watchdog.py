"""systemd's notify protocol (kiosk/watchdog.py): what the services send to their watchdog."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from kiosk.watchdog import notify


def test_notify_sends_a_datagram_to_the_socket_systemd_names(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(path))
        sock.settimeout(2)
        monkeypatch.setenv("NOTIFY_SOCKET", str(path))
        assert notify("READY=1") and notify("WATCHDOG=1")
        assert [sock.recv(100), sock.recv(100)] == [b"READY=1", b"WATCHDOG=1"]


def test_without_systemd_nothing_is_sent(tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert notify("WATCHDOG=1") is False
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "gone"))  # systemd went away
    assert notify("WATCHDOG=1") is False


def test_the_dealer_apps_heartbeat_feeds_the_watchdog(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import asyncio
    import contextlib

    from kiosk.ui.launcher import _heartbeat

    path = tmp_path / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(path))
        sock.settimeout(2)
        monkeypatch.setenv("NOTIFY_SOCKET", str(path))

        async def beat_once() -> None:
            task = asyncio.create_task(_heartbeat(tmp_path / "journal.db.alive"))
            await asyncio.sleep(0.1)
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

        asyncio.run(beat_once())
        assert [sock.recv(100), sock.recv(100)] == [b"READY=1", b"WATCHDOG=1"]
    assert (tmp_path / "journal.db.alive").exists()


def test_the_signage_pings_again_after_a_ping_was_lost(tmp_path: Path) -> None:
    """systemd's socket goes away for a moment (a daemon-reexec, a full queue): the ping then
    fails, and the signage's next ones still come. They stopped for good when the ping was
    a lambda returning notify()'s False to Kivy's clock (kiosk/ui/every.py), and systemd
    would then have killed a healthy sign after WatchdogSec."""
    import subprocess
    import sys
    import time

    from tests.processes import env
    from tests.test_replay import _journal

    journal = _journal(tmp_path / "table.db")
    path = tmp_path / "notify"

    def listen() -> socket.socket:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.bind(str(path))
        sock.settimeout(10)
        return sock

    e = env(tmp_path)
    e["NOTIFY_SOCKET"] = str(path)
    sock = listen()
    proc = subprocess.Popen([sys.executable, "-m", "kiosk.ui.signage", "--journal",
                             str(journal), "--size", "800x480"], cwd=tmp_path, env=e,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        sock.settimeout(60)  # Kivy's start
        assert sock.recv(100) == b"READY=1"
        sock.settimeout(10)
        assert sock.recv(100) == b"WATCHDOG=1"
        sock.close()
        path.unlink()  # gone: the next ping (every 2 s) fails
        time.sleep(4.5)
        sock = listen()
        assert sock.recv(100) == b"WATCHDOG=1"
        assert proc.poll() is None
    finally:
        sock.close()
        proc.terminate()
        proc.wait(10)
