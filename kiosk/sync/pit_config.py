"""Configuration from the pit: a table's limits, pay tables, house rules and game, versioned
and signed by the pit with Ed25519.

The pit signs one document per version: the table it is for, the version number, the TOML body
(`[table]` game, name and currency; `[chips]`; the game's own section), when and by whom it
was made. The table checks the signature against the pit's public key it was given at
enrolment (`[sync] pit_key`), that the document is its own, and that the version is newer
than the one it runs; only then is the body read by the same checks as table.toml.

The signed message is the canonical JSON of those fields after a fixed domain line, so a
signature over anything else the pit signs can never pass for a configuration.
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from kiosk.rules.errors import UnreadableInput
from kiosk.store.canonical import canonical_json
from kiosk.sync.state import write_whole

DOMAIN = b"tableside pit configuration v1\n"
_HEX = re.compile(r"[0-9a-f]+")


class PitConfigError(UnreadableInput):
    """A configuration from the pit that the table will not run; the message says why."""


def offer_path(journal: str | Path) -> Path:
    """Where the sync leaves the newest configuration the pit offers this table:
    data/T1.db -> data/T1.pit-config.json (the kiosk checks it before anything counts)."""
    path = Path(journal)
    return path.with_name(path.stem + ".pit-config.json")


@dataclass(frozen=True, slots=True)
class SignedConfig:
    """One version of a table's configuration as the pit signed it."""

    table_id: str
    version: int
    body: str  # TOML: [table] game/name/currency, [chips], the game's section
    created_at: str
    created_by: str
    signature: str = ""  # hex, 64 bytes

    def message(self) -> bytes:
        """The bytes the signature covers."""
        fields = {"table_id": self.table_id, "version": self.version, "body": self.body,
                  "created_at": self.created_at, "created_by": self.created_by}
        return DOMAIN + canonical_json(fields).encode("utf-8")

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: object) -> SignedConfig:
        """The document from its JSON; `PitConfigError` if it is not one."""
        if not isinstance(data, dict):
            raise PitConfigError("the pit's configuration is not a JSON object")
        try:
            doc = cls(table_id=data["table_id"], version=data["version"], body=data["body"],
                      created_at=data["created_at"], created_by=data["created_by"],
                      signature=data.get("signature") or "")
        except KeyError as exc:
            raise PitConfigError(f"the pit's configuration has no {exc.args[0]}") from None
        for name in ("table_id", "body", "created_at", "created_by", "signature"):
            if not isinstance(getattr(doc, name), str):
                raise PitConfigError(f"the pit's configuration: {name} is not text")
        if isinstance(doc.version, bool) or not isinstance(doc.version, int) or doc.version < 1:
            raise PitConfigError("the pit's configuration: version is not a whole number "
                                 "from 1")
        return doc

    def signed(self, key: Ed25519PrivateKey) -> SignedConfig:
        """This document signed with the pit's private key."""
        return SignedConfig(self.table_id, self.version, self.body, self.created_at,
                            self.created_by, key.sign(self.message()).hex())


def public_key_hex(key: Ed25519PrivateKey) -> str:
    """The public half of the pit's key as `[sync] pit_key` writes it: 64 hex digits."""
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    return key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()


def verify(doc: SignedConfig, pit_key: str, table_id: str) -> None:
    """Raise `PitConfigError` unless `doc` is signed by the pit whose public key is
    `pit_key` and is for this table."""
    if not doc.signature:
        raise PitConfigError(f"version {doc.version} from the pit is not signed")
    if not pit_key:
        raise PitConfigError("this table has no pit_key in [sync] to check the pit's "
                             "signature with (enrol it again: tableside pit enroll)")
    if len(doc.signature) != 128 or not _HEX.fullmatch(doc.signature):
        raise PitConfigError(f"version {doc.version} from the pit has a malformed signature")
    try:
        public = Ed25519PublicKey.from_public_bytes(bytes.fromhex(pit_key))
        public.verify(bytes.fromhex(doc.signature), doc.message())
    except (InvalidSignature, ValueError):
        raise PitConfigError(f"version {doc.version} from the pit is not signed by this "
                             "table's pit: the signature does not match its key") from None
    if doc.table_id != table_id:
        raise PitConfigError(f"version {doc.version} from the pit is table {doc.table_id}'s, "
                             f"not this table's ({table_id})")


def write_offer(journal: str | Path, doc: SignedConfig) -> None:
    """Leave `doc` for the kiosk beside the journal, replacing the file whole."""
    write_whole(offer_path(journal), json.dumps(doc.to_json(), sort_keys=True, indent=1))


def read_offer(journal: str | Path) -> SignedConfig | None:
    """The configuration the sync left for the kiosk; None when there is none. A file that is
    not a document raises `PitConfigError` (it is refused on record, like a bad signature)."""
    try:
        text = offer_path(journal).read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise PitConfigError(f"the pit's configuration cannot be read: {exc}") from None
    try:
        data = json.loads(text)
    except ValueError:
        raise PitConfigError("the pit's configuration file is not JSON") from None
    return SignedConfig.from_json(data)


def table_name(body: str) -> str:
    """The table's name a configuration's body sets (`[table] name`), "" when it sets none:
    the sign shows it over the name in its own file."""
    try:
        table = tomllib.loads(body).get("table", {})
    except tomllib.TOMLDecodeError:
        return ""
    name = table.get("name", "") if isinstance(table, dict) else ""
    return name if isinstance(name, str) else ""
