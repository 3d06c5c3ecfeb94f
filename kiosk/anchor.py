"""The table's anchors at the pit: its journal's head (seq and hash), signed with the table's
own Ed25519 key, sent by the sync at least every `ANCHOR_EVERY` seconds and after every
settled round, even while the batch upload is behind (docs/journal.md, "Anchors").

The key is made at enrolment (`tableside pit enroll`): the pit keeps its public half, and
the private half goes to the table in its credential file, after the credential's line, as
PEM (the file is mode 0600 on the data partition). A credential file from before anchors
holds the credential alone: that table's sync sends no anchors (the pit would refuse them
unsigned) until it is enrolled again.
"""

from __future__ import annotations

import base64
import binascii
import ssl
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
    load_pem_private_key,
)

from kiosk.rules.errors import UnreadableInput
from kiosk.store.canonical import canonical_json, is_hash

ANCHOR_EVERY = 10.0
"""Seconds at most between two anchors while the pit answers and the journal grows."""

_PURPOSE = "tableside-journal-anchor"
_PEM_START = "-----BEGIN PRIVATE KEY-----"


class AnchorKeyError(UnreadableInput):
    """The credential file's anchor key cannot be read; the message says why."""


class BadAnchor(UnreadableInput):
    """A request body that is not an anchor (HTTP 400); the message says what is wrong."""


@dataclass(frozen=True, slots=True)
class Anchor:
    """The head of a table's journal (`seq`, `hash`) as it anchors it at the pit, with its own
    row at the newest head it anchored before (`extends_seq`, `extends_hash`: "" when its
    journal no longer has that row), and, when its sync found that its journal no longer
    extends what the pit holds, the first row that differs."""

    table_id: str
    seq: int
    hash: str
    extends_seq: int
    extends_hash: str
    first_differs: int | None = None

    def message(self) -> bytes:
        """The bytes the signature covers: every field, and what they are for (so no other
        signed text of the table's can pass for an anchor)."""
        return canonical_json({"purpose": _PURPOSE, "table_id": self.table_id,
                               "seq": self.seq, "hash": self.hash,
                               "extends": {"seq": self.extends_seq,
                                           "hash": self.extends_hash},
                               "first_differs": self.first_differs}).encode("utf-8")

    def to_json(self, signature: str) -> dict[str, Any]:
        return {"seq": self.seq, "hash": self.hash,
                "extends": {"seq": self.extends_seq, "hash": self.extends_hash},
                "first_differs": self.first_differs, "signature": signature}

    @classmethod
    def from_json(cls, table_id: str, body: object) -> tuple[Anchor, str]:
        """The anchor and its signature from a request body; BadAnchor when it is not one."""
        if not isinstance(body, dict):
            raise BadAnchor("the body must be a JSON object: seq, hash, extends, signature")
        head = parse_head(body)
        if head is None or head[0] < 1:
            raise BadAnchor('"seq" must be a row number from 1 and "hash" 64 lowercase hex '
                            "digits")
        extends = body.get("extends")
        ext_seq = extends.get("seq") if isinstance(extends, dict) else None
        ext_hash = extends.get("hash") if isinstance(extends, dict) else None
        if (not isinstance(ext_seq, int) or isinstance(ext_seq, bool) or ext_seq < 0
                or not (ext_hash == "" or is_hash(ext_hash))):
            raise BadAnchor('"extends" must be {"seq": the newest anchored row, "hash": this '
                            'journal\'s hash of it, or ""}')
        first = body.get("first_differs")
        if first is not None and (not isinstance(first, int) or isinstance(first, bool)
                                  or first < 1):
            raise BadAnchor('"first_differs" must be a row number from 1, or null')
        signature = body.get("signature")
        if not isinstance(signature, str) or not signature:
            raise BadAnchor('"signature" must be the anchor\'s Ed25519 signature, base64')
        assert isinstance(ext_hash, str)
        return cls(table_id, head[0], head[1], ext_seq, ext_hash, first), signature


def sign(key: Ed25519PrivateKey, anchor: Anchor) -> str:
    """The anchor's signature, base64."""
    return base64.b64encode(key.sign(anchor.message())).decode("ascii")


def signed_by(public_hex: str, anchor: Anchor, signature: str) -> bool:
    """True when `signature` is the key `public_hex`'s over this anchor."""
    try:
        public = Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_hex))
        raw = base64.b64decode(signature, validate=True)
        public.verify(raw, anchor.message())
    except (ValueError, InvalidSignature, binascii.Error):
        return False
    return True


def new_key() -> tuple[Ed25519PrivateKey, str]:
    """A new anchor key and its public half as 64 hex digits (what the pit keeps)."""
    key = Ed25519PrivateKey.generate()
    return key, public_hex(key)


def public_hex(key: Ed25519PrivateKey) -> str:
    return key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()


def credential_text(token: str, key: Ed25519PrivateKey) -> str:
    """A credential file's text: the credential's line, then the anchor key as PEM."""
    pem = key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption()).decode("ascii")
    return f"{token}\n{pem}"


