"""Replay for disputes (rule 2.8): recompute every coup of a journal and compare.

Reads a journal database or its JSONL export (docs/journal.md), checks the hash chain, folds the
Operations through the game engine from the first, and for every settled coup recomputes the
result and each area's settlement from the recorded cards with today's engine. Any difference
from what was recorded (cards, result, a payout, a commission, a rounding) is reported.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kiosk.rules import punto_banco as pb
from kiosk.rules.blackjack import engine as bj
from kiosk.rules.errors import TablesideError, UnreadableInput
from kiosk.rules.operations import encode, operation_from_record
from kiosk.store.export import read_jsonl
from kiosk.store.journal import Entry, iter_entries, verify_entries
from kiosk.table.session import DeviceReport  # noqa: F401  (registers its kind)


@dataclass
class CoupReplay:
    coup: int
    status: str  # settled | voided
    seq: int
    wall_time: str
    player_cards: list[str] = field(default_factory=list)
    banker_cards: list[str] = field(default_factory=list)
    result: dict[str, Any] | None = None
    settlements: list[dict[str, Any]] = field(default_factory=list)
    differences: list[str] = field(default_factory=list)
    reason: str = ""
    hands: dict[str, list[str]] | None = None  # blackjack: "dealer", "box 3/1", ...

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "coup": self.coup, "status": self.status, "seq": self.seq,
            "wall_time": self.wall_time, "player_cards": self.player_cards,
            "banker_cards": self.banker_cards, "result": self.result,
            "settlements": self.settlements, "differences": self.differences,
        }
        if self.hands is not None:  # a blackjack round: the hands instead of player/banker
            out = {k: v for k, v in out.items() if k not in ("player_cards", "banker_cards")}
            out["hands"] = self.hands
        if self.reason:
            out["reason"] = self.reason
        return out


@dataclass
class ReplayReport:
    source: str
    chain_ok: bool
    chain_reason: str
    entries: int
    table_id: str = ""
    coups: list[CoupReplay] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def differences(self) -> int:
        return sum(len(c.differences) for c in self.coups) + len(self.problems)

    @property
    def ok(self) -> bool:
        return self.chain_ok and self.differences == 0

    def as_json(self) -> dict[str, Any]:
        return {"source": self.source, "table_id": self.table_id, "entries": self.entries,
                "chain": {"ok": self.chain_ok, "reason": self.chain_reason},
                "coups": [c.as_json() for c in self.coups], "problems": self.problems,
                "differences": self.differences, "ok": self.ok}


def load_entries(source: str | Path) -> list[Entry]:
    """Entries from a journal database or a JSONL export (told apart by their first bytes)."""
    path = Path(source)
    try:
        with path.open("rb") as fh:
            head = fh.read(16)
    except OSError as exc:
        raise UnreadableInput(f"{path}: cannot read: {exc.strerror}") from exc
    if head.startswith(b"SQLite format 3"):
        return list(iter_entries(path))
    with path.open(encoding="utf-8") as fh:
        return list(read_jsonl(fh))


def _settlement_json(s: pb.BetSettlement) -> dict[str, Any]:
    data: dict[str, Any] = encode(s)
    data["returned"] = s.returned
    return data


def _operations(rows: list[Entry], report: ReplayReport) -> Iterator[tuple[Entry, Any]]:
    """Each row with its Operation; a row that cannot be read is reported and skipped. The
    table's id comes from its opening, whatever the game."""
    for entry in rows:
        try:
            op = operation_from_record(entry.kind, entry.payload)
        except UnreadableInput as exc:
            report.problems.append(f"row {entry.seq}: {exc}")
            continue
        if isinstance(op, pb.TableOpened | bj.TableOpened):
            report.table_id = op.table_id
        yield entry, op


