"""A table's rounds at the pit, recomputed exactly as `tableside replay` does (kiosk/replay.py)
from the rows the pit holds, but never from row 1: each view starts from a snapshot row
(`table_snapshot`, which a table journals every 5,000 rows: kiosk/table/snapshot.py), the one
fold restores it, and only the rows after it are replayed.

- The recent rounds start from the last snapshot at least `RECENT_ROWS` rows back. That replay
  is kept for the tables viewed lately (an LRU of `KEPT_TABLES`), holding its last rounds
  only, and fed the rows that arrived since; it starts again from a newer snapshot once it
  has replayed `SPAN` rows.
- A search by time finds the rows of that time through the (table, wall_time) index and
  replays from the snapshot before the first of them, up to `FOUND` rounds.
- A round's page replays from the snapshot before its row to the round.

So a view costs at most a snapshot's interval plus the rows asked for, however long the
table's journal at the pit has grown, and memory holds a bounded number of rounds.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from kiosk.replay import Replay, RoundReplay
from kiosk.rules.errors import UnreadableInput
from kiosk.rules.operations import operation_from_record
from kiosk.store.canonical import GENESIS_HASH, loads_strict
from kiosk.table.fold import FoldError
from kiosk.table.records import Snapshot
from kiosk.table.snapshot import restore
from pit.store import PitStore

PAGE = 1000
RECENT = 50
"""Rounds the recent list shows."""
RECENT_ROWS = 2000
"""The recent list replays from a snapshot at least this many rows before the head."""
SPAN = 20_000
"""A kept replay is started again from a newer snapshot after this many rows."""
KEPT_TABLES = 32
FOUND = 500
"""Rounds a search by time shows at most."""
LATEST = "9999-12-31T23:59:59.999Z"
"""The latest wall time: a search open at its end. Not a sign such as "~": PostgreSQL
compares text in the database's collation, and in ICU's (tested) and, by their rules, glibc's
en_US, "~" sorts before the digits, so a search from a time on found nothing there."""


@dataclass
class RoundsView:
    """Rounds of one table, newest last, with what was replayed to find them."""

    rounds: list[RoundReplay]
    head: int
    first_row: int
    """The first row replayed (after the snapshot the replay started from)."""
    chain_ok: bool
    chain_reason: str
    problems: list[str]


@dataclass
class _Kept:
    replay: Replay
    first_row: int
    card: int  # the card the table's journal was on (PitStore.card)


class Rounds:
    def __init__(self, store: PitStore, kept_tables: int = KEPT_TABLES) -> None:
        self.store = store
        self.kept_tables = kept_tables
        self._kept: OrderedDict[str, _Kept] = OrderedDict()
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    def _lock(self, table_id: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(table_id, threading.Lock())

    @property
    def kept(self) -> list[str]:
        """The tables whose recent replay is kept, least recently viewed first."""
        with self._guard:
            return list(self._kept)

    # --- the views -------------------------------------------------------------------------

    def recent(self, table_id: str, count: int = RECENT) -> RoundsView:
        """The table's last `count` rounds (UnknownTable if it is not enrolled)."""
        head = self.store.head(table_id)[0]
        card = self.store.card(table_id)
        with self._lock(table_id):
            with self._guard:
                kept = self._kept.pop(table_id, None)
            if (kept is None or kept.card != card or kept.replay.seq - kept.first_row > SPAN
                    or kept.replay.seq > head):
                kept = _Kept(*self._start(table_id, max(0, head - RECENT_ROWS)), card)
            self._feed(table_id, kept.replay, head)
            report = kept.replay.report
            del report.rounds[:-count]  # only the last rounds are kept
            del report.problems[:-count]
            if self.store.card(table_id) == card:  # else a new card came while replaying
                with self._guard:
                    self._kept[table_id] = kept
                    while len(self._kept) > self.kept_tables:
                        self._kept.popitem(last=False)
            return RoundsView(list(report.rounds), head, kept.first_row, report.chain_ok,
                              report.chain_reason, list(report.problems))

    def between(self, table_id: str, start: str, end: str, limit: int = FOUND) -> RoundsView:
        """The table's rounds settled (or voided) between the wall times `start` and `end`
        (either may be empty: open), at most `limit`, oldest first."""
        head = self.store.head(table_id)[0]
        found = self.store.db.one(
            "SELECT min(seq), max(seq) FROM pit_rows WHERE table_id = ? AND wall_time >= ? "
            "AND wall_time <= ?", (table_id, start, end or LATEST))
        if found is None or found[0] is None:
            return RoundsView([], head, 0, True, "", [])
        low, high = int(found[0]), int(found[1])
        replay, first = self._start(table_id, low - 1)
        rounds: list[RoundReplay] = []

        def enough() -> bool:
            rounds.extend(c for c in replay.report.rounds
                         if c.seq >= low and (not start or c.wall_time >= start)
                         and (not end or c.wall_time <= end))
            replay.report.rounds.clear()
            return len(rounds) >= limit

        self._feed(table_id, replay, high, enough)
        report = replay.report
        return RoundsView(rounds[:limit], head, first, report.chain_ok, report.chain_reason,
                          report.problems)

    def elsewhere(self, table_id: str, start: str, end: str) -> list[tuple[str, str, str]]:
        """The table's other journals holding rows written between `start` and `end`, oldest
        card first: (journal, first time, last time). On a table's page they are its old
        cards' closed journals (`PitStore.new_card`); on an old card's, the table's own and
        its other cards'. A search by time on one journal points to the rest, so a time in
        which the card was changed is found whole."""
        closed = self.store.closed_from(table_id)
        table = table_id if closed is None else closed[0]
        found: list[tuple[str, str, str]] = []
        for journal in reversed(self.store.journals(table)):
            if journal == table_id:
                continue
            times = [self.store.db.one(
                "SELECT wall_time FROM pit_rows WHERE table_id = ? AND wall_time >= ? AND "
                f"wall_time <= ? ORDER BY wall_time {order} LIMIT 1",
                (journal, start, end or LATEST)) for order in ("ASC", "DESC")]
            if times[0] is not None and times[1] is not None:
                found.append((journal, str(times[0][0]), str(times[1][0])))
        return found

    def round_at(self, table_id: str, seq: int) -> RoundReplay | None:
        """The round whose settling (or void) row is `seq`, or the first one after it
        (an alert's row inside a round leads to that round)."""
        return self.round_and_start(table_id, seq)[0]

    def round_and_start(self, table_id: str, seq: int) -> tuple[RoundReplay | None, int]:
        """`round_at`, and the round's first row: the row after the round before it settled
        (or the first row replayed, when that round lies before the snapshot it began at)."""
        head = self.store.head(table_id)[0]
        replay, first = self._start(table_id, seq - 1)
        found: list[RoundReplay] = []
        before = [first - 1]

        def done() -> bool:
            for c in replay.report.rounds:
                (found.append(c) if c.seq >= seq else before.append(c.seq))
            replay.report.rounds.clear()
            return bool(found)

        self._feed(table_id, replay, head, done)
        if not found:
            return None, 0
        return found[0], max(s for s in before if s < found[0].seq) + 1

    # --- replaying ---------------------------------------------------------------------------

    def _start(self, table_id: str, at_most: int) -> tuple[Replay, int]:
        """A replay from the table's last readable snapshot row at or before row `at_most`
        (from row 1 when there is none), and the first row it will be fed."""
        source = f"pit:{table_id}"
        found = self.store.db.query(
            "SELECT seq, payload FROM pit_rows WHERE table_id = ? AND kind = ? AND seq <= ? "
            "ORDER BY seq DESC LIMIT 3", (table_id, Snapshot.kind, at_most))
        for seq, payload in found:
            try:
                value = loads_strict(str(payload))
                op = operation_from_record(Snapshot.kind, value if isinstance(value, dict)
                                           else {})
                assert isinstance(op, Snapshot)
                start = restore(op)
            except (UnreadableInput, ValueError, AssertionError, FoldError):
                continue  # an older one, or row 1: slower, same rounds
            covered = self.store.db.one("SELECT hash FROM pit_rows WHERE table_id = ? AND "
                                        "seq = ?", (table_id, start.seq))
            digest = GENESIS_HASH if start.seq == 0 or covered is None else str(covered[0])
            return (Replay(source, start, (start.seq, digest), self.store.hashed_id(table_id)),
                    int(seq))
        return Replay(source), 1

    def _feed(self, table_id: str, replay: Replay, up_to: int,
              stop: Callable[[], bool] | None = None) -> None:
        while replay.seq < up_to:
            rows = self.store.rows(table_id, replay.seq, min(PAGE, up_to - replay.seq))
            if not rows:
                break
            replay.feed(row.entry() for row in rows)
            if stop is not None and stop():
                break
