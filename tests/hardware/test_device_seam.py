"""The device seam: a serial link takes a URL and a protocol; each device kind registers its
protocol (the shoe's two dialects, the shuffler); the shuffler's reports reach the table over
a real pseudo-terminal and are journaled and shown."""

from __future__ import annotations

import ast
import asyncio
import os
import tty
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from hardware import events as ev
from hardware.link import SerialLink
from hardware.protocols import protocol, protocol_names, roles
from hardware.shoe.line_dialect import encode_frame
from tests.table.helpers import open_session


def test_each_device_kind_registers_its_protocol() -> None:
    assert protocol_names() == ("shoe-line", "shoe-plain", "shuffler-line", "wheel-ss2")
    assert roles() == {"shoe": ("line", "plain"), "shuffler": ("line",), "wheel": ("ss2",)}
    shuffler = protocol("shuffler-line")
    assert (shuffler.role, shuffler.label, shuffler.heartbeat_timeout) == ("shuffler", "SHUF", 5.0)
    assert shuffler.greeting is not None and shuffler.greeting(3) == encode_frame(
        "KIOSK", 3, "HELLO?")
    assert protocol("shoe-plain").greeting is None  # a plain shoe is never asked anything
    wheel = protocol("wheel-ss2")  # docs/protocols/wheel-ss2.md: no poll, status every 500 ms
    assert (wheel.role, wheel.label, wheel.poll, wheel.commands["start"]) == (
        "wheel", "WHEEL", None, b"*u 1\r\n")
    with pytest.raises(ValueError, match=r"unknown device protocol 'wheel-ss3' \(known: "
                                         r"shoe-line, shoe-plain, shuffler-line, wheel-ss2\)"):
        protocol("wheel-ss3")


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_the_shufflers_parser_never_raises_on_noise(data: bytes) -> None:
    parser = protocol("shuffler-line").make_parser("SHUF")
    events = parser.feed(data) + parser.reset()
    assert all(hasattr(e, "device") for e in events)


async def _shuffler_over_a_pty(path: Path) -> tuple[list[object], list[str]]:
    master, slave = os.openpty()
    tty.setraw(master)
    session = open_session(path)
    seen: list[object] = []

    def on_event(event: object) -> None:
        seen.append(event)
        session.on_device_event(event)

    link = SerialLink(os.ttyname(slave), protocol("shuffler-line"), on_event)
    task = asyncio.create_task(link.run())
    try:
        assert await link.wait_connected(5)
        hello = os.read(master, 100)  # the greeting the protocol sends on connect
        assert hello == encode_frame("KIOSK", 0, "HELLO?")
        for n, (kind, *fields) in enumerate((("HELLO", "Shufflex", "2.1", "SX-77"),
                                             ("STATE", "SHUFFLING"), ("COUNT", "416"),
                                             ("FAULT", "JAM", "card jam"), ("DAMAGED", "2"),
                                             ("STATE", "READY"))):
            os.write(master, encode_frame("SHUF", n, kind, *fields))
        for _ in range(100):
            await asyncio.sleep(0.02)
            if any(isinstance(e, ev.ShufflerStateChanged) and e.state.value == "READY"
                   for e in seen):
                break
    finally:
        link.stop()
        await asyncio.gather(task, return_exceptions=True)
        os.close(master)
        os.close(slave)
    rows = [f"{e.payload['device']} {e.payload['event']}: {e.payload['detail']}"
            for e in session.journal.entries() if e.kind == "device_report"]
    session.journal.close()
    return seen, rows


def test_the_shufflers_reports_reach_the_journal_over_a_pty(tmp_path: Path) -> None:
    seen, rows = asyncio.run(_shuffler_over_a_pty(tmp_path / "j.db"))
    assert [type(e).__name__ for e in seen if not isinstance(e, ev.DeviceOnline)] == [
        "ShoeHello", "ShufflerStateChanged", "ShuffleCount", "ShufflerFault", "CardsDamaged",
        "ShufflerStateChanged"]
    assert rows == ["SHUF hello: Shufflex firmware 2.1 serial SX-77",
                    "SHUF state: SHUFFLING",
                    "SHUF count: 416 cards counted",
                    "SHUF fault: JAM: card jam",
                    "SHUF damaged: 2 damaged card(s)"]  # READY: one state report a minute


def test_a_device_is_one_registration_its_words_its_table_side_and_its_simulator() -> None:
    """The session names no device: what the dealer calls it, what to do without it, the
    module that records its events and its simulator all come with its protocol."""
    from hardware.protocols import protocol_of_device, simulator_of
    from kiosk.table import session

    wheel = protocol("wheel-ss2")
    assert (wheel.spoken, wheel.by_hand, wheel.table_side) == (
        "roulette wheel", "Spin by hand and key in the winning numbers", "kiosk.table.wheel")
    assert protocol_of_device("WHEEL") is wheel and protocol_of_device("NOPE") is None
    assert simulator_of("wheel") is wheel.simulator
    # The card devices too: their table side and their simulator come with their protocol.
    shoe, shuffler = protocol("shoe-line"), protocol("shuffler-line")
    assert (shoe.table_side, shuffler.table_side) == ("kiosk.table.shoe", "kiosk.table.shuffler")
    assert simulator_of("shoe") is shoe.simulator and shoe.simulator is not None
    assert simulator_of("shuffler") is shuffler.simulator and shuffler.simulator is not None
    tree = ast.parse(Path(session.__file__).read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not {m for m in imported if m and "wheel" in m}
    docstrings = {id(node.value) for node in ast.walk(tree)
                  if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)}
    words = {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)
             and isinstance(node.value, str) and id(node) not in docstrings}
    assert not {w for w in words if "WHEEL" in w or "SHUF" in w or "wheel" in w}


def test_tableside_simulate_wheel_serves_the_wheels_bytes_on_a_pty() -> None:
    """`tableside simulate <role>` for every registered simulator: the wheel's status reports,
    read through its own protocol's parser."""
    import select
    import signal
    import subprocess
    import sys

    from hardware.wheel import events as wev

    proc = subprocess.Popen([sys.executable, "-m", "kiosk.cli", "simulate", "wheel",
                             "--period", "0.1"], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        port = proc.stdout.readline().strip()
        assert port.startswith("/dev/pts/")
        fd = os.open(port, os.O_RDWR | os.O_NOCTTY)
        tty.setraw(fd)
        parser = protocol("wheel-ss2").make_parser("WHEEL")
        events: list[object] = []
        for _ in range(100):
            ready, _, _ = select.select([fd], [], [], 0.2)
            if ready:
                events += parser.feed(os.read(fd, 4096))
            if any(isinstance(e, wev.WheelStatus) for e in events):
                break
        os.close(fd)
        assert any(isinstance(e, wev.WheelStatus) for e in events), events
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(10) == 0
