"""The sync's status in words: connected or not, the last row the pit acknowledged, rows
waiting and the age of the oldest. Read from the state file and the journal, no network (so
the dealer screen and the sign show it without importing the HTTP client)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from kiosk.store.journal import JournalError, head_of, iter_entries
from kiosk.sync import state as sync_state
from kiosk.sync.state import SyncState


@dataclass(frozen=True, slots=True)
class SyncStatus:
    """What the dealer screen, the sign's corner and `tableside sync status` show."""

    connected: bool
    acked_seq: int
    acked_at: str
    waiting: int
    oldest_unsent: str  # wall time of the oldest row not yet acknowledged ("" when none)
    last_error: str

    def age_seconds(self, now: datetime | None = None) -> float | None:
        if not self.oldest_unsent:
            return None
        then = datetime.strptime(self.oldest_unsent, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
        return max(0.0, ((now or datetime.now(UTC)) - then).total_seconds())

    def line(self) -> str:
        """One line in words for a technician."""
        link = "connected" if self.connected else "not connected"
        acked = (f"last acknowledged row {self.acked_seq} at {self.acked_at}" if self.acked_seq
                 else "nothing acknowledged yet")
        waiting = f"{self.waiting} row{'s' if self.waiting != 1 else ''} waiting"
        age = self.age_seconds()
        if age is not None:
            waiting += f", the oldest for {_duration(age)}"
        error = f"; last problem: {self.last_error}" if self.last_error else ""
        return f"Sync {link}: {acked}; {waiting}{error}"


    def short(self) -> str:
        """A few words for a corner of the dealer screen and the sign."""
        age = self.age_seconds()
        behind = ""
        if self.waiting:
            behind = f"{self.waiting:,} row{'s' if self.waiting != 1 else ''} waiting"
            if age is not None and age >= 60:
                behind += f" ({_duration(age)})"
        if self.connected:
            return f"Pit: {behind}" if behind and (age or 0) >= 60 else "Pit synced"
        return f"Pit offline: {behind}" if behind else "Pit offline"

    def late(self) -> bool:
        """Whether a technician should look: offline with rows waiting a minute or more."""
        age = self.age_seconds()
        return not self.connected and age is not None and age >= 60


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def status(journal_path: str | Path, state: SyncState | None = None) -> SyncStatus:
    """The sync's status from its state file and the journal (no network)."""
    state = state or sync_state.load(sync_state.state_path(journal_path))
    head, oldest = 0, ""
    try:
        head = head_of(journal_path)[0]
        oldest = next((e.wall_time for e in iter_entries(journal_path, state.acked_seq)), "")
    except JournalError:
        pass
    return SyncStatus(state.connected, state.acked_seq, state.acked_at,
                      max(0, head - state.acked_seq), oldest, state.last_error)
