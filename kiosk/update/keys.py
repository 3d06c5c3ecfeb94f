"""The publisher's Ed25519 keys and the keys a table trusts.

kiosk/update/__init__.py says how an update goes.
"""

from __future__ import annotations

import os
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
    load_pem_private_key,
)

from kiosk.rules.errors import TablesideError
from kiosk.update.bundle import HEX_TEXT, KEYS, BundleRefused


def new_key(path: Path) -> str:
    """A new publisher key in `path` (PEM, mode 0600; never on a table); its public half,
    hex, for the tables' /etc/tableside/update-keys."""
    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(pem)
    return public_hex(key)


def load_key(path: Path) -> Ed25519PrivateKey:
    try:
        key = load_pem_private_key(path.read_bytes(), password=None)
    except (OSError, ValueError, TypeError) as exc:
        raise TablesideError(f"{path}: not a publisher key ({exc})") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise TablesideError(f"{path}: not an Ed25519 key")
    return key


def public_hex(key: Ed25519PrivateKey) -> str:
    return key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()


def trusted_keys(path: Path = KEYS) -> list[Ed25519PublicKey]:
    """The publisher keys in `path`: 64 hex digits a line, '#' starts a comment."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise BundleRefused(f"this table trusts no publisher: {path} cannot be read "
                            f"({exc.strerror})") from None
    keys = []
    for n, line in enumerate(lines, 1):
        text = line.split("#", 1)[0].strip().lower()
        if not text:
            continue
        if len(text) != 64 or not HEX_TEXT.fullmatch(text):
            raise BundleRefused(f"{path}, line {n}: not a public key (64 hex digits)")
        keys.append(Ed25519PublicKey.from_public_bytes(bytes.fromhex(text)))
    if not keys:
        raise BundleRefused(f"this table trusts no publisher: no key in {path}")
    return keys


