"""The table's journal: every Operation appended durably to SQLite, hash-chained, append-only.

Each row carries the hash of the row before it, so an edit, a deleted row or a reordered row
anywhere in the file shows when the chain is recomputed (`verify`). Rows are only ever inserted:
this module has no UPDATE or DELETE of journal rows, and triggers in the database refuse them too
(defence in depth; someone with the file can drop triggers, which is why the chain exists).

The database is opened with WAL (the signage process reads while the dealer UI writes) and
synchronous=FULL, so a row is on the SD card before `append` returns and survives a power cut.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from sqlite_utils import Database
from sqlite_utils.db import Table

from kiosk.rules.errors import TablesideError, UnreadableInput
from kiosk.store.canonical import (
    GENESIS_HASH,
    canonical_json,
    chain_hash,
    format_wall_time,
    is_hash,
    is_wall_time,
    loads_strict,
)

SCHEMA_VERSION = 1
"""Stored in PRAGMA user_version, so a later Tableside can tell which layout it opened."""

DEFAULT_BUSY_TIMEOUT_MS = 5000
"""How long a write waits for another process's write lock before giving up."""

_TABLE = "journal"
_COLUMNS = ("seq", "table_id", "wall_time", "kind", "payload", "prev_hash", "hash")
_INSERT = f"INSERT INTO {_TABLE} ({', '.join(_COLUMNS)}) VALUES (?, ?, ?, ?, ?, ?, ?)"
_PAGE = 500  # rows per read in entries(): short reads keep the WAL checkpoint unblocked
_KIND_INDEX = "journal_kind"
_INDEX_SQL = f"CREATE INDEX IF NOT EXISTS {_KIND_INDEX} ON {_TABLE} (kind, seq)"
"""The last row of a kind (the limits' and the lockout's restore, the PIN checks' tally) is
one lookup in this index instead of a read back through the journal. An index is no part of
the hash chain (the rows and their hashes are as they were) and needs no new layout version:
a journal of an earlier Tableside gets it when this one opens it for writing, and an earlier
Tableside opens a journal with it as before (SQLite keeps it up to date on every insert)."""

# The triggers are the database's own guard. The insert trigger also makes the database itself
# refuse a row that does not extend the chain (a gap, a fork), whatever program writes it.
_TRIGGERS = {
    "journal_no_update": f"""
        CREATE TRIGGER IF NOT EXISTS journal_no_update BEFORE UPDATE ON {_TABLE}
        BEGIN SELECT RAISE(ABORT, 'journal rows are append-only: UPDATE refused'); END""",
    "journal_no_delete": f"""
        CREATE TRIGGER IF NOT EXISTS journal_no_delete BEFORE DELETE ON {_TABLE}
        BEGIN SELECT RAISE(ABORT, 'journal rows are append-only: DELETE refused'); END""",
    "journal_extends_chain": f"""
        CREATE TRIGGER IF NOT EXISTS journal_extends_chain BEFORE INSERT ON {_TABLE}
        WHEN NEW.seq IS NOT coalesce((SELECT max(seq) FROM {_TABLE}), 0) + 1
          OR NEW.prev_hash IS NOT coalesce(
               (SELECT hash FROM {_TABLE} ORDER BY seq DESC LIMIT 1), '{GENESIS_HASH}')
        BEGIN SELECT RAISE(ABORT, 'journal rows must extend the chain: next seq, last hash');
        END""",
}


class JournalError(TablesideError):
    """The journal cannot be used as asked (wrong table, closed, not a journal file)."""


class WriteFailure(StrEnum):
    """Why an append failed, for the UI's icon and the technician's log."""

    DISK_FULL = "disk_full"
    READ_ONLY = "read_only"
    LOCKED = "locked"
    IO_ERROR = "io_error"
    DAMAGED = "damaged"
    CANNOT_OPEN = "cannot_open"
    REFUSED = "refused"
    OTHER = "other"


class JournalWriteError(JournalError):
    """An append did not happen; nothing of it was written and the chain is as before."""

    def __init__(self, message: str, failure: WriteFailure) -> None:
        self.failure = failure
        super().__init__(message)


@dataclass(frozen=True, slots=True)
class Entry:
    """One journal row. `payload` is a fresh dict (tuples come back as lists)."""

    seq: int
    table_id: str
    wall_time: str
    kind: str
    payload: dict[str, Any] = field(hash=False)
    prev_hash: str
    hash: str


