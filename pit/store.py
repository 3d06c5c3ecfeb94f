"""The pit's records: enrolled tables, their journal rows, quarantine and alerts.

Every write of one batch is one transaction that locks the table's head first, so a batch
sent twice at once, or by two connections, is stored exactly once.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from kiosk.anchor import Anchor, credential_text, new_key, signed_by
from kiosk.store.canonical import format_wall_time, loads_strict
from pit.alerts import ANCHOR_BROKEN, CHAIN_BREAK, NEW_CARD, alert_for
from pit.db import Database, Transaction
from pit.ingest import Checked, WireRow, check_batch
from pit.schema import GENESIS

TABLE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
"""What a table id may be (the config's own rule): it names files and URLs."""


def now_text() -> str:
    return format_wall_time(datetime.now(UTC))


def credential_hash(token: str) -> str:
    """The stored form of a table's credential. The credential is 256 random bits, so a
    plain SHA-256 cannot be guessed back (passwords, which people choose, use scrypt)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class UnknownTable(LookupError):
    """No table of that id is enrolled at this pit."""


class EnrolmentError(ValueError):
    """A table id that cannot be enrolled; the message says why."""


class NewCardRefused(ValueError):
    """A new card the pit will not start yet (open alerts on the table); the message says
    what to do first."""


@dataclass(frozen=True, slots=True)
class NewCard:
    """A table's new card, as `PitStore.new_card` made it: the new credential file's text,
    the name its old journal is kept under, that journal's last row and newest anchor at the
    pit, and the alert that records it."""

    credential: str
    closed_as: str
    head: tuple[int, str]
    anchor: tuple[int, str]
    alert: int

    @property
    def last_known(self) -> tuple[int, str]:
        """The newest of the two: what the old card's journal must still hold, unchanged."""
        return _newest(self.head, self.anchor)


class AnchorRefused(ValueError):
    """An anchor not signed by the table's key, or a table with no key (HTTP 403)."""


class CredentialReplaced(PermissionError):
    """The table's credential or anchor key was replaced (enrolled again, or a new card)
    after the request was let in and before it was written: nothing of it is kept (401)."""


@dataclass(frozen=True, slots=True)
class AnchorResult:
    """What the pit did with a table's anchor: its newest anchored head after it, and, when
    the table's journal no longer extends what the pit holds, why (a STOP alert raised)."""

    anchor: tuple[int, str]
    broken: str = ""
    stale: bool = False  # the table named an older anchor than the newest: ask again
    alerts: list[int] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class IngestResult:
    """What the pit did with one batch: the head after it, rows stored and resent, the chain
    break found (if any) and the seq to resume from after a gap."""

    head: tuple[int, str]
    stored: int
    duplicates: int
    quarantined: int = 0
    break_reason: str = ""
    expected_seq: int | None = None
    alerts: list[int] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"head": {"seq": self.head[0], "hash": self.head[1]},
                               "stored": self.stored, "duplicates": self.duplicates}
        if self.quarantined:
            out["quarantined"] = self.quarantined
            out["reason"] = self.break_reason
        if self.expected_seq is not None:
            out["expected_seq"] = self.expected_seq
        return out


@dataclass(frozen=True, slots=True)
class FloorRow:
    """One table on the floor: its summary (pit/floor.py), last sync, rows waiting, and
    its open alerts."""

    table_id: str
    summary: dict[str, Any]
    last_sync_at: str | None
    rows_waiting: int
    open_alerts: int


@dataclass(frozen=True, slots=True)
class Alert:
    id: int
    table_id: str
    seq: int | None
    kind: str
    message: str
    raised_at: str
    acked_by: str | None
    acked_at: str | None


