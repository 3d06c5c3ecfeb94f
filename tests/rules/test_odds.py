"""Exact punto banco odds from the engine's own drawing rules (kiosk/rules/baccarat/odds.py).

docs/architecture.md: the house edge of every configured game reproduced exactly, equal
to the published figure. The 8-deck counts of ordered six-card deals are the published ones
(e.g. the Wizard of Odds baccarat analysis): banker 2,292,252,566,437,888; player
2,230,518,282,592,256; tie 475,627,426,473,216 of 4,998,398,275,503,360.
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction

import pytest

from kiosk.rules.baccarat import engine as pb, odds as odds_module
from kiosk.rules.baccarat.engine import CommissionMode, PuntoBancoRules
from kiosk.rules.baccarat.odds import baccarat_odds, shoe_counts
from kiosk.rules.baccarat.outcomes import Winner


def falling(n: int, k: int) -> int:
    return math.prod(range(n - k + 1, n + 1))


@functools.cache
def real_odds(decks: int) -> odds_module.BaccaratOdds:
    """The engine's odds, computed once per shoe size (never while a test patches it)."""
    return baccarat_odds(decks)


@pytest.fixture
def eight() -> odds_module.BaccaratOdds:
    return real_odds(8)


def test_eight_deck_counts_are_the_published_ones(eight):
    # rules 5.2 (drawing table), 5.4 (eight decks, card values)
    assert eight.decks == 8
    assert eight.banker == 2_292_252_566_437_888
    assert eight.player == 2_230_518_282_592_256
    assert eight.tie == 475_627_426_473_216
    assert eight.total == 4_998_398_275_503_360
    assert eight.total == 416 * 415 * 414 * 413 * 412 * 411
    assert eight.banker + eight.player + eight.tie == eight.total


def percent(edge: Fraction, places: int) -> Fraction:
    return round(edge * 100, places)


def test_eight_deck_house_edges(eight):
    # rule 5.7: banker 19:20, player 1:1, tie 8:1 (banker and player stand off on a tie)
    edges = eight.house_edges(PuntoBancoRules())
    assert set(edges) == {"banker", "player", "tie"}
    assert percent(edges["banker"], 4) == Fraction("1.0579")
    assert percent(edges["player"], 4) == Fraction("1.2351")
    assert percent(edges["tie"], 4) == Fraction("14.3596")
    # exactly, from the counts
    t = eight.total
    bank_wins, bank_loses = Fraction(eight.banker, t), Fraction(eight.player, t)
    assert edges["banker"] == bank_loses - bank_wins * Fraction(19, 20)
    assert edges["tie"] == 1 - Fraction(eight.tie, t) * 9


def test_commission_mode_has_the_same_edge(eight):
    # rule 5.7: "19:20 or the total of the original bets less 5%" are the same price
    net = eight.house_edges(PuntoBancoRules())
    commission = eight.house_edges(PuntoBancoRules(commission_mode=CommissionMode.COMMISSION))
    assert net == commission


def test_probabilities(eight):
    # rule 5.7: banker, player, tie are the only outcomes
    p = {w: eight.probability(w) for w in Winner}
    assert sum(p.values()) == 1
    assert round(p[Winner.BANKER], 6) == Fraction("0.458597")
    assert round(p[Winner.PLAYER], 6) == Fraction("0.446247")
    assert round(p[Winner.TIE], 6) == Fraction("0.095156")


@pytest.mark.parametrize(("decks", "banker", "player", "tie"), [
    # published house edges in percent, to two places (Wizard of Odds, by number of decks)
    (6, "1.06", "1.24", "14.44"),
    (1, "1.01", "1.29", "15.75"),
])
def test_other_shoes(decks, banker, player, tie):
    # rule 5.4: "or using a number of decks, as determined by the casino management"
    o = real_odds(decks)
    assert o.total == falling(52 * decks, 6)
    assert o.banker + o.player + o.tie == o.total
    edges = o.house_edges(PuntoBancoRules(decks=decks))
    assert percent(edges["banker"], 2) == Fraction(banker)
    assert percent(edges["player"], 2) == Fraction(player)
    assert percent(edges["tie"], 2) == Fraction(tie)


def test_six_and_one_deck_totals():
    # the falling factorials 312*311*...*307 and 52*51*...*47
    assert real_odds(6).total == 878_869_206_895_680 == 312 * 311 * 310 * 309 * 308 * 307
    assert real_odds(1).total == 14_658_134_400 == 52 * 51 * 50 * 49 * 48 * 47


def test_shoe_counts_rule_5_4():
    # rule 5.4: tens and picture cards count 0: 16 of them per deck, 4 of each other value
    assert shoe_counts(8) == [128] + [32] * 9
    assert sum(shoe_counts(1)) == 52


def test_odds_run_the_engines_drawing_table(monkeypatch):
    # rule 5.2: the odds come from the very function the table runs
    calls = 0
    real = pb.next_to_draw

    def counting(player, banker):
        nonlocal calls
        calls += 1
        return real(player, banker)

    monkeypatch.setattr(odds_module, "next_to_draw", counting)
    one = baccarat_odds(1)
    # Asked once for each case it can tell apart: every pair of two-card totals, and with
    # each player's third card; the million deals then look the answers up.
    assert calls == 10 * 10 + 10 * 10 * 10
    assert (one.banker, one.player, one.tie) == (6_737_232_640, 6_548_674_432, 1_372_227_328)


def test_a_different_drawing_table_changes_the_odds(monkeypatch):
    # rule 5.2: with no third cards at all the counts are those of the two-card totals
    def never_draw(player, banker):
        if len(player) + len(banker) < 4:
            return pb.next_to_draw(player, banker)
        return None

    monkeypatch.setattr(odds_module, "next_to_draw", never_draw)
    got = baccarat_odds(1)
    # independently: every ordered four cards by value, weighted by the ways to deal them and
    # the two unused places
    counts = shoe_counts(1)
    want = {Winner.BANKER: 0, Winner.PLAYER: 0, Winner.TIE: 0}
    for p1 in range(10):
        for b1 in range(10):
            for p2 in range(10):
                for b2 in range(10):
                    left = list(counts)
                    ways = 1
                    for v in (p1, b1, p2, b2):
                        ways *= left[v]
                        left[v] -= 1
                    pt, bt = (p1 + p2) % 10, (b1 + b2) % 10
                    w = (Winner.TIE if pt == bt else Winner.PLAYER if pt > bt
                         else Winner.BANKER)
                    want[w] += ways * 48 * 47
    assert (got.banker, got.player, got.tie) == (want[Winner.BANKER], want[Winner.PLAYER],
                                                 want[Winner.TIE])
    assert got.total == falling(52, 6)
    assert got.banker == got.player  # no drawing table: the two hands are symmetric
    assert (got.banker, got.player, got.tie) != (6_737_232_640, 6_548_674_432, 1_372_227_328)
