"""`tableside demo --headless`: the README's run command with no display plays one coup by
touch and leaves screenshots of both screens. A smoke test that checks they are not blank."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from kiosk.ui import theme
from tests.ui.conftest import ROOT, SHOTS, UI

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


def test_headless_touch_21_plays_a_shoe_through_the_cut_card_shuffle(ui: UI,
                                                                      tmp_path: Path) -> None:
    """Issue 4's done-when: a shoe of Touch 21 from the demo with the simulated shoe on a
    pseudo-terminal, through the real driver, including the cut-card shuffle (rules 4.1.3,
    4.2.2 shuffle and cut)."""
    out = tmp_path / "shots"
    env = dict(os.environ)
    env.pop("DISPLAY", None)
    env.pop("GPIOZERO_PIN_FACTORY", None)
    proc = subprocess.run(
        [sys.executable, "-m", "kiosk.cli", "demo", "--game", "touch-21", "--headless",
         "--out", str(out), "--journal", str(tmp_path / "t21.db"), "--fresh", "--rounds", "12"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    settled = [ln for ln in lines if "round settled" in ln]
    assert len(settled) >= 2, proc.stdout
    assert any("rule 4.1.1" in ln for ln in lines)  # the first shuffle, before play
    assert any("Cutting card out" in ln for ln in lines), proc.stdout
    assert any("rule 4.1.3" in ln for ln in lines), proc.stdout  # the cut-card shuffle
    assert "shuffles: 2" in proc.stdout
    # The journal holds the whole shoe: every card from the pty, the burns, both cuts.
    from kiosk.store.journal import Journal

    journal = Journal.open(tmp_path / "t21.db", "DEMO-1")
    kinds = Counter(e.kind for e in journal.entries())
    journal.close()
    assert kinds["bj_round_settled"] == len(settled)
    assert kinds["bj_cut"] == 2 and kinds["bj_burned"] >= 1 and kinds["bj_cut_card_out"] == 1
    assert kinds["bj_card_dealt"] >= 2 * 7 * len(settled) // 2
    assert kinds["bj_blackjacks_checked"] == len(settled)  # rule 7.2 items 4-5, every round
    for name, size in {"dealer-800x480.png": (800, 480), "dealer-1920x1080.png": (1920, 1080),
                       "signage-1920x1080.png": (1920, 1080)}.items():
        got_size, counts = _colours(out / name)
        assert got_size == size, name
        assert len(counts) > 30, f"{name} has only {len(counts)} colours"
        (SHOTS / f"demo-touch21-{name}").write_bytes((out / name).read_bytes())
