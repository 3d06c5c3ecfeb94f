"""The signage's view of the table: the dealer app's journal, followed from another process.

docs/architecture.md: the signage is its own process, fed from the same SQLite database (WAL).
The feed checks `PRAGMA data_version` on every poll (one cheap call that changes only when
another connection committed), reads just the rows after the last one it folded, and folds them with
the same `apply` the dealer app uses, so both screens agree by construction.

The game is the journal's to say: rows are folded by the one fold (`kiosk/table/fold.py`),
which starts a game's state at its table opening. A table reconfigured for another game opens
again in the same journal, and the fold switches game there. Operations of another game with
no opening before them are not folded: `other_game` says so, for the screen to explain.

The players' screen must never go blank or crash because the dealer app restarts: `poll()`
never raises, keeps the last good state while the file is missing, locked or unreadable, and
says so through `link`. A different journal in the same place (another table id, fewer rows,
or a different row where ours was) is folded again from scratch.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kiosk.rules.errors import UnreadableInput
from kiosk.rules.operations import TableOpening, operation_from_record
from kiosk.rules.registry import GameSpec
from kiosk.store.canonical import loads_strict
from kiosk.store.journal import Entry, Journal, JournalError
from kiosk.table.fold import EMPTY, Folded, FoldError, OtherGame, step
from kiosk.table.records import Snapshot
from kiosk.table.snapshot import restore
from kiosk.ui.signage.link import CLOSED_AFTER, SILENT_AFTER, Link, heartbeat_path

log = logging.getLogger(__name__)

POLL_INTERVAL = 0.05
"""Seconds between polls: a change reaches the players' screen within about 100 ms."""

BUSY_TIMEOUT_MS = 20
"""A read that finds the database locked gives up quickly and retries on the next poll, so a
locked file never freezes the screen."""


@dataclass(frozen=True, slots=True)
class _Fold:
    """The folded table, and the family of another game whose operations came with no
    table opened for it (None: every operation belonged to the table's game)."""

    folded: Folded = EMPTY
    other_game: str | None = None


@dataclass(frozen=True, slots=True)
class FeedChange:
    """What one poll did. `applied` counts the rows folded; `refolded` means from scratch."""

    state_changed: bool
    link_changed: bool
    applied: int
    refolded: bool
    seq: int


Listener = Callable[["JournalFeed", FeedChange], None]


