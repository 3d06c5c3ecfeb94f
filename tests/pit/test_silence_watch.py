"""The pit tells an inspector of a quiet table by itself (pit/floor.py SilenceWatch, started
with the app): no floor page open, one "Table silent" alert per silence, one however many
pit processes share the database. On SQLite and PostgreSQL, with a fake clock and counted
looks (no timings)."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta

import psycopg

from kiosk.store.canonical import format_wall_time
from pit.alerts import TABLE_SILENT
from pit.app import open_pit
from pit.floor import FloorTimes, SilenceWatch
from pit.state import PitState
from tests.pit.conftest import PitServer
from tests.pit.pg import Postgres

T0 = datetime(2026, 11, 28, 8, 0, 0, tzinfo=UTC)
TIMES = FloorTimes("Africa/Johannesburg", late_after=30, silent_after=120)
WAIT = 30.0  # seconds before a watch that never looks fails the test (not a timing target)


class Clock:
    """The time the pit's store and watch see: moved by the test, never by itself."""

    def __init__(self) -> None:
        self.now = T0

    def at(self, seconds: int) -> datetime:
        self.now = T0 + timedelta(seconds=seconds)
        return self.now

    def __call__(self) -> datetime:
        return self.now

    def text(self) -> str:
        return format_wall_time(self.now)


def _pit(url: str, clock: Clock) -> PitState:
    state = open_pit(url, times=TIMES)
    state.store.clock = clock.text
    return state


def _silent(state: PitState) -> list[tuple[str, str, bool]]:
    return [(a.table_id, a.message, a.acked_at is None)
            for a in reversed(state.store.alerts(open_only=False)) if a.kind == TABLE_SILENT]


def test_a_table_that_stops_sending_gets_one_alert_per_silence(pit_url: str) -> None:
    clock = Clock()
    state = _pit(pit_url, clock)
    try:
        for table in ("PB-01", "PB-02"):
            state.store.enroll(table)
            state.store.ingest(table, [], 0)  # a heartbeat at 08:00:00
        watch = SilenceWatch(state.store, state.times, clock=clock)
        looks = []
        for seconds in (5, 60, 119):  # live, then late: no alert
            clock.at(seconds)
            state.store.ingest("PB-02", [], 0)  # PB-02 keeps sending
            looks.append(watch.check())
        assert looks == [[], [], []]

        clock.at(120)  # PB-01 silent: told once, however often the pit looks
        state.store.ingest("PB-02", [], 0)
        raised = watch.check()
        assert [t for t, _ in raised] == ["PB-01"]
        for seconds in (125, 300, 3_600):
            clock.at(seconds)
            state.store.ingest("PB-02", [], 0)
            assert watch.check() == []
        assert _silent(state) == [
            ("PB-01", "Table PB-01 not heard from since 2026-11-28 10:00:00 SAST "
                      "(2 min ago; silent after 120 s)", True)]
        assert [(t.table_id, t.open_alerts) for t in state.store.floor()] == [
            ("PB-01", 1), ("PB-02", 0)]

        # Acknowledged while the table stays silent: the same silence, not raised again.
        assert state.store.acknowledge(raised[0][1], "Thandi")
        clock.at(3_700)
        state.store.ingest("PB-02", [], 0)
        assert watch.check() == []

        # Heard from again, then silent again: a new silence, a new alert.
        clock.at(4_000)
        state.store.ingest("PB-01", [], 0)
        state.store.ingest("PB-02", [], 0)
        assert watch.check() == []
        clock.at(4_120)
        state.store.ingest("PB-02", [], 0)
        assert [t for t, _ in watch.check()] == ["PB-01"]
        assert [(t, m[:45], o) for t, m, o in _silent(state)] == [
            ("PB-01", "Table PB-01 not heard from since 2026-11-28 1", False),
            ("PB-01", "Table PB-01 not heard from since 2026-11-28 1", True)]
        assert "since 2026-11-28 11:06:40 SAST (2 min ago;" in _silent(state)[1][1]
        assert watch.raised == 2
    finally:
        state.close()


