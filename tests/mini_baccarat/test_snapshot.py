"""A table restarted mid-procedure resumes it: the snapshot of every state a mini baccarat
journal passes through (the malfunction, the facts, the offers, the shuffle and the cut)
restores to the same state (kiosk/table/snapshot.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.replay import load_entries
from kiosk.table.fold import fold
from kiosk.table.snapshot import restore, take

GOLDEN = Path(__file__).parents[1] / "golden_journals"


@pytest.mark.parametrize("name", ["mb_replace", "mb_shoe"])
def test_every_state_of_the_procedure_survives_a_snapshot(name: str) -> None:
    entries = list(load_entries(GOLDEN / f"{name}.jsonl"))
    stopped = 0
    for n in range(1, len(entries) + 1):
        folded = fold(entries[:n])
        back = restore(take(folded))
        assert back.state == folded.state, entries[n - 1].kind
        stopped += folded.state.stopped
    assert stopped >= 8  # the procedure's states were among them
