"""`tableside demo --game mini-baccarat --headless` end to end: bets by touch, the simulated
shoe deals over a pseudo-terminal, the dealer's shuffler fault button stops the coup, rule
12.5 is taken by the procedure's big buttons, the coup is completed from a dealing shoe and
settled; the journal replays and the screenshots are kept."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from kiosk.replay import replay
from kiosk.store.journal import Journal
from tests.ui.test_demo_headless import ROOT, SHOTS, _colours


def test_headless_mini_baccarat_plays_rule_12_5_by_touch(tmp_path: Path) -> None:
    out, db = tmp_path / "shots", tmp_path / "mb.db"
    env = dict(os.environ)
    env.pop("DISPLAY", None)
    env.pop("GPIOZERO_PIN_FACTORY", None)
    proc = subprocess.run(
        [sys.executable, "-m", "kiosk.cli", "demo", "--game", "mini-baccarat", "--headless",
         "--out", str(out), "--journal", str(db), "--fresh", "--seed", "3"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "malfunction: Shuffler malfunction: are any cards in it damaged? (rule 12.3)" \
        in proc.stdout, proc.stdout
    assert "Load the dealing shoe and complete the coup for the players who stayed" \
        in proc.stdout and "coup settled: coup 1" in proc.stdout, proc.stdout
    journal = Journal.open(db, "DEMO-1")
    entries = list(journal.entries())
    journal.close()
    kinds = [e.kind for e in entries if e.kind.startswith("mini_baccarat.")]
    assert kinds[1:] == [
        "mini_baccarat.shuffler_malfunctioned", *["mini_baccarat.fact_established"] * 3,
        *["mini_baccarat.wager_offered"] * 3, "mini_baccarat.cards_reshuffled",
        "mini_baccarat.cards_cut", "mini_baccarat.coup_continued"]
    offers = [(e.payload["area"], e.payload["returned"]) for e in entries
              if e.kind == "mini_baccarat.wager_offered"]
    assert offers == [("1", True), ("3", False), ("5", False)]
    settled = next(e for e in entries if e.kind == "punto_banco.coup_settled")
    assert [s["area"] for s in settled.payload["settlements"]] == ["3", "5"]  # seat 1 left
    report = replay(entries, str(db))
    assert report.ok and len(report.rounds) == 1
    for name in ("dealer-malfunction-800x480.png", "dealer-procedure-04-800x480.png",
                 "dealer-paying-800x480.png", "signage-1920x1080.png"):
        got, counts = _colours(out / name)
        assert len(counts) > 30, name
        SHOTS.mkdir(parents=True, exist_ok=True)
        (SHOTS / f"demo-minibaccarat-{name}").write_bytes((out / name).read_bytes())
