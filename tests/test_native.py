"""The compiled engine (kiosk/native.py): the same rules as the source, used only while it
matches the source, and objects as frozen as the Python ones."""

from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from kiosk import native
from kiosk.rules.blackjack import engine as bj
from kiosk.rules.blackjack.house import BlackjackRules
from kiosk.rules.cards import Card
from tests.rules.blackjack.table import Table

ROOT = Path(__file__).resolve().parents[1]
SUFFIX = sysconfig.get_config_var("EXT_SUFFIX")


def _mid_round() -> bj.BlackjackState:
    t = Table(BlackjackRules()).ready().bet(1, 5000).bet(3, 10000).close()
    t.cards("8H TC 6D 9S 7C")  # box 1 8 and 9, box 3 ten and 7, the dealer a 6
    return t.state


def test_replace_is_dataclasses_replace_field_by_field() -> None:
    """The fold's fast copy (`_replace`, both ways) changes what it is told and nothing
    else, for every field of the state."""
    state = _mid_round()
    other = bj.initial_state(BlackjackRules.touch_21(), "T2")
    fields = [f.name for f in dataclasses.fields(bj.BlackjackState)]
    assert len(fields) == 21
    for name in fields:
        value = getattr(other, name)
        fast = bj._replace(state, **{name: value})
        assert fast == dataclasses.replace(state, **{name: value}), name
        assert getattr(fast, name) is value
    everything = {name: getattr(other, name) for name in fields}
    assert bj._replace(state, **everything) == other
    assert bj._replace(state) == state


def test_hand_is_the_constructor() -> None:
    h = _mid_round().hands[0]
    args = [getattr(h, f.name) for f in dataclasses.fields(bj.PlayerHand)]
    made = bj._hand(*args)  # type: ignore[arg-type]
    assert made == h and hash(made) == hash(h)
    assert made.points == (8, 9) and made.total.best == 17


def test_states_and_hands_stay_frozen() -> None:
    state = bj.apply(_mid_round(), bj.stand(_mid_round()))
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.round = 7  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.hands[0].stood = False  # type: ignore[misc]
    assert state.hands[0].stood and state.turn == 1


def test_rules_pickle_for_the_odds_workers() -> None:
    import pickle

    rules = BlackjackRules.touch_21(surrender=False, minimum=2500)
    assert pickle.loads(pickle.dumps(rules)) == rules


def _can_compile() -> bool:
    include = Path(sysconfig.get_paths()["include"]) / "Python.h"
    return shutil.which("gcc") is not None and include.exists()


@pytest.mark.skipif(bool(os.environ.get(native.PURE_ENV)), reason="TABLESIDE_PURE is set")
def test_the_engine_runs_compiled_where_it_can() -> None:
    """scripts/bootstrap.sh builds it; CI notices if the build or the loader stops working."""
    if not _can_compile():
        pytest.skip("no gcc or Python headers: the engine runs as Python")
    assert native.current_build() is not None, "scripts/bootstrap.sh did not build it"
    assert native.active()
    assert bj.__file__ is not None and bj.__file__.endswith(SUFFIX)
    assert Card.__module__ == "kiosk.rules.cards"


RUNTIME = "0123456789abcdef0123__mypyc"  # mypyc's shared runtime, a top-level module


def _fake_build(root: Path) -> Path:
    """A build's layout with stand-in files: the sources it is made from, a file for each
    compiled module and the shared runtime, and its manifest."""
    shutil.copytree(ROOT / "kiosk/rules", root / "kiosk/rules", dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("__pycache__"))
    build = root / "build" / "native"
    for rel in native.SOURCES:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / rel, root / rel)
        so = build / (rel[:-3] + SUFFIX)
        so.parent.mkdir(parents=True, exist_ok=True)
        so.write_bytes(b"\x7fELF" + rel.encode() * 50)
    (build / (RUNTIME + SUFFIX)).write_bytes(b"\x7fELF runtime" * 100)
    native.write_manifest(build, root)
    return build


def test_a_build_that_no_longer_matches_the_source_is_not_used(tmp_path: Path) -> None:
    _fake_build(tmp_path)
    files = native.current_build(tmp_path)
    assert files is not None
    assert files["kiosk.rules.blackjack.engine"].endswith("engine" + SUFFIX)
    assert RUNTIME in files  # the finder serves the shared runtime too
    engine = tmp_path / "kiosk/rules/blackjack/engine.py"
    engine.write_text(engine.read_text() + "\n# an edit\n")
    assert native.current_build(tmp_path) is None  # the edited source runs, not the build


def test_a_change_to_a_module_the_engine_imports_is_a_new_source(tmp_path: Path) -> None:
    """Compiled code checks the types of what it calls: operations.py is not compiled, but
    an edit there still means a new build."""
    _fake_build(tmp_path)
    records = tmp_path / "kiosk/rules/blackjack/operations.py"
    records.write_text(records.read_text() + "\n# an edit\n")
    assert native.current_build(tmp_path) is None


def test_a_half_written_or_damaged_build_is_not_used(tmp_path: Path) -> None:
    build = _fake_build(tmp_path)
    (build / "kiosk/rules/blackjack" / ("strategy" + SUFFIX)).unlink()
    assert native.current_build(tmp_path) is None
    build = _fake_build(tmp_path)
    (build / (RUNTIME + SUFFIX)).unlink()  # the shared runtime, listed in the manifest
    assert native.current_build(tmp_path) is None
    build = _fake_build(tmp_path)
    engine = build / "kiosk/rules/blackjack" / ("engine" + SUFFIX)
    engine.write_bytes(engine.read_bytes()[:40])  # cut short (a power cut on an SD card)
    assert native.current_build(tmp_path) is None
    build = _fake_build(tmp_path)
    data = bytearray(engine.read_bytes())
    data[10] ^= 0xFF  # same size, one byte changed
    engine.write_bytes(bytes(data))
    assert native.current_build(tmp_path) is None
    build = _fake_build(tmp_path)
    (build / native.STAMP).unlink()
    assert native.current_build(tmp_path) is None


def test_the_same_rules_run_as_plain_python() -> None:
    """TABLESIDE_PURE=1 runs the source: the blackjack rule tests (golden rounds, shuffle
    and cut, chip conservation) pass that way too."""
    env = {**os.environ, native.PURE_ENV: "1"}
    where = subprocess.run(
        [sys.executable, "-c", "import kiosk.rules.blackjack.engine as e, kiosk.native as n;"
         "print(e.__file__, n.active())"], cwd=ROOT, env=env, capture_output=True, text=True,
        check=True).stdout.split()
    assert where[0].endswith("engine.py") and where[1] == "False"
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider",
         "tests/rules/blackjack", "tests/test_house_edge.py"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout[-3000:]
    assert " passed" in run.stdout.splitlines()[-1]