def replay(entries: Iterable[Entry], source: str = "") -> ReplayReport:
    rows = list(entries)
    chain = verify_entries(rows)
    report = ReplayReport(source, chain.ok, chain.reason, len(rows))
    if rows and rows[0].kind == bj.TableOpened.kind:
        return _replay_blackjack(rows, report)
    state: pb.PuntoBancoState | None = None
    for entry, op in _operations(rows, report):
        if isinstance(op, pb.TableOpened) and state is None:
            state = pb.initial_state(op.rules, op.table_id)
        if state is None:
            report.problems.append(f"row {entry.seq}: {entry.kind} before the table opened")
            continue
        if isinstance(op, pb.CoupSettled):
            report.coups.append(_audit_settlement(state, op, entry))
        elif isinstance(op, pb.CoupVoided):
            report.coups.append(CoupReplay(
                op.coup, "voided", entry.seq, entry.wall_time,
                [c.code for c in state.player_cards], [c.code for c in state.banker_cards],
                reason=op.reason))
        try:
            state = pb.apply(state, op)
        except Exception as exc:  # a row the rules cannot fold is a finding, not a crash
            report.problems.append(_cannot_follow(entry, exc))
    return report


def _audit_settlement(state: pb.PuntoBancoState, op: pb.CoupSettled, entry: Entry
                      ) -> CoupReplay:
    """Recompute the coup the journal says was settled and list every difference."""
    out = CoupReplay(op.coup, "settled", entry.seq, entry.wall_time,
                     [c.code for c in state.player_cards], [c.code for c in state.banker_cards])
    diffs = out.differences
    if op.coup != state.coup:
        diffs.append(f"recorded as coup {op.coup}, but the journal is at coup {state.coup}")
    if op.player_cards != state.player_cards or op.banker_cards != state.banker_cards:
        diffs.append(
            f"cards recorded with the settlement (player {_codes(op.player_cards)}, banker "
            f"{_codes(op.banker_cards)}) differ from the cards dealt (player "
            f"{_codes(state.player_cards)}, banker {_codes(state.banker_cards)})")
    try:
        expected = pb.confirm_payouts(state)
    except TablesideError as exc:
        diffs.append(f"settled although {exc}")
        out.result = encode(op.result)
        out.settlements = [_settlement_json(s) for s in op.settlements]
        return out
    out.result = encode(expected.result)
    out.settlements = [_settlement_json(s) for s in expected.settlements]
    if expected.result != op.result:
        diffs.append(f"result recorded {encode(op.result)}, recomputed "
                     f"{encode(expected.result)}")
    recorded = {(s.area, s.kind): s for s in op.settlements}
    for s in expected.settlements:
        r = recorded.pop((s.area, s.kind), None)
        if r is None:
            diffs.append(f"area {s.area} {s.kind}: stake {s.stake} was never settled")
        elif r != s:
            fields = [f for f in ("stake", "outcome", "odds", "exact_win", "paid", "rounding",
                                  "commission") if getattr(r, f) != getattr(s, f)]
            diffs.append(f"area {s.area} {s.kind}: " + ", ".join(
                f"{f} recorded {encode(getattr(r, f))}, recomputed {encode(getattr(s, f))}"
                for f in fields))
    for (area, kind), r in recorded.items():
        diffs.append(f"area {area} {kind}: settled {r.stake} that was never staked")
    return out


def _codes(cards: Iterable[Any]) -> str:
    return " ".join(c.code for c in cards) or "none"


def _replay_blackjack(rows: list[Entry], report: ReplayReport) -> ReplayReport:
    """A blackjack journal: every payout made during a round (a blackjack paid at once, even
    money, a surrender) and every settlement is recomputed from the cards and decisions."""
    state: bj.BlackjackState | None = None
    for entry, op in _operations(rows, report):
        if isinstance(op, bj.TableOpened) and state is None:
            state = bj.initial_state(op.rules, op.table_id)
        if state is None:
            report.problems.append(f"row {entry.seq}: {entry.kind} before the table opened")
            continue
        try:
            if isinstance(op, bj.RoundSettled):
                report.coups.append(_audit_round(state, op, entry))
            elif isinstance(op, bj.RoundVoided):
                report.coups.append(_audit_void(state, op, entry))
            elif isinstance(op, bj.BlackjackPaid | bj.Surrendered | bj.EvenMoneyTaken):
                _audit_early(state, op, entry, report)
            state = bj.apply(state, op)
        except Exception as exc:  # a row the rules cannot fold is a finding, not a crash
            report.problems.append(_cannot_follow(entry, exc))
    return report


