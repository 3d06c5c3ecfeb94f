"""Same verbs everywhere (docs/architecture.md): the same act has the same name in every game,
and each `can_x` takes the arguments of its `verify_x` (pokerkit's verify/can/act)."""

from __future__ import annotations

import inspect
from types import ModuleType

import pytest

from kiosk.rules.baccarat import engine as pb
from kiosk.rules.blackjack import engine as bj

ENGINES = [pytest.param(pb, id="punto-banco"), pytest.param(bj, id="blackjack")]
COMMON = ("initial_state", "open_table", "apply", "next_step", "legal_actions", "shuffle",
          "place_bet", "remove_bet", "close_betting", "shoe_card", "deal_card",
          "unread_card", "accept_queried_card", "burn", "cut_card_out", "confirm_payouts",
          "void_round")


@pytest.mark.parametrize("engine", ENGINES)
def test_each_can_takes_the_arguments_of_its_verify(engine: ModuleType) -> None:
    cans = [name for name, fn in vars(engine).items()
            if name.startswith("can_") and inspect.isfunction(fn)]
    assert len(cans) >= 8
    for name in cans:
        verify = getattr(engine, "verify_" + name[4:], None)
        assert verify is not None, f"{name} has no verify_{name[4:]}"
        assert list(inspect.signature(getattr(engine, name)).parameters) == list(
            inspect.signature(verify).parameters), name


@pytest.mark.parametrize("engine", ENGINES)
def test_the_same_act_has_the_same_name_in_every_game(engine: ModuleType) -> None:
    missing = [name for name in COMMON if not callable(getattr(engine, name, None))]
    assert missing == []
    for name in ("place_bet", "remove_bet", "close_betting", "deal_card", "confirm_payouts",
                 "void_round", "burn", "cut_card_out"):
        assert callable(getattr(engine, "verify_" + name, None)), f"verify_{name}"
        assert callable(getattr(engine, "can_" + name, None)), f"can_{name}"
