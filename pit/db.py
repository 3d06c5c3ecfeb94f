"""The pit's database: one code path for SQLite (one room, no set-up) and PostgreSQL (a casino).

Every statement is written once, with `?` placeholders, in the SQL both databases share; the
PostgreSQL connection gets `%s` in their place. Each thread has its own connection (the server's
worker threads, the sync tests' clients), opened on first use and dropped after an error that
may have broken it, so a restarted PostgreSQL is simply reconnected on the next request.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pit.schema import MIGRATIONS

Row = tuple[Any, ...]


class PitDatabaseError(RuntimeError):
    """The pit's database cannot be reached or refused a statement; the message says which."""


def dialect_of(url: str) -> str:
    return "postgresql" if url.startswith(("postgresql://", "postgres://")) else "sqlite"


class Database:
    """The pit's store at `url`: a file path (or sqlite:///path) or a postgresql:// URL."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.dialect = dialect_of(url)
        self.path = Path(url.removeprefix("sqlite:///")) if self.dialect == "sqlite" else None
        self._local = threading.local()
        self._all: list[Any] = []
        self._all_lock = threading.Lock()

    # --- connections -----------------------------------------------------------------------

    def _connection(self) -> Any:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._open()
            self._local.conn = conn
            with self._all_lock:
                self._all.append(conn)
        return conn

    def _open(self) -> Any:
        if self.dialect == "sqlite":
            assert self.path is not None
            _private(self.path)
            try:
                conn = sqlite3.connect(self.path, isolation_level=None, timeout=30,
                                       check_same_thread=False)
                _wal(conn)
                # FULL: a batch the pit acknowledged is on its disk before the table hears so.
                conn.execute("PRAGMA synchronous=FULL")
            except sqlite3.Error as exc:
                raise PitDatabaseError(f"cannot open the pit database {self.path}: {exc}") from exc
            return conn
        import psycopg

        try:
            return psycopg.connect(self.url, autocommit=True, connect_timeout=10)
        except psycopg.Error as exc:
            raise PitDatabaseError(f"cannot reach PostgreSQL: {exc}") from exc

    def _drop(self) -> None:
        conn = getattr(self._local, "conn", None)
        self._local.conn = None
        if conn is not None:
            with self._all_lock:
                if conn in self._all:
                    self._all.remove(conn)
            with contextlib.suppress(Exception):  # already broken: closing is best effort
                conn.close()

    def close(self) -> None:
        """Close every thread's connection (at shutdown)."""
        with self._all_lock:
            conns, self._all = self._all, []
        for conn in conns:
            with contextlib.suppress(Exception):
                conn.close()
        self._local = threading.local()

    def _sql(self, sql: str) -> str:
        return sql.replace("?", "%s") if self.dialect == "postgresql" else sql

    # --- statements ------------------------------------------------------------------------

    @contextmanager
    def transaction(self) -> Iterator[Transaction]:
        """One transaction that takes the write lock at once (SQLite BEGIN IMMEDIATE; on
        PostgreSQL the rows it locks with `lock_table`): all of it commits, or none."""
        conn = self._connection()
        try:
            conn.execute("BEGIN IMMEDIATE" if self.dialect == "sqlite" else "BEGIN")
        except Exception as exc:
            self._drop()
            raise _error(exc) from exc
        try:
            yield Transaction(self, conn)
            conn.execute("COMMIT")
        except BaseException as exc:
            try:
                conn.execute("ROLLBACK")
            except Exception:
                self._drop()
            if _is_db_error(exc):
                self._drop()
                raise _error(exc) from exc
            raise

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Rows of one read (its own snapshot)."""
        try:
            cur = self._connection().execute(self._sql(sql), tuple(params))
            return [tuple(r) for r in cur.fetchall()]
        except Exception as exc:
            if _is_db_error(exc):
                self._drop()
                raise _error(exc) from exc
            raise

    def one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        rows = self.query(sql, params)
        return rows[0] if rows else None

    def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One statement in its own transaction; the number of rows it changed."""
        with self.transaction() as tx:
            return tx.execute(sql, params)

    def migrate(self) -> int:
        """Bring the schema up to date (idempotent); the version it is at.

        Pits starting at once on one database migrate it one after the other: on
        PostgreSQL each holds an advisory lock (`MIGRATION_LOCK`) until its transaction
        ends, and on SQLite the transaction itself holds the write lock from its start."""
        with self.transaction() as tx:
            if self.dialect == "postgresql":
                tx.execute("SELECT pg_advisory_xact_lock(?)", (MIGRATION_LOCK,))
            tx.execute("CREATE TABLE IF NOT EXISTS pit_schema (version INTEGER PRIMARY KEY)")
            row = tx.one("SELECT max(version) FROM pit_schema")
            current = int(row[0]) if row and row[0] is not None else 0
            for version, statements in MIGRATIONS:
                if version <= current:
                    continue
                for statement in statements:
                    tx.execute(statement.format(**_TYPES[self.dialect]))
                tx.execute("INSERT INTO pit_schema (version) VALUES (?)", (version,))
                current = version
        return current


