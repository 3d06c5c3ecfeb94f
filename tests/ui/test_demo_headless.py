"""`tableside demo --headless`: the README's run command with no display plays one coup by
touch and leaves screenshots of both screens. A smoke test that checks they are not blank."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from kiosk.ui import theme
from tests.ui.conftest import ROOT, SHOTS, UI

if TYPE_CHECKING:
    from kiosk.store.journal import Entry

pytestmark = pytest.mark.slow


def _colours(path: Path) -> tuple[tuple[int, int], Counter[tuple[int, int, int]]]:
    from kivy.core.image import Image as CoreImage

    img = CoreImage.load(str(path), keep_data=True)
    w, h = (int(v) for v in img.size)
    counts: Counter[tuple[int, int, int]] = Counter()
    for y in range(0, h, 6):
        for x in range(0, w, 6):
            r, g, b, _a = img.read_pixel(x, y)
            counts[(round(r * 255), round(g * 255), round(b * 255))] += 1
    return (w, h), counts


def test_headless_demo_plays_a_coup_and_screenshots_both_screens(ui: UI,
                                                                 tmp_path: Path) -> None:
    out = tmp_path / "shots"
    env = dict(os.environ)
    env.pop("DISPLAY", None)
    env.pop("SDL_VIDEODRIVER", None)  # the demo must find out by itself that there is no display
    env.pop("GPIOZERO_PIN_FACTORY", None)
    proc = subprocess.run(
        [sys.executable, "-m", "kiosk.cli", "demo", "--out", str(out),
         "--journal", str(tmp_path / "demo.db"), "--fresh"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "No display here" in proc.stdout
    assert "coup settled: coup 1" in proc.stdout
    assert "lamp after no more bets: green off, red on" in proc.stdout, proc.stdout
    expected = {"dealer-800x480.png": (800, 480), "dealer-1920x1080.png": (1920, 1080),
                "signage-1920x1080.png": (1920, 1080), "signage-800x480.png": (800, 480)}
    felt = tuple(round(c * 255) for c in theme.FELT[:3])
    for name, size in expected.items():
        path = out / name
        assert path.exists(), f"{name} missing: {proc.stdout}"
        got_size, counts = _colours(path)
        assert got_size == size, name
        top, n = counts.most_common(1)[0]
        assert n < 0.9 * sum(counts.values()), f"{name} is nearly one colour: {top}"
        assert len(counts) > 30, f"{name} has only {len(counts)} colours"
        SHOTS.mkdir(parents=True, exist_ok=True)
        (SHOTS / f"demo-{name}").write_bytes(path.read_bytes())
    _size, dealer = _colours(out / "dealer-800x480.png")
    assert dealer[felt] > 0.2 * sum(dealer.values()), "the dealer screen is on table felt"


def _play_a_shoe(tmp_path: Path, game: str, *options: str) -> list[Entry]:
    """Run `tableside demo --game GAME --headless` through a shoe in a subprocess (the demo
    touches the real dealer screen; the simulated shoe sends its cards over a real
    pseudo-terminal) and check what every blackjack shoe must show, in its output, its journal
    and its screenshots (saved as demo-GAME-NAME.png). Returns the journal."""
    out = tmp_path / "shots"
    db = tmp_path / f"{game}.db"
    env = dict(os.environ)
    env.pop("DISPLAY", None)
    env.pop("GPIOZERO_PIN_FACTORY", None)
    proc = subprocess.run(
        [sys.executable, "-m", "kiosk.cli", "demo", "--game", game, "--headless",
         "--out", str(out), "--journal", str(db), "--fresh", "--rounds", "12", *options],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    settled = [ln for ln in lines if "round settled" in ln]
    assert len(settled) >= 2, proc.stdout
    assert any("rule 4.1.1" in ln for ln in lines)  # the first shuffle, before play
    assert any("Cutting card out" in ln for ln in lines), proc.stdout
    assert any("rule 4.1.3" in ln for ln in lines), proc.stdout  # the cut-card shuffle
    assert "shuffles: 2" in proc.stdout
    assert not any("error:" in ln or "not settled" in ln for ln in lines), proc.stdout

    # The journal holds the whole shoe: every card from the pty, the burns, both cuts.
    from kiosk.replay import replay
    from kiosk.store.journal import Journal

    journal = Journal.open(db, "DEMO-1")
    entries = list(journal.entries())
    journal.close()
    kinds = Counter(e.kind for e in entries)
    assert kinds["blackjack.round_settled"] == len(settled)
    assert kinds["blackjack.cut"] == 2 and kinds["blackjack.burned"] == 2
    assert kinds["blackjack.cut_card_out"] == 1
    assert kinds["blackjack.shuffled"] == 2 and kinds["blackjack.round_voided"] == 0
    assert kinds["blackjack.card_dealt"] >= 2 * 7 * len(settled) // 2
    opened = entries[0]
    assert opened.kind == "blackjack.table_opened" and opened.payload["game"] == game
    decks = opened.payload["rules"]["decks"]
    # The demo puts the cutting card as deep as rule 4.5 allows, half way from the back...
    cuts = [e.payload for e in entries if e.kind == "blackjack.cut"]
    assert [c["cutting_card_from_back"] for c in cuts] == [52 * decks // 2] * 2
    # ...and the shoe says CUT exactly there: the burn and every card before it counted.
    out_at = next(i for i, e in enumerate(entries) if e.kind == "blackjack.cut_card_out")
    before = Counter(e.kind for e in entries[:out_at])
    assert before["blackjack.burned"] + before["blackjack.card_dealt"] == 52 * decks - cuts[0][
        "cutting_card_from_back"]
    # Rule 4.1.3: the round the cutting card came out in is finished, then the shuffle.
    rounds = [e for e in entries if e.kind == "blackjack.round_settled"]
    reshuffle = [i for i, e in enumerate(entries) if e.kind == "blackjack.shuffled"][1]
    assert entries[out_at].payload["round"] == rounds[-1].payload["round"] == len(settled)
    assert entries.index(rounds[-1]) < reshuffle
    assert [e.kind for e in entries[reshuffle:] if e.kind.startswith("blackjack.")] == [
        "blackjack.shuffled", "blackjack.cut", "blackjack.burned"]
    # Rule 2.8: the journal recomputes to what was recorded, round by round.
    report = replay(entries, str(db))
    assert report.chain_ok and report.differences == 0 and not report.problems, report
    assert [c.status for c in report.rounds] == ["settled"] * len(settled)

    sizes = {"dealer-800x480.png": (800, 480), "dealer-1920x1080.png": (1920, 1080),
             "dealer-betting-800x480.png": (800, 480), "dealer-paying-800x480.png": (800, 480),
             "signage-1920x1080.png": (1920, 1080), "signage-800x480.png": (800, 480)}
    r, g, b = (round(c * 255) for c in theme.FELT[:3])
    felt = (r, g, b)
    SHOTS.mkdir(parents=True, exist_ok=True)
    for name, size in sizes.items():
        got_size, counts = _colours(out / name)
        assert got_size == size, name
        assert len(counts) > 30, f"{name} has only {len(counts)} colours"
        top, n = counts.most_common(1)[0]
        assert n < 0.9 * sum(counts.values()), f"{name} is nearly one colour: {top}"
        if name.startswith("dealer"):
            assert counts[felt] > 0.15 * sum(counts.values()), f"{name} is not on table felt"
        (SHOTS / f"demo-{game.replace('-', '')}-{name}").write_bytes((out / name).read_bytes())
    return entries


def test_headless_touch_21_plays_a_shoe_through_the_cut_card_shuffle(ui: UI,
                                                                      tmp_path: Path) -> None:
    """A shoe of Touch 21 from the demo with the simulated shoe on a
    pseudo-terminal, through the real driver, including the cut-card shuffle (rules 4.1.3,
    4.2.2 shuffle and cut)."""
    entries = _play_a_shoe(tmp_path, "touch-21")
    kinds = Counter(e.kind for e in entries)
    assert entries[0].payload["rules"]["decks"] == 2  # rule 7.5, the demo's default
    # Rule 7.2 items 4-5: every round checked for blackjacks.
    assert kinds["blackjack.blackjacks_checked"] == kinds["blackjack.round_settled"]


_TENS = frozenset("TJQK")


def _best(cards: list[str]) -> int:
    """A blackjack total from the journal's card codes ("AS", "TD"): aces 1 or 11."""
    hard = sum(1 if c[0] == "A" else 10 if c[0] in _TENS else int(c[0]) for c in cards)
    return hard + 10 if any(c[0] == "A" for c in cards) and hard + 10 <= 21 else hard


