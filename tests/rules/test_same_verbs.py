"""Same verbs everywhere: the same act has the same name in every game, every `verify_x` has
its `can_x` (the same arguments) and its `x` (pokerkit's verify/can/act), `legal_actions`
answers one type in every game, and a game's engine module exports its public API only."""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from kiosk.replay import load_entries
from kiosk.rules.operations import operation_from_record
from kiosk.rules.registry import games
from kiosk.table.fold import EMPTY, step

GOLDEN = Path(__file__).parents[1] / "golden_journals"
COMMON = ("initial_state", "open_table", "apply", "next_step", "legal_actions", "place_bet",
          "close_betting", "confirm_payouts", "void_round")
SHOE = ("shuffle", "remove_bet", "shoe_card", "deal_card", "unread_card",
        "accept_queried_card", "burn", "cut_card_out")


def _engines() -> dict[str, ModuleType]:
    """Every registered game's engine module, and the toy's (tests/toy_game), by name."""
    from tests.toy_game import spec as toy

    out: dict[str, ModuleType] = {}
    for s in games():
        module = importlib.import_module(type(s.engine).__module__)
        key = s.family or s.name
        # A variant on an engine of its own (mini baccarat in punto banco's family) by name.
        out[key if out.get(key, module) is module else s.name] = module
    out[toy.SPEC.name] = importlib.import_module(type(toy.SPEC.engine).__module__)
    return out


ENGINES = _engines()
BUILT_IN = [name for name in ENGINES if name != "high-card"]


def _acts(engine: ModuleType) -> dict[str, Any]:
    return {name: fn for name, fn in vars(engine).items()
            if not name.startswith("_") and callable(fn) and not inspect.isclass(fn)}


def test_every_built_in_game_is_checked() -> None:
    assert {"punto-banco", "blackjack", "roulette", "paigow", "high-card",
            "mini-baccarat"} <= set(ENGINES)


@pytest.mark.parametrize("name", list(ENGINES))
def test_every_verify_has_its_can_and_its_act(name: str) -> None:
    acts = _acts(ENGINES[name])
    verbs = sorted(n[len("verify_"):] for n in acts if n.startswith("verify_"))
    assert len(verbs) >= 3
    unpaired = [f"verify_{v}" for v in verbs if f"can_{v}" not in acts or v not in acts]
    assert unpaired == []
    orphans = [n for n in acts if n.startswith("can_") and f"verify_{n[4:]}" not in acts]
    assert orphans == []


@pytest.mark.parametrize("name", list(ENGINES))
def test_each_can_takes_the_arguments_of_its_verify(name: str) -> None:
    acts = _acts(ENGINES[name])
    for can in (n for n in acts if n.startswith("can_")):
        verify = acts[f"verify_{can[4:]}"]
        assert list(inspect.signature(acts[can]).parameters) == list(
            inspect.signature(verify).parameters), can
        assert inspect.signature(acts[can]).return_annotation in (bool, "bool"), can


@pytest.mark.parametrize("name", BUILT_IN)
def test_the_same_act_has_the_same_name_in_every_game(name: str) -> None:
    engine = ENGINES[name]
    shoe = "shoe_card" in vars(engine)
    missing = [n for n in (*COMMON, *(SHOE if shoe else ())) if not callable(
        getattr(engine, n, None))]
    assert missing == []
    for act in ("place_bet", "close_betting", "confirm_payouts", "void_round"):
        assert callable(getattr(engine, "verify_" + act, None)), f"verify_{act}"
        assert callable(getattr(engine, "can_" + act, None)), f"can_{act}"


def _states(journal: str) -> Iterator[Any]:
    folded = EMPTY
    for e in load_entries(GOLDEN / f"{journal}.jsonl"):
        folded = step(folded, operation_from_record(e.kind, e.payload), e.seq)
        yield folded.state


@pytest.mark.parametrize(("name", "journal"), [("punto-banco", "pb"), ("blackjack", "bj"),
                                               ("blackjack", "t21"), ("roulette", "roulette"),
                                               ("paigow", "pg"),
                                               ("mini-baccarat", "mb_shoe"),
                                               ("mini-baccarat", "mb_replace")])
def test_legal_actions_answers_a_frozenset_of_act_names(name: str, journal: str) -> None:
    engine = ENGINES[name]
    acts = _acts(engine)
    seen: set[str] = set()
    for state in _states(journal):
        if state is None or type(state).__module__.split(".")[:3] != engine.__name__.split(
                ".")[:3]:
            continue
        legal = engine.legal_actions(state)
        assert type(legal) is frozenset
        assert all(isinstance(a, str) and a in acts for a in legal), legal - set(acts)
        seen |= legal
    assert {"place_bet", "close_betting", "confirm_payouts"} <= seen


@pytest.mark.parametrize("name", list(ENGINES))
def test_legal_actions_is_typed_one_way(name: str) -> None:
    annotation = inspect.signature(ENGINES[name].legal_actions).return_annotation
    assert annotation in ("frozenset[str]", frozenset[str])


def test_the_toy_answers_a_frozenset_too() -> None:
    engine = ENGINES["high-card"]
    rules = importlib.import_module("tests.toy_game.spec").SPEC.default_rules()
    legal = engine.legal_actions(engine.initial_state(rules, "HC-1"))
    assert type(legal) is frozenset and legal <= set(_acts(engine))


@pytest.mark.parametrize("name", BUILT_IN)
def test_an_engine_exports_no_private_names(name: str) -> None:
    """The engine module is the game's public API: what it takes from the package's other
    modules is public; a helper of theirs stays where it is."""
    engine = ENGINES[name]
    private = sorted(n for n in vars(engine) if n.startswith("_") and not n.startswith("__"))
    assert private == []