class JournalFeed:
    """Follows the journal at `path`, written by the dealer app in another process.

    `state` is None until the journal has opened a table; after that it is the last good
    state of the game `game` names (a `GameSpec`), kept through any trouble reading the
    file. `seq` is the newest row folded. Call `poll()` yourself, or
    `start()` to poll from Kivy's Clock.
    """

    def __init__(self, path: str | Path, *, busy_timeout_ms: int = BUSY_TIMEOUT_MS) -> None:
        self.path = Path(path)
        self.busy_timeout_ms = busy_timeout_ms
        self.link = Link.WAITING
        self.problem = ""  # why the link is not live, for the log and a technician
        self.revision = 0  # goes up by one on every change of state
        self.listeners: list[Listener] = []
        self._folded = _Fold()
        self._seq = 0
        self._hash = ""  # hash of row `_seq` ("" before any row)
        self._probe: sqlite3.Connection | None = None
        self._journal: Journal | None = None
        self._file_id: tuple[int, int] | None = None
        self._data_version: int | None = None
        self._event: Any = None

    # --- What the screen reads ---------------------------------------------------------

    @property
    def state(self) -> Any:
        """The table's state, or None while no table has been opened in the journal."""
        folded = self._folded.folded
        return folded.state if folded.table_id else None

    @property
    def game(self) -> GameSpec | None:
        """The game of the table opened in the journal, or None while there is none."""
        folded = self._folded.folded
        return folded.game if folded.table_id else None

    @property
    def inspector_called(self) -> bool:
        return self._folded.folded.facts.inspector_called

    @property
    def outside_hours_until(self) -> str:
        """Until when the inspector's reopening outside the approved hours holds ("": none;
        rule 2.4)."""
        return self._folded.folded.facts.outside_hours_until

    @property
    def pit_config(self) -> int:
        """The row of the pit's configuration in force (0: the table's own file)."""
        return self._folded.folded.facts.pit_config

    def row(self, seq: int) -> Entry | None:
        """Journal row `seq` (None when it cannot be read now)."""
        try:
            return self._journal.entry(seq) if self._journal is not None else None
        except (JournalError, sqlite3.Error, UnreadableInput):
            return None

    @property
    def other_game(self) -> str | None:
        """Operations of this game follow the table's opening for another game, with no
        opening of their own (the table was reconfigured and its opening is missing): the
        state shown is no longer the table's. None when all is well."""
        return self._folded.other_game if self.state is not None else None

    @property
    def table_id(self) -> str:
        return self._folded.folded.table_id

    @property
    def seq(self) -> int:
        return self._seq

    def subscribe(self, listener: Listener) -> None:
        """Call `listener(feed, change)` after every poll that changed the state or link."""
        self.listeners.append(listener)

    # --- Polling -------------------------------------------------------------------------

    def start(self, interval: float = POLL_INTERVAL) -> None:
        """Poll now and then every `interval` seconds from Kivy's Clock (the UI thread)."""
        from kiosk.ui.every import every

        self.stop()
        self.poll()
        self._event = every(interval, self.poll)

    def stop(self) -> None:
        if self._event is not None:
            self._event.cancel()
            self._event = None

    def close(self) -> None:
        """Stop polling and let go of the file (the last state stays readable)."""
        self.stop()
        self._disconnect()

    def poll(self) -> FeedChange:
        """Fold whatever the journal gained since the last poll. Never raises."""
        before_link, before_rev = self.link, self.revision
        applied, refolded = 0, False
        try:
            applied, refolded = self._poll()
        except Exception as exc:  # the players' screen must outlive any trouble with the file
            why = f"{type(exc).__name__}: {exc}"
            expected = sqlite3.Error | JournalError | OSError | UnreadableInput
            if not isinstance(exc, expected) and why != self.problem:  # once, not 20 a second
                log.exception("signage feed: unexpected error reading %s", self.path)
            self._disconnect()  # reopen next time: the connection may be what broke
            self._lost(why)
        change = FeedChange(state_changed=self.revision != before_rev,
                            link_changed=self.link is not before_link,
                            applied=applied, refolded=refolded, seq=self._seq)
        if change.state_changed or change.link_changed:
            if change.link_changed:
                log.info("signage feed: %s %s", self.link, self.problem)
            for listener in list(self.listeners):
                try:
                    listener(self, change)
                except Exception:  # a view's bug must not stop the feed
                    log.exception("signage feed listener %r", listener)
        return change

    def _poll(self) -> tuple[int, bool]:
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            self._disconnect()
            self._lost(f"no journal at {self.path}")
            return 0, False
        file_id = (st.st_dev, st.st_ino)
        if self._probe is not None and file_id != self._file_id:
            self._disconnect()  # the file was replaced: what we hold open is the old one
        fresh = self._probe is None
        if fresh:
            self._connect(file_id)
        assert self._probe is not None
        # Read the version before the rows: a commit landing while we read changes it again,
        # so the next poll reads once more and nothing is missed.
        version = int(self._probe.execute("PRAGMA data_version").fetchone()[0])
        if not fresh and version == self._data_version:
            self._check_dealer()
            return 0, False
        result = self._read()
        self._data_version = version
        self._check_dealer()
        return result

    def _check_dealer(self) -> None:
        """Live means the dealer app runs too: it touches a file beside the journal every
        few seconds. Silent for longer than SILENT_AFTER (it crashed, or was stopped), the
        table is paused. No such file (a journal copied for a check): the journal decides."""
        if self.link not in (Link.LIVE, Link.PAUSED, Link.CLOSED):
            return
        try:
            silent = time.time() - os.stat(heartbeat_path(self.path)).st_mtime
        except OSError:
            silent = 0.0
        if silent > CLOSED_AFTER:
            self._set_link(Link.CLOSED, f"the dealer app has not run for {silent:.0f} s")
        elif silent > SILENT_AFTER:
            self._set_link(Link.PAUSED, f"the dealer app has not run for {silent:.0f} s")
        else:
            self._set_link(Link.LIVE)

    def _connect(self, file_id: tuple[int, int]) -> None:
        # mode=ro never writes the database (SQLite may add its -shm index beside it). Unlike
        # `Journal.open(read_only=True)` this never falls back to `immutable`, which would
        # stop us seeing new rows.
        uri = self.path.resolve().as_uri() + "?mode=ro"
        conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False,
                               timeout=self.busy_timeout_ms / 1000)
        conn.execute(f"PRAGMA busy_timeout={int(self.busy_timeout_ms)}")
        self._probe, self._file_id, self._data_version = conn, file_id, None

    def _disconnect(self) -> None:
        if self._journal is not None:
            with contextlib.suppress(Exception):
                self._journal.close()
            self._journal = None
        if self._probe is not None:
            with contextlib.suppress(Exception):
                self._probe.close()
            self._probe = None
        self._file_id = self._data_version = None

    def _head(self) -> tuple[int, str] | None:
        """(seq, table id) of the newest row, or None: no rows, or no journal table yet."""
        assert self._probe is not None
        has_table = self._probe.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'journal'").fetchone()
        if has_table is None:
            return None  # the dealer app is creating the file at this moment
        row = self._probe.execute(
            "SELECT seq, table_id FROM journal ORDER BY seq DESC LIMIT 1").fetchone()
        return None if row is None else (int(row[0]), str(row[1]))

    def _read(self) -> tuple[int, bool]:
        head = self._head()
        if head is None:
            if self._seq:  # an empty journal where ours was: a new table is being set up
                self._commit(_Fold(), 0, "")
                self._set_link(Link.WAITING, "the journal was replaced by an empty one")
                return 0, True
            self._set_link(Link.WAITING, "the journal has no rows yet")
            return 0, False
        head_seq, head_table = head
        if self._journal is None or self._journal.table_id != head_table:
            if self._journal is not None:
                self._journal.close()
            self._journal = Journal.open(self.path, head_table, read_only=True,
                                         busy_timeout_ms=self.busy_timeout_ms)
        # Another table, or fewer rows than we folded: a different journal, fold it afresh.
        refold = bool(self._seq) and (head_table != self.table_id or head_seq < self._seq)
        folded = self._fold_rows(from_scratch=refold)
        if folded is None:  # the row we folded last is not there as it was: refold too
            refold = True
            folded = self._fold_rows(from_scratch=True)
            assert folded is not None
        fold, seq, row_hash, applied = folded
        if refold or seq != self._seq:
            self._commit(fold, seq, row_hash)
        if self.table_id:
            self._set_link(Link.LIVE)
        else:
            self._set_link(Link.WAITING, "no table has been opened in the journal yet")
        return applied, refold

    def _fold_rows(self, *, from_scratch: bool) -> tuple[_Fold, int, str, int] | None:
        """The state, seq and hash after folding the new rows, and how many were applied;
        None if row `_seq` is no longer the row we folded (checked by its hash). Nothing is
        kept until the whole batch is read, so a failure half-way leaves the last good state.
        """
        if from_scratch or not self._seq:  # nothing folded yet: from the last snapshot
            fold, seq, row_hash = self._from_snapshot()
        else:
            fold, seq, row_hash = self._folded, self._seq, self._hash
        applied = 0
        # Start one row back, to check that the journal still holds the row we folded last.
        check = seq > 0
        for entry_seq, kind, payload, entry_hash in self._rows(seq - 1 if check else seq):
            if check:
                check = False
                if entry_seq != seq or entry_hash != row_hash:
                    return None
                continue
            if payload is not None:
                fold = _fold(fold, kind, payload, entry_seq)
                applied += 1
            seq, row_hash = entry_seq, entry_hash
        if check:  # row `_seq` is gone
            return None
        return fold, seq, row_hash, applied

    def _from_snapshot(self) -> tuple[_Fold, int, str]:
        """Where a fold from scratch starts: the journal's last snapshot this build can read
        (kiosk/table/snapshot.py), so the signage starts as fast on a long journal as on a
        short one; the first row when there is none."""
        assert self._journal is not None
        row = self._journal.last_of_kind(Snapshot.kind)
        if row is None:
            return _Fold(), 0, ""
        try:
            snap = operation_from_record(row.kind, row.payload)
            assert isinstance(snap, Snapshot)
            return _Fold(restore(snap)), row.seq, row.hash
        except UnreadableInput as exc:
            log.warning("signage feed: %s; folding from the first row", exc)
            return _Fold(), 0, ""

    def _commit(self, fold: _Fold, seq: int, row_hash: str) -> None:
        self._folded, self._seq, self._hash = fold, seq, row_hash
        self.revision += 1

    def _rows(self, after: int) -> Iterator[tuple[int, str, dict[str, Any] | None, str]]:
        """(seq, kind, payload, hash) of the rows after `after`; payload None: unreadable."""
        assert self._journal is not None and self._probe is not None
        last = after
        try:
            for entry in self._journal.entries(after):
                yield entry.seq, entry.kind, entry.payload, entry.hash
                last = entry.seq
            return
        except UnreadableInput as exc:
            log.warning("signage feed: %s; reading on row by row", exc)
        # A row that is not JSON (a damaged file): skip it rather than stop there for ever;
        # `tableside journal verify` is the tool that reports it.
        for seq, kind, text, row_hash in self._probe.execute(
                "SELECT seq, kind, payload, hash FROM journal WHERE seq > ? ORDER BY seq",
                (last,)):
            try:
                payload = loads_strict(text)
            except ValueError:
                payload = None
            yield (int(seq), str(kind), payload if isinstance(payload, dict) else None,
                   str(row_hash))

    def _lost(self, why: str) -> None:
        self._set_link(Link.RECONNECTING if self.table_id else Link.WAITING, why)

    def _set_link(self, link: Link, why: str = "") -> None:
        self.link, self.problem = link, why


def _fold(fold: _Fold, kind: str, payload: dict[str, Any], seq: int) -> _Fold:
    """Apply one journal row with the one fold. Rows the rules refuse, or of a kind this
    build does not know, are skipped: the signage shows, it never judges.

    A table opened for another game starts that game's state afresh; the same game's
    opening again is a change of configuration, applied to the table in play (the dealer
    app does the same). Another game's rows with no opening are never folded into this
    game's state: before any table is opened they mean nothing yet; after, the screen
    says the game changed."""
    try:
        op = operation_from_record(kind, payload)
    except UnreadableInput:
        return fold  # a kind this build does not know
    try:
        folded = step(fold.folded, op, seq)
    except OtherGame as exc:
        if not fold.folded.table_id or fold.other_game:
            return fold
        return _Fold(fold.folded, exc.family)
    except FoldError as exc:
        # A card burned face down is never shown (its row's words could quote it), not
        # even in the log (rule 4.7, shuffle and cut; the shoe protocol's BURN).
        why = "" if type(op).face_down else f": {exc.why}"
        log.warning("signage feed: row %d (%s) does not apply%s", seq, kind, why)
        return fold
    return _Fold(folded, None if isinstance(op, TableOpening) else fold.other_game)
