"""Each table's configuration at the pit: limits, pay tables, house rules and the game, kept
as numbered versions, each signed with the pit's Ed25519 key (kiosk/signed_config.py says
what is signed and how the table checks it).

The pit's private key lives in a file of its own (mode 0600), not in the database: whoever
can write the database still cannot sign a configuration a table will run. The public key is
printed at enrolment and written into the table's `[sync] pit_key`. The database records the
public key it was first used with (`claim_key`): a pit process started with any other key
(another folder's pit.key, a new one) refuses to start, rather than sign versions every
table refuses.
"""

from __future__ import annotations

import os
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    load_pem_private_key,
)

from kiosk.config import ConfigError, TableConfig
from kiosk.signed_config import (
    MAX_PIT_BODY,
    PitConfigError,
    SignedConfig,
    check_body as check_signed_body,
    public_key_hex,
    verify,
)
from pit.store import PitStore, UnknownTable

MAX_BODY = MAX_PIT_BODY


class SigningKeyError(RuntimeError):
    """The pit's signing key cannot be read or made; the message says why."""


def key_path_for(db_url: str) -> Path:
    """The signing key's place when none is named (`--key`, `[pit] key`): TABLESIDE_PIT_KEY
    when set, else beside an SQLite pit (pit.db -> pit.key). A pit on PostgreSQL has no
    such place (its processes may run from any folder, on any host): it must be named, and
    `SigningKeyError` says so."""
    from pit.db import dialect_of

    named = os.environ.get("TABLESIDE_PIT_KEY")
    if named:
        return Path(named)
    if dialect_of(db_url) == "sqlite":
        return Path(db_url.removeprefix("sqlite:///")).with_suffix(".key")
    raise SigningKeyError("a pit on PostgreSQL needs its signing key's place: --key FILE or "
                          "[pit] key in the pit's configuration file (--config), the same "
                          "file for every pit process on this database (docs/pit.md)")


def claim_key(store: PitStore, path: Path) -> Ed25519PrivateKey:
    """The pit's signing key from `path`, checked against the public key this database
    recorded the first time a pit process used it (recorded now when none was: a key is
    made at `path` only then). A key that is not the database's, or a missing file once the
    database has a key, is `SigningKeyError` with the reason: that pit signs nothing."""
    path = path.absolute()
    row = _recorded(store)
    if row is None:
        key = load_or_create_key(path)
        public = public_key_hex(key)
        with store.db.transaction() as tx:
            newest = tx.one("SELECT table_id, version, body, signature, created_at, "
                            "created_by FROM pit_configs ORDER BY created_at DESC, version "
                            "DESC LIMIT 1")
            if newest is not None:  # a database from before the key was recorded
                doc = SignedConfig(str(newest[0]), int(newest[1]), str(newest[2]),
                                   str(newest[4]), str(newest[5]), str(newest[3]))
                try:
                    verify(doc, public, doc.table_id)
                except PitConfigError as exc:
                    raise SigningKeyError(
                        f"the signing key {path} is not this pit's: table {doc.table_id}'s "
                        f"version {doc.version} here was signed with another key; give the "
                        "pit the key it signed with (--key or [pit] key)") from exc
            tx.execute("INSERT INTO pit_signing_key (id, public_key, key_file, "
                       "first_used_at) VALUES (1, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
                       (public, str(path), store.clock()))
        row = _recorded(store)
        if row is not None and row[0] == public:
            return key
    elif not path.exists():
        raise SigningKeyError(
            f"the pit's signing key is not at {path}: this database's key (public key "
            f"{row[0]}) was first used from {row[1]} on {row[2]}; give the pit that file "
            "(--key or [pit] key); no new key is made")
    else:
        key = load_or_create_key(path)
    public = public_key_hex(key)
    assert row is not None
    if row[0] != public:
        raise SigningKeyError(
            f"the signing key {path} (public key {public}) is not this pit's: this "
            f"database's configurations are signed with public key {row[0]}, first used "
            f"from {row[1]} on {row[2]}; give the pit that key's file (--key or [pit] key), "
            "so the tables accept what it signs")
    return key


def _recorded(store: PitStore) -> tuple[str, str, str] | None:
    row = store.db.one("SELECT public_key, key_file, first_used_at FROM pit_signing_key "
                       "WHERE id = 1")
    return None if row is None else (str(row[0]), str(row[1]), str(row[2]))


def load_or_create_key(path: str | Path) -> Ed25519PrivateKey:
    """The pit's private key from `path` (PEM), made there (0600) on first use."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        key = Ed25519PrivateKey.generate()
        pem = key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # made at this moment by another process: use theirs
            return load_or_create_key(path)
        except OSError as exc:
            raise SigningKeyError(f"cannot make the pit's signing key {path}: {exc.strerror}") \
                from exc
        with os.fdopen(fd, "wb") as out:
            out.write(pem)
            out.flush()
            os.fsync(out.fileno())
        return key
    except OSError as exc:
        raise SigningKeyError(f"cannot read the pit's signing key {path}: {exc.strerror}") from exc
    try:
        loaded = load_pem_private_key(data, password=None)
    except ValueError as exc:
        raise SigningKeyError(f"{path} is not the pit's signing key (an Ed25519 PEM "
                              "file)") from exc
    if not isinstance(loaded, Ed25519PrivateKey):
        raise SigningKeyError(f"{path} holds another kind of key; the pit signs with Ed25519")
    return loaded


class BadConfig(ValueError):
    """A configuration the pit will not sign; the message names the line and the reason."""


def check_body(body: str) -> TableConfig:
    """The body read by the same check the table reads it with (`kiosk.signed_config.
    check_body`), over a table with every default; `BadConfig` with the reason."""
    try:
        return check_signed_body(body, name="the configuration")
    except ConfigError as exc:
        raise BadConfig(str(exc)) from exc


class Configs:
    """The versions of each table's configuration at one pit."""

    def __init__(self, store: PitStore, key: Ed25519PrivateKey) -> None:
        self.store = store
        self.key = key
        self.public_key = public_key_hex(key)

    def publish(self, table_id: str, body: str, by: str) -> SignedConfig:
        """Check, number, sign and keep a new version for `table_id`; the table takes it up
        between rounds once its sync fetches it."""
        check_body(body)
        db = self.store.db
        with db.transaction() as tx:
            if tx.lock_table(table_id) is None:
                raise UnknownTable(table_id)
            row = tx.one("SELECT max(version) FROM pit_configs WHERE table_id = ?",
                         (table_id,))
            version = int(row[0]) + 1 if row and row[0] is not None else 1
            doc = SignedConfig(table_id, version, body, self.store.clock(), by).signed(self.key)
            tx.execute("INSERT INTO pit_configs (table_id, version, body, signature, "
                       "created_at, created_by) VALUES (?, ?, ?, ?, ?, ?)",
                       (table_id, version, body, doc.signature, doc.created_at, by))
        return doc

    def latest(self, table_id: str) -> SignedConfig | None:
        found = self.versions(table_id, limit=1)
        return found[0] if found else None

    def versions(self, table_id: str, limit: int = 50) -> list[SignedConfig]:
        """The table's versions, newest first."""
        rows = self.store.db.query(
            "SELECT version, body, signature, created_at, created_by FROM pit_configs "
            "WHERE table_id = ? ORDER BY version DESC LIMIT ?", (table_id, limit))
        return [SignedConfig(table_id, int(r[0]), str(r[1]), str(r[3]), str(r[4]), str(r[2]))
                for r in rows]
