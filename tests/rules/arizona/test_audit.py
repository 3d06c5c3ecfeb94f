"""Replay's audit of Arizona Hold'em (rule 2.8): a forged payout shows."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from kiosk.rules.arizona import engine as az
from kiosk.rules.arizona.audit import audit
from kiosk.rules.arizona.operations import Settled
from kiosk.rules.audit import ReplayReport
from kiosk.rules.cards import parse_cards
from tests.rules.arizona.test_engine import GAME, Table


@dataclass
class Row:
    seq: int
    wall_time: str
    kind: str
    payload: dict[str, Any]


def _played() -> Table:
    t = Table()
    t.hand({1: 1_000, 2: 2_000})
    for card in parse_cards(["TS", "2C", "TD", "9H", "4C", "KD", "3S", "7D"]):
        t.do(GAME.shoe_card(t.state, card))
    t.do(az.raise_bet(t.state, 1, 1))
    t.do(az.check(t.state, 2, 1))
    t.do(az.turn_community(t.state))
    t.do(az.check(t.state, 1, 2))
    t.do(az.raise_bet(t.state, 2, 2))
    t.do(az.turn_community(t.state))
    return t


def _replay(t: Table, last: Settled) -> ReplayReport:
    report = ReplayReport("test", True, "", 0)
    audit(t.state, last, Row(99, "2026-11-28T08:00:00Z", last.kind, last.to_payload()), report)
    return report


def test_an_honest_hand_replays_with_no_difference_and_one_line_for_the_pit():
    t = _played()
    [hand] = _replay(t, az.confirm_payouts(t.state)).rounds
    assert hand.differences == []
    assert hand.outcome == "box 1 a pair of tens +R20; box 2 king high -R40"
    assert hand.hands == {"community": ["TD", "KD"], "box 1": ["TS", "9H", "3S"],
                          "box 2": ["2C", "4C", "7D"]}


def test_a_forged_payout_is_found_with_what_was_recorded_and_what_is_owed():
    t = _played()
    honest = az.confirm_payouts(t.state)
    forged = dataclasses.replace(honest, boxes=(
        dataclasses.replace(honest.boxes[0], net=20_000), honest.boxes[1]))
    [hand] = _replay(t, forged).rounds
    assert hand.differences == ["box 1: net recorded 20000, recomputed 2000"]