MIGRATION_LOCK = 0x7461626C65736964  # "tablesid": the pit's advisory lock for migrations

_TYPES = {
    "sqlite": {"id": "INTEGER PRIMARY KEY AUTOINCREMENT", "bigint": "INTEGER"},
    "postgresql": {"id": "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY", "bigint": "BIGINT"},
}


class Transaction:
    """Statements inside `Database.transaction`."""

    def __init__(self, db: Database, conn: Any) -> None:
        self._db, self._conn = db, conn

    def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        cur = self._conn.execute(self._db._sql(sql), tuple(params))
        return int(cur.rowcount or 0)

    def many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if not rows:
            return
        if self._db.dialect == "sqlite":
            self._conn.executemany(sql, rows)
        else:
            with self._conn.cursor() as cur:
                cur.executemany(self._db._sql(sql), rows)

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        cur = self._conn.execute(self._db._sql(sql), tuple(params))
        return [tuple(r) for r in cur.fetchall()]

    def one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        rows = self.query(sql, params)
        return rows[0] if rows else None

    def lock_table(self, table_id: str) -> Row | None:
        """The table's enrolment row, locked until the transaction ends (so two batches of
        one table are checked against its head one after the other): its id, head seq and
        hash, credential hash and anchor key. None for a table not enrolled, and for an old
        card's closed journal, which takes nothing more."""
        suffix = " FOR UPDATE" if self._db.dialect == "postgresql" else ""
        return self.one("SELECT table_id, head_seq, head_hash, credential_hash, anchor_key "
                        "FROM pit_tables WHERE table_id = ? AND closed_at IS NULL" + suffix,
                        (table_id,))


def _private(path: Path) -> None:
    """The pit's database holds the inspectors' password hashes: it is created mode 0600,
    and SQLite gives its -wal and -shm files the database file's mode. A file from an older
    pit, readable by everyone (0644), is made 0600; one an operator gave to a group to read
    (0640) keeps that, but never a group's write."""
    if str(path) in ("", ":memory:"):
        return
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        for file in (path, path.with_name(path.name + "-wal"),
                     path.with_name(path.name + "-shm")):
            with contextlib.suppress(OSError):  # absent, or not ours to change: leave it
                mode = stat.S_IMODE(file.stat().st_mode)
                if mode & 0o007:
                    file.chmod(0o600)
                elif mode & 0o030:
                    file.chmod(mode & 0o640)
        return
    except OSError:
        return  # no such folder, a read-only disk: sqlite3 says why, as before
    os.close(fd)


def _wal(conn: sqlite3.Connection, seconds: float = 30.0) -> None:
    """Put the database in WAL mode. Several processes opening a new file at once all try
    to; SQLite answers "locked" at once to the others rather than waiting (its busy timeout
    does not cover this), so they wait here and try again."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


def _is_db_error(exc: BaseException) -> bool:
    if isinstance(exc, sqlite3.Error):
        return True
    try:
        import psycopg
    except ImportError:  # pragma: no cover - psycopg is a dependency
        return False
    return isinstance(exc, psycopg.Error)


def _error(exc: BaseException) -> PitDatabaseError:
    return PitDatabaseError(f"the pit database refused or dropped the request: {exc}")
