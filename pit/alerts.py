"""Which journal rows an inspector must see as alerts, told by the records' shared bases
(never by a game's name): a device offline or faulty (a shuffler's fault among them), lost
frames, an impossible card, a void, a late bet, the inspector called, a configuration from
the pit that the table refused, a round flagged as disputed (rule 2.8), too many wrong PINs;
and what each game's spec says of its own records (`GameSpec.alerts`: a ball spun the same
way as the one before, rule 3.2; a misdeal; a shuffler's malfunction and a round it
terminated, rules 12.1.2 and 12.4). Chain breaks are raised by the ingest itself."""

from __future__ import annotations

from typing import Any

from kiosk.rules.errors import UnreadableInput
from kiosk.rules.operations import (
    CardQuery,
    LateBet,
    Operation,
    RoundVoid,
    operation_from_record,
)
from kiosk.rules.registry import GAMES  # importing it registers the games' records
from kiosk.table.disputes import RoundDisputed
from kiosk.table.records import DeviceReport, InspectorCalled, PitConfigRefused
from kiosk.table.roles import PinLockedOut

DEVICE_OFFLINE = "device_offline"
DEVICE_FAULT = "device_fault"
LOST_FRAMES = "lost_frames"
IMPOSSIBLE_CARD = "impossible_card"
VOID = "void"
LATE_BET = "late_bet"
INSPECTOR_CALLED = "inspector_called"
CHAIN_BREAK = "chain_break"
ANCHOR_BROKEN = "anchor_broken"
"""STOP: the table's journal no longer extends a head it anchored at the pit."""
UNREADABLE_ROW = "unreadable_row"
CONFIG_REFUSED = "config_refused"
PIN_LOCKOUT = "pin_lockout"
"""Too many wrong PINs for one id at a table (kiosk/table/roles.py)."""
MISDEAL = "misdeal"
SAME_DIRECTION = "same_direction"
TABLE_SILENT = "table_silent"
"""The floor has not heard from a table for `FloorTimes.silent_after` (raised by the pit)."""
ROUND_DISPUTED = "round_disputed"
"""A round flagged as disputed at the table (rule 2.8): an inspector acknowledges it."""
SHUFFLER_MALFUNCTION = "shuffler_malfunction"
"""A shuffling device malfunctioned and the procedure holds the round (rule 12.1.2)."""
ROUND_TERMINATED = "round_terminated"
"""A round a malfunction procedure terminated, every wager returned (rule 12.4)."""
NEW_CARD = "new_card"
"""A table started again on a new card, its old journal closed at the pit (pit/store.py)."""

TITLES = {
    DEVICE_OFFLINE: "Device offline",
    DEVICE_FAULT: "Device fault",
    LOST_FRAMES: "Lost frames",
    IMPOSSIBLE_CARD: "Impossible card",
    VOID: "Void",
    LATE_BET: "Late bet",
    INSPECTOR_CALLED: "Inspector called",
    CHAIN_BREAK: "Chain break",
    ANCHOR_BROKEN: "STOP: journal rewritten",
    UNREADABLE_ROW: "Unreadable row",
    CONFIG_REFUSED: "Configuration refused",
    TABLE_SILENT: "Table silent",
    ROUND_DISPUTED: "Round disputed",
    PIN_LOCKOUT: "PIN lockout",
    MISDEAL: "Misdeal",
    SAME_DIRECTION: "Spun the same way (rule 3.2)",
    SHUFFLER_MALFUNCTION: "Shuffler malfunction (rule 12.1)",
    ROUND_TERMINATED: "Round terminated (rule 12.4)",
    NEW_CARD: "New card",
}
"""The alerts' titles on the dashboard; a game's own kind with no title here is shown as its
kind, its words in the message."""

_DEVICE_EVENTS = {
    "offline": DEVICE_OFFLINE,
    "frames_lost": LOST_FRAMES,
    "card_refused": IMPOSSIBLE_CARD,
    "fault": DEVICE_FAULT,
    "stopped": DEVICE_FAULT,
    "no_ball": DEVICE_FAULT,
    "launch_failed": DEVICE_FAULT,
}


def alert_for(kind: str, payload: dict[str, Any]) -> tuple[str, str] | None:
    """(alert kind, message) for a row an inspector must see, else None."""
    try:
        op = operation_from_record(kind, payload)
    except UnreadableInput as exc:
        return UNREADABLE_ROW, str(exc)
    if isinstance(op, DeviceReport):
        alert = _DEVICE_EVENTS.get(op.event)
        if op.event == "self_test" and not op.detail.startswith("0:"):
            alert = DEVICE_FAULT
        if alert is None:
            return None
        detail = f": {op.detail}" if op.detail else ""
        return alert, f"{op.device.lower()} {op.event.replace('_', ' ')}{detail}"
    if isinstance(op, CardQuery):
        return IMPOSSIBLE_CARD, op.message
    if isinstance(op, RoundVoid):
        own = _of_the_game(op)  # a game's own kind of void (terminated, rule 12.4)
        if own is not None:
            return own
        reason = getattr(op, "reason", "")
        return VOID, f"round voided{': ' + reason if reason else ''}"
    if isinstance(op, LateBet):
        return LATE_BET, "chips placed after no more bets (not played)"
    if isinstance(op, InspectorCalled):
        return INSPECTOR_CALLED, f"the dealer called the inspector ({op.source})"
    if isinstance(op, RoundDisputed):  # rule 2.8
        return ROUND_DISPUTED, op.line()
    if isinstance(op, PinLockedOut):
        return PIN_LOCKOUT, (f"{op.person} locked out for {op.seconds // 60} minute(s) after "
                             f"{op.attempts} wrong PINs")
    if isinstance(op, PitConfigRefused):
        return CONFIG_REFUSED, f"the table refused the pit's configuration: {op.reason}"
    return _of_the_game(op)


def _of_the_game(op: Operation) -> tuple[str, str] | None:
    """The alert the record's game says it raises (`GameSpec.alerts`), if any."""
    family = GAMES.family_of(op)
    if family is None:
        return None
    for spec in GAMES.in_family(family):  # the first of the family's games to raise one
        alert = spec.alerts(op) if spec.alerts is not None else None
        if alert is not None:
            return alert
    return None
