"""Doctests where they teach: each game package's docstring plays one round through its engine
(the same verify/can/act and `apply` the table runs), and the suite runs it, so the example a
newcomer reads first is one that works."""

from __future__ import annotations

import doctest
import importlib
from types import ModuleType

import pytest

from kiosk.rules.registry import games


def _packages() -> dict[str, ModuleType]:
    out = {}
    for spec in games():
        engine = type(spec.engine).__module__
        package = engine.rsplit(".", 1)[0]
        out[package] = importlib.import_module(package)
    return out


PACKAGES = _packages()


def test_every_built_in_game_has_its_package() -> None:
    assert set(PACKAGES) >= {"kiosk.rules.baccarat", "kiosk.rules.blackjack",
                             "kiosk.rules.roulette"}


@pytest.mark.parametrize("name", sorted(PACKAGES))
def test_the_package_docstring_plays_one_round(name: str) -> None:
    package = PACKAGES[name]
    doc = package.__doc__ or ""
    examples = doctest.DocTestParser().get_examples(doc)
    sources = "".join(e.source for e in examples)
    # One whole round: opened, a bet, no more bets, the result, the payouts folded.
    for step in ("initial_state(", "place_bet(", "close_betting(", "confirm_payouts(",
                 "apply(", "legal_actions(", "next_step("):
        assert step in sources, f"{name}'s docstring does not show {step}"
    assert any(e.exc_msg for e in examples), "a refusal, with the rule's words, is shown"
    result = doctest.testmod(package, verbose=False, report=True)
    assert result.attempted >= 15
    assert result.failed == 0


def test_a_wrong_example_fails() -> None:
    """The doctest runner used above reports a wrong answer (the check can fail)."""
    wrong = ModuleType("wrong", ">>> from kiosk.rules.baccarat import engine as pb\n"
                                ">>> pb.GAME\n'baccarat'\n")
    result = doctest.testmod(wrong, verbose=False, report=False)
    assert (result.attempted, result.failed) == (2, 1)
