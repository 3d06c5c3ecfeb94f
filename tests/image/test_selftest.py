"""The technician's self-test (kiosk/selftest.py): each check finds what is there, says it in
words, and goes on record in the journal."""

from __future__ import annotations

import os
import re
import threading
import time
import tty
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from hardware.gpio.panel import TablePanel
from hardware.simulators.shoe import ShoeSimulator
from kiosk.cli import main
from kiosk.config import example, parse
from kiosk.selftest import (
    check_clock,
    check_devices,
    check_modes,
    private_files,
    run_selftest,
)
from kiosk.store.journal import Journal

NOW = datetime(2026, 11, 24, 22, 0, tzinfo=UTC)


def _config(tmp_path: Path, port: str = "simulated", shuffler: str = "") -> object:
    text = example().replace('journal = "data/PB-01.db"', f'journal = "{tmp_path / "j.db"}"')
    text = text.replace('port = "simulated"', f'port = "{port}"')
    if shuffler:
        text += f'\n[devices.shuffler]\nport = "{shuffler}"\n'
    return parse(text, tmp_path / "table.toml")


def test_a_shoe_that_answers_one_that_is_silent_and_one_not_there(tmp_path: Path) -> None:
    master, slave = os.openpty()
    tty.setraw(master)
    quiet_master, quiet_slave = os.openpty()
    sim = ShoeSimulator(decks=8, seed=1)

    def power_on() -> None:  # the shoe answers the kiosk's HELLO? with its HELLO
        time.sleep(0.3)
        os.write(master, sim.opening())

    threading.Thread(target=power_on, daemon=True).start()
    try:
        cfg = _config(tmp_path, os.ttyname(slave), shuffler=os.ttyname(quiet_slave))
        shoe, shuffler = check_devices(cfg, wait=1.5)  # type: ignore[arg-type]
        missing = _config(tmp_path, "/dev/tableside-shoe")
        gone = check_devices(missing, wait=0.5)[0]  # type: ignore[arg-type]
    finally:
        for fd in (master, slave, quiet_master, quiet_slave):
            os.close(fd)
    assert shoe.ok and re.search(r"port opened, answered with [12] message\(s\)$", shoe.detail)
    assert not shuffler.ok and "nothing heard in 1.5 s" in shuffler.detail
    assert not gone.ok and "no such device /dev/tableside-shoe" in gone.detail


def test_the_panel_lamps_display_and_buttons(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")  # as scripts/test has it
    cfg = _config(tmp_path)

    def press_both(panel: TablePanel) -> None:
        def press() -> None:
            for gpio in (cfg.gpio.button_no_more_bets,  # type: ignore[attr-defined]
                         cfg.gpio.button_call_inspector):  # type: ignore[attr-defined]
                time.sleep(0.2)
                panel.factory.pin(gpio).drive_low()
                time.sleep(0.1)
                panel.factory.pin(gpio).drive_high()

        threading.Thread(target=press, daemon=True).start()

    results = run_selftest(cfg, wait=0.2, press=3.0, factory="mock",  # type: ignore[arg-type]
                           now=NOW, ntp=lambda: "yes", opened=press_both)
    by = {r.check: r for r in results}
    assert by["tower lamp"].ok
    assert by["tower lamp"].detail == "green, red and amber each lit in turn"
    assert by["minimum display"].ok
    assert by["button no more bets"].ok and by["button call inspector"].ok
    assert by["device shoe"].detail == "shoe (simulated): simulated, nothing to check"
    assert by["clock"].ok and by["file modes"].ok and by["free disk"].ok
    with Journal.open(tmp_path / "j.db", "PB-01") as j:  # on record, one row a check
        rows = [(e.kind, e.payload["check"], e.payload["ok"]) for e in j.entries()]
    assert rows == [("selftest", r.check, r.ok) for r in results]


def test_the_clock_and_the_file_modes(tmp_path: Path) -> None:
    assert not check_clock(datetime(1970, 1, 1, tzinfo=UTC), lambda: None).ok
    drifting = check_clock(NOW, lambda: "no", rtc=tmp_path / "rtc0")
    assert not drifting.ok and "neither NTP nor a real-time clock" in drifting.detail
    (tmp_path / "rtc0").touch()
    assert check_clock(NOW, lambda: "no", rtc=tmp_path / "rtc0").ok
    loose = tmp_path / "table.toml"
    loose.write_text("x")
    loose.chmod(0o644)
    found = check_modes([loose])
    assert not found.ok and found.detail == f"readable by others: {loose} (644)"


def test_the_credential_and_the_sync_files_are_checked_too(tmp_path: Path) -> None:
    """The credentials on the data partition are the kiosk user's, mode 0600."""
    credential = tmp_path / "table.credential"
    text = example().replace('journal = "data/PB-01.db"', f'journal = "{tmp_path / "j.db"}"')
    cfg = parse(text + f'\n[sync]\npit = "http://pit:8600"\ncredential_file = '
                       f'"{credential}"\n', tmp_path / "table.toml")
    assert private_files(cfg) == [tmp_path / "j.db", tmp_path / "j.db-wal",
                                  tmp_path / "j.db-shm", tmp_path / "j.sync.json",
                                  tmp_path / "j.pit-config.json", tmp_path / "table.toml",
                                  credential]
    for p in (tmp_path / "table.toml", tmp_path / "j.sync.json", credential):
        p.write_text("x")
        p.chmod(0o600)
    assert check_modes(private_files(cfg)).ok
    credential.chmod(0o640)
    found = check_modes(private_files(cfg))
    assert not found.ok and found.detail == f"readable by others: {credential} (640)"
    credential.chmod(0o600)
    os.chown(tmp_path / "j.sync.json", 4321, -1)  # left by another user (root here)
    found = check_modes(private_files(cfg))
    owner = tmp_path.stat().st_uid
    assert not found.ok and found.detail == (f"not the journal folder's owner's (user "
                                             f"{owner}): {tmp_path / 'j.sync.json'} (user "
                                             f"4321)")


def test_the_command_prints_each_check_and_fails_on_one(tmp_path: Path) -> None:
    cfg_file = tmp_path / "table.toml"
    cfg_file.write_text(example().replace('journal = "data/PB-01.db"', 'journal = "j.db"')
                        .replace('port = "simulated"', 'port = "/dev/tableside-shoe"'))
    cfg_file.chmod(0o600)
    out = CliRunner().invoke(main, ["selftest", "--config", str(cfg_file), "--wait", "0.3"],
                             env={"GPIOZERO_PIN_FACTORY": "mock"})
    assert out.exit_code == 1
    assert "FAIL  device shoe" in out.output and "no such device /dev/tableside-shoe" in (
        out.output)
    assert "ok    tower lamp" in out.output
