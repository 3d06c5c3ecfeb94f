"""Checking a bundle on the table before anything is written, and extracting it.

kiosk/update/__init__.py says how an update goes.
"""

from __future__ import annotations

import hashlib
import shutil
import tarfile
from collections.abc import Sequence
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from kiosk.update.bundle import (
    DOMAIN,
    HEX_TEXT,
    KEYS,
    MANIFEST,
    MAX_FILE,
    MAX_FILES,
    NOT_UPDATED,
    SIGNATURE,
    UNIT_NAME,
    WHEEL_NAME,
    BundleRefused,
    Manifest,
    ThisTable,
    version_key,
)
from kiosk.update.making import is_own_wheel


def check(bundle: Path, keys: Sequence[Ed25519PublicKey], here: ThisTable,
          in_use: str = "", allow_older: bool = False) -> Manifest:
    """The bundle's manifest if the bundle is signed by a trusted key, holds exactly the
    manifest's files, is for this table and newer than `in_use`; `BundleRefused` with the
    reason otherwise. Nothing is written."""
    members = _members(bundle)
    with tarfile.open(bundle, "r:") as tar:
        raw, sig = _small(tar, members, MANIFEST), _small(tar, members, SIGNATURE)
    signature = sig.decode("ascii", "replace").strip()
    if len(signature) != 128 or not HEX_TEXT.fullmatch(signature):
        raise BundleRefused(f"{bundle.name}: its signature is malformed (not 128 hex digits)")
    for key in keys:
        try:
            key.verify(bytes.fromhex(signature), DOMAIN + raw)
            break
        except InvalidSignature:
            continue
    else:
        raise BundleRefused(f"{bundle.name} is not signed by a publisher this table trusts: "
                            f"its signature matches none of the {len(keys)} key(s) in "
                            f"{KEYS}")
    manifest = Manifest.from_bytes(raw)
    listed = set(manifest.files)
    held = {name for name in members if name not in (MANIFEST, SIGNATURE)}
    extra, lacking = sorted(held - listed), sorted(listed - held)
    if extra:
        raise BundleRefused(f"{bundle.name} holds {extra[0]}, which its signed manifest does "
                            "not list: the bundle was changed after it was signed")
    if lacking:
        raise BundleRefused(f"{bundle.name} lacks {lacking[0]}, which its manifest lists")
    for name in sorted(listed):
        if not (WHEEL_NAME.fullmatch(name) or UNIT_NAME.fullmatch(name)) or name[6:] in NOT_UPDATED:
            raise BundleRefused(f"{bundle.name}: {name} is neither a wheel nor a Tableside "
                                "unit a bundle may replace")
        size = manifest.files[name][0]
        if members[name].size != size:
            raise BundleRefused(f"{bundle.name}: {name} is {members[name].size} bytes, its "
                                f"manifest says {size}: the file was changed or cut short")
    if not any(is_own_wheel(n, manifest.version) for n in listed):
        raise BundleRefused(f"{bundle.name} has no Tableside wheel of its version "
                            f"{manifest.version}")
    why = here.refusal(manifest.target)
    if why:
        raise BundleRefused(why)
    if in_use and not allow_older and version_key(manifest.version) <= version_key(in_use):
        raise BundleRefused(f"version {manifest.version} is not newer than {in_use}, the "
                            "version in use (--allow-older to go back to it on purpose)")
    return manifest


def extract(bundle: Path, manifest: Manifest, into: Path) -> None:
    """The manifest's files into `into` (made here, mode 0700), each checked against its
    size and sha256 as it is written, and the manifest and its signature beside them;
    `BundleRefused` (and nothing left) on a difference."""
    into.mkdir(mode=0o700, parents=True)
    try:
        with tarfile.open(bundle, "r:") as tar:
            for name in sorted(manifest.files):
                size, digest = manifest.files[name]
                info = tar.getmember(name)
                src = tar.extractfile(info)
                if not info.isreg() or src is None:
                    raise BundleRefused(f"{bundle.name}: {name} is not a plain file")
                target = into / name
                target.parent.mkdir(mode=0o700, exist_ok=True)
                h, written = hashlib.sha256(), 0
                with target.open("xb") as out:
                    for block in iter(lambda s=src: s.read(1 << 20), b""):  # type: ignore[misc]
                        h.update(block)
                        written += len(block)
                        out.write(block)
                if written != size or h.hexdigest() != digest:
                    raise BundleRefused(f"{bundle.name}: {name} does not match its manifest "
                                        "(sha256 differs): it was changed after signing or "
                                        "damaged in copying")
            for name in (MANIFEST, SIGNATURE):  # kept with the version, for an auditor
                src = tar.extractfile(name)
                assert src is not None
                (into / name).write_bytes(src.read(1 << 20))
    except BaseException:
        shutil.rmtree(into, ignore_errors=True)
        raise


def _members(bundle: Path) -> dict[str, tarfile.TarInfo]:
    try:
        with tarfile.open(bundle, "r:") as tar:
            infos = tar.getmembers()
    except FileNotFoundError:
        raise BundleRefused(f"{bundle}: no such file") from None
    except (OSError, tarfile.TarError) as exc:
        raise BundleRefused(f"{bundle.name} is not an update bundle (not a tar file: "
                            f"{exc})") from None
    if len(infos) > MAX_FILES:
        raise BundleRefused(f"{bundle.name} holds {len(infos)} files; a bundle holds at most "
                            f"{MAX_FILES}")
    out: dict[str, tarfile.TarInfo] = {}
    for info in infos:
        if not info.isreg():
            raise BundleRefused(f"{bundle.name}: {info.name} is not a plain file (links and "
                                "folders are refused)")
        if info.name in out:
            raise BundleRefused(f"{bundle.name} holds {info.name} twice")
        if info.size > MAX_FILE:
            raise BundleRefused(f"{bundle.name}: {info.name} is larger than a bundle's file "
                                "may be")
        out[info.name] = info
    for name in (MANIFEST, SIGNATURE):
        if name not in out:
            raise BundleRefused(f"{bundle.name} is not an update bundle: it has no {name}")
    return out


def _small(tar: tarfile.TarFile, members: dict[str, tarfile.TarInfo], name: str) -> bytes:
    if members[name].size > 1 << 20:
        raise BundleRefused(f"{name} is larger than a manifest may be")
    fh = tar.extractfile(members[name])
    assert fh is not None  # a regular file, checked in _members
    return fh.read()


