"""A table's rounds at the pit, recomputed exactly as `tableside replay` does (kiosk/replay.py)
from the rows the pit holds; one report per table is kept until new rows arrive."""

from __future__ import annotations

import threading

from kiosk.replay import CoupReplay, ReplayReport, replay
from kiosk.store.journal import Entry
from pit.store import PitStore

_PAGE = 5000


class Rounds:
    def __init__(self, store: PitStore) -> None:
        self.store = store
        self._cache: dict[str, tuple[int, ReplayReport]] = {}
        self._lock = threading.Lock()

    def entries(self, table_id: str) -> list[Entry]:
        out: list[Entry] = []
        while True:
            rows = self.store.rows(table_id, out[-1].seq if out else 0, _PAGE)
            out.extend(row.entry() for row in rows)
            if len(rows) < _PAGE:
                return out

    def report(self, table_id: str) -> ReplayReport:
        """The replay of every row the pit holds of the table (UnknownTable if none)."""
        head = self.store.head(table_id)[0]
        with self._lock:
            cached = self._cache.get(table_id)
        if cached is not None and cached[0] == head:
            return cached[1]
        report = replay(self.entries(table_id), f"pit:{table_id}")
        with self._lock:
            self._cache[table_id] = (head, report)
        return report

    @staticmethod
    def round_at(report: ReplayReport, seq: int) -> CoupReplay | None:
        """The round whose settling (or void) row is `seq`, or the first one after it
        (an alert's row inside a round leads to that round)."""
        for coup in report.coups:
            if coup.seq >= seq:
                return coup
        return None
