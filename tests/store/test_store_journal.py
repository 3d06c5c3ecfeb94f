"""The journal: gap-free seqs, the hash chain, append-only, atomic batches, clear write errors."""

from __future__ import annotations

import itertools
import os
import sqlite3
import tempfile
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from kiosk.rules.errors import TablesideError, UnreadableInput
from kiosk.store.journal import (
    Entry,
    Journal,
    JournalError,
    JournalWriteError,
    WriteFailure,
    verify,
)
from tests.store.store_helpers import (
    ZEROS,
    TickingClock,
    canonical,
    fill,
    independent_hash,
    raw_rows,
    tamper,
)

MakeJournal = Callable[..., Journal]


def test_seqs_are_gap_free_from_one(make_journal: MakeJournal, db_path: Path) -> None:
    journal = make_journal()
    fill(journal, 25)
    assert [row[0] for row in raw_rows(db_path)] == list(range(1, 26))
    assert len(journal) == 25 == journal.count()


def test_chain_recomputed_independently(make_journal: MakeJournal, db_path: Path) -> None:
    journal = make_journal()
    fill(journal, 10)
    journal.append("coup_result", {"number": 17, "note": "zéro ≠ 0", "wins": [1, 2]})
    prev = ZEROS
    for seq, table_id, wall_time, kind, payload_text, prev_hash, row_hash in raw_rows(db_path):
        assert table_id == "T1"
        assert prev_hash == prev
        assert row_hash == independent_hash(prev, table_id, seq, wall_time, kind, payload_text)
        prev = row_hash
    last = journal.last()
    assert last is not None and last.hash == prev and last.seq == 11


def test_append_returns_the_stored_row(make_journal: MakeJournal, db_path: Path) -> None:
    journal = make_journal()
    first = journal.append("bet_placed", {"box": 3, "amount": 2500})
    second = journal.append("no_more_bets", {})
    assert first == Entry(
        seq=1,
        table_id="T1",
        wall_time="2025-03-01T18:00:00.001Z",
        kind="bet_placed",
        payload={"amount": 2500, "box": 3},
        prev_hash=ZEROS,
        hash=raw_rows(db_path)[0][6],
    )
    assert second.prev_hash == first.hash and second.seq == 2
    assert raw_rows(db_path)[0][4] == '{"amount":2500,"box":3}'
    assert list(journal.entries()) == [first, second]
    assert list(journal.entries(after_seq=1)) == [second]


def test_entries_pages_through_many_rows(make_journal: MakeJournal) -> None:
    journal = make_journal()
    journal.append_many([("bet_placed", {"i": i}) for i in range(1234)])
    seen = [entry.seq for entry in journal.entries(after_seq=100)]
    assert seen == list(range(101, 1235))
    tail = [entry.payload["i"] for entry in journal.entries(after_seq=1230)]
    assert tail == [1230, 1231, 1232, 1233]


def test_empty_journal(make_journal: MakeJournal, db_path: Path) -> None:
    journal = make_journal()
    assert journal.last() is None and len(journal) == 0 and list(journal.entries()) == []
    report = verify(db_path)
    assert report.ok and report.rows == 0 and report.head_hash == ZEROS


def test_reopen_continues_the_chain(make_journal: MakeJournal, db_path: Path) -> None:
    fill(make_journal(), 3)
    again = make_journal()
    entry = again.append("bet_placed", {"amount": 100})
    assert entry.seq == 4 and entry.prev_hash == raw_rows(db_path)[2][6]
    assert verify(db_path).ok


def test_pragmas_wal_full_and_busy_timeout(make_journal: MakeJournal) -> None:
    journal = make_journal(busy_timeout_ms=1234)
    db = journal._db  # white box: the pragmas are the durability promise
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert db.execute("PRAGMA busy_timeout").fetchone()[0] == 1234


def test_two_journals_on_one_file_keep_one_chain(make_journal: MakeJournal, db_path: Path) -> None:
    a, b = make_journal(), make_journal()
    entries = [(a if i % 2 == 0 else b).append("bet_placed", {"i": i}) for i in range(20)]
    assert [e.seq for e in entries] == list(range(1, 21))
    for before, after in itertools.pairwise(entries):
        assert after.prev_hash == before.hash
    assert verify(db_path).ok and verify(db_path).rows == 20


def test_triggers_refuse_update_and_delete(make_journal: MakeJournal, db_path: Path) -> None:
    fill(make_journal(), 3)
    before = raw_rows(db_path)
    conn = sqlite3.connect(db_path)
    try:
        for statement in (
            "UPDATE journal SET payload = '{\"amount\":1}' WHERE seq = 2",
            "DELETE FROM journal WHERE seq = 3",
            "DELETE FROM journal",
            "INSERT OR REPLACE INTO journal SELECT * FROM journal WHERE seq = 1",
        ):
            with pytest.raises(sqlite3.IntegrityError):
                conn.execute(statement)
    finally:
        conn.close()
    assert raw_rows(db_path) == before


