"""verify(): recompute the chain from row 1 and name the first bad row, and why."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from kiosk.store.journal import Journal, verify
from tests.store.store_helpers import ZEROS, fill, independent_hash, raw_rows, tamper

MakeJournal = Callable[..., Journal]


@pytest.fixture
def ten_rows(make_journal: MakeJournal, db_path: Path) -> Path:
    journal = make_journal()
    fill(journal, 10)
    journal.close()
    return db_path


def test_intact_chain_is_ok(ten_rows: Path) -> None:
    report = verify(ten_rows)
    assert report.ok and report.rows == 10 and report.first_bad_seq is None
    assert report.head_hash == raw_rows(ten_rows)[-1][6]


def test_edited_payload_is_named(ten_rows: Path) -> None:
    tamper(ten_rows, """UPDATE journal SET payload = '{"amount":999999}' WHERE seq = 4""")
    report = verify(ten_rows)
    assert not report.ok and report.first_bad_seq == 4 and report.rows == 3
    assert "edited" in report.reason
    assert report.head_hash == raw_rows(ten_rows)[2][6]


@pytest.mark.parametrize("column", ["kind", "wall_time", "table_id"])
def test_edited_other_fields_are_named(ten_rows: Path, column: str) -> None:
    value = {"kind": "payout", "wall_time": "2025-03-01T17:00:00.000Z", "table_id": "T9"}[column]
    tamper(ten_rows, f"UPDATE journal SET {column} = '{value}' WHERE seq = 6")
    report = verify(ten_rows)
    assert not report.ok and report.first_bad_seq == 6


def test_wrong_table_id_is_named(ten_rows: Path) -> None:
    tamper(ten_rows, "UPDATE journal SET table_id = 'T2' WHERE seq = 2")
    report = verify(ten_rows)
    assert report.first_bad_seq == 2 and "table 'T2'" in report.reason
    assert verify(ten_rows, table_id="T2").first_bad_seq == 1  # against a named table


def test_edited_and_rehashed_row_breaks_the_next_link(ten_rows: Path) -> None:
    seq, table_id, wall, kind, _, prev, _ = raw_rows(ten_rows)[4]
    forged_payload = '{"amount":1,"box":0,"player":"p4"}'
    forged_hash = independent_hash(prev, table_id, seq, wall, kind, forged_payload)
    tamper(
        ten_rows,
        f"UPDATE journal SET payload = '{forged_payload}', hash = '{forged_hash}' WHERE seq = 5",
    )
    report = verify(ten_rows)
    assert report.first_bad_seq == 6 and "broken link" in report.reason and report.rows == 5


def test_deleted_middle_row_is_named(ten_rows: Path) -> None:
    tamper(ten_rows, "DELETE FROM journal WHERE seq = 5")
    report = verify(ten_rows)
    assert not report.ok and report.first_bad_seq == 5 and report.rows == 4
    assert "missing" in report.reason


def test_several_deleted_rows_are_named(ten_rows: Path) -> None:
    tamper(ten_rows, "DELETE FROM journal WHERE seq BETWEEN 3 AND 6")
    report = verify(ten_rows)
    assert report.first_bad_seq == 3 and "3–6 missing" in report.reason


def test_deleted_first_row_is_named(ten_rows: Path) -> None:
    tamper(ten_rows, "DELETE FROM journal WHERE seq = 1")
    report = verify(ten_rows)
    assert report.first_bad_seq == 1 and report.rows == 0 and report.head_hash == ZEROS


def test_swapped_payloads_are_named(ten_rows: Path) -> None:
    rows = raw_rows(ten_rows)
    tamper(
        ten_rows,
        f"UPDATE journal SET payload = '{rows[5][4]}' WHERE seq = 3",
        f"UPDATE journal SET payload = '{rows[2][4]}' WHERE seq = 6",
    )
    report = verify(ten_rows)
    assert report.first_bad_seq == 3 and "edited" in report.reason


def test_swapped_rows_are_named(ten_rows: Path) -> None:
    # Swap whole rows 3 and 4, renumbering them: each now sits where the other belongs.
    tamper(
        ten_rows,
        "UPDATE journal SET seq = -3 WHERE seq = 3",
        "UPDATE journal SET seq = 3 WHERE seq = 4",
        "UPDATE journal SET seq = 4 WHERE seq = -3",
    )
    report = verify(ten_rows)
    assert not report.ok and report.first_bad_seq == 3 and report.rows == 2


def test_wrong_prev_hash_is_named(ten_rows: Path) -> None:
    tamper(ten_rows, f"UPDATE journal SET prev_hash = '{'ab' * 32}' WHERE seq = 7")
    report = verify(ten_rows)
    assert report.first_bad_seq == 7 and "broken link" in report.reason


def test_wrong_genesis_is_named(ten_rows: Path) -> None:
    tamper(ten_rows, f"UPDATE journal SET prev_hash = '{'1' * 64}' WHERE seq = 1")
    report = verify(ten_rows)
    assert report.first_bad_seq == 1 and "genesis" in report.reason


@pytest.mark.parametrize(
    ("payload", "why"),
    [
        ("{not json", "not valid JSON"),
        ('{"amount":1.5}', "not valid JSON"),
        ("[1,2]", "not a JSON object"),
        ('{"box": 0, "amount": 500}', "canonical"),
    ],
)
def test_unparsable_or_rewritten_payload_is_named(ten_rows: Path, payload: str, why: str) -> None:
    tamper(ten_rows, f"UPDATE journal SET payload = '{payload}' WHERE seq = 8")
    report = verify(ten_rows)
    assert report.first_bad_seq == 8 and why in report.reason


def test_malformed_hash_is_named(ten_rows: Path) -> None:
    tamper(ten_rows, "UPDATE journal SET hash = 'XYZ' WHERE seq = 9")
    assert verify(ten_rows).first_bad_seq == 9


def test_first_of_several_bad_rows_is_named(ten_rows: Path) -> None:
    tamper(
        ten_rows,
        "UPDATE journal SET kind = 'void' WHERE seq = 9",
        "DELETE FROM journal WHERE seq = 4",
    )
    assert verify(ten_rows).first_bad_seq == 4


def test_truncation_shows_only_against_the_acknowledged_head(ten_rows: Path) -> None:
    acknowledged = (10, raw_rows(ten_rows)[9][6])
    assert verify(ten_rows, expected_head=acknowledged).ok
    tamper(ten_rows, "DELETE FROM journal WHERE seq >= 9")
    assert verify(ten_rows).ok  # a shorter chain is still a valid chain...
    report = verify(ten_rows, expected_head=acknowledged)
    assert not report.ok and report.first_bad_seq == 9 and "truncated" in report.reason


def test_rewritten_tail_shows_against_the_acknowledged_head(ten_rows: Path) -> None:
    # An intruder rewrites rows 6..10 and recomputes every hash: the chain alone is valid again.
    acknowledged = (8, raw_rows(ten_rows)[7][6])
    rows = raw_rows(ten_rows)
    statements = []
    prev = rows[4][6]  # row 5 stays; the forgery starts at row 6
    for seq, table_id, wall, kind, payload, _, _ in rows[5:]:
        if seq == 6:
            payload = payload.replace('"amount":3000,', '"amount":30000,')
            assert "30000" in payload
        row_hash = independent_hash(prev, table_id, seq, wall, kind, payload)
        statements.append(
            f"UPDATE journal SET payload = '{payload}', prev_hash = '{prev}', "
            f"hash = '{row_hash}' WHERE seq = {seq}"
        )
        prev = row_hash
    tamper(ten_rows, *statements)
    assert verify(ten_rows).ok
    report = verify(ten_rows, expected_head=acknowledged)
    assert not report.ok and report.first_bad_seq == 8 and "acknowledged" in report.reason


def test_journal_verify_method(make_journal: MakeJournal) -> None:
    journal = make_journal()
    fill(journal, 3)
    last = journal.last()
    assert last is not None
    report = journal.verify(expected_head=(3, last.hash))
    assert report.ok and report.rows == 3 and report.head_hash == last.hash


def test_verify_never_creates_a_file(tmp_path: Path) -> None:
    from kiosk.store.journal import JournalError

    with pytest.raises(JournalError, match="no journal file"):
        verify(tmp_path / "absent.db")
    assert list(tmp_path.iterdir()) == []
