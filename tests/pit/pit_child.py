"""The pit server (`tableside pit serve`) in a process of its own that stops in the middle of
a batch, for kill -9 there, whatever the machine's speed:
    python -m tests.pit.pit_child STAGE MARKER serve-arguments...
On the first batch that brings rows to store, at STAGE, it writes MARKER (JSON: the stage, the
head before the batch's new rows and after them) and waits to be killed:
- "uncommitted": inside the batch's transaction, its rows written, not committed;
- "unanswered": the batch committed, its answer not yet sent to the table."""

from __future__ import annotations

import json
import os
import sys
import threading
from pathlib import Path
from typing import Any

from kiosk.cli import main as tableside
from pit.ingest import Checked, WireRow
from pit.store import IngestResult, PitStore

STAGES = ("uncommitted", "unanswered")


def _stop_here(marker: Path, stage: str, before: int, after: int) -> None:
    """Say where the batch stopped (written whole), then wait for kill -9."""
    tmp = marker.with_name(marker.name + ".tmp")
    tmp.write_text(json.dumps({"stage": stage, "before": before, "after": after}))
    os.replace(tmp, marker)
    threading.Event().wait()


def main() -> None:
    stage, marker_text, *serve = sys.argv[1:]
    if stage not in STAGES:
        raise SystemExit(f"pit_child: the stage is one of {', '.join(STAGES)}, not {stage!r}")
    marker = Path(marker_text)
    store_rows = PitStore._store
    ingest = PitStore.ingest

    def stored_then_stop(tx: Any, table_id: str, checked: Checked, now: str) -> None:
        store_rows(tx, table_id, checked, now)
        if stage == "uncommitted" and checked.accept:
            _stop_here(marker, stage, checked.accept[0].seq - 1, checked.accept[-1].seq)

    def committed_then_stop(self: PitStore, table_id: str, rows: list[WireRow],
                            waiting: int = 0, credential: str | None = None) -> IngestResult:
        result = ingest(self, table_id, rows, waiting, credential)
        if stage == "unanswered" and result.stored:
            _stop_here(marker, stage, result.head[0] - result.stored, result.head[0])
        return result

    PitStore._store = staticmethod(stored_then_stop)  # type: ignore[method-assign]
    PitStore.ingest = committed_then_stop  # type: ignore[method-assign]
    tableside(["pit", "serve", *serve])


if __name__ == "__main__":
    main()
