"""Journals written before the game registry and the one fold still replay identically, and
fold to the same table (tests/golden_journals/README.md)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from kiosk.replay import load_entries, replay
from kiosk.table.fold import fold

GOLDEN = Path(__file__).parent / "golden_journals"
MINI_BACCARAT = ["mb_transfer", "mb_replace", "mb_terminate", "mb_shoe"]  # rules 12.2-12.5
SAME = ["pb", "bj", "t21", "bj_rules", "roulette", "az", "pg", *MINI_BACCARAT]


def _report(name: str) -> dict[str, object]:
    source = f"tests/golden_journals/{name}.jsonl"
    out: dict[str, object] = json.loads(json.dumps(
        replay(load_entries(GOLDEN / f"{name}.jsonl"), source).as_json()))
    return out


@pytest.mark.parametrize("name", SAME)
def test_an_old_journal_replays_exactly_as_it_did(name: str) -> None:
    before = json.loads((GOLDEN / f"{name}.replay.json").read_text())
    after = _report(name)
    assert after == before
    assert after["ok"] and after["rounds"]  # rule 2.8: every round recomputed, none differs


@pytest.mark.parametrize("name", [*SAME, "mixed"])
def test_an_old_journal_folds_to_the_same_table(name: str) -> None:
    want = json.loads((GOLDEN / "final_states.json").read_text())[name]
    folded = fold(load_entries(GOLDEN / f"{name}.jsonl"))
    assert folded.game is not None
    assert folded.game.engine.next_step(folded.state) == want["next_step"]
    assert hashlib.sha256(repr(folded.state).encode()).hexdigest() == want["state_sha256"]


def test_a_table_that_changed_game_has_every_round_audited() -> None:
    """Before the one fold, replay audited the punto banco coup and nothing of the blackjack
    that followed the table's reopening; now every round of both games is recomputed."""
    before = json.loads((GOLDEN / "mixed.replay.json").read_text())
    after = _report("mixed")
    assert len(before["rounds"]) == 1  # what the old replay saw
    assert after["rounds"][0] == before["rounds"][0]  # the punto banco coup, unchanged
    settled, voided = after["rounds"][1], after["rounds"][2]
    assert (settled["round"], settled["status"], voided["round"], voided["status"]) == (
        1, "settled", 2, "voided")
    # Box 1: T 6 stands, dealer 7 5 5 = 17: the stake of R50 lost. Box 2: 8 3 doubled by A
    # and by B behind, 9 for 20 beats 17: each wins their doubled stake (R200 and R100).
    assert settled["hands"] == {"dealer": ["7D", "5H", "5H"], "box 1/1": ["TS", "6C"],
                                "box 2/1": ["8H", "3D", "9C"]}
    nets = {(s["box"], s["player"]): s["paid"] for s in settled["settlements"]}
    assert nets == {(1, "A"): 0, (2, "A"): 20_000, (2, "B"): 10_000}
    assert after["ok"] and after["differences"] == 0 and after["table_id"] == "T-01"
