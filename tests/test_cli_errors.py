"""Errors in one format on stderr, `tableside: <message>`, no traceback, and one
exit status for bad usage (2, click's own), 1 for a job that could not be done."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from kiosk.cli import main
from tests.processes import ROOT, env


def tableside(tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kiosk.cli", *args], cwd=tmp, env=env(tmp),
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)


def one_format(err: str) -> None:
    assert "Traceback" not in err and "Error:" not in err, err
    lines = err.splitlines()
    assert lines and lines[0].startswith("tableside: "), err
    assert all(line.startswith(("tableside: ", "Try '")) for line in lines), err


def test_click_usage_errors_say_it_our_way_with_2(tmp_path: Path) -> None:
    out = tableside(tmp_path, "run", "--bogus")
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.splitlines() == ["tableside: No such option: --bogus",
                                       "Try 'tableside run -h' for help."]
    out = tableside(tmp_path, "journal", "verify")
    assert out.returncode == 2
    one_format(out.stderr)
    assert "Missing argument 'PATH'" in out.stderr


def test_our_own_refusals_are_bad_usage_too(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('[table]\nid = "RL-01"\ngame = "roulette"\n[bogus]\n')
    for args, words in (
            (["run", "--config", str(bad), "--console"],
             "bad.toml, line 4: bogus: unknown section [bogus]"),
            (["config", "check", str(bad)], "line 4: bogus: unknown section"),
            (["demo", "--game", "roulette", "--console"],
             "tableside: --console: American roulette has no typed console"),
            (["journal", "verify", "--head", "12", "x.db"], "--head is SEQ:HASH"),
            (["demo", "--game", "blackjack", "--decks", "2", "--no-pit"],
             "Blackjack is played with 4 to 8 decks (rule 4.5), not 2")):
        out = CliRunner().invoke(main, args)
        assert out.exit_code == 2, (args, out.output)
        assert words in out.stderr, (args, out.stderr)
        one_format(out.stderr)
    odds = CliRunner().invoke(main, ["config", "example", "--game", "punto-banco"]).output
    (tmp_path / "pb.toml").write_text(odds)
    out = tableside(tmp_path, "odds", "blackjack", "--config", "pb.toml")
    assert out.returncode == 2
    assert out.stderr.startswith("tableside: pb.toml configures punto-banco, not blackjack")
    one_format(out.stderr)


def test_a_tableside_error_from_a_command_is_one_line_not_a_traceback(tmp_path: Path
                                                                      ) -> None:
    (tmp_path / "notes.db").write_text("not a journal\n")
    out = tableside(tmp_path, "journal", "export", "notes.db")
    assert out.returncode == 1  # the job could not be done: not a usage mistake
    one_format(out.stderr)
    assert "the file is not a SQLite database" in out.stderr


def test_the_signage_program_says_it_the_same_way(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, "-m", "kiosk.ui.signage", "--size", "3x3"],
                         cwd=ROOT, env=env(tmp_path), capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 2
    assert out.stderr.splitlines() == [
        "tableside: Invalid value for '--size': 3x3 is smaller than 800x480, the smallest "
        "screen the layouts keep every button 9 mm and every text whole on, and limits "
        "players can read",
        "Try 'python -m kiosk.ui.signage -h' for help."]
    helped = subprocess.run([sys.executable, "-m", "kiosk.ui.signage", "-h"], cwd=ROOT,
                            env=env(tmp_path), capture_output=True, text=True, timeout=60)
    assert helped.returncode == 0 and "--journal" in helped.stdout


@pytest.mark.parametrize(("args", "words"), [
    (["--size", "3840x2160"], "'--size': 3840x2160 is larger than 1920x1080"),
    (["--size", "800x600"], "'--size': 800x600 is 1.33:1; the layouts serve 16:10 to 16:9"),
    (["--size", "2560x1080"], "'--size': 2560x1080 is larger than 1920x1080"),
    (["--size", "480x800"], "'--size': 480x800: a portrait sign is laid out for a full HD "
                            "screen on its side"),
    (["--name", "N" * 33], "'--name': at most 32 characters (33 given)"),
])
def test_the_signage_refuses_what_the_config_refuses(args: list[str], words: str) -> None:
    """`--size` and `--name` are held to `[display]` and `[table] name`'s limits: the same
    reason, one line, usage status 2."""
    from kiosk.ui.signage.app import signage

    out = CliRunner().invoke(signage, ["--journal", "x.db", *args])
    assert out.exit_code == 2, out.output
    assert f"Invalid value for {words}" in out.output


def test_a_configuration_nested_too_deep_to_read_is_one_line_not_a_traceback(tmp_path):
    path = tmp_path / "deep.toml"
    path.write_text("x = " + "[" * 100_000 + "]" * 100_000 + "\n")
    out = subprocess.run([sys.executable, "-m", "kiosk.cli", "config", "check", str(path)],
                         capture_output=True, text=True, cwd=tmp_path)
    assert out.returncode != 0 and "Traceback" not in out.stderr
    assert out.stderr.strip().endswith("nested too deep to read"), out.stderr
