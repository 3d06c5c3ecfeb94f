"""Live events between the pit processes of one PostgreSQL database (LISTEN/NOTIFY).

A casino runs several pit processes behind one address (docs/pit.md, "Scale"): a table's batch
lands on one of them, an inspector's dashboard listens on another. Every process sends each
live event it makes to the database's channel `CHANNEL` (`pg_notify`, after its own commit),
and listens on that channel on a connection of its own (a thread, started when a dashboard
first listens), passing what the other processes sent to its own dashboards. An event says
which process made it, so a process does not pass its own twice.

The embedded SQLite pit is one process: it has no fan-out.
"""

from __future__ import annotations

import json
import logging
import threading
import uuid
from collections.abc import Callable
from typing import Any

from pit.db import Database

log = logging.getLogger(__name__)

CHANNEL = "tableside_live"
LIMIT = 7900
"""PostgreSQL's notification payload is under 8000 bytes: a longer event goes without its
extras (the dashboards read what changed from the database anyway)."""
KEPT = ("type", "table_id", "head", "alerts", "alert")
"""What an event keeps when it is too long to send whole."""


class Fanout:
    """Send this process's live events to the others, and hear theirs (`deliver`, called on
    the listening thread: hand it to the event loop with `call_soon_threadsafe`)."""

    def __init__(self, db: Database) -> None:
        if db.dialect != "postgresql":
            raise ValueError("live events between pit processes need PostgreSQL")
        self.db = db
        self.origin = uuid.uuid4().hex
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self.connected = threading.Event()
        """Set while the listening connection is open and LISTENing."""

    def send(self, event: dict[str, Any]) -> None:
        """Tell the other processes (a failure is logged: the dashboards then refresh on the
        next event, and the rows themselves are committed already)."""
        text = _payload(self.origin, event)
        try:
            self.db.execute("SELECT pg_notify(?, ?)", (CHANNEL, text))
        except Exception:
            log.exception("could not tell the other pit processes of %s", event.get("type"))

    def start(self, deliver: Callable[[dict[str, Any]], None]) -> None:
        """Listen on a thread of its own (once; later calls do nothing)."""
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._listen, args=(deliver,),
                                        name="pit-fanout", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
            self._thread = None

    def _listen(self, deliver: Callable[[dict[str, Any]], None]) -> None:
        import psycopg

        wait = 0.5
        while not self._stop.is_set():
            try:
                with psycopg.connect(self.db.url, autocommit=True, connect_timeout=10) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self.connected.set()
                    wait = 0.5
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=1.0):
                            event = _heard(self.origin, note.payload)
                            if event is not None:
                                deliver(event)
            except psycopg.Error as exc:
                self.connected.clear()
                log.warning("live events from the other pit processes: %s (again in %g s)",
                            exc, wait)
                self._stop.wait(wait)
                wait = min(wait * 2, 30.0)
        self.connected.clear()


def _payload(origin: str, event: dict[str, Any]) -> str:
    text = json.dumps({"origin": origin, "event": event}, sort_keys=True)
    if len(text.encode()) > LIMIT:
        kept = {k: event[k] for k in KEPT if k in event}
        text = json.dumps({"origin": origin, "event": kept}, sort_keys=True)
    return text


def _heard(origin: str, payload: str) -> dict[str, Any] | None:
    """Another process's event, or None for this process's own or for noise."""
    try:
        note = json.loads(payload)
    except ValueError:
        return None
    if not isinstance(note, dict) or note.get("origin") == origin:
        return None
    event = note.get("event")
    return event if isinstance(event, dict) else None