def split_credential(text: str) -> tuple[str, Ed25519PrivateKey | None]:
    """(the bearer credential, the anchor key or None) from a credential file's text."""
    token, _, rest = text.strip().partition("\n")
    rest = rest.strip()
    if not rest:
        return token.strip(), None
    if not rest.startswith(_PEM_START):
        raise AnchorKeyError("the credential file has more than the credential's line, and "
                             "it is not the table's anchor key (PEM): enrol the table again")
    try:
        key = load_pem_private_key(rest.encode("ascii"), password=None)
    except (ValueError, TypeError, UnicodeEncodeError) as exc:
        raise AnchorKeyError(f"the credential file's anchor key does not read ({exc}): "
                             "enrol the table again") from exc
    if not isinstance(key, Ed25519PrivateKey):
        raise AnchorKeyError("the credential file's anchor key is not an Ed25519 key: enrol "
                             "the table again")
    return token.strip(), key


def parse_head(value: object) -> tuple[int, str] | None:
    """(seq, hash) from `{"seq": n, "hash": h}`, or None when it is not one."""
    if not isinstance(value, dict):
        return None
    seq, digest = value.get("seq"), value.get("hash")
    if isinstance(seq, int) and not isinstance(seq, bool) and seq >= 0 and is_hash(digest):
        assert isinstance(digest, str)
        return seq, digest
    return None


# --- reading the pit's anchors (journal verify --pit, replay --pit) --------------------------


@dataclass(frozen=True, slots=True)
class PitReader:
    """How to ask the pit about one table: its address, the table, its credential."""

    url: str
    table_id: str
    credential: str
    verify: ssl.SSLContext | bool = True


def pit_reader(journal: str | Path, pit_url: str | None, config_path: str | None,
               credential_file: str | None) -> PitReader:
    """The pit to ask, from the table's config ([sync] pit, credential_file, ca_file) and/or
    --pit and --credential-file; the table is the config's, else the journal's row 1's."""
    verify: ssl.SSLContext | bool = True
    table_id = ""
    token = ""
    if config_path:
        from kiosk.config import load

        cfg = load(config_path)
        table_id = cfg.table_id
        pit_url = pit_url or cfg.sync.pit
        if not credential_file:
            token = cfg.sync.credential()
        verify = cfg.sync.tls()
    if not pit_url:
        raise AnchorKeyError("no pit to check against: give --pit URL or a --config whose "
                             "[sync] names a pit")
    if credential_file:
        try:
            text = Path(credential_file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise AnchorKeyError(f"{credential_file}: cannot read the table's credential "
                                 f"({exc})") from exc
        token = text
    if not token:
        raise AnchorKeyError("--pit needs the table's credential: --credential-file FILE or "
                             "--config table.toml")
    token, _ = split_credential(token)
    if not table_id:
        table_id = _table_of(journal)
    return PitReader(pit_url.rstrip("/"), table_id, token, verify)


def _table_of(journal: str | Path) -> str:
    from kiosk.store.source import load_entries

    for entry in load_entries(journal)[:1]:
        return entry.table_id
    raise AnchorKeyError(f"{journal}: no rows, so no table to ask the pit about")


def fetch_anchors(reader: PitReader, page: int = 5000) -> dict[int, str]:
    """Every head the pit holds for the table, seq -> hash: the heads it anchored, and the
    newest row it holds. PitError (an UnreadableInput) when the pit cannot be asked."""
    heads: dict[int, str] = {}
    after = 0
    with httpx.Client(timeout=30.0, verify=reader.verify) as http:
        while True:
            data = _get(http, reader, f"/api/v1/tables/{reader.table_id}/anchors",
                        {"after": after, "limit": page})
            found = data.get("anchors")
            if not isinstance(found, list):
                raise PitError(f"the pit at {reader.url} sent no list of anchors")
            for item in found:
                head = parse_head(item)
                if head is None:
                    raise PitError(f"the pit at {reader.url} sent an anchor that does not "
                                   f"read: {item!r}")
                heads[head[0]] = head[1]
            held = parse_head(data.get("head"))
            if held is not None and held[0]:
                heads[held[0]] = held[1]
            if len(found) < page:
                return heads
            after = max(heads)


class PitError(UnreadableInput):
    """The pit could not be asked, or its answer does not read."""


def _get(http: httpx.Client, reader: PitReader, path: str, params: dict[str, Any]
         ) -> dict[str, Any]:
    try:
        response = http.get(reader.url + path, params=params,
                            headers={"Authorization": f"Bearer {reader.credential}"})
    except httpx.HTTPError as exc:
        raise PitError(f"the pit at {reader.url} does not answer ({exc})") from exc
    try:
        data = response.json()
    except ValueError:
        data = None
    if response.status_code != 200 or not isinstance(data, dict):
        why = data.get("error") if isinstance(data, dict) else None
        raise PitError(f"the pit at {reader.url} answered {response.status_code}"
                       f"{': ' + str(why) if why else ''}")
    return data
