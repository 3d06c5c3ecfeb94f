"""A table that is not set up says why on the dealer's screen ("Errors show
on the dealer screen in words"): a Pi fresh from the SD image has no table.toml yet, or the
technician's has a mistake. `tableside run --setup-screen` (the image's dealer unit) shows the
reason and what to do, keeps systemd told it is alive, and opens the table once the
configuration loads; before, it exited 2 and systemd started it again every 2 s, with nothing
on the screen."""

from __future__ import annotations

import os
import socket
from pathlib import Path

from click.testing import CliRunner

from kiosk.cli import main
from kiosk.config import example
from kiosk.provision import ERROR_FILE, not_set_up
from kiosk.ui.setup_screen import SetupApp, SetupScreen
from tests.notify import Notes
from tests.ui.conftest import UI
from tests.ui.layout import contrast_problems, problems

CONFIG = example("punto-banco").replace('journal = "data/PB-01.db"', 'journal = "PB-01.db"')


def test_the_reason_in_words(tmp_path: Path) -> None:
    config = tmp_path / "table.toml"
    assert not_set_up(config) == (f"{config}: cannot read the configuration file: No such "
                                  f"file or directory")
    config.write_text(CONFIG.replace("commission_mode", "comission_mode"))
    wrong = (f"{config}, line 13: punto_banco.comission_mode: unknown key (did you mean "
             f"commission_mode?)")
    assert not_set_up(config) == wrong
    # A new table.toml on the boot partition was refused: that comes first.
    (tmp_path / ERROR_FILE).write_text("The table was not set up: table.toml on the SD "
                                       "card's boot partition, line 2: table.id: missing\n")
    assert not_set_up(config).splitlines() == [
        "The table was not set up: table.toml on the SD card's boot partition, line 2: "
        "table.id: missing",
        wrong]
    config.write_text(CONFIG)
    assert not_set_up(config) == ""


def test_the_screen_says_why_and_what_to_do_and_opens_once_the_file_loads(
        ui: UI, tmp_path: Path) -> None:
    config = tmp_path / "table.toml"
    reason = not_set_up(config)
    app = SetupApp(config, reason)
    screen = app.build()
    assert isinstance(screen, SetupScreen)
    ui.window.add_widget(screen)
    for size in ((800, 480), (1920, 1080)):
        ui.resize(*size)
        ui.pump(0.2)
        assert screen.title.text == "This table is not set up"
        assert screen.why.text == reason and "No such file or directory" in reason
        assert screen.todo.text.startswith("Write table.toml onto the SD card's boot "
                                           "partition")
        assert screen.machine.text.startswith(f"This computer: {socket.gethostname()}")
        assert screen.machine.text.endswith("Tableside 0.1.0")
        assert problems(screen) == [] and contrast_problems(ui.frame(), screen) == []
        ui.screenshot(f"setup-screen-{size[0]}x{size[1]}")
    config.write_text(CONFIG.replace("[table]", "[tabel]"))
    assert app.look() is False and not app.ready
    assert screen.why.text == f"{config}: the [table] section is missing"  # at once
    config.write_text(CONFIG)
    assert app.look() is True and app.ready  # (it stops looking: no look after the test)
    assert app._looking is None


def test_the_command_shows_it_tells_systemd_and_opens_the_table_once_provisioned(
        tmp_path: Path) -> None:
    """The dealer unit's command as a process: READY and a STATUS with the reason reach the
    notify socket, the watchdog is fed, and once table.toml is there the command starts
    itself again as the table (its heartbeat notes READY again, its journal appears)."""
    config = tmp_path / "table.toml"
    notes = Notes(tmp_path)
    proc = notes.start(tmp_path, "run", "--config", str(config), "--no-sync", "--no-signage",
                       "--setup-screen", "--headless")
    try:
        first = notes.wait_for("READY=1")
        assert "WATCHDOG=1" in first
        assert (f"STATUS=Not set up: {config}: cannot read the configuration file: No such "
                f"file or directory") in first
        notes.wait_for("WATCHDOG=1", within=10)  # fed while it waits
        config.write_text(CONFIG)
        notes.wait_for("READY=1")  # the table's own: the command started again
        assert (tmp_path / "PB-01.db").exists()
    finally:
        os.killpg(proc.pid, 15)
        out, _ = proc.communicate(timeout=20)
        notes.close()
    assert proc.returncode == 0, out
    assert (f"tableside: the table is not set up: {config}: cannot read the configuration "
            f"file") in out


def test_without_the_option_a_missing_file_is_still_a_plain_refusal(tmp_path: Path) -> None:
    out = CliRunner().invoke(main, ["run", "--config", str(tmp_path / "none.toml"),
                                    "--headless"])
    assert out.exit_code == 2 and "cannot read the configuration file" in out.output


def test_the_sync_unit_is_skipped_without_a_pit(tmp_path: Path) -> None:
    """`sync configured`, the sync unit's ExecCondition: 1 (skip, not failed) without a pit or
    a readable file, 0 with one."""
    config = tmp_path / "table.toml"
    out = CliRunner().invoke(main, ["sync", "configured", "--config", str(config)])
    assert out.exit_code == 1 and out.output.startswith("No sync: ")
    config.write_text(CONFIG)
    out = CliRunner().invoke(main, ["sync", "configured", "--config", str(config)])
    assert (out.exit_code, out.output) == (1, "No sync: the configuration has no [sync] pit; "
                                              "the journal stays here\n")
    config.write_text(CONFIG + '\n[sync]\npit = "http://127.0.0.1:8600"\n')
    out = CliRunner().invoke(main, ["sync", "configured", "--config", str(config)])
    assert (out.exit_code, out.output) == (0, "Syncs to http://127.0.0.1:8600\n")