class PitStore:
    """The pit's data on one Database (SQLite or PostgreSQL)."""

    def __init__(self, db: Database, clock: Callable[[], str] = now_text) -> None:
        self.db = db
        self.clock = clock
        db.migrate()

    # --- enrolment ---------------------------------------------------------------------------

    def enroll(self, table_id: str, anchor_key: str | None = None) -> str:
        """Enrol a table (or issue it a new credential, revoking the old) and return the
        credential, which only the table keeps: the pit stores its hash. `anchor_key` is the
        public half (hex) of the table's new anchor key; without one the table's anchors are
        refused (kiosk/anchor.py)."""
        if not TABLE_ID.fullmatch(table_id):
            raise EnrolmentError(f"{table_id!r} is not a table id: letters, digits, '.', '_' "
                                 "and '-', up to 64, starting with a letter or digit")
        token = secrets.token_urlsafe(32)
        digest = credential_hash(token)
        with self.db.transaction() as tx:
            _refuse_closed(tx, table_id)
            if tx.lock_table(table_id) is None:
                tx.execute("INSERT INTO pit_tables (table_id, credential_hash, enrolled_at, "
                           "anchor_key) VALUES (?, ?, ?, ?)",
                           (table_id, digest, self.clock(), anchor_key))
            else:
                tx.execute("UPDATE pit_tables SET credential_hash = ?, anchor_key = ? "
                           "WHERE table_id = ?", (digest, anchor_key, table_id))
        return token

    def enroll_with_key(self, table_id: str) -> str:
        """Enrol a table with a new anchor key as well: the credential file's text for it
        (the credential's line, then the anchor key's private half as PEM). The pit keeps
        only the key's public half and the credential's hash."""
        key, public = new_key()
        return credential_text(self.enroll(table_id, public), key)

    def new_card(self, table_id: str, by: str) -> NewCard:
        """Start an enrolled table again on a new card, its old card dead or lost: the
        journal the pit holds of it is closed and kept under a name of its own,
        `<table>.card<n>`, with its rows, anchors, quarantined rows and alerts, off the
        floor and taking nothing more. The table keeps its id and its configurations, and
        starts again from row 1 with a new credential and anchor key (the old ones stop
        working at once). An alert on the table records who (`by`) and what the old card's
        journal ended with at the pit.

        Refused while the table has open alerts: a closed journal's alerts are not on the
        floor, so an inspector acknowledges them first (a new card that synced before this
        raised a STOP alert; that one too)."""
        if not by.strip():
            raise NewCardRefused("say who starts the new card (--by NAME): it goes on record")
        key, public = new_key()
        token = secrets.token_urlsafe(32)
        now = self.clock()
        with self.db.transaction() as tx:
            _refuse_closed(tx, table_id)
            locked = tx.lock_table(table_id)
            if locked is None:
                raise UnknownTable(table_id)
            head = (int(locked[1]), str(locked[2]))
            anchor = self._newest_anchor(tx, table_id)
            found = tx.one("SELECT count(*) FROM pit_alerts WHERE table_id = ? AND "
                           "acked_at IS NULL", (table_id,))
            open_alerts = int(found[0]) if found else 0
            if open_alerts:
                raise NewCardRefused(
                    f"table {table_id} has {open_alerts} open alert(s): an inspector "
                    "acknowledges them on the dashboard first (the old journal's alerts "
                    "leave the floor with it)")
            closed = _closed_name(tx, table_id)
            tx.execute("INSERT INTO pit_tables (table_id, credential_hash, enrolled_at, "
                       "head_seq, head_hash, last_sync_at, rows_waiting, summary, anchor_key, "
                       "closed_at, closed_from) SELECT ?, '', enrolled_at, head_seq, "
                       "head_hash, last_sync_at, rows_waiting, summary, anchor_key, ?, "
                       "table_id FROM pit_tables WHERE table_id = ?",
                       (closed, now, table_id))
            for kept in ("pit_rows", "pit_anchors", "pit_quarantine", "pit_alerts"):
                tx.execute(f"UPDATE {kept} SET table_id = ? WHERE table_id = ?",
                           (closed, table_id))
            tx.execute("UPDATE pit_tables SET credential_hash = ?, anchor_key = ?, "
                       "head_seq = 0, head_hash = ?, last_sync_at = NULL, rows_waiting = 0, "
                       "summary = '{}' WHERE table_id = ?",
                       (credential_hash(token), public, GENESIS, table_id))
            made = tx.one("INSERT INTO pit_alerts (table_id, seq, kind, message, raised_at) "
                          "VALUES (?, NULL, ?, ?, ?) RETURNING id",
                          (table_id, NEW_CARD, _new_card_message(by, closed, head, anchor),
                           now))
            assert made is not None
        return NewCard(credential_text(token, key), closed, head, anchor, int(made[0]))

    def closed_journals(self, table_id: str) -> list[tuple[str, str]]:
        """The table's closed journals (its old cards'), oldest first: (name, closed at)."""
        return [(str(r[0]), str(r[1])) for r in self.db.query(
            "SELECT table_id, closed_at FROM pit_tables WHERE closed_from = ? "
            "ORDER BY closed_at, table_id", (table_id,))]

    def journals(self, table_id: str) -> list[str]:
        """Where the table's rows are kept, newest journal first: its own, then its old cards'
        closed journals (`new_card`). What the table did, cash and chips, is added up over
        them all; a closed journal alone is just itself."""
        return [table_id, *reversed([name for name, _ in self.closed_journals(table_id)])]

    def closed_from(self, table_id: str) -> tuple[str, str] | None:
        """For a closed journal (an old card's): the table it came from and when it was
        closed; None for a table's own."""
        row = self.db.one("SELECT closed_from, closed_at FROM pit_tables WHERE table_id = ? "
                          "AND closed_at IS NOT NULL", (table_id,))
        return None if row is None else (str(row[0]), str(row[1]))

    def hashed_id(self, table_id: str) -> str:
        """The table id the rows kept under `table_id` were hashed with: the table's own, or
        for a closed journal the table it came from."""
        closed = self.closed_from(table_id)
        return table_id if closed is None else closed[0]

    def card(self, table_id: str) -> int:
        """Which card the table's journal at the pit is on: 1, then one more for each new
        card (`new_card`). What the pit keeps in memory of a table's rows is kept for one
        card: a journal that started again at row 1 is read again from its start."""
        row = self.db.one("SELECT count(*) FROM pit_tables WHERE closed_from = ?", (table_id,))
        return 1 + (int(row[0]) if row else 0)

    def authenticate(self, table_id: str, token: str) -> bool:
        row = self.db.one("SELECT credential_hash FROM pit_tables WHERE table_id = ?",
                          (table_id,))
        return row is not None and hmac.compare_digest(str(row[0]), credential_hash(token))

    def head(self, table_id: str) -> tuple[int, str]:
        row = self.db.one("SELECT head_seq, head_hash FROM pit_tables WHERE table_id = ?",
                          (table_id,))
        if row is None:
            raise UnknownTable(table_id)
        return int(row[0]), str(row[1])

    # --- ingest ------------------------------------------------------------------------------

    def ingest(self, table_id: str, rows: list[WireRow], waiting: int = 0,
               credential: str | None = None) -> IngestResult:
        """Store a batch (checked by pit/ingest.py) in one transaction; see its docstring.
        `credential`, the one the request was let in with, is checked again under the lock:
        CredentialReplaced when it was replaced meanwhile (a new card's journal never takes
        a batch its old card sent)."""
        now = self.clock()
        with self.db.transaction() as tx:
            locked = tx.lock_table(table_id)
            if locked is None:
                raise UnknownTable(table_id)
            if credential is not None and not hmac.compare_digest(
                    str(locked[3]), credential_hash(credential)):
                raise CredentialReplaced(f"table {table_id}'s credential was replaced while "
                                         "this batch was on its way; nothing of it was kept")
            head = (int(locked[1]), str(locked[2]))
            held = self._held(tx, table_id, rows, head[0])
            checked = check_batch(head, rows, held, self._anchored(tx, table_id, rows))
            self._store(tx, table_id, checked, now)
            alerts = self._alerts(tx, table_id, checked, now)
            new_head = checked.head or head
            left = max(waiting, 0)
            if checked.quarantine or checked.expected_seq is not None:
                # Refused (a chain break, a gap): the table was heard, but it did not sync.
                tx.execute("UPDATE pit_tables SET head_seq = ?, head_hash = ?, rows_waiting = ? "
                           "WHERE table_id = ?", (new_head[0], new_head[1], left, table_id))
            else:  # a batch taken, or a heartbeat (no rows): the table's last sync
                tx.execute("UPDATE pit_tables SET head_seq = ?, head_hash = ?, "
                           "last_sync_at = ?, rows_waiting = ? WHERE table_id = ?",
                           (new_head[0], new_head[1], now, left, table_id))
        return IngestResult(new_head, len(checked.accept), checked.duplicates,
                            len(checked.quarantine), checked.break_reason,
                            checked.expected_seq, alerts)

    @staticmethod
    def _held(tx: Transaction, table_id: str, rows: list[WireRow], head_seq: int
              ) -> dict[int, str]:
        resent = [r.seq for r in rows if r.seq <= head_seq]
        if not resent:
            return {}
        found = tx.query("SELECT seq, hash FROM pit_rows WHERE table_id = ? AND seq >= ? "
                         "AND seq <= ?", (table_id, resent[0], resent[-1]))
        return {int(seq): str(digest) for seq, digest in found}

    @staticmethod
    def _anchored(tx: Transaction, table_id: str, rows: list[WireRow]) -> dict[int, str]:
        if not rows:
            return {}
        found = tx.query("SELECT seq, hash FROM pit_anchors WHERE table_id = ? AND seq >= ? "
                         "AND seq <= ?", (table_id, rows[0].seq, rows[-1].seq))
        return {int(seq): str(digest) for seq, digest in found}

    @staticmethod
    def _store(tx: Transaction, table_id: str, checked: Checked, now: str) -> None:
        tx.many("INSERT INTO pit_rows (table_id, seq, wall_time, kind, payload, prev_hash, "
                "hash, received_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [(table_id, r.seq, r.wall_time, r.kind, r.payload, r.prev_hash, r.hash, now)
                 for r in checked.accept])
        for row, why in checked.quarantine:
            tx.execute("INSERT INTO pit_quarantine (table_id, seq, wall_time, kind, payload, "
                       "prev_hash, hash, reason, received_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                       "ON CONFLICT (table_id, seq, hash) DO NOTHING",
                       (table_id, row.seq, row.wall_time, row.kind, row.payload, row.prev_hash,
                        row.hash, why, now))

    def _alerts(self, tx: Transaction, table_id: str, checked: Checked, now: str) -> list[int]:
        raised: list[tuple[int | None, str, str]] = []
        for row in checked.accept:
            try:
                payload = loads_strict(row.payload)
            except ValueError:  # checked already; a row that hashes is canonical JSON
                continue
            found = alert_for(row.kind, payload if isinstance(payload, dict) else {})
            if found is not None:
                raised.append((row.seq, *found))
        if checked.quarantine:
            first = checked.quarantine[0][0].seq
            kind = ANCHOR_BROKEN if checked.anchor_broken else CHAIN_BREAK
            # One alert per break: a table resending the same rows does not raise it again.
            if tx.one("SELECT id FROM pit_alerts WHERE table_id = ? AND kind = ? AND seq = ? "
                      "AND acked_at IS NULL", (table_id, kind, first)) is None:
                raised.append((first, kind, checked.break_reason))
        ids: list[int] = []
        for seq, kind, message in raised:
            made = tx.one("INSERT INTO pit_alerts (table_id, seq, kind, message, raised_at) "
                          "VALUES (?, ?, ?, ?, ?) RETURNING id",
                          (table_id, seq, kind, message, now))
            assert made is not None
            ids.append(int(made[0]))
        return ids

    # --- anchors -----------------------------------------------------------------------------

    def anchor(self, anchor: Anchor, signature: str) -> AnchorResult:
        """Keep the table's signed head. `anchor.extends_*` is the table's own row at the
        newest head it anchored here (as the pit told it): when that is not the head the pit
        holds, or the pit holds row `seq` with another hash, or the head is behind the newest
        anchor, the table's journal no longer extends what the pit holds: a STOP alert
        (once while open), naming the first row that differs as far as it is known
        (`first_differs`: as the table's sync found it against the pit's rows and anchors)."""
        table_id, seq, digest = anchor.table_id, anchor.seq, anchor.hash
        extends = (anchor.extends_seq, anchor.extends_hash)
        first_differs = anchor.first_differs
        key = self.db.one("SELECT anchor_key FROM pit_tables WHERE table_id = ?", (table_id,))
        if key is None:
            raise UnknownTable(table_id)
        if not key[0]:
            raise AnchorRefused(f"table {table_id} has no anchor key at this pit (enrolled "
                                "before anchors): anchors are refused until it is enrolled "
                                "again (tableside pit enroll)")
        if not signed_by(str(key[0]), anchor, signature):
            raise AnchorRefused(f"the anchor is not signed by table {table_id}'s anchor key")
        now = self.clock()
        with self.db.transaction() as tx:
            locked = tx.lock_table(table_id)
            if locked is None:
                raise UnknownTable(table_id)
            if locked[4] != key[0]:  # the signature was checked against a key since replaced
                raise CredentialReplaced(f"table {table_id}'s anchor key was replaced while "
                                         "this anchor was on its way; it was not kept")
            newest = self._newest_anchor(tx, table_id)
            if extends[0] != newest[0] and seq >= newest[0]:
                return AnchorResult(newest, stale=True)
            broken = self._broken(tx, table_id, seq, digest, extends, newest, first_differs)
            if broken:
                at = first_differs or min(seq, newest[0]) or 1
                ids = []
                # Once per row while open: a sync that retries does not raise it again, and
                # a sync that found the very row that differs adds it.
                if tx.one("SELECT id FROM pit_alerts WHERE table_id = ? AND kind = ? AND "
                          "seq = ? AND acked_at IS NULL", (table_id, ANCHOR_BROKEN, at)) is None:
                    made = tx.one("INSERT INTO pit_alerts (table_id, seq, kind, message, "
                                  "raised_at) VALUES (?, ?, ?, ?, ?) RETURNING id",
                                  (table_id, at, ANCHOR_BROKEN, broken, now))
                    assert made is not None
                    ids.append(int(made[0]))
                return AnchorResult(newest, broken, alerts=ids)
            if seq > newest[0]:
                tx.execute("INSERT INTO pit_anchors (table_id, seq, hash, signature, "
                           "received_at) VALUES (?, ?, ?, ?, ?)",
                           (table_id, seq, digest, signature, now))
                newest = (seq, digest)
        return AnchorResult(newest)

    @staticmethod
    def _newest_anchor(tx: Transaction, table_id: str) -> tuple[int, str]:
        row = tx.one("SELECT seq, hash FROM pit_anchors WHERE table_id = ? ORDER BY seq DESC "
                     "LIMIT 1", (table_id,))
        return (int(row[0]), str(row[1])) if row else (0, GENESIS)

    @staticmethod
    def _broken(tx: Transaction, table_id: str, seq: int, digest: str,
                extends: tuple[int, str], newest: tuple[int, str],
                first_differs: int | None) -> str:
        """Why the anchored head (seq, digest) shows a journal that no longer extends what
        the pit holds, or ""."""
        where = (f"; the first row that differs is row {first_differs}"
                 if first_differs else "")
        if seq < newest[0]:
            return (f"STOP: the table's journal now ends at row {seq}, but it anchored row "
                    f"{newest[0]} here: rows were deleted or the journal replaced{where}")
        if first_differs is not None:
            return (f"STOP: the table's journal no longer extends what the pit holds (its "
                    f"sync found so on reconnecting){where}")
        if extends[1] != newest[1]:
            return (f"STOP: the table's journal no longer extends the head it anchored here: "
                    f"its row {newest[0]} differs from the anchored one{where}")
        row = tx.one("SELECT hash FROM pit_rows WHERE table_id = ? AND seq = ?",
                     (table_id, seq))
        if row is not None and str(row[0]) != digest:
            return (f"STOP: the table's row {seq} differs from the row {seq} the pit holds"
                    f"{where}")
        return ""

    def anchors(self, table_id: str, after_seq: int = 0, limit: int = 5000
                ) -> list[tuple[int, str]]:
        """The heads the table anchored here after `after_seq`, in seq order."""
        return [(int(r[0]), str(r[1])) for r in self.db.query(
            "SELECT seq, hash FROM pit_anchors WHERE table_id = ? AND seq > ? ORDER BY seq "
            "LIMIT ?", (table_id, after_seq, limit))]

    def newest_anchor(self, table_id: str) -> tuple[int, str]:
        """The newest head the table anchored here ((0, 64 zeros) for none)."""
        row = self.db.one("SELECT seq, hash FROM pit_anchors WHERE table_id = ? "
                          "ORDER BY seq DESC LIMIT 1", (table_id,))
        return (int(row[0]), str(row[1])) if row else (0, GENESIS)

    def known_hash(self, table_id: str, seq: int) -> str | None:
        """The hash the pit holds for the table's row `seq` (a row it holds, or a head the
        table anchored), or None."""
        row = self.db.one("SELECT hash FROM pit_rows WHERE table_id = ? AND seq = ?",
                          (table_id, seq))
        if row is None:
            row = self.db.one("SELECT hash FROM pit_anchors WHERE table_id = ? AND seq = ?",
                              (table_id, seq))
        return None if row is None else str(row[0])

    # --- reading -----------------------------------------------------------------------------

    # A row as the table hashed it: a closed journal's rows are kept under its own name
    # (PB-07.card1), but were hashed, as its anchors were signed, with the table's id (PB-07).
    _AS_HASHED = ("r.seq, coalesce(t.closed_from, r.table_id), r.wall_time, r.kind, r.payload, "
                  "r.prev_hash, r.hash")
    _WITH_TABLE = "LEFT JOIN pit_tables t ON t.table_id = r.table_id"

    def rows(self, table_id: str, after_seq: int = 0, limit: int = 1000) -> list[WireRow]:
        """The rows the pit holds of the table (or of a closed journal) after `after_seq`,
        each as the table hashed it."""
        found = self.db.query(
            f"SELECT {self._AS_HASHED} FROM pit_rows r {self._WITH_TABLE} "
            "WHERE r.table_id = ? AND r.seq > ? ORDER BY r.seq LIMIT ?",
            (table_id, after_seq, limit))
        return [WireRow(int(r[0]), *(str(v) for v in r[1:])) for r in found]

    def last_row_of_kind(self, table_id: str, kind: str) -> WireRow | None:
        """The table's newest row of `kind` at the pit."""
        found = self.db.one(
            f"SELECT {self._AS_HASHED} FROM pit_rows r {self._WITH_TABLE} "
            "WHERE r.table_id = ? AND r.kind = ? ORDER BY r.seq DESC LIMIT 1", (table_id, kind))
        return None if found is None else WireRow(int(found[0]), *(str(v) for v in found[1:]))

    def quarantined(self, table_id: str) -> list[tuple[int, str, str]]:
        """(seq, hash, reason) of the table's quarantined rows."""
        return [(int(r[0]), str(r[1]), str(r[2])) for r in self.db.query(
            "SELECT seq, hash, reason FROM pit_quarantine WHERE table_id = ? ORDER BY seq, id",
            (table_id,))]

    def quarantined_rows(self, table_id: str, seq: int) -> list[tuple[WireRow, str, str]]:
        """The rows quarantined at the table's row `seq` (one per different hash sent), each
        with why and when it came, oldest first."""
        return [(WireRow(int(r[0]), *(str(v) for v in r[1:7])), str(r[7]), str(r[8]))
                for r in self.db.query(
                    f"SELECT {self._AS_HASHED}, r.reason, r.received_at FROM pit_quarantine r "
                    f"{self._WITH_TABLE} WHERE r.table_id = ? AND r.seq = ? ORDER BY r.id",
                    (table_id, seq))]

    def alerts(self, *, open_only: bool = True, table_id: str | None = None,
               limit: int = 200) -> list[Alert]:
        where, params = [], []
        if open_only:
            where.append("acked_at IS NULL")
        if table_id:
            where.append("table_id = ?")
            params.append(table_id)
        clause = f" WHERE {' AND '.join(where)}" if where else ""
        found = self.db.query(
            "SELECT id, table_id, seq, kind, message, raised_at, acked_by, acked_at FROM "
            f"pit_alerts{clause} ORDER BY id DESC LIMIT ?", (*params, limit))
        return [Alert(int(r[0]), str(r[1]), None if r[2] is None else int(r[2]), str(r[3]),
                      str(r[4]), str(r[5]), r[6], r[7]) for r in found]

    def raise_once(self, table_id: str, kind: str, message: str) -> int | None:
        """Raise an alert of `kind` for the table unless one is open already (pit processes
        on one database raise it once: the table's row is locked); its id, or None."""
        with self.db.transaction() as tx:
            if tx.lock_table(table_id) is None:
                return None
            if tx.one("SELECT id FROM pit_alerts WHERE table_id = ? AND kind = ? AND "
                      "acked_at IS NULL", (table_id, kind)) is not None:
                return None
            made = tx.one("INSERT INTO pit_alerts (table_id, seq, kind, message, raised_at) "
                          "VALUES (?, NULL, ?, ?, ?) RETURNING id",
                          (table_id, kind, message, self.clock()))
            return None if made is None else int(made[0])

    def acknowledge(self, alert_id: int, by: str) -> bool:
        """Mark an open alert as seen by `by`; False when there is no such open alert."""
        return self.db.execute("UPDATE pit_alerts SET acked_by = ?, acked_at = ? "
                               "WHERE id = ? AND acked_at IS NULL",
                               (by, self.clock(), alert_id)) == 1

    def floor(self) -> list[FloorRow]:
        """Every enrolled table with what the floor shows of it, in one read (not the
        closed journals of old cards)."""
        found = self.db.query(
            "SELECT t.table_id, t.summary, t.last_sync_at, t.rows_waiting, "
            "(SELECT count(*) FROM pit_alerts a WHERE a.table_id = t.table_id "
            "AND a.acked_at IS NULL) FROM pit_tables t WHERE t.closed_at IS NULL "
            "ORDER BY t.table_id")
        return [FloorRow(str(r[0]), _summary(r[1]), None if r[2] is None else str(r[2]),
                         int(r[3]), int(r[4])) for r in found]

    def save_summary(self, table_id: str, summary: dict[str, Any]) -> None:
        self.db.execute("UPDATE pit_tables SET summary = ? WHERE table_id = ?",
                        (json.dumps(summary, sort_keys=True), table_id))


