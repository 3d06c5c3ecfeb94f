"""Capabilities, not one card-shaped protocol: a device's event reaches only a game that
declares the capability; a game without it is told nothing and the dealer is."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hardware import events as ev
from kiosk.rules.cards import Card
from kiosk.rules.game import DealsFromShoe
from kiosk.rules.registry import GAMES, GameSpec
from kiosk.store.journal import Journal
from kiosk.table.session import TableSession
from tests.toy_game import rules as hc, spec as toy


class NoShoe:
    """High card's core without its shoe: as a wheel game would be."""

    name = "no-shoe"

    def __init__(self) -> None:
        self._game = hc.HighCard()

    def open_table(self, rules: Any, table_id: str) -> hc.Opened:
        return hc.Opened(self.name, table_id, rules)

    def __getattr__(self, name: str) -> Any:
        if name in ("shoe_card", "verify_shoe_card", "holds_cards", "unread_card", "burn",
                    "verify_burn", "cut_card_out", "cut_card_words"):
            raise AttributeError(name)
        return getattr(self._game, name)


@pytest.fixture
def no_shoe() -> Iterator[GameSpec]:
    spec = dataclasses.replace(toy.SPEC, name="no-shoe", aliases=(), engine=NoShoe(), devices=())
    GAMES.register(spec)
    yield spec
    GAMES.unregister("no-shoe")


def test_a_card_reaches_only_a_game_that_deals_from_a_shoe(no_shoe: GameSpec,
                                                           tmp_path: Path) -> None:
    assert isinstance(toy.SPEC.engine, DealsFromShoe)
    assert not isinstance(no_shoe.engine, DealsFromShoe)
    rules = hc.HighCardRules()
    s = TableSession(no_shoe, Journal.open(tmp_path / "j.db", "T"), rules, "T")
    s.perform(hc.shuffle)
    s.perform(lambda st: hc.place_bet(st, hc.Side.PLAYER, 5_000))
    s.perform(hc.close_betting)
    before = s.state
    s.on_device_event(ev.CardRead(device="SHOE", seq=1, card=Card.parse("KD")))
    s.on_device_event(ev.CardBurned(device="SHOE", seq=2, card=None))
    assert s.state is before  # nothing dealt, nothing burned
    last = list(s.journal.entries())[-1]
    assert (last.kind, last.payload["event"]) == ("device_report", "card_refused")
    assert last.payload["detail"] == "High card deals no cards from a shoe"
    assert s.alerts[-1].message == "The card shoe reported a card, but high card takes none"
