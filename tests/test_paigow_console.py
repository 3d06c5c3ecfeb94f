"""Pai gow's typed console (`tableside run --config table.toml --console`): a round typed
line by line through the real session and journal, a refusal said and not recorded, and the
journal replayed with every payment recomputed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from kiosk.cli import main
from kiosk.replay import load_entries, replay
from kiosk.ui.games.paigow import command
from tests.processes import ROOT, env

SCRIPT = """\
wash
bank player 2 1000
bet 6 200
bet 3 400
close
hand 3 33 23 56 36
unhand 3
hand 3 33 23 56 36
banker 44 46 13 22 high 44 46
hand 6 66 66 11 45
banker 44 46 13 22 high 44 46
confirm
status
quit
"""


def test_a_round_typed_at_the_console(tmp_path: Path) -> None:
    from kiosk.config import example

    journal = tmp_path / "pg.db"
    toml = tmp_path / "table.toml"
    toml.write_text(example("paigow").replace('journal = "data/PG-01.db"',
                                              f'journal = "{journal}"'))
    proc = subprocess.run([sys.executable, "-m", "kiosk.cli", "run", "--config", str(toml),
                           "--console"], input=SCRIPT, cwd=ROOT, env=env(tmp_path),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = proc.stdout
    # Pai gow's tiles are keyed in: the console opens no card shoe, not even a simulated one.
    assert ", no card device (Pai gow deals no cards)\n" in out
    assert "SIMULATED SHOE" not in out
    assert "  refused: Area 6 sets its hands first: the bank's come last (rule 13.2.3)" in out
    assert "    area 3  33 23 | 56 36  1 (chong) / 0" in out
    assert "      13.2.7  remainder  area 2         R200  losing wager area -> player/banker" \
        in out
    assert "      14.2    commission area 2          R10  player/banker -> commission" in out
    assert "Round 2, betting, not washed. Bank: house." in out
    exported = tmp_path / "pg.jsonl"
    assert CliRunner().invoke(main, ["journal", "export", str(journal), "-o",
                                     str(exported)]).exit_code == 0
    rows = load_entries(exported)
    kinds = [r.kind for r in rows]
    assert kinds.count("paigow.settled") == 1 and kinds.count("paigow.bank_hand_set") == 1
    assert kinds.count("paigow.hand_unset") == 1 and kinds.count("paigow.hand_set") == 3
    assert "  area 3's hands taken off, to be keyed again" in out
    report = replay(rows, str(exported))
    assert report.ok and [c.outcome for c in report.rounds] == [
        "banker area 2 8 (yun) / 8 (gor): area 3 lose -R400; area 6 win +R190"]


def test_the_demo_opens_no_card_device_for_a_game_with_no_shoe(tmp_path: Path) -> None:
    """The scripted demo plays pai gow with no card device, simulated or real."""
    import asyncio

    from kiosk.assembly import demo_config
    from kiosk.console import run_demo
    from kiosk.rules.paigow.config import PaiGowRules
    from kiosk.store.journal import Journal

    assert not hasattr(PaiGowRules(), "decks")  # no pretend shoe for the console
    session = asyncio.run(run_demo(demo_config(tmp_path / "pg.db", "paigow"), rounds=3, seed=5,
                                   pace=0.0))
    assert session.simulated == set() and not session.has_device("shoe")
    assert session.state.round == 4  # three rounds played, each settled or void
    journal = Journal.open(tmp_path / "pg.db", "DEMO-1")
    kinds = [e.kind for e in journal.entries()]
    journal.close()
    assert "paigow.washed" in kinds
    assert not [k for k in kinds if "shoe" in k or "card" in k]


@pytest.mark.parametrize(("line", "words"), [
    ("hand 2 66 66 11", "unknown command"),
    ("hand x 66 66 11 11", "is not an area number"),
    ("bet 2 twelve", "is not an amount"),
    ("hand 2 66 66 11 17", "'17' is not a tile"),
    ("bank nobody 2 100", "unknown command"),
])
def test_what_the_console_cannot_read_is_said_in_one_line(line: str, words: str) -> None:
    with pytest.raises((ValueError, click.BadParameter), match=words):
        command(line)
