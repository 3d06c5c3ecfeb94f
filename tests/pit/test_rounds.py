"""A table's rounds at the pit start from a snapshot row, never from row 1, and give the very
rounds `tableside replay` gives from row 1: the recent ones, those of a time (found through
the (table, wall_time) index), and one round by its row; only a few tables' replays are kept."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from kiosk.replay import replay
from kiosk.store.journal import Journal, iter_entries
from kiosk.table.snapshot import fold_journal, take
from pit import rounds as rounds_module
from pit.db import Database
from pit.rounds import Rounds
from pit.store import PitStore
from tests.pit.day import Day
from tests.pit.helpers import wire_rows
from tests.pit.pg import Postgres


class Minutes:
    """A clock a minute later at every row."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 25, 18, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(minutes=1)
        return self.now


def _table(path: Path, table_id: str) -> tuple[Journal, list[int]]:
    """Three stretches of 12 coups, with a snapshot row after each of the first two."""
    journal = Journal.open(path, table_id, clock=Minutes())
    day = Day(journal)
    snapshots = []
    for _ in range(2):
        day.play(12)
        snap = take(fold_journal(journal))
        journal.append(snap.kind, snap.to_payload())
        snapshots.append(journal.count())
    day.play(12)
    return journal, snapshots


def _ingest(store: PitStore, table_id: str, path: Path) -> None:
    store.enroll(table_id)
    result = store.ingest(table_id, wire_rows(path))
    assert result.stored == len(wire_rows(path)) and not result.quarantined


def test_rounds_start_from_a_snapshot_and_match_a_replay_from_row_1(
        pit_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rounds_module, "RECENT_ROWS", 40)
    store = PitStore(Database(pit_url))
    journal, snapshots = _table(tmp_path / "T1.db", "T1")
    _ingest(store, "T1", journal.path)
    whole = replay(iter_entries(journal.path), "T1")
    assert whole.ok and len(whole.rounds) == 36
    everything = [c.as_json() for c in whole.rounds]
    rounds = Rounds(store)

    recent = rounds.recent("T1", count=5)
    assert recent.first_row == snapshots[1]  # the last snapshot at least 40 rows back
    assert [c.as_json() for c in recent.rounds] == everything[-5:]
    assert recent.chain_ok and not recent.problems

    # Rows that arrive later are fed to the kept replay.
    Day(journal, seed=9).play(2)
    store.ingest("T1", wire_rows(journal.path, after=store.head("T1")[0]))
    later = replay(iter_entries(journal.path), "T1")
    assert [c.as_json() for c in rounds.recent("T1", count=5).rounds] == \
        [c.as_json() for c in later.rounds[-5:]]

    # Search by time: the rounds settled in that time, replayed from the snapshot before it.
    middle = whole.rounds[15:20]
    start, end = middle[0].wall_time, middle[-1].wall_time
    found = rounds.between("T1", start, end)
    assert found.first_row == snapshots[0]
    assert [c.as_json() for c in found.rounds] == [c.as_json() for c in middle]
    assert rounds.between("T1", "2030-01-01T00:00:00.000Z", "").rounds == []
    assert [c.as_json() for c in rounds.between("T1", start, "").rounds] == \
        [c.as_json() for c in later.rounds[15:]]
    assert len(rounds.between("T1", "", end, limit=3).rounds) == 3

    # One round, by its settling row or a row inside it.
    coup = whole.rounds[30]
    assert rounds.round_at("T1", coup.seq) is not None
    assert rounds.round_at("T1", coup.seq).as_json() == coup.as_json()  # type: ignore[union-attr]
    inside = rounds.round_at("T1", coup.seq - 2)
    assert inside is not None and inside.seq == coup.seq
    assert rounds.round_at("T1", 10**6) is None
    journal.close()
    store.db.close()


def test_search_by_time_uses_the_time_index(tmp_path: Path) -> None:

    db = Database(str(tmp_path / "pit.db"))
    db.migrate()
    plan = db.query("EXPLAIN QUERY PLAN SELECT min(seq), max(seq) FROM pit_rows WHERE "
                    "table_id = ? AND wall_time >= ? AND wall_time <= ?", ("T1", "a", "b"))
    assert "pit_rows_time" in " ".join(str(r[-1]) for r in plan)
    # The first and last rows of a time in another journal (Rounds.elsewhere): one step in
    # the index each, not a walk through the time's rows.
    for order in ("ASC", "DESC"):
        plan = db.query("EXPLAIN QUERY PLAN SELECT wall_time FROM pit_rows WHERE table_id = ? "
                        "AND wall_time >= ? AND wall_time <= ? ORDER BY wall_time "
                        f"{order} LIMIT 1", ("T1", "a", "b"))
        text = " ".join(str(r[-1]) for r in plan)
        assert "pit_rows_time" in text and "TEMP B-TREE" not in text, text
    db.close()


def test_a_search_open_at_its_end_finds_its_rounds_in_a_languages_collation(
        postgres: Postgres, tmp_path: Path) -> None:
    """A pit's PostgreSQL database may compare text in a language's order (one made on a
    machine whose locale is en_US.UTF-8, say): a search from a time on, with no end, still
    finds that time's rounds, and an old card's journal that holds rows of it. (With "~" as
    the open end, which sorts before the digits there, both found nothing.)"""
    store = PitStore(Database(postgres.new_database(icu_locale="en")))
    journal, _ = _table(tmp_path / "T1.db", "T1")
    _ingest(store, "T1", journal.path)
    whole = replay(iter_entries(journal.path), "T1")
    start = whole.rounds[30].wall_time
    rounds = Rounds(store)
    assert [c.as_json() for c in rounds.between("T1", start, "").rounds] == \
        [c.as_json() for c in whole.rounds[30:]]
    store.new_card("T1", "Thandi (IT)")
    times = [e.wall_time for e in iter_entries(journal.path) if e.wall_time >= start]
    assert rounds.elsewhere("T1", start, "") == [("T1.card1", times[0], times[-1])]
    assert rounds.elsewhere("T1", "2030-01-01T00:00:00.000Z", "") == []
    journal.close()
    store.db.close()


def test_only_a_few_tables_replays_are_kept(tmp_path: Path) -> None:

    store = PitStore(Database(str(tmp_path / "pit.db")))
    for table_id in ("A", "B", "C"):
        journal = Journal.open(tmp_path / f"{table_id}.db", table_id)
        Day(journal).play(2)
        _ingest(store, table_id, journal.path)
        journal.close()
    rounds = Rounds(store, kept_tables=2)
    for table_id in ("A", "B", "C", "B"):
        assert len(rounds.recent(table_id).rounds) == 2
    assert rounds.kept == ["C", "B"]
    store.db.close()
