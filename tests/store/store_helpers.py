"""Helpers for the journal tests (a plain module, so test files can import it by name)."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

from kiosk.store.journal import Journal

ZEROS = "0" * 64


class TickingClock:
    """A clock that moves 1 ms per reading, from a fixed start: wall times are predictable."""

    def __init__(self) -> None:
        self.now = datetime(2025, 3, 1, 18, 0, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(milliseconds=1)
        return self.now


def fill(journal: Journal, n: int) -> None:
    for i in range(n):
        journal.append("bet_placed", {"box": i % 7, "amount": 500 * (i + 1), "player": f"p{i}"})


def raw_rows(path: Path) -> list[tuple[int, str, str, str, str, str, str]]:
    """Rows as stored, read with plain sqlite3 (not through the code under test)."""
    conn = sqlite3.connect(path)
    try:
        return conn.execute(
            "SELECT seq, table_id, wall_time, kind, payload, prev_hash, hash "
            "FROM journal ORDER BY seq"
        ).fetchall()
    finally:
        conn.close()


def tamper(path: Path, *statements: str) -> None:
    """Edit the file as an intruder would: drop the guard triggers, then run raw SQL."""
    conn = sqlite3.connect(path)
    try:
        for trigger in ("journal_no_update", "journal_no_delete", "journal_extends_chain"):
            conn.execute(f"DROP TRIGGER IF EXISTS {trigger}")
        for statement in statements:
            conn.execute(statement)
        conn.commit()
    finally:
        conn.close()


def independent_hash(
    prev_hash: str, table_id: str, seq: int, wall_time: str, kind: str, payload_text: str
) -> str:
    """The chain hash recomputed from its definition, without kiosk.store."""
    encoded = json.dumps(
        [prev_hash, table_id, seq, wall_time, kind, payload_text],
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return hashlib.sha256(encoded.encode("utf-8")).hexdigest()


def canonical(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
