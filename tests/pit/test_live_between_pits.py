"""Several pit processes on one PostgreSQL (pit/fanout.py): an inspector's dashboard, served by
one of them, hears what the others took (a table's batch, a chain break, an acknowledged
alert), each once. The two pits here share nothing but the database: each has its own
store, connections, broker and fan-out, as two processes behind one address would."""

from __future__ import annotations

import dataclasses
import queue
import threading
from pathlib import Path
from typing import Any

import httpx

from pit.app import open_pit
from pit.fanout import LIMIT, Fanout, _heard, _payload
from tests.pit.conftest import PitServer
from tests.pit.helpers import day_journal, listen_to_events, wire_rows
from tests.pit.pg import Postgres
from tests.pit.test_sync import post

WAIT = 15.0  # seconds before a missing event fails the test (not a timing target)


def _next(heard: queue.Queue[dict[str, Any]]) -> tuple[Any, ...]:
    event = heard.get(timeout=WAIT)
    return (event["type"], event["table_id"], event["head"], event.get("alerts"),
            event.get("alert"))


def test_a_dashboard_on_one_pit_hears_what_another_pit_took(postgres: Postgres,
                                                           tmp_path: Path) -> None:
    url = postgres.new_database()
    a = PitServer(open_pit(url)).start()
    b = PitServer(open_pit(url)).start()
    try:
        b.state.inspectors.add("ines", "a long enough password")
        session = b.state.inspectors.login("ines", "a long enough password")
        assert session is not None
        heard: queue.Queue[dict[str, Any]] = queue.Queue()
        ready = threading.Event()
        threading.Thread(target=listen_to_events, args=(b.url, session, heard, ready),
                         daemon=True).start()
        assert ready.wait(WAIT)
        assert b.state.fanout is not None and b.state.fanout.connected.wait(WAIT)

        seven = a.state.store.enroll("PB-07")
        eight = b.state.store.enroll("PB-08")
        rows7 = wire_rows(day_journal(tmp_path / "PB-07.db", "PB-07", 3).path)
        rows8 = wire_rows(day_journal(tmp_path / "PB-08.db", "PB-08", 2, seed=2).path)

        # A table's batch taken by pit A reaches the dashboard on pit B.
        assert post(a, "PB-07", seven, rows7[:20]).status_code == 200
        assert _next(heard) == ("table", "PB-07", 20, 0, None)
        # Pit B's own batch: once, not echoed back through the database.
        assert post(b, "PB-08", eight, rows8).status_code == 200
        assert _next(heard) == ("table", "PB-08", len(rows8), 0, None)
        # A chain break at pit A (an edited row): its alert, then its acknowledgement by an
        # inspector on pit A, both heard on B.
        edited = dataclasses.replace(rows7[20], payload='{"edited":1}')
        assert post(a, "PB-07", seven, [edited, *rows7[21:25]]).status_code == 409
        assert _next(heard) == ("table", "PB-07", 20, 1, None)
        [alert] = a.state.store.alerts(table_id="PB-07")
        token = a.state.inspectors.login("ines", "a long enough password")
        assert token is not None
        inspector = a.state.inspectors.session(token)
        assert inspector is not None
        done = httpx.post(f"{a.url}/alerts/{alert.id}/ack", data={"csrf": inspector.csrf},
                          cookies={"pit_session": token}, follow_redirects=False)
        assert done.status_code == 303
        assert _next(heard) == ("alert", "", 0, None, alert.id)
        assert heard.empty()
    finally:
        for server in (a, b):
            server.stop()
            server.state.close()
    assert b.state.fanout is not None and not b.state.fanout.connected.is_set()


def test_the_embedded_pit_is_one_process_with_no_fanout(tmp_path: Path) -> None:
    state = open_pit(str(tmp_path / "pit.db"))
    try:
        assert state.fanout is None
    finally:
        state.close()


def test_an_event_too_long_for_a_notification_goes_without_its_extras() -> None:
    event = {"type": "table", "table_id": "PB-01", "head": 9, "alerts": 0,
             "summary": {"problems": ["x" * 100] * 100}}
    text = _payload("me", event)
    assert len(text.encode()) <= LIMIT
    assert _heard("someone else", text) == {"type": "table", "table_id": "PB-01", "head": 9,
                                            "alerts": 0}
    short = {"type": "alert", "table_id": "", "head": 0, "alert": 4}
    assert _heard("someone else", _payload("me", short)) == short
    assert _heard("me", _payload("me", short)) is None  # a process's own event
    assert _heard("me", "not json") is None and _heard("me", "[1]") is None


def test_fanout_is_for_postgresql_only(tmp_path: Path) -> None:
    state = open_pit(str(tmp_path / "pit.db"))
    try:
        try:
            Fanout(state.store.db)
        except ValueError as exc:
            assert "PostgreSQL" in str(exc)
        else:
            raise AssertionError("a fan-out on SQLite was made")
    finally:
        state.close()