@dataclass(frozen=True, slots=True)
class VerifyReport:
    """The outcome of recomputing a chain from row 1.

    `rows` counts the rows found good from row 1 (all of them when `ok`); `head_hash` is the hash
    of the last good row (64 zeros when there is none); `first_bad_seq` is the seq of the first
    row that is wrong or missing.
    """

    ok: bool
    rows: int
    first_bad_seq: int | None
    reason: str
    head_hash: str


def _utc_now() -> datetime:
    return datetime.now(UTC)


class Journal:
    """An append-only, hash-chained journal of one table in one SQLite file."""

    def __init__(
        self, db: Database, path: Path, table_id: str, clock: Callable[[], datetime]
    ) -> None:
        """Use `Journal.open`."""
        self._db = db
        self._path = path
        self._table_id = table_id
        self._clock = clock
        self._busy_timeout_ms = DEFAULT_BUSY_TIMEOUT_MS
        # One connection, possibly used from the UI thread and the event loop's thread: a lock
        # keeps one transaction at a time on it.
        self._lock = threading.RLock()
        self._closed = False

    @classmethod
    def open(
        cls,
        path: str | Path,
        table_id: str,
        clock: Callable[[], datetime] | None = None,
        *,
        busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
        read_only: bool = False,
    ) -> Journal:
        """Open the journal at `path` for `table_id`, creating the file and schema if absent.

        `clock` returns an aware datetime (default: now in UTC). `read_only` opens without
        creating anything, as the signage process does; appends then raise JournalWriteError.
        """
        if not isinstance(table_id, str) or not table_id:
            raise JournalError("a journal needs a non-empty table id")
        path = Path(path)
        try:
            db = _connect(path, busy_timeout_ms, read_only=read_only)
        except sqlite3.Error as exc:
            raise _write_error(path, exc, busy_timeout_ms, "open") from exc
        try:
            if not read_only:
                _ensure_schema(db)
            if not Table(db, _TABLE).exists():
                raise JournalError(f"The file {path} holds no journal (no journal table).")
            # Only the table id: a damaged payload must not stop the journal from opening.
            last = db.execute(f"SELECT table_id FROM {_TABLE} ORDER BY seq DESC LIMIT 1").fetchone()
        except sqlite3.Error as exc:
            db.close()
            raise _write_error(path, exc, busy_timeout_ms, "open") from exc
        except BaseException:
            db.close()
            raise
        if last is not None and last[0] != table_id:
            db.close()
            raise JournalError(
                f"The journal {path} belongs to table {last[0]!r}, not {table_id!r}; "
                "re-provisioning a table needs a new journal file (keep the old one for audit)."
            )
        journal = cls(db, path, table_id, clock or _utc_now)
        journal._busy_timeout_ms = busy_timeout_ms
        return journal

    @property
    def path(self) -> Path:
        """The database file."""
        return self._path

    @property
    def table_id(self) -> str:
        """The table every row of this journal belongs to."""
        return self._table_id

    def now(self) -> datetime:
        """The time this journal stamps rows with (aware): the table's clock, so a check of
        the time (the opening hours) and the row it writes agree, and a test can set it."""
        return self._clock()

    def append(self, kind: str, payload: Mapping[str, object]) -> Entry:
        """Append one row in its own durable transaction and return it."""
        return self.append_many([(kind, payload)])[0]

    def append_many(self, items: Iterable[tuple[str, Mapping[str, object]]]) -> list[Entry]:
        """Append rows in one durable transaction: all of them, or (on error) none."""
        # Check every payload before touching the database, so a bad one writes nothing.
        prepared = [_prepare(kind, payload) for kind, payload in items]
        if not prepared:
            return []
        with self._lock:
            self._check_open()
            conn = self._db.conn
            try:
                # IMMEDIATE takes the write lock now, so the head read below is still the head
                # at COMMIT even with a second writer process: the chain cannot fork.
                self._db.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise self._write_error(exc) from exc
            try:
                head = self._db.execute(
                    f"SELECT seq, hash FROM {_TABLE} ORDER BY seq DESC LIMIT 1"
                ).fetchone()
                seq, prev_hash = (int(head[0]), str(head[1])) if head else (0, GENESIS_HASH)
                written: list[tuple[int, str, str, str, str, str]] = []
                for kind, payload_text in prepared:
                    seq += 1
                    wall_time = format_wall_time(self._clock())
                    row_hash = chain_hash(
                        prev_hash, self._table_id, seq, wall_time, kind, payload_text
                    )
                    # A plain INSERT rather than Table.insert(): sqlite-utils wraps its inserts
                    # in `with conn:`, which would commit our transaction half-way.
                    self._db.execute(
                        _INSERT,
                        (seq, self._table_id, wall_time, kind, payload_text, prev_hash, row_hash),
                    )
                    written.append((seq, wall_time, kind, payload_text, prev_hash, row_hash))
                    prev_hash = row_hash
                self._db.execute("COMMIT")
            except BaseException as exc:
                _rollback(conn)
                if isinstance(exc, sqlite3.Error):
                    raise self._write_error(exc) from exc
                raise
        return [
            Entry(seq, self._table_id, wall, kind, _parse_payload(text, seq), prev, row_hash)
            for seq, wall, kind, text, prev, row_hash in written
        ]

    def entries(self, after_seq: int = 0) -> Iterator[Entry]:
        """Rows with seq > `after_seq`, in seq order (read page by page)."""
        while True:
            with self._lock:
                self._check_open()
                page = [
                    _entry_from_row(row)
                    for row in self._rows().rows_where(
                        "seq > ?", [after_seq], order_by="seq", limit=_PAGE
                    )
                ]
            yield from page
            if len(page) < _PAGE:
                return
            after_seq = page[-1].seq

    def last(self) -> Entry | None:
        """The newest row, or None for an empty journal."""
        with self._lock:
            self._check_open()
            for row in self._rows().rows_where(order_by="seq DESC", limit=1):
                return _entry_from_row(row)
        return None

    def last_of_kind(self, kind: str, after_seq: int = 0) -> Entry | None:
        """The newest row of `kind` after row `after_seq` (read from the end back: cheap when
        such rows are frequent, as snapshots are, or when `after_seq` is near the end)."""
        with self._lock:
            self._check_open()
            for row in self._rows().rows_where("kind = ? AND seq > ?", [kind, after_seq],
                                               order_by="seq DESC", limit=1):
                return _entry_from_row(row)
        return None

    def newest_of_kinds(self, kinds: Sequence[str], after_seq: int = 0) -> Iterator[Entry]:
        """Rows of `kinds` after row `after_seq`, newest first, page by page (the kind
        index finds them however long the journal is; stop reading when done)."""
        marks = ", ".join("?" for _ in kinds)
        before: int | None = None
        while True:
            where = f"kind IN ({marks}) AND seq > ?" + (" AND seq < ?" if before else "")
            args: list[object] = [*kinds, after_seq, *([before] if before else [])]
            with self._lock:
                self._check_open()
                page = [_entry_from_row(row) for row in self._rows().rows_where(
                    where, args, order_by="seq DESC", limit=_PAGE)]
            yield from page
            if len(page) < _PAGE:
                return
            before = page[-1].seq

    def settled_after(self, after_seq: int) -> bool:
        """Whether a round was settled after row `after_seq` (a row of a game's `*_settled`
        kind: coup_settled, round_settled, spin_settled)."""
        with self._lock:
            self._check_open()
            found = self._db.execute(
                f"SELECT 1 FROM {_TABLE} WHERE seq > ? AND kind LIKE '%\\_settled' ESCAPE '\\' "
                "LIMIT 1", [after_seq]).fetchone()
        return found is not None

    def entry(self, seq: int) -> Entry | None:
        """Row `seq`, or None."""
        with self._lock:
            self._check_open()
            for row in self._rows().rows_where("seq = ?", [seq], limit=1):
                return _entry_from_row(row)
        return None

    def count(self) -> int:
        """The head seq: the number of rows on a gap-free chain (`verify` proves it is one)."""
        # max(seq) is one b-tree lookup; count(*) would read the whole table on every call.
        with self._lock:
            self._check_open()
            value = self._db.execute(f"SELECT coalesce(max(seq), 0) FROM {_TABLE}").fetchone()[0]
        return int(value)

    def __len__(self) -> int:
        return self.count()

    def verify(self, expected_head: tuple[int, str] | None = None) -> VerifyReport:
        """Recompute this journal's chain (see `verify`); appends wait meanwhile, so a long
        audit of a big journal belongs on its own connection: `verify(path)`."""
        with self._lock:
            self._check_open()
            return _verify_db(self._db, self._table_id, _anchors(expected_head, None))

    def close(self) -> None:
        """Close the database; calling it again does nothing."""
        with self._lock:
            if not self._closed:
                self._closed = True
                self._db.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _rows(self) -> Table:
        return Table(self._db, _TABLE)

    def _check_open(self) -> None:
        if self._closed:
            raise JournalWriteError(
                f"The journal {self._path} is closed; reopen it to continue.", WriteFailure.OTHER
            )

    def _write_error(self, exc: sqlite3.Error) -> JournalWriteError:
        return _write_error(self._path, exc, self._busy_timeout_ms, "write")


