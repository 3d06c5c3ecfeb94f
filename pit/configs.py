"""Each table's configuration at the pit: limits, pay tables, house rules and the game, kept
as numbered versions, each signed with the pit's Ed25519 key (kiosk/sync/pit_config.py says
what is signed and how the table checks it).

The pit's private key lives in a file of its own (mode 0600), not in the database: whoever
can write the database still cannot sign a configuration a table will run. The public key is
printed at enrolment and written into the table's `[sync] pit_key`.
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

from kiosk.config import DEVICE_ROLES, ConfigError, TableConfig, parse, with_pit
from kiosk.sync.pit_config import SignedConfig, public_key_hex
from pit.store import PitStore, UnknownTable

MAX_BODY = 64 * 1024


class SigningKeyError(RuntimeError):
    """The pit's signing key cannot be read or made; the message says why."""


def key_path_for(db_url: str) -> Path:
    """The signing key's default place: TABLESIDE_PIT_KEY when set, else beside an SQLite
    pit (pit.db -> pit.key), else pit.key in the working folder."""
    from pit.db import dialect_of

    named = os.environ.get("TABLESIDE_PIT_KEY")
    if named:
        return Path(named)
    if dialect_of(db_url) == "sqlite":
        return Path(db_url.removeprefix("sqlite:///")).with_suffix(".key")
    return Path("pit.key")


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
    """The body read over a table with every default, as the table will read it over its own
    file (`kiosk.config.with_pit`); `BadConfig` with the reason."""
    if len(body.encode("utf-8")) > MAX_BODY:
        raise BadConfig(f"the configuration is over {MAX_BODY // 1024} KiB")
    # Every device where a table's own file says it is: the body is what is checked here.
    devices = "".join(f'[devices.{role}]\nport = "simulated"\n' for role in DEVICE_ROLES)
    skeleton = parse('[table]\nid = "T"\n' + devices)
    try:
        return with_pit(skeleton, body, "the configuration")
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