def test_database_refuses_a_row_that_does_not_extend_the_chain(
    make_journal: MakeJournal, db_path: Path
) -> None:
    fill(make_journal(), 2)
    head = raw_rows(db_path)[-1][6]
    conn = sqlite3.connect(db_path)
    insert = "INSERT INTO journal VALUES (?, 'T1', '2025-03-01T18:00:00.000Z', 'x', '{}', ?, ?)"
    try:
        for seq, prev in ((4, head), (3, ZEROS), (3, "f" * 64)):  # a gap; two forks
            with pytest.raises(sqlite3.IntegrityError, match="extend the chain"):
                conn.execute(insert, (seq, prev, "a" * 64))
    finally:
        conn.close()
    assert len(raw_rows(db_path)) == 2


def test_no_update_or_delete_in_the_code() -> None:
    import kiosk.store as store

    for source in Path(store.__file__).parent.glob("*.py"):
        text = source.read_text().upper()
        assert "UPDATE JOURNAL" not in text and "DELETE FROM JOURNAL" not in text


@pytest.mark.parametrize("bad", [{"amount": 12.5}, {"rows": [{"x": float("nan")}]}])
def test_float_payload_refused_and_nothing_written(
    make_journal: MakeJournal, db_path: Path, bad: dict[str, Any]
) -> None:
    journal = make_journal()
    journal.append("bet_placed", {"amount": 100})
    with pytest.raises(TypeError, match="float"):
        journal.append("bet_placed", bad)
    with pytest.raises(TypeError, match="float"):
        journal.append_many([("a", {"amount": 1}), ("b", bad)])
    assert len(raw_rows(db_path)) == 1


def test_append_many_is_one_transaction(make_journal: MakeJournal, db_path: Path) -> None:
    journal = make_journal()
    entries = journal.append_many([("bet_placed", {"i": i}) for i in range(5)])
    assert [e.seq for e in entries] == [1, 2, 3, 4, 5]
    assert journal.append_many([]) == []

    calls = 0

    def failing_clock() -> datetime:
        nonlocal calls
        calls += 1
        if calls == 3:
            raise RuntimeError("clock fault in the middle of a batch")
        return datetime(2025, 3, 1, tzinfo=UTC)

    journal._clock = failing_clock  # white box: fail after two rows were inserted
    with pytest.raises(RuntimeError):
        journal.append_many([("bet_placed", {"i": i}) for i in range(5)])
    assert len(raw_rows(db_path)) == 5  # none of the failed batch
    journal._clock = TickingClock()
    assert journal.append("bet_placed", {"i": 5}).seq == 6
    assert verify(db_path).ok


def test_naive_clock_refused(make_journal: MakeJournal, db_path: Path) -> None:
    journal = make_journal(clock=lambda: datetime(2025, 3, 1, 18, 0))
    with pytest.raises(ValueError, match="aware"):
        journal.append("bet_placed", {})
    assert raw_rows(db_path) == []


def test_kind_must_be_a_nonempty_string(make_journal: MakeJournal) -> None:
    journal = make_journal()
    with pytest.raises(TypeError):
        journal.append("", {})


def test_other_tables_journal_refused(make_journal: MakeJournal) -> None:
    fill(make_journal("T1"), 1)
    with pytest.raises(JournalError, match="belongs to table 'T1'"):
        make_journal("T2")


def test_disk_full_via_max_page_count(make_journal: MakeJournal, db_path: Path) -> None:
    journal = make_journal()
    fill(journal, 5)
    db = journal._db  # white box: max_page_count is per connection
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    db.execute(f"PRAGMA max_page_count={pages}")
    written = 5
    with pytest.raises(JournalWriteError) as caught:
        for _ in range(500):  # until a new page is needed
            journal.append("bet_placed", {"amount": 500, "note": "x" * 300})
            written += 1
    error = caught.value
    assert isinstance(error, TablesideError)
    assert error.failure is WriteFailure.DISK_FULL
    assert "full" in str(error) and "Nothing of this action was recorded" in str(error)
    assert written > 5  # the limit was reached by appends, not before them
    assert len(raw_rows(db_path)) == written == len(journal)
    report = verify(db_path)
    assert report.ok and report.rows == written
    with pytest.raises(JournalWriteError):  # still full: still refused, still consistent
        journal.append_many([("bet_placed", {"note": "y" * 300}) for _ in range(20)])
    assert len(raw_rows(db_path)) == written

    db.execute(f"PRAGMA max_page_count={pages * 100}")
    entry = journal.append("space_freed", {"n": 1})
    assert entry.seq == written + 1 and entry.prev_hash == report.head_hash
    assert verify(db_path).ok


