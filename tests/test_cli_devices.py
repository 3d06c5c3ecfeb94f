"""`tableside config check` tries the configured serial ports, and a port that does
not open tells the dealer and the log why ("no such device ..."), not only that the device is
not answering. Real paths and real pseudo-terminals, no mock of pyserial."""

from __future__ import annotations

import asyncio
import logging
import os
import select
import tty
from pathlib import Path

import pytest
from click.testing import CliRunner

from hardware.events import DeviceEvent, DeviceOffline
from hardware.ports import problem, try_open
from hardware.shoe.reader import ShoeReader
from hardware.simulators.shoe import PtyLink, ShoeSimulator
from kiosk.cli import main
from tests.table.helpers import open_session

MISSING = "/dev/tableside-no-such-shoe"


def table_with_shoe_at(tmp: Path, port: str) -> Path:
    text = CliRunner().invoke(main, ["config", "example", "--game", "punto-banco"]).output
    assert 'port = "simulated"' in text
    path = tmp / "table.toml"
    path.write_text(text.replace('port = "simulated"', f'port = "{port}"')
                    .replace('journal = "data/', f'journal = "{tmp}/'))
    return path


def test_config_check_warns_of_a_port_that_does_not_exist(tmp_path: Path) -> None:
    out = CliRunner().invoke(main, ["config", "check", str(table_with_shoe_at(tmp_path,
                                                                               MISSING))])
    assert out.exit_code == 0  # a warning: the table can run with cards keyed in by hand
    lines = out.stdout.splitlines()
    assert lines[0].startswith("OK: table PB-01")
    assert lines[1:] == [f"warning: devices.shoe: {MISSING}: no such device; the table runs "
                         f"without it, by hand, until it opens"]


def test_config_check_opens_a_real_port_and_closes_it_sending_nothing(tmp_path: Path
                                                                       ) -> None:
    master, slave = os.openpty()
    tty.setraw(master)
    path = os.ttyname(slave)
    try:
        out = CliRunner().invoke(main, ["config", "check",
                                        str(table_with_shoe_at(tmp_path, path))])
        assert out.exit_code == 0, out.output
        assert out.stdout.splitlines()[1:] == [f"devices.shoe: {path}: opens"]
        ready, _, _ = select.select([master], [], [], 0.2)
        assert ready == []  # not a byte reached the device
    finally:
        os.close(master)
        os.close(slave)


def test_simulated_devices_are_not_tried(tmp_path: Path) -> None:
    out = CliRunner().invoke(main, ["config", "check",
                                    str(table_with_shoe_at(tmp_path, "simulated"))])
    assert out.exit_code == 0 and len(out.stdout.splitlines()) == 1


def test_the_reasons_in_words(tmp_path: Path) -> None:
    assert try_open(MISSING) == "no such device"
    (tmp_path / "notes.txt").write_text("a file\n")
    assert try_open(str(tmp_path / "notes.txt")) == "not a serial port"
    assert try_open("nowhere://x") == (
        "not a port address (invalid URL, protocol 'nowhere' not known)")
    err = OSError(13, "Permission denied")
    assert problem(err) == "permission denied (the kiosk user needs the dialout group)"


def _run_reader(url: str, session: object, seconds: float) -> None:
    async def scenario() -> None:
        reader = ShoeReader(url, "line", session.on_device_event,  # type: ignore[attr-defined]
                            retry_interval=0.05)
        task = asyncio.create_task(reader.run())
        await asyncio.sleep(seconds)
        reader.stop()
        await asyncio.wait_for(task, 2.0)

    asyncio.run(scenario())


def test_a_missing_port_tells_the_dealer_and_the_log_why(tmp_path: Path,
                                                          caplog: pytest.LogCaptureFixture
                                                          ) -> None:
    session = open_session(tmp_path / "j.db")
    with caplog.at_level(logging.WARNING):
        _run_reader(MISSING, session, 0.3)  # several retries: one report
    alerts = [(a.message, a.way_forward) for a in session.alerts]
    assert alerts == [(f"The card shoe cannot be reached: no such device {MISSING}",
                       "Key in cards by hand; call a technician")]
    reports = [e.payload for e in session.journal.entries() if e.kind == "device_report"]
    assert [(r["event"], r["detail"]) for r in reports] == [
        ("offline", f"no such device {MISSING}")]
    assert f"SHOE ({MISSING}) offline: no such device {MISSING}" in caplog.text
    session.journal.close()


def test_a_pty_that_goes_away_says_so_and_a_silent_one_says_it_is_silent() -> None:
    events: list[DeviceEvent] = []
    sim = ShoeSimulator(decks=1)
    paths: list[str] = []

    async def scenario() -> None:
        link = PtyLink()
        paths.append(link.path)
        reader = ShoeReader(link.path, "line", events.append, retry_interval=60,
                            heartbeat_timeout=0.3)
        task = asyncio.create_task(reader.run())
        try:
            assert await reader.wait_connected(3.0)
            link.send(sim.opening())
            for _ in range(200):  # silent for the heartbeat timeout: offline, no reason
                if any(isinstance(e, DeviceOffline) for e in events):
                    break
                await asyncio.sleep(0.01)
            link.send(sim.heartbeat())  # back
            await asyncio.sleep(0.1)
            link.close()  # the shoe's cable is pulled
            for _ in range(200):
                if len([e for e in events if isinstance(e, DeviceOffline)]) == 2:
                    break
                await asyncio.sleep(0.01)
        finally:
            reader.stop()
            await task

    asyncio.run(asyncio.wait_for(scenario(), 10))
    offline = [e for e in events if isinstance(e, DeviceOffline)]
    assert [e.reason for e in offline] == ["", f"{paths[0]}: disconnected"]
