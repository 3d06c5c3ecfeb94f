"""What the table knows of its sync, kept beside the journal: the head the pit acknowledged
(seq and hash), when, and how the last attempt went.

The file is replaced whole (written, synced, renamed), so a power cut or kill -9 leaves the
old state or the new one, never half of either. `tableside journal verify` still checks the
journal holds the acknowledged row, but this file is the table's own: whoever holds the
journal can rewrite it too. The sync never trusts it; the anchors at the pit are what count
(kiosk/anchor.py, `journal verify --pit`).
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

GENESIS = "0" * 64


def state_path(journal: str | Path) -> Path:
    """The sync state of the journal at `journal`: data/T1.db -> data/T1.sync.json."""
    path = Path(journal)
    return path.with_name(path.stem + ".sync.json")


@dataclass(frozen=True, slots=True)
class SyncState:
    pit: str = ""
    acked_seq: int = 0
    acked_hash: str = GENESIS
    acked_at: str = ""  # when the pit acknowledged it (UTC, as the journal writes times)
    connected: bool = False
    last_attempt_at: str = ""
    last_error: str = ""
    anchored_seq: int = 0  # the newest head the pit holds anchored (as it last said)
    anchor_problem: str = ""  # why the sync sends no anchors ("" while it does)
    retry_at: str = ""  # when the sync tries the pit again after a failure ("" when not waiting)
    stopped: bool = False  # the sync was stopped (written as it stops): it does not run

    @property
    def head(self) -> tuple[int, str] | None:
        return (self.acked_seq, self.acked_hash) if self.acked_seq else None

    def with_(self, **changes: Any) -> SyncState:
        return replace(self, **changes)


def load(path: str | Path) -> SyncState:
    """The state at `path`; a fresh one when there is none or it cannot be read."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return SyncState()
    if not isinstance(data, dict):
        return SyncState()
    known = {k: v for k, v in data.items() if k in SyncState.__dataclass_fields__}
    try:
        state = SyncState(**known)
    except TypeError:
        return SyncState()
    if not isinstance(state.acked_seq, int) or not isinstance(state.acked_hash, str):
        return SyncState()
    if not isinstance(state.anchored_seq, int) or not isinstance(state.anchor_problem, str):
        state = state.with_(anchored_seq=0, anchor_problem="")
    if not isinstance(state.retry_at, str) or not isinstance(state.stopped, bool):
        state = state.with_(retry_at="", stopped=False)
    return state


def save(path: str | Path, state: SyncState) -> None:
    """Replace the state file whole."""
    write_whole(path, json.dumps(asdict(state), sort_keys=True, indent=1))


def write_whole(path: str | Path, text: str) -> None:
    """Replace the file at `path` whole, mode 0600 (temporary file, fsync, rename, fsync the
    folder): a power cut leaves the old text or the new one."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, text.encode("utf-8"))
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
    with contextlib.suppress(OSError):
        dirfd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dirfd)
        finally:
            os.close(dirfd)