def _connect(path: Path, busy_timeout_ms: int, *, read_only: bool) -> Database:
    if not read_only:
        _private(path)
        return _configure(path, str(path), busy_timeout_ms, read_only=False)
    # mode=ro never creates the file nor changes it; a missing file is an error here.
    uri = path.resolve().as_uri() + "?mode=ro"
    try:
        return _configure(path, uri, busy_timeout_ms, read_only=True)
    except sqlite3.OperationalError as exc:
        wal = path.with_name(path.name + "-wal")
        if exc.sqlite_errorcode != sqlite3.SQLITE_CANTOPEN:
            raise
        if wal.exists() and wal.stat().st_size:
            raise
    # A WAL database on read-only media (a write-protected SD card in the auditor's reader)
    # cannot get its -shm file. With no -wal left over, the main file holds every committed
    # row, so reading it as immutable is exact.
    return _configure(path, uri + "&immutable=1", busy_timeout_ms, read_only=True)


def _private(path: Path) -> None:
    """The journal is for the kiosk's user alone (mode 0600): created so, and an older one
    made so. SQLite gives its -wal and -shm files the database file's mode."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        with contextlib.suppress(OSError):  # not ours to change (a copy being read): leave it
            if path.stat().st_mode & 0o077:
                path.chmod(0o600)
        return
    except OSError:
        return  # no such folder, a read-only disk: sqlite3 says why, as before
    os.close(fd)


def _configure(path: Path, target: str, busy_timeout_ms: int, *, read_only: bool) -> Database:
    # isolation_level=None: we issue BEGIN IMMEDIATE / COMMIT ourselves.
    conn = sqlite3.connect(
        target,
        uri=read_only,
        timeout=busy_timeout_ms / 1000,
        isolation_level=None,
        check_same_thread=False,
    )
    try:
        db = Database(conn, execute_plugins=False)
        db.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
        if not read_only:
            # WAL lets the signage process read while we write; the mode is kept in the file.
            db.execute("PRAGMA journal_mode=WAL")
        # FULL: in WAL mode this syncs the log on every commit, so a committed row survives a
        # power cut, not only a crash of the program.
        db.execute("PRAGMA synchronous=FULL")
    except BaseException:
        conn.close()
        raise
    return db


def _ensure_schema(db: Database) -> None:
    table = Table(db, _TABLE)
    missing_triggers = set(_TRIGGERS) - {trigger.name for trigger in db.triggers}
    if table.exists() and not missing_triggers:
        if _KIND_INDEX not in {index.name for index in table.indexes}:
            # A journal of an earlier version: the index added. Only a speed-up, so a disk
            # too full (or a file too locked) to build it now leaves the journal as it was,
            # read as before, and the next opening tries again.
            with contextlib.suppress(sqlite3.OperationalError):
                db.execute(_INDEX_SQL)
        return  # nothing to write, so a read-only file with a full schema still opens
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    if version > SCHEMA_VERSION:
        raise JournalError(
            f"This journal was written by a newer Tableside (layout {version}); update this one."
        )
    # IF NOT EXISTS everywhere: a second process may be creating the same schema at this moment.
    table.create(
        {
            "seq": int,
            "table_id": str,
            "wall_time": str,
            "kind": str,
            "payload": str,
            "prev_hash": str,
            "hash": str,
        },
        pk="seq",
        not_null=set(_COLUMNS),
        column_order=list(_COLUMNS),
        if_not_exists=True,
        strict=db.supports_strict,
    )
    for sql in _TRIGGERS.values():
        db.execute(sql)
    db.execute(_INDEX_SQL)
    if version == 0:
        db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")


def _rollback(conn: sqlite3.Connection) -> None:
    # SQLite may already have rolled back by itself (disk full, I/O error); then there is none.
    if conn.in_transaction:
        # If even this fails the connection is broken; SQLite discards the unfinished
        # transaction on the next open, so nothing half-written is ever read.
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")


def _prepare(kind: str, payload: Mapping[str, object]) -> tuple[str, str]:
    if not isinstance(kind, str) or not kind:
        raise TypeError(f"an Operation kind must be a non-empty string, not {kind!r}")
    if not isinstance(payload, Mapping):
        raise TypeError(f"a {kind} payload must be a mapping, not {type(payload).__name__}")
    return kind, canonical_json(payload)


_EXPLANATIONS: dict[int, tuple[WriteFailure, str]] = {
    sqlite3.SQLITE_FULL: (
        WriteFailure.DISK_FULL,
        "the SD card (or the database's size limit) is full. Free space on the card, "
        "e.g. old exports or logs, then retry.",
    ),
    sqlite3.SQLITE_READONLY: (
        WriteFailure.READ_ONLY,
        "the database is read-only (a write-protected or failing SD card, file permissions, "
        "or the journal was opened for reading only).",
    ),
    sqlite3.SQLITE_BUSY: (
        WriteFailure.LOCKED,
        "another program kept the database locked for longer than {timeout} s. Check that only "
        "one dealer program runs on this table; restart Tableside if it persists.",
    ),
    sqlite3.SQLITE_LOCKED: (
        WriteFailure.LOCKED,
        "the database is locked by another connection in this program. Restart Tableside.",
    ),
    sqlite3.SQLITE_IOERR: (
        WriteFailure.IO_ERROR,
        "the SD card reported a read or write error; the card may be failing. "
        "Replace the card and keep the old one for its journal.",
    ),
    sqlite3.SQLITE_CORRUPT: (
        WriteFailure.DAMAGED,
        "the database file is damaged. Do not delete it: copy it for the auditor and call support.",
    ),
    sqlite3.SQLITE_NOTADB: (
        WriteFailure.DAMAGED,
        "the file is not a SQLite database. Do not delete it: check the configured journal path.",
    ),
    sqlite3.SQLITE_CANTOPEN: (
        WriteFailure.CANNOT_OPEN,
        "the database file cannot be opened (missing folder, permissions, or no such file).",
    ),
    sqlite3.SQLITE_PERM: (
        WriteFailure.READ_ONLY,
        "the operating system refused access to the database file (permissions).",
    ),
    sqlite3.SQLITE_CONSTRAINT: (
        WriteFailure.REFUSED,
        "the database refused the row (it must extend the chain). Run the journal check.",
    ),
}


def _write_error(
    path: Path, exc: sqlite3.Error, busy_timeout_ms: int, action: str
) -> JournalWriteError:
    code = getattr(exc, "sqlite_errorcode", None)
    name = getattr(exc, "sqlite_errorname", type(exc).__name__)
    # Extended codes carry the primary code in their low byte (SQLITE_IOERR_WRITE -> SQLITE_IOERR).
    failure, explanation = _EXPLANATIONS.get(
        (code or 0) & 0xFF, (WriteFailure.OTHER, "SQLite reported an unexpected error.")
    )
    if failure in (WriteFailure.CANNOT_OPEN, WriteFailure.IO_ERROR) and _on_read_only_fs(path):
        # Linux remounts a failing card read-only; SQLite then only sees "cannot open".
        failure = WriteFailure.READ_ONLY
        explanation = (
            "the SD card's filesystem is mounted read-only (write-protected, or remounted "
            "read-only by the system after card errors). Replace the card; keep the old one."
        )
    explanation = explanation.format(timeout=busy_timeout_ms / 1000)
    nothing = " Nothing of this action was recorded." if action == "write" else ""
    return JournalWriteError(
        f"Cannot {action} the journal {path}: {explanation}{nothing} [{name}: {exc}]", failure
    )


def _on_read_only_fs(path: Path) -> bool:
    try:
        return bool(os.statvfs(path.parent).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def _parse_payload(text: str, seq: object) -> dict[str, Any]:
    try:
        value = loads_strict(text)
    except ValueError as exc:
        raise UnreadableInput(f"journal row {seq}: payload is not valid JSON ({exc})") from exc
    if not isinstance(value, dict):
        raise UnreadableInput(f"journal row {seq}: payload is not a JSON object")
    return value


def _entry_from_row(row: Mapping[str, Any]) -> Entry:
    return Entry(
        seq=row["seq"],
        table_id=row["table_id"],
        wall_time=row["wall_time"],
        kind=row["kind"],
        payload=_parse_payload(row["payload"], row["seq"]),
        prev_hash=row["prev_hash"],
        hash=row["hash"],
    )


def iter_entries(path: str | Path, after_seq: int = 0) -> Iterator[Entry]:
    """Rows of the journal file at `path`, read-only, in seq order (for exports and audits)."""
    db = _open_for_reading(Path(path))
    try:
        for row in Table(db, _TABLE).rows_where("seq > ?", [after_seq], order_by="seq"):
            yield _entry_from_row(row)
    finally:
        db.close()


def head_of(path: str | Path) -> tuple[int, str]:
    """The last row's (seq, hash) of the journal file at `path`, read-only; (0, 64 zeros) for
    an empty journal."""
    db = _open_for_reading(Path(path))
    try:
        row = db.execute(f"SELECT seq, hash FROM {_TABLE} ORDER BY seq DESC LIMIT 1").fetchone()
    except sqlite3.Error as exc:
        raise _write_error(Path(path), exc, DEFAULT_BUSY_TIMEOUT_MS, "read") from exc
    finally:
        db.close()
    return (int(row[0]), str(row[1])) if row else (0, GENESIS_HASH)


def _open_for_reading(path: Path) -> Database:
    if not path.exists():
        raise JournalError(f"There is no journal file at {path}.")
    try:
        return _connect(path, DEFAULT_BUSY_TIMEOUT_MS, read_only=True)
    except sqlite3.Error as exc:
        raise _write_error(path, exc, DEFAULT_BUSY_TIMEOUT_MS, "read") from exc


# --- verification ---------------------------------------------------------------------------

# A row as read for checking: (seq, table_id, wall_time, kind, payload, prev_hash, hash). The
# payload is the stored text (from the database) or a dict (from an Entry, e.g. an export).
_RawRow = tuple[object, object, object, object, object, object, object]


def verify(
    path: str | Path,
    *,
    table_id: str | None = None,
    expected_head: tuple[int, str] | None = None,
    anchors: Mapping[int, str] | None = None,
) -> VerifyReport:
    """Recompute the chain of the journal file at `path` from row 1 and name the first bad row.

    Catches an edited row (hash mismatch), a broken link (prev_hash is not the previous row's
    hash), a missing or reordered row (seq gap), a row of another table and an unreadable payload.
    Deleting the newest rows leaves a valid shorter chain: that truncation shows only against an
    external anchor, the head the pit server acknowledged, given as `expected_head` (seq, hash).
    `anchors` (seq -> hash) are more such heads: the ones the table anchored at the pit; each
    must be a row of the file, unchanged. `table_id` defaults to row 1's.
    """
    db = _open_for_reading(Path(path))
    try:
        return _verify_db(db, table_id, _anchors(expected_head, anchors))
    except sqlite3.Error as exc:
        raise _write_error(Path(path), exc, DEFAULT_BUSY_TIMEOUT_MS, "read") from exc
    finally:
        db.close()


def verify_entries(
    entries: Iterable[Entry],
    *,
    table_id: str | None = None,
    expected_head: tuple[int, str] | None = None,
    start: tuple[int, str] = (0, GENESIS_HASH),
    anchors: Mapping[int, str] | None = None,
) -> VerifyReport:
    """Recompute the chain over entries (e.g. read back from an export); as `verify`.
    `start` is the (seq, hash) the entries follow: a chain checked in pieces."""
    rows: Iterator[_RawRow] = (
        (e.seq, e.table_id, e.wall_time, e.kind, e.payload, e.prev_hash, e.hash) for e in entries
    )
    return _verify_rows(rows, table_id, _anchors(expected_head, anchors), start)


def _anchors(expected_head: tuple[int, str] | None, anchors: Mapping[int, str] | None
             ) -> dict[int, str]:
    """Every outside head to check the file against, seq -> hash."""
    out = dict(anchors or {})
    if expected_head is not None:
        out[expected_head[0]] = expected_head[1]
    return out


def _verify_db(
    db: Database, table_id: str | None, anchors: Mapping[int, str]
) -> VerifyReport:
    if not Table(db, _TABLE).exists():
        return VerifyReport(False, 0, None, "the file has no journal table", GENESIS_HASH)
    # One SELECT is one read snapshot, so rows appended meanwhile by the writer do not tear it.
    cursor = db.execute(f"SELECT {', '.join(_COLUMNS)} FROM {_TABLE} ORDER BY seq")
    return _verify_rows(cursor, table_id, anchors)


def _bad(rows: int, seq: int, reason: str, head_hash: str) -> VerifyReport:
    return VerifyReport(False, rows, seq, reason, head_hash)


def _verify_rows(
    rows: Iterable[_RawRow],
    table_id: str | None,
    anchors: Mapping[int, str],
    start: tuple[int, str] = (0, GENESIS_HASH),
) -> VerifyReport:
    good, head_hash = start
    for seq, row_table, wall_time, kind, payload, prev_hash, row_hash in rows:
        expected_seq = good + 1
        if not isinstance(seq, int) or isinstance(seq, bool) or seq != expected_seq:
            if isinstance(seq, int) and seq > expected_seq:
                span = f"{expected_seq}" if seq == expected_seq + 1 else f"{expected_seq}–{seq - 1}"
                why = f"row {span} missing: row {seq} follows row {good}"
            else:
                why = f"row {seq!r} is out of order or repeated where row {expected_seq} belongs"
            return _bad(good, expected_seq, why, head_hash)
        if table_id is None and isinstance(row_table, str):
            table_id = row_table
        if row_table != table_id:
            why = f"row {seq} belongs to table {row_table!r}, not {table_id!r}"
            return _bad(good, seq, why, head_hash)
        if not isinstance(kind, str) or not kind:
            return _bad(good, seq, f"row {seq} has no kind", head_hash)
        if not is_wall_time(wall_time):
            why = f"row {seq} has wall_time {wall_time!r}, not UTC ISO 8601 with ms and Z"
            return _bad(good, seq, why, head_hash)
        if not is_hash(prev_hash) or not is_hash(row_hash):
            return _bad(good, seq, f"row {seq} has a malformed hash field", head_hash)
        payload_text, problem = _payload_text(payload)
        if problem:
            return _bad(good, seq, f"row {seq}: {problem}", head_hash)
        if prev_hash != head_hash:
            why = (
                f"broken link: row {seq}'s prev_hash is not the hash of row {good}"
                if good
                else f"broken link: row {seq}'s prev_hash is not the genesis hash (64 zeros)"
            )
            return _bad(good, seq, why, head_hash)
        assert isinstance(row_table, str) and isinstance(wall_time, str)
        if chain_hash(head_hash, row_table, seq, wall_time, kind, payload_text) != row_hash:
            why = f"row {seq} was edited: its content does not match its hash"
            return _bad(good, seq, why, head_hash)
        good = seq
        head_hash = str(row_hash)
        if seq in anchors and anchors[seq] != head_hash:
            why = f"row {seq} is not the row the pit server acknowledged (hash differs)"
            return _bad(good - 1, seq, why, str(prev_hash))
    if anchors and good < max(anchors):
        why = (
            f"truncated: the pit server acknowledged row {max(anchors)} "
            f"but the journal ends at row {good}"
        )
        return _bad(good, good + 1, why, head_hash)
    return VerifyReport(True, good, None, f"chain intact: {good} rows", head_hash)


def _payload_text(payload: object) -> tuple[str, str | None]:
    """The payload's canonical text for hashing, or a problem with it."""
    if isinstance(payload, str):
        try:
            value = loads_strict(payload)
        except ValueError as exc:
            return "", f"payload is not valid JSON ({exc})"
        if not isinstance(value, dict):
            return "", "payload is not a JSON object"
        # Hash the stored bytes; a non-canonical text means someone rewrote it.
        if canonical_json(value) != payload:
            return "", "payload is not in canonical form (rewritten)"
        return payload, None
    if not isinstance(payload, dict):
        return "", "payload is not a JSON object"
    try:
        return canonical_json(payload), None
    except TypeError as exc:
        return "", f"payload has no canonical JSON form ({exc})"
