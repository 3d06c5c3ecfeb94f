"""What a replay finds (rule 2.8): each round recomputed from the journal, and every
difference from what was recorded. Each game's audit (`GameSpec.audit`) fills these in as the
one fold (`kiosk/table/fold.py`) walks the journal; `kiosk/replay.py` drives it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol


class Row(Protocol):
    """The journal row an Operation came from (kiosk.store.journal.Entry)."""

    @property
    def seq(self) -> int: ...

    @property
    def wall_time(self) -> str: ...

    @property
    def kind(self) -> str: ...

    @property
    def payload(self) -> dict[str, Any]: ...


@dataclass
class CoupReplay:
    """One round (a coup in punto banco) as replay recomputed it."""

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
    dealer: str = ""
    """Who dealt the round ("4471 Thandi M."), when a dealer was signed in (docs/roles.md)."""
    overrides: list[dict[str, str]] = field(default_factory=list)
    """The overrides on record since the round before, each as journaled (who, role, why)."""
    outcome: str = ""
    """The round's outcome in one line, in its game's words ("banker 7-6", "number 17"):
    filled in by the game's audit, shown as it is by the pit's rounds list (which names no
    game). Not part of `as_json`: replay's JSON holds the parts it is made of."""

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "coup": self.coup, "status": self.status, "seq": self.seq,
            "wall_time": self.wall_time, "player_cards": self.player_cards,
            "banker_cards": self.banker_cards, "result": self.result,
            "settlements": self.settlements, "differences": self.differences,
        }
        if self.hands is not None:  # hands by name instead of player/banker
            out = {k: v for k, v in out.items() if k not in ("player_cards", "banker_cards")}
            out["hands"] = self.hands
        if self.reason:
            out["reason"] = self.reason
        if self.dealer:  # journals with no sign-in read as before
            out["dealer"] = self.dealer
        if self.overrides:
            out["overrides"] = self.overrides
        return out

    def who(self) -> tuple[tuple[str, str], ...]:
        """Who did what in the round, as (role, words) pairs: its dealer, then each override
        with its act and reason (the pit's round page shows them)."""
        out = [("dealer", self.dealer)] if self.dealer else []
        for o in self.overrides:
            name = f"{o['person']} {o['name']}".strip()
            out.append((o["role"], f"{name}: {o['action'].replace('_', ' ')} ({o['reason']})"))
        return tuple(out)

    def line(self) -> str:
        """One line of `tableside replay`'s report."""
        differs = "" if not self.differences else "  DIFFERS: " + "; ".join(self.differences)
        if self.dealer:
            differs = f"  dealer {self.dealer}{differs}"
        for o in self.overrides:
            differs += f"  {o['action']} by {o['role']} {o['person']}: {o['reason']}"
        if self.hands is not None:
            hands = "  ".join(f"{k} {' '.join(v)}" for k, v in self.hands.items())
            return f"round {self.coup:>4} {self.status:<8} {hands}{differs}"
        res = self.result or {}
        return (f"coup {self.coup:>4} {self.status:<8} P {' '.join(self.player_cards):<9} "
                f"B {' '.join(self.banker_cards):<9} {res.get('winner', '-'):<6} "
                f"{res.get('player_total', '')}-{res.get('banker_total', '')}{differs}")


@dataclass
class ReplayReport:
    source: str
    chain_ok: bool
    chain_reason: str
    entries: int
    table_id: str = ""
    coups: list[CoupReplay] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    disputes: list[str] = field(default_factory=list)
    """Rounds flagged as disputed (rule 2.8), a line each with the row it is on record in."""

    @property
    def differences(self) -> int:
        return sum(len(c.differences) for c in self.coups) + len(self.problems)

    @property
    def ok(self) -> bool:
        return self.chain_ok and self.differences == 0

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "source": self.source, "table_id": self.table_id, "entries": self.entries,
            "chain": {"ok": self.chain_ok, "reason": self.chain_reason},
            "coups": [c.as_json() for c in self.coups], "problems": self.problems}
        if self.disputes:  # a journal with none reports exactly as before
            out["disputes"] = self.disputes
        return {**out, "differences": self.differences, "ok": self.ok}


class Audit(Protocol):
    """A game's replay audit: called with the state just before `op` is folded; it adds
    the rounds it recomputed to `report.coups` and anything else to `report.problems`."""

    def __call__(self, state: Any, op: Any, row: Row, report: ReplayReport) -> None: ...


def codes(cards: Any) -> str:
    return " ".join(c.code for c in cards) or "none"
