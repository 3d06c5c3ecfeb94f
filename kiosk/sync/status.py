"""The sync's status: connected or not (and whether the sync runs at all), the last row the
pit acknowledged, rows waiting and the age of the oldest. Read from the state file and the
journal, no network (so the dealer screen and the sign show it without importing the HTTP
client); `line()` words it for `tableside sync status` and the logs, and
`kiosk/ui/sync_words.py` for the screens' corners, in their language."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from kiosk.store.journal import JournalError, head_of, iter_entries
from kiosk.sync import state as sync_state
from kiosk.sync.state import SyncState

STALE_AFTER = 120.0
"""Seconds after which a state file the sync has not touched means the sync is not running
(stopped, crashed, or the table was off): the running sync writes it at least every
`kiosk.sync.client.FRESH_EVERY` seconds, and after every failed attempt (its longest wait,
60 s, plus a request's 10 s timeout, is well under this)."""


def _parse_time(text: str) -> datetime | None:
    try:
        return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
    except ValueError:
        return None


@dataclass(frozen=True, slots=True)
class SyncStatus:
    """What the dealer screen, the sign's corner and `tableside sync status` show.
    `connected` is the sync's own word only while it is running (its state file touched
    within `STALE_AFTER` seconds); `running` says whether it is."""

    connected: bool
    acked_seq: int
    acked_at: str
    waiting: int
    oldest_unsent: str  # wall time of the oldest row not yet acknowledged ("" when none)
    last_error: str
    running: bool = True
    last_contact: str = ""  # when the sync last wrote its state (UTC, "" never)
    anchored_seq: int = 0  # the newest head anchored at the pit, as the pit last said
    anchor_problem: str = ""  # why no anchors are sent ("" while they are)
    retry_at: str = ""  # when the sync tries the pit again ("" when it is not waiting to)
    stopped: bool = False  # the sync was stopped (not crashed, not silent)

    def reconnect_in(self, now: datetime | None = None) -> int | None:
        """Whole seconds until the sync tries the pit again (rounded up, 0 when due), or
        None when it is not waiting to (connected, or not running)."""
        if not self.running or self.connected or not self.retry_at:
            return None
        then = _parse_time(self.retry_at)
        if then is None:
            return None
        left = (then - (now or datetime.now(UTC))).total_seconds()
        return max(0, -int(-left // 1))

    def age_seconds(self, now: datetime | None = None) -> float | None:
        if not self.oldest_unsent:
            return None
        then = _parse_time(self.oldest_unsent)
        if then is None:
            return None
        return max(0.0, ((now or datetime.now(UTC)) - then).total_seconds())

    def _acked(self) -> str:
        if not self.acked_seq:
            return "nothing acknowledged yet"
        return f"last acknowledged row {self.acked_seq} at {self.acked_at}"

    def _link(self) -> str:
        if not self.running:
            return "not running"
        return "connected" if self.connected else "not connected"

    def line(self, now: datetime | None = None) -> str:
        """One line in words for a technician."""
        link = self._link()
        if self.stopped:
            link += f" (stopped at {self.last_contact})" if self.last_contact else ""
        elif not self.running:
            since = f"since {self.last_contact}" if self.last_contact else "ever"
            link += f" (no word from it {since})"
        elif (wait := self.reconnect_in(now)) is not None:
            link += f", reconnecting in {wait} s"
        waiting = f"{self.waiting} row{'s' if self.waiting != 1 else ''} waiting"
        age = self.age_seconds(now)
        if age is not None:
            waiting += f", the oldest for {_duration(age)}"
        error = f"; last problem: {self.last_error}" if self.last_error else ""
        anchored = (f"; anchored at the pit up to row {self.anchored_seq}"
                    if self.anchored_seq else "")
        if self.anchor_problem:
            anchored = f"; no anchors sent: {self.anchor_problem}"
        return f"Sync {link}: {self._acked()}; {waiting}{anchored}{error}"

    def late(self, now: datetime | None = None) -> bool:
        """Whether a technician should look: the sync not running, or offline with rows
        waiting a minute or more."""
        if not self.running:
            return True
        age = self.age_seconds(now)
        return not self.connected and age is not None and age >= 60


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def status(journal_path: str | Path, state: SyncState | None = None,
           now: datetime | None = None) -> SyncStatus:
    """The sync's status from its state file and the journal (no network). A state file
    not written for `STALE_AFTER` seconds reads as the sync not running, not connected."""
    state = state or sync_state.load(sync_state.state_path(journal_path))
    head, oldest = 0, ""
    try:
        head = head_of(journal_path)[0]
        oldest = next((e.wall_time for e in iter_entries(journal_path, state.acked_seq)), "")
    except JournalError:
        pass
    touched = _parse_time(state.last_attempt_at)
    running = not state.stopped and touched is not None and (
        (now or datetime.now(UTC)) - touched).total_seconds() < STALE_AFTER
    return SyncStatus(state.connected and running, state.acked_seq, state.acked_at,
                      max(0, head - state.acked_seq), oldest, state.last_error, running,
                      state.last_attempt_at, state.anchored_seq, state.anchor_problem,
                      state.retry_at, state.stopped)