def _cannot_follow(entry: Entry, exc: Exception) -> str:
    why = str(exc) if isinstance(exc, TablesideError) else f"{type(exc).__name__} {exc}"
    return f"row {entry.seq}: {entry.kind} cannot follow: {why}"


def _hands(state: bj.BlackjackState) -> dict[str, list[str]]:
    out = {"dealer": [c.code for c in state.dealer]}
    for h in state.hands:
        out[f"box {h.box}/{h.number}"] = [c.code for c in h.cards]
    return out


def _audit_early(state: bj.BlackjackState, op: Any, entry: Entry, report: ReplayReport
                 ) -> None:
    """A payout made during the round, recomputed at the moment it was made."""
    if isinstance(op, bj.BlackjackPaid):
        again: Any = bj.pay_blackjack(state)
        got, want = op.settlements, again.settlements
    elif isinstance(op, bj.Surrendered):
        again = bj.surrender(state, op.players[1:])
        got, want = op.settlements, again.settlements
    else:
        again = bj.take_even_money(state, op.box, op.player)
        got, want = (op.settlement,), (again.settlement,)
    if got != want:
        report.problems.append(f"row {entry.seq}: {entry.kind} recorded "
                               f"{[encode(s) for s in got]}, recomputed "
                               f"{[encode(s) for s in want]}")


def _audit_void(state: bj.BlackjackState, op: bj.RoundVoided, entry: Entry) -> CoupReplay:
    """A void hands back every bet not yet settled: recomputed, and compared with what the
    journal lists (rows written before the list was recorded have no `returned` at all;
    an empty list is a list, compared like any other)."""
    out = CoupReplay(op.round, "voided", entry.seq, entry.wall_time, hands=_hands(state),
                     reason=op.reason)
    expected = bj.void_returns(state)
    out.settlements = [encode(s) for s in expected]
    if "returned" in entry.payload and op.returned != expected:
        out.differences.append(f"returned {[encode(s) for s in op.returned]}, recomputed "
                               f"{[encode(s) for s in expected]}")
    return out


def _audit_round(state: bj.BlackjackState, op: bj.RoundSettled, entry: Entry) -> CoupReplay:
    out = CoupReplay(op.round, "settled", entry.seq, entry.wall_time, hands=_hands(state))
    diffs = out.differences
    try:
        expected = bj.confirm_payouts(state)
    except TablesideError as exc:
        diffs.append(f"settled although {exc}")
        out.settlements = [encode(s) for s in op.settlements]
        return out
    out.result = {"dealer_total": state.dealer_total.best if state.dealer_points else None,
                  "dealer_blackjack": state.dealer_blackjack}
    out.settlements = [encode(s) for s in (*expected.settlements, *expected.paid_earlier)]
    if op.dealer_cards != expected.dealer_cards or op.hands != expected.hands:
        diffs.append("the cards recorded with the settlement differ from the cards dealt")
    recorded = {(s.box, s.hand, s.player, s.kind): s for s in op.settlements}
    for s in expected.settlements:
        r = recorded.pop((s.box, s.hand, s.player, s.kind), None)
        where = f"box {s.box} hand {s.hand} player {s.player} {s.kind.value}"
        if r is None:
            diffs.append(f"{where}: stake {s.stake} was never settled")
        elif r != s:
            diffs.append(f"{where}: recorded {encode(r)}, recomputed {encode(s)}")
    for (box, hand, player, kind), r in recorded.items():
        diffs.append(f"box {box} hand {hand} player {player} {kind.value}: settled "
                     f"{r.stake} that was never staked")
    return out
