"""The `tableside` command's tools, run the way a technician runs them."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from kiosk.cli import main
from tests.test_replay import _journal


def test_odds_punto_banco_json_has_the_exact_8_deck_counts() -> None:
    # Also proves the console script works as installed.
    out = subprocess.run([sys.executable, "-m", "kiosk.cli", "odds", "punto-banco",
                          "--decks", "8", "--json"], capture_output=True, text=True,
                         check=True).stdout
    data = json.loads(out)
    assert data["counts"] == {"banker": 2_292_252_566_437_888,
                              "player": 2_230_518_282_592_256, "tie": 475_627_426_473_216}
    assert data["total"] == 4_998_398_275_503_360
    assert {k: v["percent"] for k, v in data["house_edge"].items()} == {
        "banker": "1.0579", "player": "1.2351", "tie": "14.3596"}


def test_odds_text_output() -> None:
    result = CliRunner().invoke(main, ["odds", "punto-banco"])
    assert result.exit_code == 0
    assert "Banker  19:20" in result.output and "1.0579%" in result.output


def test_journal_verify_names_the_first_bad_row(tmp_path: Path) -> None:
    path = _journal(tmp_path / "j.db")
    runner = CliRunner()
    ok = runner.invoke(main, ["journal", "verify", str(path)])
    assert ok.exit_code == 0 and ok.output.startswith("OK: 11 rows")
    con = sqlite3.connect(path)
    con.execute("DROP TRIGGER IF EXISTS journal_no_update")
    for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type='trigger'").fetchall():
        con.execute(f"DROP TRIGGER {name}")
    con.execute("UPDATE journal SET payload = replace(payload, '5500', '9500') WHERE seq = 3")
    con.commit()
    con.close()
    bad = runner.invoke(main, ["journal", "verify", str(path)])
    assert bad.exit_code == 1
    assert bad.output.startswith("BROKEN at row 3:")


def test_config_check_refuses_with_line(tmp_path: Path) -> None:
    f = tmp_path / "t.toml"
    f.write_text('[table]\nid = "PB-01"\n[punto_banco]\ndecks = "eight"\n')
    result = CliRunner().invoke(main, ["config", "check", str(f)])
    assert result.exit_code == 2
    assert "line 4: punto_banco.decks: must be a whole number" in result.output


def test_config_example_for_each_game_checks_out(tmp_path: Path) -> None:
    runner = CliRunner()
    for game, words in (("blackjack", "blackjack, 6 decks, 7 boxes"),
                        ("touch-21", "touch-21, 2 decks, 7 boxes"),
                        ("punto-banco", "punto-banco, 8 decks, 7 areas")):
        example = runner.invoke(main, ["config", "example", "--game", game])
        assert example.exit_code == 0
        path = tmp_path / f"{game}.toml"
        path.write_text(example.output)
        checked = runner.invoke(main, ["config", "check", str(path)])
        assert checked.exit_code == 0, checked.output
        assert words in checked.output


def test_help_and_version_as_people_expect() -> None:
    """`-h` works like `--help` on every command, and `--version` answers."""
    from click.testing import CliRunner

    from kiosk.cli import main

    short = CliRunner().invoke(main, ["-h"])
    assert short.exit_code == 0 and short.output == CliRunner().invoke(main, ["--help"]).output
    assert "replay" in short.output
    sub = CliRunner().invoke(main, ["odds", "roulette", "-h"])
    assert sub.exit_code == 0 and "--json" in sub.output
    version = CliRunner().invoke(main, ["--version"])
    assert version.exit_code == 0 and version.output.startswith("tableside, version ")


def test_run_with_no_display_says_so_and_fails(tmp_path, monkeypatch) -> None:
    from click.testing import CliRunner

    from kiosk.cli import main

    cfg = tmp_path / "table.toml"
    cfg.write_text(CliRunner().invoke(main, ["config", "example"]).output.replace(
        "data/", f"{tmp_path}/"))
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):
        monkeypatch.delenv(name, raising=False)
    out = CliRunner().invoke(main, ["run", "--config", str(cfg)])
    assert out.exit_code == 1 and "no display here" in out.output
    assert "--headless" in out.output and "--console" in out.output
