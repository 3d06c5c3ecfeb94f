"""The players' sign of a table not set up yet says "Table closed" until it is (a
Pi fresh from the SD image, or a table.toml with a mistake). Before, `tableside signage
--config` refused the configuration and systemd started it again every 2 s, a black screen
in front of the players each time."""

from __future__ import annotations

import os
from pathlib import Path

from kiosk.provision import not_set_up
from kiosk.ui import theme
from kiosk.ui.signage.closed import ClosedSign, ClosedSignApp
from tests.notify import Notes
from tests.ui.conftest import UI
from tests.ui.layout import contrast_problems, problems
from tests.ui.test_setup_screen import CONFIG
from tests.ui.test_signage_screen import share


def test_the_sign_says_the_table_is_closed_and_opens_once_the_file_loads(
        ui: UI, tmp_path: Path) -> None:
    config = tmp_path / "table.toml"
    reason = not_set_up(config)
    app = ClosedSignApp(config, reason)
    sign = app.build()
    assert isinstance(sign, ClosedSign)
    ui.window.add_widget(sign)
    try:
        for size in ((1920, 1080), (800, 480), (1080, 1920)):
            ui.resize(*size)
            ui.pump(0.2)
            assert sign.words.text == "Table closed"
            assert sign.reason == reason  # for the log; the players see only the words
            assert problems(sign) == [] and contrast_problems(ui.frame(), sign) == []
            frame = ui.frame()
            assert share(frame, sign, theme.FELT_DARK) > 0.6  # the felt, not a black screen
            assert share(frame, sign.words, theme.GOLD, step=2) > 0.03  # the words drawn
            ui.screenshot(f"signage-closed-{size[0]}x{size[1]}")
        assert app.look() is False and not app.ready
        config.write_text(CONFIG)
        assert app.look() is True and app.ready
        assert app._looking is None
    finally:
        app.stop_looking()
        ui.window.remove_widget(sign)


def test_the_signage_service_waits_for_the_table_then_shows_it(tmp_path: Path) -> None:
    """As the SD image's signage unit runs it: READY with the reason in its STATUS, the
    watchdog fed while it waits, and once table.toml loads the command starts again as the
    table's sign (its own READY)."""
    config = tmp_path / "table.toml"
    notes = Notes(tmp_path)
    proc = notes.start(tmp_path, "signage", "--config", str(config), "--size", "800x480")
    try:
        first = notes.wait_for("READY=1")
        assert (f"STATUS=Not set up: {config}: cannot read the configuration file: No such "
                f"file or directory") in first
        notes.wait_for("WATCHDOG=1", within=10)
        assert proc.poll() is None  # still there: no exit, no restart loop
        config.write_text(CONFIG.replace("signage_width = 1920", "signage_width = 854")
                          .replace("signage_height = 1080", "signage_height = 480"))
        ready = notes.wait_for("READY=1")  # the table's sign now
        assert not any("Not set up" in line for line in ready)
    finally:
        os.killpg(proc.pid, 15)
        out, _ = proc.communicate(timeout=20)
        notes.close()
    assert proc.returncode == 0, out
    assert (f"tableside signage: the table is not set up: {config}: cannot read the "
            "configuration file") in out
