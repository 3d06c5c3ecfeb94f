"""A replay fed in pieces (the pit's dashboard feeds each table's new rows) gives exactly the
report of a replay of all the rows at once, wherever the pieces are cut, and for a chain
broken in the middle too."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from hypothesis import given, settings, strategies as st

from kiosk.replay import Replay, load_entries, replay

GOLDEN = Path(__file__).resolve().parent / "golden_journals"
JOURNALS = {name: load_entries(GOLDEN / f"{name}.jsonl")
            for name in ("pb", "bj", "bj_rules", "mixed")}


@settings(max_examples=25, deadline=None)
@given(name=st.sampled_from(sorted(JOURNALS)), cuts=st.lists(st.integers(0, 2000), max_size=6),
       broken=st.one_of(st.none(), st.integers(1, 2000)))
def test_pieces_give_the_same_report(name: str, cuts: list[int], broken: int | None) -> None:
    rows = list(JOURNALS[name])
    if broken is not None:  # a row edited after it was hashed: the chain breaks there
        i = broken % len(rows)
        rows[i] = dataclasses.replace(rows[i], wall_time="2001-01-01T00:00:00.000Z")
    whole = replay(rows, "x").as_json()
    pieces = Replay("x")
    at = 0
    for cut in [*sorted(c % (len(rows) + 1) for c in cuts), len(rows)]:
        pieces.feed(rows[at:cut])
        at = max(at, cut)
    assert pieces.report.as_json() == whole
    assert pieces.seq == rows[-1].seq
