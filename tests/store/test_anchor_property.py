"""Property: once the rows up to a head were anchored at the pit, any single-row edit,
deletion or insertion at or before that head, and any re-hash of the chain from there on, is
reported by `journal verify --pit` and by `replay --pit` (both check the file against the
pit's anchored heads: `verify_source` and `replay_source` with those heads)."""

from __future__ import annotations

import dataclasses
import tempfile
from functools import cache
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from kiosk.replay import replay_source
from kiosk.store.canonical import GENESIS_HASH, canonical_json, chain_hash
from kiosk.store.export import export_jsonl
from kiosk.store.journal import Entry, Journal, iter_entries
from kiosk.store.source import verify_source
from tests.pit.day import Day


@cache
def _rows() -> tuple[Entry, ...]:
    with tempfile.TemporaryDirectory() as folder:
        journal = Journal.open(Path(folder) / "PB-01.db", "PB-01")
        Day(journal).play(4)
        journal.close()
        return tuple(iter_entries(journal.path))


def _rehash(rows: list[Entry], start: int) -> list[Entry]:
    """Renumber from 1 and re-hash from list index `start` on, as a forger who knows the
    format would."""
    out = list(rows[:start])
    prev = out[-1].hash if out else GENESIS_HASH
    for index, row in enumerate(rows[start:], start=start):
        seq = index + 1
        digest = chain_hash(prev, row.table_id, seq, row.wall_time, row.kind,
                            canonical_json(row.payload))
        out.append(dataclasses.replace(row, seq=seq, prev_hash=prev, hash=digest))
        prev = digest
    return out


EDITS = ("edit", "delete", "insert", "rehash")


@st.composite
def forgeries(draw: st.DrawFn) -> tuple[list[Entry], dict[int, str], str, bool]:
    rows = list(_rows())
    n = len(rows)
    anchor_at = draw(st.integers(1, n))
    others = draw(st.sets(st.integers(1, n), max_size=4))
    anchors = {seq: rows[seq - 1].hash for seq in {anchor_at, *others}}
    index = draw(st.integers(0, anchor_at - 1))  # at or before the anchored head
    what = draw(st.sampled_from(EDITS))
    rehash = what == "rehash" or draw(st.booleans())
    target = rows[index]
    if what in ("edit", "rehash"):
        payload = {**target.payload, "forged": draw(st.integers(0, 10**6))}
        rows[index] = dataclasses.replace(target, payload=payload)
    elif what == "delete":
        del rows[index]
    else:
        rows.insert(index, dataclasses.replace(target, payload={"inserted": True}))
    if rehash:
        rows = _rehash(rows, index)
    return rows, anchors, f"{what} of list row {index}, anchored at {sorted(anchors)}", rehash


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(forgeries())
def test_any_change_before_an_anchored_head_is_reported(
        forged: tuple[list[Entry], dict[int, str], str, bool]) -> None:
    rows, anchors, what, rehashed = forged
    with tempfile.TemporaryDirectory() as folder:
        export = Path(folder) / "forged.jsonl"
        with export.open("w", encoding="utf-8") as out:
            for row in rows:
                out.write(canonical_json({"seq": row.seq, "table_id": row.table_id,
                                          "wall_time": row.wall_time, "kind": row.kind,
                                          "payload": row.payload,
                                          "prev_hash": row.prev_hash,
                                          "hash": row.hash}) + "\n")
        if rehashed:  # the file alone cannot tell: only the pit's heads can
            assert verify_source(export).ok, what
        verified = verify_source(export, anchors=anchors)
        assert not verified.ok, what
        replayed = replay_source(export, anchors)
        assert not replayed.ok and not replayed.chain_ok, what
        assert replayed.chain_reason == verified.reason, what


def test_the_untouched_journal_passes_against_every_head(tmp_path: Path) -> None:
    rows = _rows()
    export = tmp_path / "PB-01.jsonl"
    journal_copy = tmp_path / "PB-01.db"
    journal = Journal.open(journal_copy, "PB-01")
    Day(journal).play(4)
    journal.close()
    with export.open("w", encoding="utf-8") as out:
        export_jsonl(journal_copy, out)
    own = {row.seq: row.hash for row in iter_entries(journal_copy)}
    assert len(own) == len(rows)
    assert verify_source(export, anchors=own).ok
    assert replay_source(export, own).ok