def test_read_only_journal_refuses_appends_clearly(
    make_journal: MakeJournal, db_path: Path
) -> None:
    fill(make_journal(), 2)
    reader = make_journal(read_only=True)
    assert len(reader) == 2
    with pytest.raises(JournalWriteError, match="read-only") as caught:
        reader.append("bet_placed", {"amount": 1})
    assert caught.value.failure is WriteFailure.READ_ONLY
    assert verify(db_path).rows == 2


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores file permissions")
def test_read_only_file_refuses_appends_clearly(make_journal: MakeJournal, db_path: Path) -> None:
    journal = make_journal()
    fill(journal, 2)
    journal.close()
    db_path.chmod(0o444)
    try:
        with pytest.raises(JournalWriteError, match="read-only"):
            make_journal().append("bet_placed", {"amount": 1})
    finally:
        db_path.chmod(0o644)
    assert verify(db_path).rows == 2


def test_locked_too_long_gives_a_clear_error(make_journal: MakeJournal, db_path: Path) -> None:
    journal = make_journal(busy_timeout_ms=50)
    fill(journal, 1)
    other = sqlite3.connect(db_path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")  # another process holding the write lock
        with pytest.raises(JournalWriteError, match="locked") as caught:
            journal.append("bet_placed", {"amount": 1})
        assert caught.value.failure is WriteFailure.LOCKED
        other.execute("ROLLBACK")
    finally:
        other.close()
    assert journal.append("bet_placed", {"amount": 2}).seq == 2
    assert verify(db_path).ok


def test_not_a_database_gives_a_clear_error(db_path: Path) -> None:
    db_path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(JournalWriteError, match="not a SQLite database") as caught:
        Journal.open(db_path, "T1")
    assert caught.value.failure is WriteFailure.DAMAGED


def test_closed_journal(make_journal: MakeJournal) -> None:
    journal = make_journal()
    with journal:
        fill(journal, 1)
    journal.close()  # twice is fine
    with pytest.raises(JournalError, match="closed"):
        journal.append("bet_placed", {})


# A JSON value as Operations carry them: no floats, string keys, any nesting.
_leaves = st.none() | st.booleans() | st.integers() | st.text(max_size=20)
_values = st.recursive(
    _leaves,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
_payloads = st.dictionaries(st.text(max_size=10), _values, max_size=5)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_payloads, max_size=6))
def test_any_payload_reads_back_equal_and_verifies(payloads: list[dict[str, Any]]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "journal.db"
        with Journal.open(path, "T-prop", clock=TickingClock()) as journal:
            written = [journal.append("op", payload) for payload in payloads]
            read = list(journal.entries())
        assert [entry.payload for entry in read] == payloads
        assert [entry.payload for entry in written] == payloads
        assert [row[4] for row in raw_rows(path)] == [canonical(p) for p in payloads]
        report = verify(path)
        assert report.ok and report.rows == len(payloads)


def test_damaged_row_still_opens_and_is_reported(make_journal: MakeJournal, db_path: Path) -> None:
    fill(make_journal(), 3)
    tamper(db_path, "UPDATE journal SET payload = '{broken' WHERE seq = 3")
    journal = make_journal()  # the table can still open its journal...
    with pytest.raises(UnreadableInput, match="journal row 3"):
        list(journal.entries())  # ...but reading the damaged row says which one it is
    assert journal.verify().first_bad_seq == 3


def test_a_database_without_a_journal_is_refused(db_path: Path) -> None:
    sqlite3.connect(db_path).close()
    with pytest.raises(JournalError, match="no journal"):
        Journal.open(db_path, "T1", read_only=True)


def test_the_journal_is_the_kiosk_users_alone(tmp_path: Path) -> None:
    """The journal, its -wal and -shm are mode 0600 (the SD image's self-test checks it); an
    older journal created 0644 is made so when the kiosk opens it."""
    import stat

    path = tmp_path / "t.db"
    with Journal.open(path, "T-1") as j:
        j.append("note", {"text": "x"})
        modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in tmp_path.iterdir()}
    assert modes == {"t.db": 0o600, "t.db-wal": 0o600, "t.db-shm": 0o600}
    old = tmp_path / "old.db"
    with Journal.open(old, "T-1") as j:
        j.append("note", {"text": "x"})
    old.chmod(0o644)
    Journal.open(old, "T-1").close()
    assert stat.S_IMODE(old.stat().st_mode) == 0o600
