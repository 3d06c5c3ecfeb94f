"""The README's blackjack odds example works as written, from a fresh example
configuration (here with --rounds, so that it takes a second rather than two minutes)."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

from tests.processes import ROOT, env


def readme_command(starting: str) -> list[str]:
    """The README's command line that starts with `starting`, its comment left out."""
    for line in (ROOT / "README.md").read_text().splitlines():
        text = line.strip()
        if text.startswith(starting):
            return shlex.split(text.split("  #")[0])
    raise AssertionError(f"the README has no line starting {starting!r}")


def test_the_readme_blackjack_odds_example_works(tmp_path: Path) -> None:
    example = readme_command(".venv/bin/tableside config example --game blackjack")
    odds = readme_command(".venv/bin/tableside odds blackjack")
    assert example[-2:] == [">", "table.toml"] and odds[-2:] == ["--config", "table.toml"]
    program = [sys.executable, "-m", "kiosk.cli"]  # .venv/bin/tableside, as installed
    made = subprocess.run(program + example[1:-2], cwd=tmp_path, env=env(tmp_path),
                          capture_output=True, text=True, timeout=60)
    assert made.returncode == 0, made.stderr
    (tmp_path / "table.toml").write_text(made.stdout)
    out = subprocess.run(program + odds[1:] + ["--rounds", "2000", "--json"], cwd=tmp_path,
                         env=env(tmp_path), capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["rounds"] == 2000 and result["hands"] == 14_000  # seven boxes a round
    assert result["rules"].startswith("Blackjack, 6 decks, dealer stands on all 17s")
    assert result["combinatorial_percent"] == 0.5167  # docs/blackjack-odds.md
    assert not result["target_met"]
    # The engine's figure agrees with the analysis within its own interval (rarely not).
    assert abs(result["house_edge_percent"] - result["combinatorial_percent"]) < (
        2 * result["half_width_percent"])
    text = subprocess.run(program + odds[1:] + ["--rounds", "2000"], cwd=tmp_path,
                          env=env(tmp_path), capture_output=True, text=True, timeout=120)
    assert text.returncode == 0
    lines = text.stdout.splitlines()
    assert lines[0].startswith("Blackjack: Blackjack, 6 decks")
    assert lines[1].startswith("Simulated through the engine: 14,000 hands in 2,000 rounds")
    assert "(not yet within the 0.1% target)" in lines[2]
    assert lines[-1] == "Combinatorial, same strategy: 0.517%"


def test_odds_help_reads_right() -> None:
    from click.testing import CliRunner

    from kiosk.cli import main

    out = CliRunner().invoke(main, ["odds", "blackjack", "-h"])
    assert out.exit_code == 0
    assert "95% confidence" in out.output and "%%" not in out.output
    assert "--rounds" in out.output
