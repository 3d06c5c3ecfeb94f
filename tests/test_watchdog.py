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
