"""Export to JSON Lines, read back, and verify the chain from the export alone."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from kiosk.rules.errors import UnreadableInput
from kiosk.store.canonical import canonical_json
from kiosk.store.export import BadExportLine, export_jsonl, read_jsonl
from kiosk.store.journal import Journal, verify_entries
from tests.store.store_helpers import fill, raw_rows

MakeJournal = Callable[..., Journal]
KEYS = {"seq", "table_id", "wall_time", "kind", "payload", "prev_hash", "hash"}


@pytest.fixture
def journal(make_journal: MakeJournal) -> Journal:
    journal = make_journal()
    fill(journal, 6)
    journal.append("coup_result", {"number": 0, "label": "zéro", "nested": {"z": [1, None]}})
    return journal


def _export(source: Journal | Path) -> str:
    out = io.StringIO()
    export_jsonl(source, out)
    return out.getvalue()


def test_export_lines_have_exactly_the_row_fields(journal: Journal, db_path: Path) -> None:
    text = _export(journal)
    lines = text.splitlines()
    assert text.endswith("\n") and len(lines) == 7
    for line, row in zip(lines, raw_rows(db_path), strict=True):
        obj = json.loads(line)
        assert set(obj) == KEYS
        assert isinstance(obj["payload"], dict)  # an object, not a string
        assert [obj[k] for k in ("seq", "table_id", "wall_time", "kind")] == list(row[:4])
        assert (obj["prev_hash"], obj["hash"]) == row[5:]
        assert line == json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def test_export_from_path_equals_export_from_journal(journal: Journal, db_path: Path) -> None:
    assert _export(db_path) == _export(journal)


def test_round_trip_is_byte_exact_and_verifies(journal: Journal, db_path: Path) -> None:
    entries = list(read_jsonl(io.StringIO(_export(journal))))
    assert entries == list(journal.entries())
    assert [canonical_json(e.payload) for e in entries] == [row[4] for row in raw_rows(db_path)]
    report = verify_entries(entries, expected_head=(7, raw_rows(db_path)[-1][6]))
    assert report.ok and report.rows == 7


def test_export_file_round_trip(journal: Journal, tmp_path: Path) -> None:
    path = tmp_path / "export.jsonl"
    with path.open("w", encoding="utf-8") as out:
        assert export_jsonl(journal, out) == 7
    with path.open(encoding="utf-8") as lines:
        assert verify_entries(read_jsonl(lines)).ok


def test_tampered_export_is_named(journal: Journal) -> None:
    lines = _export(journal).splitlines()
    row = json.loads(lines[3])
    row["payload"]["amount"] += 1
    lines[3] = json.dumps(row)
    report = verify_entries(read_jsonl(lines))
    assert not report.ok and report.first_bad_seq == 4 and "edited" in report.reason


def test_dropped_export_line_is_named(journal: Journal) -> None:
    lines = _export(journal).splitlines()
    del lines[2]
    report = verify_entries(read_jsonl(lines))
    assert report.first_bad_seq == 3 and "missing" in report.reason


def test_reordered_export_lines_are_named(journal: Journal) -> None:
    lines = _export(journal).splitlines()
    lines[4], lines[5] = lines[5], lines[4]
    assert verify_entries(read_jsonl(lines)).first_bad_seq == 5


def test_blank_lines_are_skipped(journal: Journal) -> None:
    lines = _export(journal).splitlines()
    assert verify_entries(read_jsonl(["\n", *lines, "   \n"])).rows == 7


@pytest.mark.parametrize(
    ("bad", "problem"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "not a JSON object"),
        ('{"seq": 1}', "missing"),
        ("EXTRA", "unexpected extra"),
        ("FLOAT", "float"),
        ("BOOL_SEQ", "seq True"),
        ("SHORT_HASH", "hash"),
        ("PAYLOAD_STRING", "payload is not a JSON object"),
        ("DUPLICATE", "duplicate key"),
    ],
)
def test_bad_line_names_its_number(journal: Journal, bad: str, problem: str) -> None:
    lines = _export(journal).splitlines()
    good = json.loads(lines[2])
    variants = {
        "EXTRA": {**good, "extra": 1},
        "FLOAT": {**good, "payload": {"amount": 1.5}},
        "BOOL_SEQ": {**good, "seq": True},
        "SHORT_HASH": {**good, "hash": "abc"},
        "PAYLOAD_STRING": {**good, "payload": json.dumps(good["payload"])},
    }
    if bad in variants:
        bad = json.dumps(variants[bad])
    elif bad == "DUPLICATE":
        bad = lines[2][:-1] + ',"seq":3}'
    lines[2] = bad
    with pytest.raises(BadExportLine) as caught:
        list(read_jsonl(lines))
    error = caught.value
    assert isinstance(error, UnreadableInput)
    assert error.line == 3 and "line 3" in str(error) and problem in str(error)
