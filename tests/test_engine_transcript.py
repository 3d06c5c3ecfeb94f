"""The blackjack engine plays exactly the rules it played: a golden transcript.

tests/engine_play.py plays a few hundred seeded rounds with random legal and illegal actions
and prints every step: the journal record of each Operation or the refusal's class, words and
clause, the dealer's next step and a digest of the state and of the dealer screen's queries;
then damaged journal records folded into those states, the values' eq/hash/repr/fields, a
table session on a real journal reopened and replayed, the basic strategy and a simulation.
The transcript must be the golden one (tests/golden/), written when the engine was split along
the rule sections and the compiled build removed, line for line: a refactor that changes one
refusal's words, one payout or one float of the strategy shows here.
"""

from __future__ import annotations

import copy
import gzip
import json
import os
import pickle
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kiosk.rules.blackjack import engine as bj, settle
from kiosk.rules.blackjack.house import BlackjackRules
from kiosk.rules.errors import UnreadableInput
from kiosk.rules.operations import operation_from_record
from tests.rules.blackjack.table import Table

ROOT = Path(__file__).resolve().parents[1]
SEED, ROUNDS, FUZZ = 7, 360, 1200
GOLDEN = ROOT / "tests" / "golden" / f"blackjack_play_{SEED}_{ROUNDS}_{FUZZ}.txt.gz"


@pytest.fixture(scope="module")
def transcript() -> list[str]:
    env = {**os.environ, "PYTHONHASHSEED": "0"}  # hashes of text are the golden ones
    proc = subprocess.run(
        [sys.executable, "-m", "tests.engine_play", str(SEED), str(ROUNDS), str(FUZZ)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout.splitlines()


def test_the_engine_prints_the_golden_play(transcript: list[str]) -> None:
    golden = gzip.decompress(GOLDEN.read_bytes()).decode().splitlines()
    for i, (got, want) in enumerate(zip(transcript, golden, strict=False)):
        if got != want:
            context = "\n".join(f"  {line[:400]}" for line in golden[max(0, i - 3):i])
            pytest.fail(f"line {i + 1} differs\nbefore it:\n{context}\ngolden:\n  {want[:2000]}"
                        f"\nnow:\n  {got[:2000]}")
    assert len(transcript) == len(golden)


def test_the_play_is_not_trivial(transcript: list[str]) -> None:
    """The transcript covers what the rules can do, not a few bets refused over and over."""
    counts: dict[str, int] = json.loads(transcript[-1])["counts"]
    at_least = {
        "rounds": ROUNDS, "blackjack.round_settled": 150, "blackjack.round_voided": 30,
        "cards dealt": 1200, "cards dealt keyed": 50, "cards dealt override": 2,
        "refused": 4000, "refused ImpossibleCard": 10, "queried impossible": 20,
        "blackjack.card_unread": 20, "blackjack.card_set_aside": 10,
        "blackjack.bet_removed": 50, "blackjack.caller_set": 50, "blackjack.stood": 100,
        "blackjack.doubled": 30, "blackjack.split": 10, "blackjack.surrendered": 3,
        "blackjack.blackjack_paid": 10, "blackjack.blackjacks_checked": 20,
        "blackjack.insurance_taken": 10, "blackjack.even_money": 2, "blackjack.shuffled": 30,
        "blackjack.cut": 20, "blackjack.cut_refused": 20, "blackjack.burned": 20,
        "blackjack.cut_card_out": 2, "settlements": 300, "fuzz applied": 300,
        "fuzz refused NotAllowed": 100, "session rounds": 8, "simulated rounds": 300,
    }
    low = {k: (counts.get(k, 0), n) for k, n in at_least.items() if counts.get(k, 0) < n}
    assert not low, f"(count, least expected): {low}"
    # Every action refused with a NotAllowed (the dealer's words), never anything else, and
    # every journal record read back to the same Operation and state.
    assert "error" not in counts and "apply failed" not in counts
    assert "queries refused" not in counts  # the dealer screen can always show the state
    assert "round trip changed" not in counts and "replayed different" not in counts
    assert counts["replayed equal"] == 6 and counts["session reopened equal"] == 1


# --- what reaches the engine from a journal -------------------------------------------------


@pytest.mark.parametrize("field,value", [
    ("box", 1.0), ("box", True), ("box", "1"), ("box", None), ("amount", 5000.0),
    ("amount", "5000"), ("player", 1), ("player", None), ("round", False)])
def test_a_journal_record_of_the_wrong_type_is_unreadable_not_a_crash(
        field: str, value: Any) -> None:
    """The engine takes what it is given; the journal never hands it a value of the wrong
    type: such a record is UnreadableInput, which replay reports."""
    payload: dict[str, Any] = {"round": 1, "box": 1, "player": "A", "amount": 5000}
    payload[field] = value
    with pytest.raises(UnreadableInput):
        operation_from_record(bj.BetPlaced.kind, payload)


# --- values: pickled (the odds workers) and copied -------------------------------------------


def _values() -> list[Any]:
    t = Table(BlackjackRules()).ready().bet(1, 5000).bet(3, 10000).close()
    t.cards("8H TC 6D 9S 7C")
    s = t.state
    lost = settle.lose(1, 1, "A", settle.BetKind.HAND, 5000)
    return [s.hands[0].cards[0], s.shoe, s.prep, s.hands[0].bets[0], s.hands[0], s.stakes[0],
            s.hands[0].total, lost, s, t.ops[-1], s.rules]


COPIES: list[tuple[str, Callable[[Any], Any]]] = [
    ("pickle", lambda v: pickle.loads(pickle.dumps(v))),
    ("copy", copy.copy), ("deepcopy", copy.deepcopy)]


def test_values_pickle_and_copy_as_in_python() -> None:
    failures = []
    for v in _values():
        for name, make in COPIES:
            try:
                ok = make(v) == v
            except Exception as exc:
                failures.append(f"{name} {type(v).__name__}: {type(exc).__name__} {exc}")
                continue
            if not ok:
                failures.append(f"{name} {type(v).__name__}: not equal")
    assert not failures, "\n".join(failures)
