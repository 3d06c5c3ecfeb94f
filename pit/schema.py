"""The pit's tables, as numbered migrations both SQLite and PostgreSQL run as written.

`{id}` and `{bigint}` are the only words that differ between the two (pit/db.py). A migration
is never edited once released: a change is a new number at the end.
"""

from __future__ import annotations

GENESIS = "0" * 64

MIGRATIONS: list[tuple[int, list[str]]] = [
    (1, [
        # One row per enrolled table: its credential (hashed) and the head of its chain here.
        f"""CREATE TABLE pit_tables (
            table_id TEXT PRIMARY KEY,
            credential_hash TEXT NOT NULL,
            enrolled_at TEXT NOT NULL,
            head_seq {{bigint}} NOT NULL DEFAULT 0,
            head_hash TEXT NOT NULL DEFAULT '{GENESIS}',
            last_sync_at TEXT,
            rows_waiting {{bigint}} NOT NULL DEFAULT 0,
            summary TEXT NOT NULL DEFAULT '{{{{}}}}'
        )""",
        # Every journal row of every table, exactly as the table hashed it.
        """CREATE TABLE pit_rows (
            table_id TEXT NOT NULL,
            seq {bigint} NOT NULL,
            wall_time TEXT NOT NULL,
            kind TEXT NOT NULL,
            payload TEXT NOT NULL,
            prev_hash TEXT NOT NULL,
            hash TEXT NOT NULL,
            received_at TEXT NOT NULL,
            PRIMARY KEY (table_id, seq)
        )""",
        "CREATE INDEX pit_rows_time ON pit_rows (table_id, wall_time)",
        # Rows that do not extend the chain the pit holds: kept, flagged, never merged.
        """CREATE TABLE pit_quarantine (
            id {id},
            table_id TEXT NOT NULL,
            seq {bigint} NOT NULL,
            wall_time TEXT NOT NULL,
            kind TEXT NOT NULL,
            payload TEXT NOT NULL,
            prev_hash TEXT NOT NULL,
            hash TEXT NOT NULL,
            reason TEXT NOT NULL,
            received_at TEXT NOT NULL,
            UNIQUE (table_id, seq, hash)
        )""",
        """CREATE TABLE pit_alerts (
            id {id},
            table_id TEXT NOT NULL,
            seq {bigint},
            kind TEXT NOT NULL,
            message TEXT NOT NULL,
            raised_at TEXT NOT NULL,
            acked_by TEXT,
            acked_at TEXT
        )""",
        "CREATE INDEX pit_alerts_open ON pit_alerts (acked_at, table_id)",
        """CREATE TABLE pit_inspectors (
            name TEXT PRIMARY KEY,
            password_hash TEXT NOT NULL,
            created_at TEXT NOT NULL
        )""",
        """CREATE TABLE pit_sessions (
            token_hash TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            csrf TEXT NOT NULL,
            expires_at TEXT NOT NULL
        )""",
        # The configuration each table runs, versioned and signed (Ed25519).
        """CREATE TABLE pit_configs (
            table_id TEXT NOT NULL,
            version {bigint} NOT NULL,
            body TEXT NOT NULL,
            signature TEXT NOT NULL,
            created_at TEXT NOT NULL,
            created_by TEXT NOT NULL,
            PRIMARY KEY (table_id, version)
        )""",
    ]),
    (2, [
        # The public half of the table's anchor key (Ed25519, hex), made at enrolment; NULL
        # for a table enrolled before anchors: its anchors are refused until it is enrolled
        # again.
        "ALTER TABLE pit_tables ADD COLUMN anchor_key TEXT",
        # The heads each table anchored here (signed with its key): the journal a table
        # shows later must still hold every one of them, unchanged.
        """CREATE TABLE pit_anchors (
            table_id TEXT NOT NULL,
            seq {bigint} NOT NULL,
            hash TEXT NOT NULL,
            signature TEXT NOT NULL,
            received_at TEXT NOT NULL,
            PRIMARY KEY (table_id, seq)
        )""",
    ]),
    (3, [
        # The public half of the pit's signing key (Ed25519, hex), recorded the first time a
        # pit process opened this database with its key (and from which file): a pit process
        # that would sign with any other key refuses to start (pit/configs.py).
        """CREATE TABLE pit_signing_key (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            public_key TEXT NOT NULL,
            key_file TEXT NOT NULL,
            first_used_at TEXT NOT NULL
        )""",
    ]),
    (4, [
        # A table given a new card (pit/store.py, `new_card`): its old journal is kept under
        # a name of its own (PB-07.card1), closed, with the table it came from and when. It
        # is off the floor, takes no rows and no anchors, and its pages stay readable.
        "ALTER TABLE pit_tables ADD COLUMN closed_at TEXT",
        "ALTER TABLE pit_tables ADD COLUMN closed_from TEXT",
        # Which card a table is on (PitStore.card) is asked at every batch the floor folds.
        "CREATE INDEX pit_tables_closed_from ON pit_tables (closed_from)",
    ]),
]
