"""A round flagged as disputed at the table (rule 2.8) is raised at the pit as an alert an
inspector acknowledges."""

from __future__ import annotations

from pathlib import Path

from pit.alerts import ROUND_DISPUTED, alert_for
from pit.db import Database
from pit.store import PitStore
from tests.pit.helpers import wire_rows
from tests.table.test_disputes import _disputed


def test_a_dispute_is_an_alert_to_acknowledge_at_the_pit(pit_url: str, tmp_path: Path) -> None:
    s = _disputed(tmp_path / "j.db")
    s.journal.close()
    store = PitStore(Database(pit_url))
    store.enroll("PB-01")
    rows = wire_rows(tmp_path / "j.db")
    result = store.ingest("PB-01", rows)
    assert result.stored == len(rows) and not result.quarantined
    (alert,) = [a for a in store.alerts(table_id="PB-01") if a.kind == ROUND_DISPUTED]
    assert alert.seq == rows[-1].seq
    assert alert.message == ("round 1 disputed by the dealer Sipho: the player says the 2C "
                             "was dealt late")
    assert store.acknowledge(alert.id, "Thandi")
    assert not [a for a in store.alerts(table_id="PB-01") if a.kind == ROUND_DISPUTED]
    assert alert_for("round_disputed", {"round": 1, "by": "x", "role": "inspector",
                                        "note": "n"}) == (
        ROUND_DISPUTED, "round 1 disputed by the inspector x: n")
