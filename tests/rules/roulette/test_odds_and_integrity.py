"""`tableside odds roulette` from the engine's own payouts, and the wheel's integrity
figures (chi-squared, direction alternation, games per hour) from a journal."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from click.testing import CliRunner

from kiosk.cli import main
from kiosk.rules.roulette import engine as rl
from kiosk.rules.roulette.integrity import chi_squared, chi_squared_survival, integrity
from kiosk.rules.roulette.odds import table
from kiosk.rules.roulette.wheel import SINGLE_ZERO_ORDER, Wheel
from kiosk.store.journal import Journal
from kiosk.table.session import TableSession


def test_every_bet_has_the_wheels_edge():
    single = table(rl.RouletteRules())
    double = table(rl.RouletteRules(wheel=Wheel.DOUBLE_ZERO))
    assert len(single) == 20 and len(double) == 16  # double zero: no call bets
    assert {b.house_edge for b in single} == {Fraction(1, 37)}
    assert {b.house_edge for b in double} == {Fraction(1, 19)}


def test_odds_command_prints_the_edges():
    out = CliRunner().invoke(main, ["odds", "roulette"])
    assert out.exit_code == 0, out.output
    assert "house edge 2.7027% (1/37)" in out.output and "5.2632% (1/19)" in out.output
    assert "orphans" in out.output
    js = json.loads(CliRunner().invoke(main, ["odds", "roulette", "--json"]).output)
    assert {b["house_edge_percent"] for b in js["single-zero"]} == {"2.7027%"}
    assert {b["house_edge_percent"] for b in js["double-zero"]} == {"5.2632%"}
    assert next(b for b in js["single-zero"] if b["bet"] == "neighbours of zero")["chips"] == 9


def test_chi_squared_is_exact_and_its_p_value_known():
    even = list(SINGLE_ZERO_ORDER) * 10
    assert chi_squared(even, Wheel.SINGLE_ZERO) == 0
    biased = list(SINGLE_ZERO_ORDER) * 10 + ["17"] * 37
    # 37 pockets, 407 spins; 17 seen 47 times: sum c^2 = 36*100 + 47^2 = 5809
    assert chi_squared(biased, Wheel.SINGLE_ZERO) == Fraction(37 * 5809, 407) - 407
    assert abs(chi_squared_survival(50.998, 36) - 0.05) < 1e-4  # the tables' 5% point
    assert abs(chi_squared_survival(52.192, 37) - 0.05) < 1e-4
    fig = integrity(biased, ["clockwise", "anticlockwise"] * 203 + ["anticlockwise"],
                    list(range(0, 407 * 60, 60)), Wheel.SINGLE_ZERO)
    assert fig.verdict.startswith("biased") and fig.games_per_hour == 60
    assert fig.same_direction == 1


def test_integrity_command_reads_a_journal(tmp_path: Path):
    db = tmp_path / "t.db"
    s: TableSession[rl.RouletteState] = TableSession(
        rl.Roulette(), Journal.open(db, "RL-01"), rl.RouletteRules(), "RL-01")
    way = rl.Direction.CLOCKWISE
    for number in ("17", "5", "17", "0"):
        s.perform(lambda st, w=way: rl.spin_ball(st, w))
        way = way.other if number != "5" else way  # one spin the same way as the last
        s.perform(rl.close_betting)
        s.perform(lambda st, n=number: rl.call_number(st, n))
        s.perform(rl.confirm_payouts)
    s.journal.close()
    out = CliRunner().invoke(main, ["integrity", str(db), "--json"])
    assert out.exit_code == 0, out.output
    fig = json.loads(out.output)
    assert fig["spins"] == 4 and fig["counts"]["17"] == 2 and fig["same_direction"] == 1
    assert fig["verdict"].startswith("too few spins")
    text = CliRunner().invoke(main, ["integrity", str(db)]).output
    assert "American roulette, table RL-01" in text and "same direction: 1" in text
