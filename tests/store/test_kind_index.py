"""The journal's index on `kind` (kiosk/store/journal.py): the last row of a kind is one
lookup in it, not a read back through the journal. It is added to a journal of an earlier
version when the table opens it, and it is no part of the hash chain: the golden journals
written into a file of the earlier layout verify and replay exactly as before once the index
is there, and the file keeps the layout version an earlier Tableside expects
(bench/journal_kind_index.py measures the lookups)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from kiosk.replay import load_entries, replay_source
from kiosk.store.canonical import canonical_json
from kiosk.store.journal import SCHEMA_VERSION, Journal, verify
from tests.test_golden_journals import GOLDEN, SAME


def _indexes(path: Path) -> set[str]:
    with sqlite3.connect(path) as conn:
        return {r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'journal'")}


def _old_file(path: Path, table_id: str) -> None:
    """An empty journal file as the earlier layout made it: no kind index."""
    Journal.open(path, table_id).close()
    with sqlite3.connect(path) as conn:
        conn.execute("DROP INDEX journal_kind")
    assert _indexes(path) == set()


def test_a_new_journal_has_the_index_and_lookups_use_it(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    with Journal.open(path, "T1") as journal:
        journal.append("a", {"n": 1})
        journal.append("b", {"n": 2})
        journal.append("a", {"n": 3})
        assert journal.last_of_kind("a").payload == {"n": 3}  # type: ignore[union-attr]
        assert [e.payload["n"] for e in journal.newest_of_kinds(("a", "b"))] == [3, 2, 1]
        assert [e.payload["n"] for e in journal.newest_of_kinds(("a",), after_seq=1)] == [3]
    assert _indexes(path) == {"journal_kind"}
    with sqlite3.connect(path) as conn:
        plan = " ".join(str(r[-1]) for r in conn.execute(
            "EXPLAIN QUERY PLAN SELECT * FROM journal WHERE kind = ? AND seq > ? "
            "ORDER BY seq DESC LIMIT 1", ("a", 0)))
        version = conn.execute("PRAGMA user_version").fetchone()[0]
    assert "INDEX journal_kind" in plan, plan
    assert version == SCHEMA_VERSION == 1  # no new layout: an earlier Tableside opens it


def test_newest_of_kinds_reads_page_by_page(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "j.db", "T1") as journal:
        journal.append_many([("a" if i % 3 else "b", {"n": i}) for i in range(1_234)])
        got = [e.seq for e in journal.newest_of_kinds(("b",))]
    assert got == list(range(1_234 - 1_233 % 3, 0, -3))


@pytest.mark.parametrize("name", SAME)
def test_an_old_journal_gets_the_index_and_verifies_and_replays_as_before(
        tmp_path: Path, name: str) -> None:
    rows = load_entries(GOLDEN / f"{name}.jsonl")
    path = tmp_path / f"{name}.db"
    _old_file(path, rows[0].table_id)
    with sqlite3.connect(path) as conn:  # the rows as the earlier version stored them
        conn.executemany(
            "INSERT INTO journal (seq, table_id, wall_time, kind, payload, prev_hash, hash) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(e.seq, e.table_id, e.wall_time, e.kind, canonical_json(e.payload), e.prev_hash,
              e.hash) for e in rows])
    before = verify(path)
    assert before.ok and before.rows == len(rows)
    Journal.open(path, rows[0].table_id).close()  # the table opens it: the index is made
    assert _indexes(path) == {"journal_kind"}
    after = verify(path)
    assert (after.ok, after.rows, after.head_hash) == (True, before.rows, before.head_hash)
    report = replay_source(path).as_json()
    want = json.loads((GOLDEN / f"{name}.replay.json").read_text())
    report["source"] = want["source"]
    assert {k: v for k, v in report.items() if k != "chain"} == {
        k: v for k, v in want.items() if k != "chain"}
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 1


def test_an_earlier_tableside_still_opens_and_writes_a_journal_with_the_index(
        tmp_path: Path) -> None:
    """What the earlier version's open checks: the layout version no newer than 1, the table
    and its three triggers; and an insert the earlier way (the chain trigger) still goes in,
    the index kept up to date by SQLite."""
    path = tmp_path / "j.db"
    with Journal.open(path, "T1") as journal:
        journal.append("a", {"n": 1})
        head = journal.last()
    assert head is not None
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] <= 1
        triggers = {r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'trigger'")}
        assert triggers == {"journal_no_update", "journal_no_delete", "journal_extends_chain"}
    with Journal.open(path, "T1") as journal:
        journal.append("b", {"n": 2})
        assert journal.last_of_kind("b").seq == 2  # type: ignore[union-attr]
    assert verify(path).ok


def test_a_journal_that_cannot_take_the_index_opens_as_before(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Building the index on an earlier version's journal is only a speed-up: where it cannot
    be built (here the disk full, as SQLite says it), the journal opens and is written as
    before, and the next opening builds it."""
    from sqlite_utils import Database

    path = tmp_path / "old.db"
    with Journal.open(path, "PB-01") as j:
        j.append("note", {"n": 1})
    db = sqlite3.connect(path)
    db.execute("DROP INDEX journal_kind")
    db.commit()
    db.close()
    real = Database.execute

    def full(self: Database, sql: str, *args: object) -> object:
        if "CREATE INDEX" in sql:
            raise sqlite3.OperationalError("database or disk is full")
        return real(self, sql, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(Database, "execute", full)
    with Journal.open(path, "PB-01") as j:
        j.append("note", {"n": 2})
        assert j.count() == 2
    monkeypatch.setattr(Database, "execute", real)
    with Journal.open(path, "PB-01") as j:
        assert [e.payload["n"] for e in j.entries()] == [1, 2]
    names = [r[0] for r in sqlite3.connect(path).execute(
        "SELECT name FROM sqlite_master WHERE type = 'index'")]
    assert "journal_kind" in names
