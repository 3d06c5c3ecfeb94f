"""Arizona Hold'em's exact house edge with the best raises (rules 6.2, 6.6)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from kiosk.rules.arizona.hands import evaluate
from kiosk.rules.arizona.odds import arizona_odds, first_holding, hand_kinds, second_holding
from kiosk.rules.arizona.paytable import PAY_TABLE, odds_for
from kiosk.rules.cards import parse_cards


@pytest.fixture(scope="module")
def odds():
    seen: list[tuple[int, int]] = []
    result = arizona_odds(lambda done, total: seen.append((done, total)))
    assert seen[-1] == (1755, 1755) and len(seen) == 1755  # the progress it reports
    return result


def test_the_house_edge_is_2_9570_percent_of_the_ante_and_2_3875_of_all_bets(odds):
    assert odds.deals == 22100 * 49 * 48
    assert round(float(odds.house_edge) * 100, 4) == 2.9570
    assert round(float(odds.edge_per_bet) * 100, 4) == 2.3875
    # Exact, so that a change anywhere in the evaluator or the pay table shows here.
    assert odds.ante_return == Fraction(-14779, 499800)
    assert odds.edge_per_bet == odds.house_edge / (1 + odds.first_raised + odds.second_raised)


def test_every_line_of_both_strategies_is_a_rule_the_count_kept_without_exception(odds):
    for row in (*odds.first_strategy, *odds.second_strategy):
        assert row.raised == 0 or row.not_raised == 0, row


def test_circle_1_is_raised_with_trips_tens_or_better_QJT_and_29_suited_three_card_hands(odds):
    raised = {row.holding for row in odds.first_strategy if row.raise_it}
    assert {"three or four of a kind", "a pair of tens or better", "QJT suited",
            "QJT two suited", "QJT no two suited", "543 suited", "AKQ suited"} <= raised
    assert len([h for h in raised if h.endswith(" suited") and "two" not in h]) == 29
    assert {"a pair below tens", "KQJ no two suited", "AKQ two suited"}.isdisjoint(raised)
    assert odds.first_raised == Fraction(sum(
        row.raised for row in odds.first_strategy), 22100)


def test_circle_2_is_raised_with_tens_or_better_any_draw_to_a_flush_or_open_straight(odds):
    table = {row.holding: row.raise_it for row in odds.second_strategy}
    assert table == {
        "a pair of tens or better": True,
        "two pairs": True,
        "three or four of a kind": True,
        "four to a flush": True,
        "four to an open-ended straight": True,
        "four to an inside or one-way straight, three or more tens or higher": True,
        "four to an inside or one-way straight, under three tens or higher": False,
        "a pair below tens": False,
        "no pair, no four to a flush or straight": False,
    }


def test_holdings_are_named_from_the_cards():
    assert first_holding(parse_cards(["QS", "JS", "TD"])) == "QJT two suited"
    assert first_holding(parse_cards(["9S", "9D", "AD"])) == "a pair below tens"
    assert second_holding(parse_cards(["QS", "JS", "TD", "9C"])) == \
        "four to an open-ended straight"
    assert second_holding(parse_cards(["AS", "KS", "QD", "JC"])) == \
        "four to an inside or one-way straight, three or more tens or higher"
    assert second_holding(parse_cards(["8S", "6S", "5D", "4C"])) == \
        "four to an inside or one-way straight, under three tens or higher"


def test_the_1755_kinds_of_three_card_hand_weigh_all_22100_hands():
    kinds = hand_kinds()
    assert len(kinds) == 1755 and sum(kinds.values()) == 22100


@pytest.mark.parametrize(("codes", "odds_to_one"), [
    ("AS KS QS JS TS", 250), ("9S 8S 7S 6S 5S", 50), ("4S 4H 4D 4C 9S", 25),  # rule 6.6
    ("4S 4H 4D 9C 9S", 12), ("AS 8S 7S 6S 2S", 10), ("9S 8H 7S 6S 5S", 8),
    ("4S 4H 4D 8C 9S", 3), ("4S 4H 8D 8C 9S", 2), ("TS TH 8D 7C 2S", 1),
    ("AS AH 8D 7C 2S", 1), ("9S 9H 8D 7C 2S", None), ("AS KH 8D 7C 2S", None),
])
def test_rule_6_6_pay_table(codes, odds_to_one):
    assert odds_for(evaluate(parse_cards(codes.split()))) == odds_to_one


def test_the_pay_table_is_rule_6_6s_nine_lines():
    assert sorted(PAY_TABLE.values(), reverse=True) == [250, 50, 25, 12, 10, 8, 3, 2, 1]


DOC = Path(__file__).resolve().parents[3] / "docs" / "arizona-holdem.md"


def _table_after(heading: str) -> dict[str, str]:
    text = DOC.read_text(encoding="utf-8").split(heading, 1)[1]
    rows = [line for line in text.splitlines() if line.startswith("| ")]
    out: dict[str, str] = {}
    for line in rows:
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells[-1] in ("yes", "no"):
            out[cells[0]] = cells[-1]
        elif out:
            break
    return out


def test_the_guides_circle_2_table_is_the_counts(odds):
    assert _table_after("### Circle 2") == {
        row.holding: "yes" if row.raise_it else "no" for row in odds.second_strategy}


def test_the_guides_circle_1_table_is_the_counts(odds):
    table = _table_after("### Circle 1")
    suited = next(k for k in table if k.startswith("three suited cards: "))
    listed = {c.replace(" ", "") + " suited" for c in suited.split(": ", 1)[1].split(", ")}
    counted = {row.holding for row in odds.first_strategy if row.raise_it}
    assert listed | {"QJT two suited", "QJT no two suited", "three or four of a kind",
                     "a pair of tens or better"} == counted
    assert table["Q J T, suited or not"] == "yes" and table["anything else"] == "no"
    assert "2.9570%" in DOC.read_text(encoding="utf-8")


def test_the_strategy_in_code_is_the_counts_decision_for_every_kind_of_hand(odds):
    from kiosk.rules.arizona.strategy import FIRST, SECOND

    assert {row.holding for row in odds.first_strategy if row.raise_it} == FIRST
    assert {row.holding for row in odds.second_strategy if row.raise_it} == SECOND