def test_headless_blackjack_plays_a_shoe_through_the_cut_card_shuffle(ui: UI,
                                                                      tmp_path: Path) -> None:
    """Standard blackjack (section 4): a shoe from the demo with the
    simulated shoe, through the cut-card shuffle. Four decks, the fewest rule 4.5 allows, so
    the cutting card (half way) comes out in about five rounds."""
    entries = _play_a_shoe(tmp_path, "blackjack", "--decks", "4", "--seed", "2026")
    kinds = Counter(e.kind for e in entries)
    rules = entries[0].payload["rules"]
    assert rules["variant"] == "blackjack" and rules["decks"] == 4
    assert rules["dealer_hits_soft_17"] is False  # rule 4.2: the dealer stands on all 17s
    assert kinds["blackjack.blackjacks_checked"] == 0  # Touch 21 only (rule 7.2 items 4-5)
    rounds = [e.payload for e in entries if e.kind == "blackjack.round_settled"]
    # Rule 4.7: insurance is offered (and closed) exactly when the dealer's card is an ace;
    # seed 2026's four-deck shoe shows one, so the offer is exercised.
    aces_up = sum(r["dealer_cards"][0][0] == "A" for r in rounds)
    assert aces_up >= 1
    assert kinds["blackjack.insurance_closed"] == aces_up
    boxes = [1, 2, 3, 5, 6, 7]  # the demo bets these
    for r in rounds:
        n = r["round"]
        dealt = [e.payload for e in entries
                 if e.kind == "blackjack.card_dealt" and e.payload["round"] == n]
        # Rule 4.2 item 3: one card to each box with a bet, box 1 first, one to the dealer,
        # a second to each box; no hole card: the dealer's next card waits for the players.
        assert [d["box"] for d in dealt[:13]] == [*boxes, 0, *boxes], n
        later = [d["box"] for d in dealt[13:]]
        assert set(later[later.index(0) if 0 in later else len(later):]) <= {0}, (n, later)
        dealer = r["dealer_cards"]
        assert dealer == [d["card"] for d in dealt if d["box"] == 0]
        hands = {(box, hand): cards for box, hand, cards in r["hands"]}
        assert sorted(hands) == [(b, 1) for b in boxes]
        for (box, hand), cards in hands.items():
            assert cards == [d["card"] for d in dealt if d["box"] == box and d["hand"] == hand]
        # Rule 4.2: the dealer draws to 16 and stands on all 17s.
        assert all(_best(dealer[:k]) < 17 for k in range(1, len(dealer))), (n, dealer)
        live = [c for c in hands.values() if _best(c) <= 21 and not
                (len(c) == 2 and _best(c) == 21)]
        assert _best(dealer) >= 17 or not live, (n, dealer)
        d_total = _best(dealer)
        d_blackjack = len(dealer) == 2 and d_total == 21
        for s in (*r["settlements"], *r["paid_earlier"]):
            assert s["stake"] == rules["minimum"] and s["player"] == "A", s
            cards = hands[(s["box"], s["hand"])]
            p = _best(cards)
            if len(cards) == 2 and p == 21:  # a blackjack: 3:2, unless the dealer has one
                want = "push" if d_blackjack else "blackjack"
                if dealer[0][0] != "A" and dealer[0][0] not in _TENS:
                    assert s in r["paid_earlier"], (n, s)  # paid at once (rule 4.2 item 5)
            elif p > 21 or d_blackjack or (d_total <= 21 and p < d_total):
                want = "lose"
            elif p == d_total:
                want = "push"
            else:
                want = "win"
            assert s["outcome"] == want, (n, cards, dealer, s)
            paid = {"win": s["stake"], "blackjack": s["stake"] * 3 // 2}.get(want, 0)
            returned = {"lose": 0, "push": s["stake"]}.get(want, s["stake"] + paid)
            assert (s["paid"], s["returned"]) == (paid, returned), (n, s)
        assert len(r["settlements"]) + len(r["paid_earlier"]) == len(boxes), n


@pytest.mark.parametrize(("game", "decks", "clause"),
                         [("blackjack", "3", "rule 4.5"), ("touch-21", "4", "rule 7.5")])
def test_demo_refuses_a_deck_count_the_game_does_not_allow(tmp_path: Path, game: str,
                                                           decks: str, clause: str) -> None:
    """`--decks` is checked by the game's rules before anything starts, and a refused
    `--fresh` run leaves the journal it would have deleted."""
    from click.testing import CliRunner

    from kiosk.cli import main

    db = tmp_path / "kept.db"
    db.write_bytes(b"journal")
    result = CliRunner().invoke(main, ["demo", "--game", game, "--decks", decks, "--headless",
                                       "--journal", str(db), "--fresh"])
    assert result.exit_code == 2, result.output
    assert "--decks" in result.output and clause in result.output, result.output
    assert db.read_bytes() == b"journal"


def test_headless_roulette_plays_a_spin_through_the_simulated_wheel(ui: UI,
                                                                    tmp_path: Path) -> None:
    """The wheel game end to end: chip changes and bets by touch, the Spin button starts the
    simulated SS2 wheel (`*u 1` over a real pseudo-terminal), the wheel launches the ball,
    calls no more bets and the number; the payouts are confirmed; the journal replays."""
    out, db = tmp_path / "shots", tmp_path / "roulette.db"
    env = dict(os.environ)
    env.pop("DISPLAY", None)
    env.pop("GPIOZERO_PIN_FACTORY", None)
    proc = subprocess.run(
        [sys.executable, "-m", "kiosk.cli", "demo", "--game", "roulette", "--headless",
         "--out", str(out), "--journal", str(db), "--fresh", "--seed", "5"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "bets placed: 8 chips places, pink 2, yellow 6" in proc.stdout
    assert "(wheel)" in proc.stdout and "spin settled: spin 1" in proc.stdout, proc.stdout
    from kiosk.replay import replay
    from kiosk.store.journal import Journal

    journal = Journal.open(db, "DEMO-1")
    entries = list(journal.entries())
    journal.close()
    kinds = [e.kind for e in entries if e.kind.startswith("roulette.")]
    assert kinds[-4:] == ["roulette.ball_spun", "roulette.betting_closed",
                          "roulette.number_called", "roulette.spin_settled"]
    called = next(e for e in entries if e.kind == "roulette.number_called")
    assert called.payload["source"] == "wheel"
    assert f"number: {called.payload['number']} (wheel)" in proc.stdout
    report = replay(entries, str(db))
    assert report.ok and len(report.rounds) == 1
    for name, size in {"dealer-800x480.png": (800, 480), "dealer-1280x800.png": (1280, 800),
                       "dealer-betting-800x480.png": (800, 480),
                       "signage-1920x1080.png": (1920, 1080)}.items():
        got, counts = _colours(out / name)
        assert got == size and len(counts) > 30, name
        SHOTS.mkdir(parents=True, exist_ok=True)
        (SHOTS / f"demo-roulette-{name}").write_bytes((out / name).read_bytes())
