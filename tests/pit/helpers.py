"""Journals and wire rows for the pit's tests."""

from __future__ import annotations

import dataclasses
import json
import queue
import sqlite3
import threading
from pathlib import Path
from typing import Any

import httpx

from kiosk.store.canonical import canonical_json, chain_hash
from kiosk.store.journal import Journal, iter_entries
from kiosk.sync.client import to_wire
from pit.ingest import WireRow
from tests.pit.day import Day


def day_journal(path: Path, table_id: str, coups: int, seed: int = 1) -> Journal:
    journal = Journal.open(path, table_id)
    Day(journal, seed).play(coups)
    return journal


def wire_rows(path: Path, after: int = 0) -> list[WireRow]:
    return [WireRow(**to_wire(e)) for e in iter_entries(path, after)]


def rehash_from(rows: list[WireRow], index: int, payload: dict[str, object]) -> list[WireRow]:
    """The rows with row `index` given a new payload and every row from it re-hashed, as
    someone who edited the journal and recomputed its chain would send them."""
    out = list(rows[:index])
    prev = out[-1].hash if out else "0" * 64
    for i, row in enumerate(rows[index:]):
        text = canonical_json(payload) if i == 0 else row.payload
        digest = chain_hash(prev, row.table_id, row.seq, row.wall_time, row.kind, text)
        out.append(dataclasses.replace(row, payload=text, prev_hash=prev, hash=digest))
        prev = digest
    return out


def rewrite_journal(path: Path, rows: list[WireRow]) -> None:
    """Overwrite the journal file's rows with `rows` (as an attacker with the file could:
    dropping the triggers first)."""
    conn = sqlite3.connect(path)
    for name in ("journal_no_update", "journal_no_delete", "journal_extends_chain"):
        conn.execute(f"DROP TRIGGER IF EXISTS {name}")
    conn.execute("DELETE FROM journal")
    conn.executemany("INSERT INTO journal (seq, table_id, wall_time, kind, payload, prev_hash, "
                     "hash) VALUES (?, ?, ?, ?, ?, ?, ?)", [r.values() for r in rows])
    conn.commit()
    conn.close()


def listen_to_events(url: str, session: str, heard: queue.Queue[dict[str, Any]],
                     ready: threading.Event) -> None:
    """Listen to the pit's live feed at `url` as the inspector of `session` (in a thread of
    its own): `ready` once its first line came, each event put in `heard`, until the feed is
    cut (the pit, or a proxy before it, stopped at the test's end)."""
    try:
        with httpx.stream("GET", url + "/events", cookies={"pit_session": session},
                          timeout=None) as events:
            for line in events.iter_lines():
                ready.set()
                if line.startswith("data: "):
                    heard.put(json.loads(line[6:]))
    except httpx.TransportError:
        pass
