"""Replay audit of pai gow (rule 2.8): every settled round recomputed from the hands on the
journal, step by step in the order of its bank's procedure, each payment with its source."""

from __future__ import annotations

from typing import Any

from kiosk.rules.amounts import format_money
from kiosk.rules.audit import ReplayReport, RoundReplay, Row
from kiosk.rules.errors import TablesideError
from kiosk.rules.operations import encode
from kiosk.rules.paigow.hands import hand
from kiosk.rules.paigow.operations import AreaResult, Bank, Pair, Settled, Voided
from kiosk.rules.paigow.settlement import settle
from kiosk.rules.paigow.state import PaiGowState

BANKER = {Bank.HOUSE: "house", Bank.PLAYER: "banker", Bank.COBANK: "co-bank"}


def _codes(high: Pair, low: Pair) -> list[str]:
    return [t.code for t in (*high, *low)]


def _hands(state: PaiGowState) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    if state.bank_hand is not None:
        out[f"{BANKER[state.bank]} (area {state.chung})"] = _codes(*state.bank_hand)
    for area, high, low in sorted(state.hands):
        out[f"area {area}"] = _codes(high, low)
    return out


def outcome(bank: Bank, chung: int, high: Pair, low: Pair, areas: tuple[AreaResult, ...],
            currency: str) -> str:
    """"house area 1 gong / 5: area 2 win +R9; area 3 lose -R20": the bank's hands, then each
    area's result and net, in the order of the procedure."""
    def net(cents: int) -> str:
        return ("+" if cents >= 0 else "-") + format_money(abs(cents), currency)
    bank_words = f"{BANKER[bank]} area {chung} {hand(*high).words} / {hand(*low).words}"
    return bank_words + ": " + ("; ".join(
        f"area {a.area} {a.result.value} {net(a.net)}" for a in areas) or "no wager")


def audit(state: PaiGowState, op: Any, row: Row, report: ReplayReport) -> None:
    if isinstance(op, Voided):
        report.rounds.append(RoundReplay(op.round, "voided", row.seq, row.wall_time,
                                       hands=_hands(state), reason=op.reason,
                                       outcome=f"voided: {op.reason}"))
    elif isinstance(op, Settled):
        report.rounds.append(_audit_settlement(state, op, row))


def _audit_settlement(state: PaiGowState, op: Settled, row: Row) -> RoundReplay:
    out = RoundReplay(op.round, "settled", row.seq, row.wall_time, hands=_hands(state))
    currency = state.rules.currency
    out.outcome = outcome(op.bank, op.chung, op.bank_high, op.bank_low, op.areas, currency)
    if op.round != state.round:
        out.differences.append(f"recorded as round {op.round}, but the journal is at round "
                               f"{state.round}")
    try:
        areas, steps = settle(state)
    except (TablesideError, ValueError) as exc:
        out.differences.append(f"settled although {exc}")
        out.settlements = [encode(s) for s in op.steps]
        return out
    out.result = {"bank": state.bank.value, "chung": state.chung,
                  "bank_hands": _codes(*state.bank_hand) if state.bank_hand else []}
    out.settlements = [encode(s) for s in steps]
    if (op.bank, op.chung, op.banker_wager) != (state.bank, state.chung, state.banker_wager):
        out.differences.append(f"bank recorded {op.bank.value} at area {op.chung} with "
                               f"{op.banker_wager}, the journal says {state.bank.value} at "
                               f"area {state.chung} with {state.banker_wager}")
    if state.bank_hand is not None and (op.bank_high, op.bank_low) != state.bank_hand:
        out.differences.append("the bank's hands recorded differ from those set")
    if op.areas != areas:
        out.differences.append("results recorded " + "; ".join(
            f"area {a.area} {a.result.value} {a.net}" for a in op.areas) + ", recomputed "
            + "; ".join(f"area {a.area} {a.result.value} {a.net}" for a in areas))
    if op.steps != steps:
        for i, (was, again) in enumerate(zip(op.steps, steps, strict=False)):
            if was != again:
                out.differences.append(f"step {i + 1}: recorded {encode(was)}, recomputed "
                                       f"{encode(again)}")
                break
        if len(op.steps) != len(steps):
            out.differences.append(f"{len(op.steps)} steps recorded, {len(steps)} "
                                   f"recomputed")
    return out
