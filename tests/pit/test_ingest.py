"""The pit's checks of a batch against the chain it holds (pit/ingest.py), without a database."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from pit.ingest import BadBatch, ForeignRow, WireRow, check_batch, content_problem, parse_batch
from tests.pit.helpers import day_journal, rehash_from, wire_rows

GENESIS = (0, "0" * 64)


@pytest.fixture(scope="module")
def rows(tmp_path_factory: pytest.TempPathFactory) -> list[WireRow]:
    path = tmp_path_factory.mktemp("ingest") / "t.db"
    day_journal(path, "PB-01", 10).close()
    return wire_rows(path)


def held(rows: list[WireRow], upto: int) -> dict[int, str]:
    return {r.seq: r.hash for r in rows[:upto]}


def test_a_journal_from_row_1_extends_an_empty_chain(rows: list[WireRow]) -> None:
    out = check_batch(GENESIS, rows, {})
    assert len(out.accept) == len(rows) > 80
    assert out.head == (rows[-1].seq, rows[-1].hash)
    assert (out.duplicates, out.quarantine, out.expected_seq) == (0, [], None)


def test_a_batch_sent_again_is_counted_not_stored(rows: list[WireRow]) -> None:
    head = (rows[39].seq, rows[39].hash)
    out = check_batch(head, rows[20:60], held(rows, 40))
    assert out.duplicates == 20
    assert [r.seq for r in out.accept] == list(range(41, 61))


def test_a_batch_that_skips_rows_says_where_to_resume(rows: list[WireRow]) -> None:
    out = check_batch((10, rows[9].hash), rows[20:30], held(rows, 10))
    assert out.accept == [] and out.expected_seq == 11 and not out.quarantine


def test_an_edited_row_is_quarantined_with_the_rest_of_its_batch(rows: list[WireRow]) -> None:
    payload = json.loads(rows[12].payload)
    payload["amount"] = 9_999_999
    edited = dataclasses.replace(rows[12], payload=json.dumps(payload, sort_keys=True,
                                                              separators=(",", ":")))
    batch = [*rows[10:12], edited, *rows[13:16]]
    out = check_batch((10, rows[9].hash), batch, held(rows, 10))
    assert [r.seq for r in out.accept] == [11, 12]
    assert [r.seq for r, _ in out.quarantine] == [13, 14, 15, 16]
    assert out.break_reason == "row 13 was edited: its content does not match its hash"
    assert out.quarantine[1][1] == "follows quarantined row 13"


def test_a_rehashed_chain_differs_from_the_rows_the_pit_holds(rows: list[WireRow]) -> None:
    forged = rehash_from(rows, 5, {"area": "1", "kind": "banker", "amount": 1})
    assert content_problem(forged[5]) == ""  # the forgery hashes correctly on its own
    out = check_batch((30, rows[29].hash), forged[:40], held(rows, 30))
    assert out.accept == [] and out.duplicates == 5
    assert out.break_reason.startswith("row 6 differs from the row 6 the pit already holds")


def test_a_fork_does_not_follow_the_pits_head(rows: list[WireRow]) -> None:
    forged = rehash_from(rows, 5, {"area": "1", "kind": "banker", "amount": 1})
    out = check_batch((5, rows[4].hash), forged[5:10], held(rows, 5))
    assert out.accept and out.accept[0].seq == 6  # row 6 links to row 5: it is new here
    out = check_batch((6, rows[5].hash), forged[6:10], held(rows, 6))
    assert out.break_reason == ("chain break: row 7 does not follow row 6 the pit holds "
                                "(its prev_hash differs)")


def test_parse_refuses_another_tables_rows_and_malformed_batches(rows: list[WireRow]) -> None:
    body = {"rows": [r.as_json() for r in rows[:3]], "waiting": 4}
    assert parse_batch(body, "PB-01") == (rows[:3], 4)
    with pytest.raises(ForeignRow, match="belongs to table 'PB-01'; this credential writes "
                                         "only table 'PB-02'"):
        parse_batch(body, "PB-02")
    bad: list[tuple[object, str]] = [
        ([], "must be a JSON object"),
        ({"rows": [rows[0].as_json(), rows[2].as_json()]}, "row 3 follows row 1"),
        ({"rows": [{**rows[0].as_json(), "seq": 0}]}, "seq must be a whole number"),
        ({"rows": [{**rows[0].as_json(), "seq": True}]}, "seq must be a whole number"),
        ({"rows": [{**rows[0].as_json(), "extra": 1}]}, "unknown fields extra"),
        ({"rows": [{k: v for k, v in rows[0].as_json().items() if k != "hash"}]}, "lacks hash"),
        ({"rows": [{**rows[0].as_json(), "payload": {}}]}, "payload must be text"),
        ({"rows": [], "waiting": -1}, "waiting"),
        ({"rows": [rows[0].as_json()] * 2001}, "at most 2000"),
    ]
    for body_, words in bad:
        with pytest.raises(BadBatch, match=words):
            parse_batch(body_, "PB-01")


def test_content_problems_name_the_field(rows: list[WireRow]) -> None:
    r = rows[3]
    assert "wall_time" in content_problem(dataclasses.replace(r, wall_time="yesterday"))
    assert "malformed hash" in content_problem(dataclasses.replace(r, hash="beef"))
    assert "not valid JSON" in content_problem(dataclasses.replace(r, payload="{"))
    spaced = json.dumps(json.loads(r.payload), indent=1)
    assert "canonical" in content_problem(dataclasses.replace(r, payload=spaced))


def test_rows_survive_the_wire_byte_for_byte(tmp_path: Path) -> None:
    day_journal(tmp_path / "t.db", "PB-09", 2).close()
    for row in wire_rows(tmp_path / "t.db"):
        assert content_problem(row) == ""
