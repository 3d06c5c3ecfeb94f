"""The signage as its own process (docs/architecture.md):
`python -m kiosk.ui.signage` follows a journal this test process writes, and its --screenshot
mode saves a PNG and exits 0."""

from __future__ import annotations

import json
import os
import queue
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click.testing
import pytest

from kiosk.rules.baccarat import engine as pb
from tests.table.helpers import open_session
from tests.ui.conftest import ROOT
from tests.ui.test_signage_feed import BANKER_7_TO_5, coup, deal

SEEN_WITHIN = 5.0  # seconds: generous, the figure is printed rather than asserted tightly


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("DISPLAY", None)
    env["SDL_VIDEODRIVER"] = "offscreen"
    env.setdefault("KIVY_HOME", str(ROOT / ".kivy"))
    for name in ("KIVY_NO_ARGS", "KIVY_NO_CONFIG", "KIVY_NO_FILELOG"):
        env.setdefault(name, "1")
    return env


def _signage(*args: str, stderr: Any = subprocess.DEVNULL) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "kiosk.ui.signage", *args], cwd=ROOT,
                            env=_env(), stdout=subprocess.PIPE, stderr=stderr,
                            stdin=subprocess.DEVNULL, text=True)


def test_the_signage_process_sees_each_new_row(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    session = open_session(path)
    session.perform(pb.shuffle)
    log = (tmp_path / "signage.log").open("w")
    proc = _signage("--journal", str(path), "--trace", "--size", "800x480", stderr=log)
    lines: queue.Queue[dict[str, Any]] = queue.Queue()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(json.loads(line))

    threading.Thread(target=read, daemon=True).start()

    def wait_for(seq: int, timeout: float) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                line = lines.get(timeout=max(0.01, end - time.monotonic()))
            except queue.Empty:
                break
            if line["seq"] >= seq:
                return line
        log.flush()
        pytest.fail(f"the signage did not show row {seq} within {timeout} s: "
                    f"{(tmp_path / 'signage.log').read_text()[-2000:]}")

    try:
        first = wait_for(session.journal.count(), 30)  # start-up: Kivy, the window, the fold
        assert first["table_id"] == "PB-01" and first["phase"] == "betting"
        latencies: list[float] = []

        def step(action: Callable[[], object], phase: str) -> None:
            t0 = time.monotonic()  # CLOCK_MONOTONIC is one clock for both processes
            action()
            line = wait_for(session.journal.count(), SEEN_WITHIN)
            assert line["seq"] == session.journal.count() and line["phase"] == phase
            latencies.append(line["t"] - t0)

        step(lambda: session.perform(
            lambda st: pb.place_bet(st, "1", pb.BetKind.BANKER, 10_000)), "betting")
        step(lambda: session.perform(pb.close_betting), "dealing")
        for code in BANKER_7_TO_5[:-1]:
            step(lambda c=code: deal(session, [c]), "dealing")  # type: ignore[misc]
        step(lambda: deal(session, [BANKER_7_TO_5[-1]]), "paying")
        step(lambda: session.perform(pb.confirm_payouts), "betting")
        # The dealer app restarts: the signage carries on with the reopened journal.
        session.journal.close()
        session = open_session(path)
        step(lambda: coup(session, BANKER_7_TO_5), "betting")
        ms = sorted(x * 1000 for x in latencies)
        print(f"signage update latency over {len(ms)} rows: median {ms[len(ms) // 2]:.0f} ms, "
              f"max {ms[-1]:.0f} ms")
        assert proc.poll() is None, "the signage is still running"
    finally:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "a PNG file"
    w, h = struct.unpack(">II", data[16:24])
    return w, h


def test_screenshot_mode_saves_a_png_and_exits_0(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    session = open_session(path)
    session.perform(pb.shuffle)
    coup(session, BANKER_7_TO_5)
    rows = session.journal.count()
    session.journal.close()
    shot = tmp_path / "out" / "signage.png"
    proc = _signage("--journal", str(path), "--size", "1024x600", "--name", "Table 3",
                    "--screenshot", str(shot), "--after", "0.3", "--trace",
                    stderr=subprocess.PIPE)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err[-2000:]
    assert _png_size(shot) == (1024, 600)
    assert shot.stat().st_size > 20_000, "a drawn screen, not a blank one"
    trace = [json.loads(line) for line in out.splitlines()]
    assert trace and trace[-1]["seq"] == rows and trace[-1]["phase"] == "betting"


def test_the_click_command_checks_its_options() -> None:
    from kiosk.ui.signage.app import signage

    runner = click.testing.CliRunner()
    result = runner.invoke(signage, ["--journal", "x.db", "--size", "huge"])
    assert result.exit_code == 2 and "WIDTHxHEIGHT" in result.output
    result = runner.invoke(signage, ["--journal", "x.db", "--position", "1"])
    assert result.exit_code == 2 and "X,Y" in result.output
    result = runner.invoke(signage, ["--journal", "x.db", "--after", "1"])
    assert result.exit_code == 2 and "--after needs --screenshot" in result.output
    result = runner.invoke(signage, ["--help"])
    for option in ("--journal", "--name", "--size", "--fullscreen", "--position",
                   "--screenshot", "--after", "--trace"):
        assert option in result.output


def test_the_signage_runs_from_the_tables_config(tmp_path: Path) -> None:
    """As the SD image's service starts it: `--config /data/table.toml` gives the journal, the
    table's name and the signage size of [display]."""
    from kiosk.config import example

    config = tmp_path / "table.toml"
    config.write_text(example().replace('journal = "data/PB-01.db"', 'journal = "j.db"')
                      .replace("signage_width = 1920", "signage_width = 854")
                      .replace("signage_height = 1080", "signage_height = 480"))
    session = open_session(tmp_path / "j.db")
    session.perform(pb.shuffle)
    session.journal.close()
    shot = tmp_path / "sign.png"
    proc = _signage("--config", str(config), "--screenshot", str(shot), "--after", "0.5",
                    "--trace")
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 0
    last = json.loads(out.splitlines()[-1])
    assert last["table_id"] == "PB-01" and "Punto Banco 1" in last["shown"]
    width, height = struct.unpack(">II", shot.read_bytes()[16:24])  # the PNG's IHDR
    assert (width, height) == (854, 480)


def test_the_signage_speaks_the_houses_languages_from_the_tables_config(
        tmp_path: Path) -> None:
    """As the SD image's service runs it (`--config`), the sign takes the house's
    `[display] languages` and money style."""
    from kiosk.config import example

    config = tmp_path / "table.toml"
    config.write_text(example().replace('journal = "data/PB-01.db"', 'journal = "j.db"')
                      .replace("signage_width = 1920", "signage_width = 854")
                      .replace("signage_height = 1080", "signage_height = 480")
                      .replace('languages = ["en"]', 'languages = ["pt", "en"]')
                      .replace('money_style = "R1,000,000"', 'money_style = "R 1 000 000"'))
    session = open_session(tmp_path / "j.db")
    session.perform(pb.shuffle)
    session.journal.close()
    proc = _signage("--config", str(config), "--screenshot", str(tmp_path / "s.png"),
                    "--after", "0.5", "--trace")
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 0
    shown = json.loads(out.splitlines()[-1])["shown"]
    assert "FAÇAM AS SUAS APOSTAS" in shown  # Portuguese first
    assert "R50 000" in shown or "R\u00a050\u00a0000" in shown or any(
        "50\u00a0000" in t for t in shown), shown
