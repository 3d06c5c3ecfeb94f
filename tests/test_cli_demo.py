"""The headless demo tells its progress as it plays, in the table's currency."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

from tests.processes import ROOT, env


def test_headless_demo_prints_each_line_as_it_happens_with_money_in_rand(tmp_path: Path
                                                                         ) -> None:
    journal = tmp_path / "bj.db"
    proc = subprocess.Popen(
        [sys.executable, "-m", "kiosk.cli", "demo", "--headless", "--game", "blackjack",
         "--rounds", "1", "--no-pit", "--journal", str(journal), "--out",
         str(tmp_path / "shots")],
        cwd=ROOT, env=env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL, text=True)
    assert proc.stdout is not None
    lines: list[tuple[float, str]] = []
    for line in proc.stdout:  # as the demo writes them, not when it ends
        lines.append((time.monotonic(), line.rstrip("\n")))
    assert proc.wait(30) == 0, lines
    ended = time.monotonic()
    text = [line for _t, line in lines]
    assert text[0] == "Playing a shoe offscreen by touch:"
    when = {line.split(":")[0].strip(): t for t, line in lines}
    # The round was told while the demo went on to the signage's two screenshots (each a
    # process that starts Kivy): seconds before the end, not in one burst at the end.
    assert ended - when["round settled"] > 1.0, lines
    assert when["signage screenshot signage-800x480.png"] - when["round 1"] > 1.0, lines
    settled = next(line for line in text if line.startswith("  round settled"))
    # Money as the dealer reads it (format_money): six boxes bet the R50 minimum, so the
    # players' net is at most 8 times that each (split to 4 hands, each doubled), in rand;
    # never a count of cents.
    assert re.fullmatch(r"  round settled: round 1, players' net -?R\d[\d,]*(\.\d\d)?",
                        settled), settled
    net = settled.rsplit("R", 1)[1]
    assert int(net.replace(",", "").split(".")[0]) <= 6 * 50 * 8, settled


def test_the_demos_pit_prints_its_dashboard_and_holds_the_journal(tmp_path: Path) -> None:
    """The demo starts a local pit beside the table (kiosk/commands.py): it says where the
    dashboard is, and every row the table journaled reaches data/demo-pit.db."""
    import sqlite3

    from kiosk.store.journal import head_of

    done = subprocess.run(
        [sys.executable, "-m", "kiosk.cli", "demo", "--console", "--rounds", "3", "--pace", "0",
         "--journal", "data/demo.db"], cwd=tmp_path, env=env(tmp_path), capture_output=True,
        stdin=subprocess.DEVNULL, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert re.fullmatch(r"Pit dashboard: http://127\.0\.0\.1:\d+/ \(log in as demo, password "
                        r"tableside-demo\); the journal syncs to it as the table plays, and "
                        r"limits set there reach the table between rounds", lines[0]), lines[0]
    head = head_of(tmp_path / "data" / "demo.db")
    assert head[0] > 20  # three coups
    assert f"Pit: holds the journal up to row {head[0]}; Sync connected" in done.stdout
    pit = sqlite3.connect(tmp_path / "data" / "demo-pit.db")
    try:
        assert pit.execute("SELECT count(*), max(seq) FROM pit_rows").fetchone() == \
            (head[0], head[0])
        assert pit.execute("SELECT head_seq, head_hash FROM pit_tables").fetchall() == [head]
        assert pit.execute("SELECT name FROM pit_inspectors").fetchall() == [("demo",)]
    finally:
        pit.close()
