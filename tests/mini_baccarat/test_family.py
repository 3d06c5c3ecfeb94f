"""Punto banco and mini baccarat are one family of records with an engine each: a table
reopened from one as the other carries its coup, roads and commission on, in the state of
the game it now runs, and a snapshot of it restores."""

from __future__ import annotations

from kiosk.rules.baccarat import engine as pb
from kiosk.rules.cards import Card
from kiosk.rules.mini_baccarat import engine as mb
from kiosk.rules.registry import game
from kiosk.table.fold import EMPTY, step
from kiosk.table.snapshot import restore, take


def test_a_table_reopened_between_the_two_games_keeps_its_roads() -> None:
    f = step(EMPTY, pb.open_table(pb.PuntoBancoRules(), "T-1"))
    f = step(f, pb.shuffle(f.state))
    f = step(f, pb.place_bet(f.state, "1", pb.BetKind.BANKER, 5_000))
    f = step(f, pb.close_betting(f.state))
    for code in ("9H", "5S", "KD", "2C"):
        f = step(f, pb.shoe_card(f.state, Card.parse(code)))
    f = step(f, pb.confirm_payouts(f.state))
    assert type(f.state) is pb.PuntoBancoState and len(f.state.results) == 1
    f = step(f, game("mini-baccarat").engine.open_table(mb.MiniBaccaratRules(), "T-1"))
    assert f.game is not None and f.game.name == "mini-baccarat"
    assert type(f.state) is mb.MiniBaccaratState and len(f.state.results) == 1
    assert f.state.coup == 2 and f.state.shoe is not None  # eight decks both: the same shoe
    assert restore(take(f)).state == f.state
    f = step(f, game("punto-banco").engine.open_table(pb.PuntoBancoRules(), "T-1"))
    assert f.game is not None and f.game.name == "punto-banco"
    assert type(f.state) is pb.PuntoBancoState and len(f.state.results) == 1
    assert restore(take(f)).state == f.state