def _refuse_closed(tx: Transaction, table_id: str) -> None:
    row = tx.one("SELECT closed_from FROM pit_tables WHERE table_id = ? AND "
                 "closed_at IS NOT NULL", (table_id,))
    if row is not None:
        raise EnrolmentError(f"{table_id} is the closed journal of an old card of table "
                             f"{row[0]}: it takes no rows, no credential and no new card")


def _closed_name(tx: Transaction, table_id: str) -> str:
    """The first free `<table>.card<n>`: the name the table's old journal is kept under."""
    n = 1
    while True:
        name = f"{table_id}.card{n}"
        if not TABLE_ID.fullmatch(name):
            raise NewCardRefused(f"table id {table_id} is too long to keep its old journal "
                                 f"beside it as {name} (64 characters at most)")
        if tx.one("SELECT 1 FROM pit_tables WHERE table_id = ?", (name,)) is None:
            return name
        n += 1


def _new_card_message(by: str, closed: str, head: tuple[int, str],
                      anchor: tuple[int, str]) -> str:
    """The new card's alert: who, where the old journal is, what it ended with, what is lost."""
    last = _newest(head, anchor)
    words = (f"new card, started by {by.strip()}: the table's journal starts again at row 1. "
             f"The old card's journal is kept at the pit as {closed}, "
             + (f"its rows to row {head[0]}" if head[0] else "with no rows (none had reached "
                                                              "the pit)"))
    if anchor[0] > head[0]:
        words += (f"; the old card anchored row {anchor[0]}, so rows {head[0] + 1} to "
                  f"{anchor[0]} at least never reached the pit")
    if last[0]:
        words += (f". The old card, if it still reads, must hold row {last[0]} unchanged: "
                  f"tableside journal verify FILE --head {last[0]}:{last[1]}")
    return words + "."


def _newest(head: tuple[int, str], anchor: tuple[int, str]) -> tuple[int, str]:
    """The newer of the last row the pit holds and the newest head anchored there."""
    return anchor if anchor[0] > head[0] else head


def _summary(text: object) -> dict[str, Any]:
    value = json.loads(str(text or "{}"))
    return value if isinstance(value, dict) else {}


__all__ = ["GENESIS", "Alert", "AnchorRefused", "AnchorResult", "CredentialReplaced",
           "FloorRow", "IngestResult", "NewCard", "NewCardRefused", "PitStore", "UnknownTable"]
