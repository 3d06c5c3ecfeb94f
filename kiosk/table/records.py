"""The table's own journal records: what happened at the table that is no game's business
(a device's report, the inspector's call). They belong to no game's family; the fold keeps
the facts they carry (`kiosk/table/fold.py`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kiosk.rules.operations import TableRecord

HELD = "card_held"  # a shoe card waits for a step on the screen (DeviceReport.event)
RELEASED = "card_released"  # ... and goes to the game now, on record with its own row
SET_ASIDE = "held_set_aside"  # held cards the table can no longer deal (another game)
COUNT_WRONG = "count_wrong"  # a shuffler's count is not the decks in play: its cards are out
COUNTED = "count"  # ... and its count matches them (again): its cards are in play


@dataclass(frozen=True, slots=True)
class DeviceReport(TableRecord):
    """Something a device did that the journal must show although the round did not move:
    a lost frame, a card the rules refused, a device gone silent or back. Repeated reports
    of one kind within a minute are one record with `count` (a noisy line must not flood
    the journal)."""

    kind = "device_report"
    device: str
    event: str
    detail: str
    count: int = 1

    def to_payload(self) -> dict[str, Any]:
        payload: dict[str, Any] = {"device": self.device, "event": self.event,
                                   "detail": self.detail}
        if self.count != 1:  # rows of one report read as before
            payload["count"] = self.count
        return payload


@dataclass(frozen=True, slots=True)
class InspectorCalled(TableRecord):
    """The dealer called the inspector (the table's button or the screen)."""

    kind = "inspector_called"
    source: str  # "button" or "screen"


@dataclass(frozen=True, slots=True)
class InspectorAttended(TableRecord):
    """The inspector came to the table; the amber lamp stops."""

    kind = "inspector_attended"
    inspector: str


LAYOUT = 1  # of a snapshot's state (kiosk/table/snapshot.py)


@dataclass(frozen=True, slots=True)
class Snapshot(TableRecord):
    """The table as folded up to row `covers`: its game, its state and facts (JSON)."""

    kind = "table_snapshot"
    covers: int
    game: str
    state: str
    facts: str
    layout: int = LAYOUT


@dataclass(frozen=True, slots=True)
class PitConfigApplied(TableRecord):
    """A configuration from the pit took effect between rounds: `previous` -> `version`
    (0: the table's own file). The signed body is kept whole, so an auditor can check the
    pit's signature again and see exactly which limits and rules the rounds after it ran."""

    kind = "pit_config_applied"
    previous: int
    version: int
    body: str
    signature: str
    signed_by: str
    signed_at: str
    summary: str  # what changed, in words, for the dealer, the signage and the pit


@dataclass(frozen=True, slots=True)
class PitConfigRefused(TableRecord):
    """A configuration from the pit that the table will not run (not signed by its pit,
    another table's, older than the one it runs, or not a valid configuration)."""

    kind = "pit_config_refused"
    version: int
    reason: str


@dataclass(frozen=True, slots=True)
class SoftwareUpdate(TableRecord):
    """A signed update bundle's outcome on this table (kiosk/update/): `applied`, `rolled
    back` (the new version did not start; the version before runs again), `refused` (its
    signature, files or target did not match, in words), `not installed`, or `reverted` to
    the SD image's own version. Here, with the table's other records, so every fold knows it."""

    kind = "software_update"
    version: str
    previous: str
    outcome: str
    detail: str


@dataclass(frozen=True, slots=True)
class SelfTestResult(TableRecord):
    """One check of the technician's self-test (`kiosk/selftest.py`), on record. Here, with
    the table's other records, so every fold knows it: defined beside the self-test, it was
    known only to a process that had imported the self-test, and a dealer app that started
    after a technician's `tableside selftest` refused the journal ("unknown operation kind
    'selftest'") and was restarted by systemd for good."""

    kind = "selftest"
    check: str
    ok: bool
    detail: str
