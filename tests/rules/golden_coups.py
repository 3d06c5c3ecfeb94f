"""Golden punto banco coups: loader, replayer and a small table driver for the rules tests.

A golden file (tests/rules/golden/*.json) records a shoe of coups by hand: the house's rules
config (as the journal encodes PuntoBancoRules), the bets per area, the cards in the order the
shoe gave them, and the expected result, hands, next step and per-bet settlement (rule 5.7).
Fractions are written as `str(Fraction)`: "19/20", "4845", "-55".

The expected values in the files are worked out by hand from rules 5.2-5.7, never written by
the engine. `python -m tests.rules.golden_coups NAME` prints what the engine does for a file,
for reviewing a new or failing file side by side; it never writes a golden file.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from kiosk.rules.baccarat import engine as pb
from kiosk.rules.baccarat.engine import BetKind, BetSettlement, CardDealt
from kiosk.rules.cards import Card
from kiosk.rules.operations import Operation, decode, operation_from_record

GOLDEN = Path(__file__).parent / "golden"


def golden_names() -> list[str]:
    return sorted(p.stem for p in GOLDEN.glob("*.json"))


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GOLDEN / f"{name}.json").read_text())
    return data


def rules_of(golden: dict[str, Any]) -> pb.PuntoBancoRules:
    rules: pb.PuntoBancoRules = decode(pb.PuntoBancoRules, golden["rules"])
    return rules


def roundtrip(op: Operation) -> Operation:
    """An Operation as the journal stores it and reads it back."""
    return operation_from_record(op.kind, json.loads(json.dumps(op.to_payload())))


def fold(ops: list[Operation], rules: pb.PuntoBancoRules, table_id: str) -> pb.PuntoBancoState:
    state = pb.initial_state(rules, table_id)
    for op in ops:
        state = pb.apply(state, op)
    return state


@dataclass
class Table:
    """A table driven through the engine's actions; every Operation goes to `journal`."""

    rules: pb.PuntoBancoRules = field(default_factory=pb.PuntoBancoRules)
    table_id: str = "T1"
    state: pb.PuntoBancoState = field(init=False)
    journal: list[Operation] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.state = pb.initial_state(self.rules, self.table_id)
        self.do(pb.open_table(self.rules, self.table_id))

    def do(self, op: Operation) -> Operation:
        self.journal.append(op)
        self.state = pb.apply(self.state, op)
        return op

    def shuffle(self, method: str = "hand") -> Table:
        self.do(pb.shuffle(self.state, method))
        return self

    def bet(self, area: str, kind: str | BetKind, amount: int) -> Table:
        self.do(pb.place_bet(self.state, area, BetKind(kind), amount))
        return self

    def close(self) -> Table:
        self.do(pb.close_betting(self.state))
        return self

    def card(self, code: str) -> Operation:
        return self.do(pb.shoe_card(self.state, Card.parse(code)))

    def cards(self, *codes: str) -> Table:
        for code in codes:
            op = self.card(code)
            assert isinstance(op, CardDealt), op
        return self

    def confirm(self) -> pb.CoupSettled:
        op = self.do(pb.confirm_payouts(self.state))
        assert isinstance(op, pb.CoupSettled)
        return op


def settlement_record(s: BetSettlement) -> dict[str, Any]:
    return {"area": s.area, "kind": s.kind.value, "stake": s.stake, "outcome": s.outcome.value,
            "odds": str(s.odds), "exact_win": str(s.exact_win), "paid": s.paid,
            "rounding": str(s.rounding), "commission": str(s.commission),
            "returned": s.returned}


def replay(golden: dict[str, Any]) -> tuple[dict[str, Any], Table]:
    """Play a golden file through the engine; return what happened in the file's own shape."""
    table = Table(rules_of(golden))
    table.shuffle()
    coups: list[dict[str, Any]] = []
    for coup in golden["coups"]:
        for area, kind, amount in coup["bets"]:
            table.bet(area, kind, amount)
        table.close()
        hands = []
        for code in coup["cards"]:
            op = table.card(code)
            assert isinstance(op, CardDealt), f"{code}: {op}"
            hands.append(op.hand.value)
        step = pb.next_step(table.state)
        settled = table.confirm()
        r = settled.result
        settlements = [settlement_record(s) for s in settled.settlements]
        coups.append({
            "bets": coup["bets"],
            "cards": coup["cards"],
            "expected": {
                "hands": hands,
                "player_cards": [c.code for c in settled.player_cards],
                "banker_cards": [c.code for c in settled.banker_cards],
                "result": {"winner": r.winner.value, "player_total": r.player_total,
                           "banker_total": r.banker_total, "player_pair": r.player_pair,
                           "banker_pair": r.banker_pair, "natural": r.natural},
                "next_step": step,
                "settlements": settlements,
                "summary": {
                    "staked": sum(s.stake for s in settled.settlements),
                    "returned": sum(s.returned for s in settled.settlements),
                    "rounding": str(sum((s.rounding for s in settled.settlements),
                                        Fraction(0))),
                    "commission": str(sum((s.commission for s in settled.settlements),
                                          Fraction(0))),
                },
                "commission_owed_after": {a: str(f) for a, f in table.state.commission_owed},
            },
        })
    collections = []
    for area in golden.get("collect_commission", {}):
        op = table.do(pb.collect_commission(table.state, area))
        assert isinstance(op, pb.CommissionCollected)
        collections.append((area, {"owed": str(op.owed), "collected": op.collected,
                                   "rounding": str(op.rounding)}))
    out: dict[str, Any] = {**golden, "coups": coups}
    if collections:
        out["collect_commission"] = dict(collections)
    out["results"] = [r.winner.value for r in table.state.results]
    return out, table


if __name__ == "__main__":  # pragma: no cover - a reviewing aid
    for name in sys.argv[1:] or golden_names():
        print(json.dumps(replay(load(name))[0], indent=1))
