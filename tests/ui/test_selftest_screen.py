"""The self-test on the dealer's touchscreen: the checks' results in words,
five targets that must each be felt, the technician's answer for the players' screen, and
all of it on record in the journal."""

from __future__ import annotations

from pathlib import Path

from kiosk.config import example, parse
from kiosk.store.journal import Journal
from kiosk.table.records import SelfTestResult
from kiosk.ui.selftest_screen import SelfTestScreen
from tests.ui.conftest import UI
from tests.ui.layout import contrast_problems, problems


def test_the_technician_taps_every_target_and_answers_for_the_sign(ui: UI,
                                                                   tmp_path: Path) -> None:
    cfg = parse(example("punto-banco").replace('journal = "data/PB-01.db"', 'journal = "j.db"'),
                tmp_path / "table.toml")
    checks = [SelfTestResult("free disk", True, "3,000 MB free"),
              SelfTestResult("pit", False, "the pit at http://pit does not answer")]
    finished: list[list[SelfTestResult]] = []
    screen = SelfTestScreen(cfg, check=lambda: checks, on_done=finished.append)
    ui.window.add_widget(screen)
    ui.resize(800, 480)
    ui.pump(0.3)
    assert screen.lines.text.startswith("1 checks passed, 1 failed")
    assert "FAIL  pit: the pit at http://pit does not answer" in screen.lines.text
    assert problems(screen) == [] and contrast_problems(ui.frame(), screen) == []
    for target in screen.targets[:4]:
        ui.tap(target)
    assert [t.hit for t in screen.targets] == [True, True, True, True, False]
    ui.screenshot("selftest-screen-800x480")
    ui.tap(screen.yes)
    ui.tap(screen.finish)
    results = {r.check: (r.ok, r.detail) for r in finished[0]}
    assert results["touch"] == (False, "not felt: bottom right")
    assert results["players' screen"] == (True, "the technician saw the table's sign on it")
    with Journal.open(tmp_path / "j.db", "PB-01") as journal:
        rows = [(e.payload["check"], e.payload["ok"]) for e in journal.entries()]
    assert rows == [("touch", False), ("players' screen", True)]  # the others: the command's


def test_the_screen_needs_the_dealers_display(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    config = tmp_path / "table.toml"
    config.write_text(example("punto-banco"))
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2])
    proc = subprocess.run([sys.executable, "-m", "kiosk.cli", "selftest", "--config",
                           str(config), "--screen"], env=env, capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode != 0
    assert "--screen needs the dealer's display" in proc.stderr
