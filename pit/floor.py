"""The floor as the inspector sees it: each table folded from the rows the pit holds, with
the one fold the table itself uses (kiosk/table/fold.py), kept in memory and caught up after
each batch. A table's first catch-up starts from its last snapshot row, as the table does."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from kiosk.rules.errors import UnreadableInput
from kiosk.rules.money import format_money
from kiosk.rules.operations import operation_from_record
from kiosk.store.canonical import loads_strict
from kiosk.table.fold import EMPTY, Folded, FoldError, fold
from kiosk.table.records import Snapshot
from kiosk.table.snapshot import restore
from pit.store import PitStore

_PAGE = 2000


class Floor:
    """Every table's folded state at the pit, and a summary of it for the dashboard."""

    def __init__(self, store: PitStore) -> None:
        self.store = store
        self._folded: dict[str, Folded] = {}
        self._problems: dict[str, list[str]] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    def _lock(self, table_id: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(table_id, threading.Lock())

    def catch_up(self, table_id: str) -> dict[str, Any]:
        """Fold the rows the pit received since the last call; the table's summary."""
        with self._lock(table_id):
            folded = self._folded.get(table_id) or self._start(table_id)
            problems = self._problems.setdefault(table_id, [])
            while True:
                rows = self.store.rows(table_id, folded.seq, _PAGE)
                if not rows:
                    break
                folded = fold((row.entry() for row in rows), folded,
                              on_error=lambda exc: problems.append(str(exc)))
            self._folded[table_id] = folded
            summary = summarize(folded, problems)
        self.store.save_summary(table_id, summary)
        return summary

    def folded(self, table_id: str) -> Folded:
        self.catch_up(table_id)
        return self._folded[table_id]

    def _start(self, table_id: str) -> Folded:
        found = self.store.db.one(
            "SELECT seq, payload FROM pit_rows WHERE table_id = ? AND kind = ? "
            "ORDER BY seq DESC LIMIT 1", (table_id, Snapshot.kind))
        if found is None:
            return EMPTY
        try:
            value = loads_strict(str(found[1]))
            op = operation_from_record(Snapshot.kind, value if isinstance(value, dict) else {})
            assert isinstance(op, Snapshot)
            return restore(op)
        except (UnreadableInput, ValueError, AssertionError, FoldError):
            return EMPTY  # fold from row 1 instead: slower, same result


def summarize(folded: Folded, problems: list[str]) -> dict[str, Any]:
    """What the floor shows of one table: its game, round, step, limits and the inspector."""
    out: dict[str, Any] = {"seq": folded.seq, "inspector_called": folded.facts.inspector_called,
                           "problems": len(problems)}
    if folded.game is None or folded.state is None:
        out.update(game="", state="not opened")
        return out
    engine = folded.game.engine
    rules = engine.rules_of(folded.state)
    currency = str(getattr(rules, "currency", "R"))
    low, high = engine.table_minimum(rules), engine.table_maximum(rules)
    try:
        step: str = engine.next_step(folded.state)
    except Exception:  # a state the rules cannot describe is shown as such, not raised
        step = "unknown"
    out.update(game=folded.game.title, game_name=folded.game.name,
               round=engine.round_number(folded.state),
               betting_open=bool(engine.betting_open(folded.state)), state=step,
               minimum=low, maximum=high,
               limits=f"{format_money(low, currency)} to {format_money(high, currency)}")
    return out


class FloorTimeError(ValueError):
    """A casino time zone or a late/silent time the floor cannot use; the message says why."""


@dataclass(frozen=True)
class FloorTimes:
    """How the floor shows time: in the casino's time zone (`[pit] timezone`, an IANA name
    such as Africa/Johannesburg), with the zone's abbreviation beside each time; "last
    heard" as an age ("12 s ago"); and a table late (amber) once it has not been heard from
    for `late_after` seconds, silent (red, with an alert) after `silent_after`."""

    timezone: str = "UTC"
    late_after: int = 30
    silent_after: int = 120

    def __post_init__(self) -> None:
        self.zone()  # refused now, in words, not on the first page
        if not 0 < self.late_after < self.silent_after:
            raise FloorTimeError(f"late_after ({self.late_after} s) must be above 0 and below "
                                 f"silent_after ({self.silent_after} s)")

    def zone(self) -> ZoneInfo:
        try:
            return ZoneInfo(self.timezone)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise FloorTimeError(f"{self.timezone!r} is not a time zone (an IANA name such "
                                 "as Africa/Johannesburg)") from exc

    def local(self, stamp: str) -> str:
        """A stored UTC time ("2026-11-28T08:15:03.120Z") in the casino's zone, with it:
        "2026-11-28 10:15:03 SAST"."""
        moment = _parse(stamp)
        if moment is None:
            return stamp
        here = moment.astimezone(self.zone())
        return f"{here:%Y-%m-%d %H:%M:%S} {here.tzname()}"

    def heard(self, stamp: str | None, now: datetime) -> Heard:
        """When a table was last heard from, for the floor."""
        moment = _parse(stamp) if stamp else None
        if moment is None:
            return Heard("silent", "never", "")
        seconds = max(0, int((now - moment).total_seconds()))
        status = ("live" if seconds < self.late_after else
                  "late" if seconds < self.silent_after else "silent")
        return Heard(status, ago(seconds), self.local(stamp or ""))


@dataclass(frozen=True)
class Heard:
    status: str  # "live", "late" (amber) or "silent" (red)
    ago: str  # "12 s ago", "never"
    at: str  # in the casino's zone, with it ("" when never)


def ago(seconds: int) -> str:
    """An age in the largest whole unit: "12 s ago", "3 min ago", "2 h ago", "4 d ago"."""
    for size, unit in ((86_400, "d"), (3_600, "h"), (60, "min")):
        if seconds >= size:
            return f"{seconds // size} {unit} ago"
    return f"{seconds} s ago"


def _parse(stamp: str | None) -> datetime | None:
    try:
        moment = datetime.fromisoformat(str(stamp).replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
