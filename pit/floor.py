"""The floor as the inspector sees it: each table folded from the rows the pit holds, with
the one fold the table itself uses (kiosk/table/fold.py), kept in memory and caught up after
each batch. A table's first catch-up starts from its last snapshot row, as the table does."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import pairwise
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
WATCH_EVERY = 5.0
"""Seconds between the pit's own looks for silent tables (`SilenceWatch`)."""

log = logging.getLogger(__name__)


class Floor:
    """Every table's folded state at the pit, and a summary of it for the dashboard."""

    def __init__(self, store: PitStore) -> None:
        self.store = store
        self._folded: dict[str, tuple[int, Folded]] = {}  # the card it was folded on
        self._problems: dict[str, list[str]] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    def _lock(self, table_id: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(table_id, threading.Lock())

    def catch_up(self, table_id: str) -> dict[str, Any]:
        """Fold the rows the pit received since the last call; the table's summary."""
        with self._lock(table_id):
            while True:
                card = self.store.card(table_id)
                folded, problems = self._fold(table_id, card)
                if self.store.card(table_id) == card:  # else a new card came while folding
                    break
            self._folded[table_id] = (card, folded)
            summary = summarize(folded, problems)
        self.store.save_summary(table_id, summary)
        return summary

    def _fold(self, table_id: str, card: int) -> tuple[Folded, list[str]]:
        """What was folded of the table's journal on `card`, with the rows since folded in
        (all of them: the first time, or for a new card's journal), and the problems met."""
        kept = self._folded.get(table_id)
        if kept is None or kept[0] != card:
            folded = self._start(table_id)
            self._problems[table_id] = []
        else:
            folded = kept[1]
        problems = self._problems[table_id]
        while True:
            rows = self.store.rows(table_id, folded.seq, _PAGE)
            if not rows:
                return folded, problems
            folded = fold((row.entry() for row in rows), folded,
                          on_error=lambda exc: problems.append(str(exc)))

    def folded(self, table_id: str) -> Folded:
        self.catch_up(table_id)
        return self._folded[table_id][1]

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


SHIFTS = ("06:00", "14:00", "22:00")
"""When the casino's shifts start by default: three of eight hours."""
_HH_MM = re.compile(r"([0-9]{2}):([0-9]{2})")


class FloorTimeError(ValueError):
    """A casino time zone or a late/silent time the floor cannot use; the message says why."""


@dataclass(frozen=True)
class FloorTimes:
    """How the floor shows time: in the casino's time zone (`[pit] timezone`, an IANA name
    such as Africa/Johannesburg), with the zone's abbreviation beside each time; "last
    heard" as an age ("12 s ago"); and a table late (amber) once it has not been heard from
    for `late_after` seconds, silent (red, with an alert) after `silent_after`. `shifts`
    are the local times the casino's shifts start at ("HH:MM", sorted, distinct; the last
    runs on past midnight to the first), for the buy-ins by shift (pit/cash.py)."""

    timezone: str = "UTC"
    late_after: int = 30
    silent_after: int = 120
    shifts: tuple[str, ...] = SHIFTS

    def __post_init__(self) -> None:
        self.zone()  # refused now, in words, not on the first page
        if not 0 < self.late_after < self.silent_after:
            raise FloorTimeError(f"late_after ({self.late_after} s) must be above 0 and below "
                                 f"silent_after ({self.silent_after} s)")
        object.__setattr__(self, "shifts", tuple(self.shifts))
        self.shift_starts()

    def shift_starts(self) -> tuple[int, ...]:
        """`shifts` as minutes after local midnight; `FloorTimeError` unless each is a time
        "HH:MM" and they are sorted and distinct."""
        if not self.shifts:
            raise FloorTimeError("shifts must name at least one start, like [\"06:00\"]")
        minutes = []
        for text in self.shifts:
            match = _HH_MM.fullmatch(text) if isinstance(text, str) else None
            if match is None or int(match[1]) > 23 or int(match[2]) > 59:
                raise FloorTimeError(f"shifts: {text!r} is not a time of day written HH:MM "
                                     f"(like \"06:00\")")
            minutes.append(int(match[1]) * 60 + int(match[2]))
        if any(b <= a for a, b in pairwise(minutes)):
            raise FloorTimeError(f"shifts must be in order from midnight, each once: "
                                 f"{', '.join(self.shifts)}")
        return tuple(minutes)

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


def utc_now() -> datetime:
    return datetime.now(UTC)


_TOLD = "(a.acked_at IS NULL OR a.raised_at >= {when})"
"""An alert that still tells of a table's silence: open, or raised since it was last heard."""


def raise_silent(store: PitStore, times: FloorTimes, now: datetime) -> list[tuple[str, int]]:
    """Raise one "Table silent" alert for each table not heard from for `silent_after`
    seconds at `now`: once per silence. None while one is open for the table, none again
    for a silence whose alert an inspector acknowledged (one raised since the table was last
    heard from); a table heard from again and then silent again gets a new one. The database
    decides, under the table's row lock as the ingest takes it, so pit processes sharing it
    raise it once. A table never heard from has no time to give, and raises none. The
    tables raised for, each with its alert's id."""
    from pit.alerts import TABLE_SILENT

    seen = {str(r[0]) for r in store.db.query(  # a read first: no lock for the tables told
        "SELECT DISTINCT a.table_id FROM pit_alerts a JOIN pit_tables t "
        "ON t.table_id = a.table_id WHERE a.kind = ? AND " + _TOLD.format(when="t.last_sync_at"),
        (TABLE_SILENT,))}
    raised = []
    for table in store.floor():
        heard = times.heard(table.last_sync_at, now)
        if heard.status != "silent" or table.last_sync_at is None or table.table_id in seen:
            continue
        with store.db.transaction() as tx:
            locked = tx.lock_table(table.table_id)
            last = tx.one("SELECT last_sync_at FROM pit_tables WHERE table_id = ?",
                          (table.table_id,))
            if locked is None or last is None or last[0] != table.last_sync_at:
                continue  # gone, or heard from since the floor was read: not silent now
            if tx.one("SELECT a.id FROM pit_alerts a WHERE a.table_id = ? AND a.kind = ? "
                      "AND " + _TOLD.format(when="?"),
                      (table.table_id, TABLE_SILENT, table.last_sync_at)) is not None:
                continue  # told already, for this silence or one still open
            made = tx.one(
                "INSERT INTO pit_alerts (table_id, seq, kind, message, raised_at) "
                "VALUES (?, NULL, ?, ?, ?) RETURNING id",
                (table.table_id, TABLE_SILENT, f"Table {table.table_id} not heard from since "
                 f"{heard.at} ({heard.ago}; silent after {times.silent_after} s)",
                 store.clock()))
            if made is not None:
                raised.append((table.table_id, int(made[0])))
    return raised


class SilenceWatch:
    """The pit's own look for silent tables, every `every` seconds while it runs (started
    with the app, pit/app.py), so an inspector is told of a quiet table even when nobody
    has the floor open. `clock` gives the time (a test's fake one); `ticks` counts the
    looks taken; `tell` passes each alert raised to the open dashboards."""

    def __init__(self, store: PitStore, times: FloorTimes, *, every: float = WATCH_EVERY,
                 clock: Callable[[], datetime] = utc_now,
                 tell: Callable[[dict[str, Any]], Awaitable[None]] | None = None) -> None:
        self.store = store
        self.times = times
        self.every = every
        self.clock = clock
        self.tell = tell
        self.ticks = 0
        self.raised = 0

    def check(self) -> list[tuple[str, int]]:
        """One look (blocking: the database): the tables raised for, each with its alert."""
        raised = raise_silent(self.store, self.times, self.clock())
        for table_id, alert_id in raised:
            log.warning("%s: alert %d raised: table silent (no sync for %d s or more)",
                        table_id, alert_id, self.times.silent_after)
        self.raised += len(raised)
        return raised

    async def tick(self) -> None:
        """One look, off the event loop's thread; a database that cannot be reached is
        logged in a line and tried again at the next look, never stops the watch."""
        try:
            raised = await asyncio.to_thread(self.check)
        except Exception as exc:  # the pit keeps serving; the next look tries again
            log.warning("the pit could not look for silent tables: %s", exc)
            raised = []
        finally:
            self.ticks += 1
        if self.tell is not None:
            for table_id, _ in raised:
                head = await asyncio.to_thread(self.store.head, table_id)
                await self.tell({"type": "table", "table_id": table_id, "head": head[0],
                                 "alerts": 1, "summary": {}})

    async def run(self, stop: asyncio.Event | None = None) -> None:
        """Look now, then every `every` seconds until `stop` is set (a look under way is
        finished first, so the database is not closed under it) or the task is cancelled."""
        stop = stop or asyncio.Event()
        while not stop.is_set():
            await self.tick()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), self.every)