def test_the_running_pit_raises_it_with_no_page_open(pit_url: str) -> None:
    """The app's lifespan starts the watch: a table that stops sending gets its alert while
    no one fetches the floor (nothing is requested here at all: a real pit server, uvicorn,
    runs the lifespan as `tableside pit serve` does)."""
    clock = Clock()
    state = _pit(pit_url, clock)
    try:
        state.store.enroll("PB-01")
        state.store.ingest("PB-01", [], 0)
        clock.at(600)
        watch = SilenceWatch(state.store, state.times, every=0.01, clock=clock, tell=state.tell)
        server = PitServer(state, watch=watch, lifespan=True)
        try:
            server.start()
            deadline = time.monotonic() + WAIT
            while watch.ticks < 5 and time.monotonic() < deadline:
                time.sleep(0.01)
            assert watch.ticks >= 5
            assert [(t, o) for t, _, o in _silent(state)] == [("PB-01", True)]
            assert watch.raised == 1
        finally:
            server.stop()
        assert server.stopped  # the app's shutdown ran: the watch stopped, the database closed
        assert watch.ticks >= 5
    finally:
        state.close()


def test_two_pit_processes_raise_it_once(pit_url: str) -> None:
    """Two pits sharing nothing but the database look at the same moment, again and again:
    one alert between them."""
    clock = Clock()
    pits = [_pit(pit_url, clock), _pit(pit_url, clock)]
    try:
        for table in ("PB-01", "PB-02", "PB-03"):
            pits[0].store.enroll(table)
            pits[0].store.ingest(table, [], 0)
        clock.at(900)
        watches = [SilenceWatch(p.store, p.times, clock=clock) for p in pits]
        start = threading.Barrier(2)
        failed: list[BaseException] = []

        def look(watch: SilenceWatch) -> None:
            try:
                for _ in range(5):
                    start.wait(WAIT)
                    watch.check()
            except BaseException as exc:  # shown by the assertion below
                failed.append(exc)

        threads = [threading.Thread(target=look, args=(w,)) for w in watches]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(WAIT * 6)
        assert failed == []
        assert sorted(t for t, _, _ in _silent(pits[1])) == ["PB-01", "PB-02", "PB-03"]
        assert watches[0].raised + watches[1].raised == 3
    finally:
        for p in pits:
            p.close()


def test_a_pit_that_looks_while_another_raises_it_waits_and_raises_none(
        postgres: Postgres) -> None:
    """Pit A holds PB-01's row while it raises the alert; pit B, looking then, waits for the
    lock (seen by PostgreSQL, not timed), then finds A's alert: one alert, not two."""
    url = postgres.new_database()
    clock = Clock()
    a, b = _pit(url, clock), _pit(url, clock)
    try:
        a.store.enroll("PB-01")
        a.store.ingest("PB-01", [], 0)
        clock.at(900)
        watch = SilenceWatch(b.store, b.times, clock=clock)
        looked: list[list[tuple[str, int]]] = []
        b_looks = threading.Thread(target=lambda: looked.append(watch.check()))
        with a.store.db.transaction() as tx, psycopg.connect(url, autocommit=True) as admin:
            tx.lock_table("PB-01")
            tx.execute("INSERT INTO pit_alerts (table_id, seq, kind, message, raised_at) "
                       "VALUES (?, NULL, ?, ?, ?)",
                       ("PB-01", TABLE_SILENT, "raised by pit A", clock.text()))
            b_looks.start()
            deadline = time.monotonic() + WAIT
            while b_looks.is_alive() and time.monotonic() < deadline and not admin.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                    "AND wait_event_type = 'Lock'").fetchone()[0]:  # type: ignore[index]
                time.sleep(0.01)
        b_looks.join(WAIT)
        assert looked == [[]]
        assert _silent(b) == [("PB-01", "raised by pit A", True)]
    finally:
        a.close()
        b.close()
