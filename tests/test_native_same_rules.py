"""The compiled engine plays exactly the rules the source does (kiosk/native.py).

tests/native_play.py plays a few hundred seeded rounds with random legal and illegal actions
and prints every step: the journal record of each Operation or the refusal's class, words and
clause, the dealer's next step and a digest of the state and of the dealer screen's queries;
then damaged journal records folded into those states, the values' eq/hash/repr/fields, a
table session on a real journal reopened and replayed, the basic strategy and a simulation.
It runs once compiled (the default environment) and once as plain Python (TABLESIDE_PURE=1),
in two processes at once, and the two transcripts must be the same line for line.
"""

from __future__ import annotations

import copy
import json
import os
import pickle
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kiosk import native
from kiosk.rules.blackjack import engine as bj, settle
from kiosk.rules.blackjack.house import BlackjackRules
from kiosk.rules.errors import UnreadableInput
from kiosk.rules.operations import operation_from_record
from tests.rules.blackjack.table import Table

ROOT = Path(__file__).resolve().parents[1]
SEED, ROUNDS, FUZZ = 7, 360, 1200
COMPILED_MODULES = [rel[:-3].replace("/", ".") for rel in native.SOURCES]


def _start(pure: bool) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if k != native.PURE_ENV}
    env["PYTHONHASHSEED"] = "0"  # hashes of text compare across the two processes
    if pure:
        env[native.PURE_ENV] = "1"
    return subprocess.Popen(
        [sys.executable, "-m", "tests.native_play", str(SEED), str(ROUNDS), str(FUZZ)],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _lines(proc: subprocess.Popen[str], mode: str) -> list[str]:
    out, err = proc.communicate(timeout=180)
    assert proc.returncode == 0, f"the {mode} run failed:\n{err[-3000:]}"
    return out.splitlines()


@pytest.fixture(scope="module")
def transcripts() -> tuple[list[str], list[str]]:
    """(compiled, plain Python) transcripts of the same seeded play."""
    if native.current_build() is None:
        pytest.skip("no compiled engine matches the source (python -m kiosk.native builds "
                    "it): both runs would be plain Python")
    compiled, pure = _start(pure=False), _start(pure=True)
    return _lines(compiled, "compiled"), _lines(pure, "plain Python")


def test_the_default_run_is_compiled_and_the_pure_run_is_not(
        transcripts: tuple[list[str], list[str]]) -> None:
    compiled, pure = (json.loads(t[0]) for t in transcripts)
    assert compiled == {"mode": "compiled", "compiled_objects": True,
                        "compiled_modules": COMPILED_MODULES}
    assert pure == {"mode": "pure", "compiled_objects": False, "compiled_modules": []}


def test_compiled_and_plain_python_print_the_same_play(
        transcripts: tuple[list[str], list[str]]) -> None:
    compiled, pure = (t[1:] for t in transcripts)
    for i, (a, b) in enumerate(zip(compiled, pure, strict=False)):
        if a != b:
            context = "\n".join(f"  {line[:400]}" for line in compiled[max(0, i - 3):i])
            pytest.fail(f"line {i + 2} differs\nbefore it:\n{context}\ncompiled:\n  {a[:2000]}"
                        f"\nplain Python:\n  {b[:2000]}")
    assert len(compiled) == len(pure)


def test_the_play_is_not_trivial(transcripts: tuple[list[str], list[str]]) -> None:
    """The transcript covers what the rules can do, not a few bets refused over and over."""
    counts: dict[str, int] = json.loads(transcripts[0][-1])["counts"]
    at_least = {
        "rounds": ROUNDS, "bj_round_settled": 150, "bj_round_voided": 30,
        "cards dealt": 1200, "cards dealt keyed": 50, "cards dealt override": 2,
        "refused": 4000, "refused ImpossibleCard": 10, "queried impossible": 20,
        "bj_card_unread": 20, "bj_card_set_aside": 10, "bj_bet_removed": 50,
        "bj_caller_set": 50, "bj_stood": 100, "bj_doubled": 30, "bj_split": 10,
        "bj_surrendered": 3, "bj_blackjack_paid": 10, "bj_blackjacks_checked": 20,
        "bj_insurance_taken": 10, "bj_even_money": 2, "bj_shuffled": 30, "bj_cut": 20,
        "bj_cut_refused": 20, "bj_burned": 20, "bj_cut_card_out": 2, "settlements": 300,
        "fuzz applied": 300, "fuzz refused NotAllowed": 100, "session rounds": 8,
        "simulated rounds": 300,
    }
    low = {k: (counts.get(k, 0), n) for k, n in at_least.items() if counts.get(k, 0) < n}
    assert not low, f"(count, least expected): {low}"
    # Every action refused with a NotAllowed (the dealer's words), never anything else, and
    # every journal record read back to the same Operation and state.
    assert "error" not in counts and "apply failed" not in counts
    assert "queries refused" not in counts  # the dealer screen can always show the state
    assert "round trip changed" not in counts and "replayed different" not in counts
    assert counts["replayed equal"] == 6 and counts["session reopened equal"] == 1


# --- what reaches the compiled engine from a journal ---------------------------------------


@pytest.mark.parametrize("field,value", [
    ("box", 1.0), ("box", True), ("box", "1"), ("box", None), ("amount", 5000.0),
    ("amount", "5000"), ("player", 1), ("player", None), ("round", False)])
def test_a_journal_record_of_the_wrong_type_is_unreadable_not_a_crash(
        field: str, value: Any) -> None:
    """Compiled, the engine checks each annotated argument's type (a float where an int is
    annotated raises TypeError, a bool becomes an int); as Python it may take it. The journal
    never hands it one: a record of the wrong type is UnreadableInput, which replay reports."""
    payload: dict[str, Any] = {"round": 1, "box": 1, "player": "A", "amount": 5000}
    payload[field] = value
    with pytest.raises(UnreadableInput):
        operation_from_record(bj.BetPlaced.kind, payload)


# --- values: pickled and copied the same way compiled or not ----------------------------


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
