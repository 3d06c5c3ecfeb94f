"""The game seam, proven by a toy (docs/adding-a-game.md): high card lives entirely in
tests/toy_game/ and is registered by one line. Its configuration, a table session fed by
shoe events, replay, the headless demo and the players' sign all work with no edit to the
kiosk's own files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from hardware import events as ev
from kiosk.config import example, parse
from kiosk.replay import load_entries, replay
from kiosk.rules.cards import Card
from kiosk.rules.registry import EXTRA_GAMES, GAMES, game
from kiosk.store.journal import Journal
from kiosk.table.session import TableSession

ROOT = Path(__file__).resolve().parents[1]
TOY = "tests.toy_game.spec"


@pytest.fixture
def toy() -> Iterator[object]:
    from tests.toy_game import spec

    if "high-card" not in GAMES.names():
        GAMES.register(spec.SPEC)
    yield spec.SPEC
    GAMES.unregister("high-card")


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env[EXTRA_GAMES] = TOY
    env.pop("DISPLAY", None)
    env["SDL_VIDEODRIVER"] = "offscreen"
    env["GPIOZERO_PIN_FACTORY"] = "mock"
    env.setdefault("KIVY_HOME", str(ROOT / ".kivy"))
    for name in ("KIVY_NO_ARGS", "KIVY_NO_CONFIG", "KIVY_NO_FILELOG"):
        env.setdefault(name, "1")
    return env


def _cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kiosk.cli", *args], cwd=ROOT, env=_env(),
                          capture_output=True, text=True, timeout=timeout)


def _played(path: Path, toy: object) -> Path:
    """One round by shoe events: R50 on the player, the player's king beats the dealer's 7."""
    from tests.toy_game import rules as hc

    cfg = parse(example("high-card").replace('journal = "data/HC-01.db"',
                                             f'journal = "{path}"'))
    session = TableSession(game(cfg.game), Journal.open(path, cfg.table_id), cfg.rules,
                           cfg.table_id)
    session.perform(hc.shuffle)
    session.perform(lambda s: hc.place_bet(s, hc.Side.PLAYER, 5_000))
    session.perform(hc.close_betting)
    for n, code in enumerate(("KD", "7C"), start=1):
        session.on_device_event(ev.CardRead(device="SHOE", seq=n, card=Card.parse(code)))
    assert session.next_step() == "Player: pay and confirm"
    session.perform(hc.settlement)
    session.journal.close()
    return path


def test_the_toy_is_one_registry_line_and_the_cli_lists_it() -> None:
    text = (ROOT / "tests/toy_game/spec.py").read_text()
    assert text.count("register(") == 1  # the one line (and its import)
    out = _cli("games")
    assert out.returncode == 0, out.stderr
    assert "high-card    High card: rules none (a test game); [high_card]" in out.stdout


def test_its_config_example_checks_and_misspelt_keys_are_refused(toy: object,
                                                                 tmp_path: Path) -> None:
    out = _cli("config", "example", "--game", "high-card")
    assert out.returncode == 0, out.stderr
    assert out.stdout == example("high-card")
    cfg = parse(out.stdout)
    assert cfg.game == "high-card" and cfg.rules.minimum == 1_000  # R10 in cents
    path = tmp_path / "table.toml"
    path.write_text(out.stdout.replace("maximum = 1000", "maximun = 1000"))
    bad = _cli("config", "check", str(path))
    assert bad.returncode == 2
    assert "high_card.maximun: unknown key (did you mean maximum?)" in bad.stderr


def test_a_round_by_shoe_events_replays_and_a_forged_payout_is_found(toy: object,
                                                                      tmp_path: Path) -> None:
    path = _played(tmp_path / "hc.db", toy)
    report = replay(load_entries(path))
    assert report.ok and report.table_id == "HC-01"
    (round_,) = report.coups
    assert round_.hands == {"player": ["KD"], "dealer": ["7C"]}
    assert round_.settlements == [{"side": "player", "paid": 5_000}]
    entries = load_entries(path)
    entries[-1].payload["paid"] = [["player", 10_000]]
    forged = replay(entries)
    assert not forged.ok and not forged.chain_ok  # the chain breaks at the edited row
    assert forged.coups[0].differences == [
        "recorded player [('player', 10000)], recomputed player [('player', 5000)]"]


@pytest.mark.slow
def test_the_headless_demo_plays_a_round_of_it(toy: object, tmp_path: Path) -> None:
    out = _cli("demo", "--game", "high-card", "--headless", "--no-signage", "--fresh",
               "--journal", str(tmp_path / "demo.db"), "--out", str(tmp_path / "shots"),
               timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "round settled: round 1" in out.stdout
    assert (tmp_path / "shots" / "dealer-800x480.png").stat().st_size > 1000
    report = replay(load_entries(tmp_path / "demo.db"))
    assert report.ok and [c.status for c in report.coups] == ["settled"]
    assert report.coups[0].settlements[0]["side"] == "player"  # the one bet, tapped


@pytest.mark.slow
def test_its_sign_follows_the_journal_in_the_signage_process(toy: object,
                                                            tmp_path: Path) -> None:
    path = _played(tmp_path / "hc.db", toy)
    proc = subprocess.run(
        [sys.executable, "-m", "kiosk.ui.signage", "--journal", str(path), "--trace",
         "--size", "800x480", "--screenshot", str(tmp_path / "sign.png"), "--after", "1.0"],
        cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    last = lines[-1]
    assert (last["game"], last["round"], last["table_id"]) == ("high-card", 2, "HC-01")
    assert "HIGH CARD  round 2  last: PLAYER" in last["shown"]
    assert (tmp_path / "sign.png").stat().st_size > 1000
