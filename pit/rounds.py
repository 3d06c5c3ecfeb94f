"""A table's rounds at the pit, recomputed exactly as `tableside replay` does (kiosk/replay.py)
from the rows the pit holds. Each table's replay is kept and fed only the rows that arrived
since, so a table's page costs its new rows, not its whole journal, however long it grows."""

from __future__ import annotations

import threading

from kiosk.replay import CoupReplay, Replay, ReplayReport
from pit.store import PitStore

_PAGE = 5000


class Rounds:
    def __init__(self, store: PitStore) -> None:
        self.store = store
        self._replays: dict[str, Replay] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    def _lock(self, table_id: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(table_id, threading.Lock())

    def report(self, table_id: str) -> ReplayReport:
        """The replay of every row the pit holds of the table (UnknownTable if none)."""
        head = self.store.head(table_id)[0]
        with self._lock(table_id):
            replay = self._replays.get(table_id)
            if replay is None:
                replay = self._replays[table_id] = Replay(f"pit:{table_id}")
            while replay.seq < head:
                rows = self.store.rows(table_id, replay.seq, _PAGE)
                if not rows:
                    break
                replay.feed(row.entry() for row in rows)
            return replay.report

    @staticmethod
    def round_at(report: ReplayReport, seq: int) -> CoupReplay | None:
        """The round whose settling (or void) row is `seq`, or the first one after it
        (an alert's row inside a round leads to that round)."""
        for coup in report.coups:
            if coup.seq >= seq:
                return coup
        return None
