"""Making a bundle: the publisher signs the wheels and units into one tar file.

kiosk/update/__init__.py says how an update goes.
"""

from __future__ import annotations

import hashlib
import io
import platform
import tarfile
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from kiosk.rules.errors import TablesideError
from kiosk.update.bundle import (
    DOMAIN,
    MANIFEST,
    NOT_UPDATED,
    SIGNATURE,
    UNIT_NAME,
    VERSION_TEXT,
    WHEEL_NAME,
    Manifest,
    Target,
)


def make_bundle(out: Path, version: str, wheels: Iterable[Path], units: Iterable[Path],
                key: Ed25519PrivateKey, target: Target | None = None, created_by: str = "",
                now: datetime | None = None) -> Manifest:
    """Write a signed bundle to `out`: the wheels (Tableside's own among them, of this
    `version`) and the units, each hashed into the manifest."""
    members: dict[str, Path] = {}
    for w in wheels:
        members[f"wheels/{w.name}"] = w
    for u in units:
        members[f"units/{u.name}"] = u
    for name in members:
        if not (WHEEL_NAME.fullmatch(name) or UNIT_NAME.fullmatch(name)) or name[6:] in NOT_UPDATED:
            raise TablesideError(f"{name}: a bundle holds wheels and tableside-*.service "
                                 "units only (not tableside-units.service)")
    if not VERSION_TEXT.fullmatch(version):
        raise TablesideError(f"{version!r} is not a version number such as 1.2.0")
    if not any(is_own_wheel(n, version) for n in members):
        raise TablesideError(f"no tableside-{version}-*.whl among the wheels")
    files = {name: (path.stat().st_size, _sha256_file(path)) for name, path in members.items()}
    target = target or Target()
    stamp = (now or datetime.now(UTC)).strftime("%Y-%m-%dT%H:%M:%SZ")
    manifest = Manifest(version, target, files, stamp, created_by or _whoami())
    raw = manifest.to_bytes()
    sig = key.sign(DOMAIN + raw).hex().encode("ascii") + b"\n"
    tmp = out.with_name(f".{out.name}.tmp")
    with tarfile.open(tmp, "w", format=tarfile.PAX_FORMAT) as tar:
        _add_bytes(tar, MANIFEST, raw)
        _add_bytes(tar, SIGNATURE, sig)
        for name, path in sorted(members.items()):
            info = tar.gettarinfo(str(path), arcname=name)
            info.uid = info.gid = 0
            info.uname = info.gname = "root"
            info.mode, info.mtime = 0o644, 0
            with path.open("rb") as fh:
                tar.addfile(info, fh)
    tmp.replace(out)
    return manifest


def _add_bytes(tar: tarfile.TarFile, name: str, data: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size, info.mode, info.mtime = len(data), 0o644, 0
    tar.addfile(info, io.BytesIO(data))


def is_own_wheel(name: str, version: str) -> bool:
    return name.startswith(f"wheels/tableside-{version}-") and name.endswith(".whl")


def _whoami() -> str:
    import getpass

    try:
        return f"{getpass.getuser()}@{platform.node()}"
    except (KeyError, OSError):
        return platform.node()


def _sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


