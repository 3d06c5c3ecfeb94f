"""`simulate shoe`: prints the URL to read on its first line, then deals (docs/architecture.md:
the simulator serves technicians' bench checks and the demo the same way it serves tests)."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import time
from pathlib import Path

from click.testing import CliRunner

from hardware.events import CardRead, CutCardOut, DeviceEvent, ShoeHello
from hardware.shoe.plain_dialect import PlainParser
from hardware.shoe.reader import ShoeReader
from hardware.simulators.cli import simulate
from kiosk.shoe import SeededShoe

ROOT = Path(__file__).resolve().parents[2]


def start(*args: str) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "hardware.simulators.cli", "shoe", *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    return proc, proc.stdout.readline().strip()


def finish(proc: subprocess.Popen[str]) -> str:
    try:
        _, err = proc.communicate(timeout=10)
    finally:
        proc.kill()
    return err


def test_pty_simulator_is_read_by_the_reader() -> None:
    proc, url = start(
        "--decks",
        "1",
        "--seed",
        "5",
        "--pace",
        "0.01",
        "--cards",
        "6",
        "--cut-at",
        "3",
        "--wait",
        "--linger",
        "0.3",
    )
    events: list[DeviceEvent] = []

    async def scenario() -> None:
        reader = ShoeReader(url, "line", events.append)
        task = asyncio.create_task(reader.run())
        try:
            end = time.monotonic() + 10
            while len([e for e in events if isinstance(e, CardRead)]) < 6:
                assert time.monotonic() < end, events
                await asyncio.sleep(0.01)
        finally:
            reader.stop()
            await task

    try:
        assert url.startswith("/dev/pts/")
        asyncio.run(scenario())
    finally:
        err = finish(proc)
    assert [e.card for e in events if isinstance(e, CardRead)] == SeededShoe(1, 5).cards[:6]
    assert any(isinstance(e, ShoeHello) for e in events)
    assert sum(isinstance(e, CutCardOut) for e in events) == 1
    assert proc.returncode == 0
    assert "dealt 6 card(s)" in err


def test_listening_simulator_serves_a_socket_client() -> None:
    proc, url = start(
        "--listen",
        "0",
        "--dialect",
        "plain",
        "--decks",
        "2",
        "--seed",
        "3",
        "--pace",
        "0",
        "--cards",
        "10",
        "--linger",
        "0",
    )
    try:
        assert url.startswith("socket://127.0.0.1:")
        port = int(url.rsplit(":", 1)[1])
        received = bytearray()
        with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
            while chunk := sock.recv(4096):
                received += chunk
    finally:
        finish(proc)
    cards = [e.card for e in PlainParser().feed(bytes(received)) if isinstance(e, CardRead)]
    assert cards == SeededShoe(2, 3).cards[:10]


def test_pty_and_listen_together_is_a_usage_error() -> None:
    result = CliRunner().invoke(simulate, ["shoe", "--pty", "--listen", "0"])
    assert result.exit_code == 2
    assert "not both" in result.output
