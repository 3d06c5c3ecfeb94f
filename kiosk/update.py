"""Signed update bundles: a table updated without a new SD card, and never left without a
working dealer app (docs/technician.md, "Updating").

A bundle is a plain tar file: `manifest.json` (the version, the tables it is for, every other
file's size and sha256), `manifest.sig` (Ed25519, hex, over a fixed domain line and the
manifest's bytes), the wheels (`wheels/*.whl`: Tableside and every dependency, built for the
Pi's Python) and the units (`units/tableside-*.service`). The table trusts the publisher keys
in /etc/tableside/update-keys, on the read-only root. `tableside update apply BUNDLE`:

1. checks before anything is written: the signature against those keys; that the tar holds
   exactly the manifest's files, each a plain file; the target (machine, image flavour, board
   model, Python) against this table; that the version is newer than the one in use. Then it
   extracts the files into a folder only root can write, checking each size and sha256;
2. installs the wheels into a new venv on the data partition (the root is read-only),
   /data/tableside/releases/VERSION, with pip offline and hash-checked, and runs its
   `tableside --version`;
3. marks the version in use as the one to go back to (`trial`: a power cut from here on is
   undone at the next boot by `tableside-units --boot`), then switches the `current` link to
   the new version in one rename; the new version's units become runtime overrides;
4. restarts the dealer app (and the signage and sync if they run) and waits for the dealer
   app to tell systemd READY=1 within `--wait` seconds and to stay up `--settle` seconds;
5. if it does not, switches back, restarts, and says why. Either way the outcome goes on
   record: the table's journal (`software_update`) and /data/tableside/updates.log.

The shell side (image-build/system/bin/): `tableside`, the launcher every unit starts, runs the
version `current` names when the folders are root's alone and falls back to the image's own
version (/opt/tableside) otherwise; `tableside-units` puts the version's units in place.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tarfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NoReturn, Protocol

import click
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
    load_pem_private_key,
)

from kiosk.rules.errors import TablesideError

DOMAIN = b"tableside update bundle v1\n"
"""Signed before the manifest's bytes: a signature over anything else can never pass."""
MANIFEST, SIGNATURE = "manifest.json", "manifest.sig"
FORMAT = 1
KEYS = Path("/etc/tableside/update-keys")
FLAVOUR_FILE = Path("/etc/tableside/flavour")
MODEL_FILE = Path("/proc/device-tree/model")
RELEASES = Path("/data/tableside")
FACTORY = Path("/opt/tableside")
UNITS_SCRIPT = FACTORY / "bin" / "tableside-units"
DEALER = "tableside-dealer.service"
SIGNAGE = "tableside-signage.service"
ALSO_RESTARTED = (SIGNAGE, "tableside-sync.service")
MODELS = {"pi4": ("Raspberry Pi 4", "Raspberry Pi 400", "Raspberry Pi Compute Module 4"),
          "pi5": ("Raspberry Pi 5", "Raspberry Pi 500", "Raspberry Pi Compute Module 5")}
"""The boards of each image flavour, as the device tree's `model` begins."""
MAX_FILE = 512 * 1024 * 1024
MAX_FILES = 400
_WHEEL = re.compile(r"wheels/[A-Za-z0-9_.+-]+\.whl")
_UNIT = re.compile(r"units/tableside-[a-z0-9-]+\.service")
_VERSION = re.compile(r"(\d+(?:\.\d+){0,3})(?:\+[a-z0-9.]+)?")
_HEX = re.compile(r"[0-9a-f]+")
NOT_UPDATED = ("tableside-units.service",)
"""Units a bundle may not replace: the one that undoes an unfinished update is the safety
net, and stays the image's own."""


class BundleRefused(TablesideError):
    """A bundle this table will not install; the message says why, in words."""


class UpdateFailed(TablesideError):
    """An update that could not be carried out (the table runs the version before)."""


# --- the manifest -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Target:
    """The tables a bundle is for: machine, image flavour, boards (the device tree's model
    begins with one of them) and the Python its wheels are built for."""

    machine: str = "aarch64"
    flavour: str = "pi4"
    models: tuple[str, ...] = MODELS["pi4"]
    python: str = "3.11"

    def describe(self) -> str:
        return (f"{self.machine} tables of flavour {self.flavour} ({', '.join(self.models)}) "
                f"with Python {self.python}")


@dataclass(frozen=True, slots=True)
class ThisTable:
    """What a bundle's target is checked against."""

    machine: str
    flavour: str
    model: str
    python: str

    @classmethod
    def probe(cls, flavour_file: Path = FLAVOUR_FILE, model_file: Path = MODEL_FILE
              ) -> ThisTable:
        def read(path: Path) -> str:
            try:
                return path.read_bytes().decode("utf-8", "replace").strip("\0\n ")
            except OSError:
                return ""

        return cls(platform.machine(), read(flavour_file) or "unknown",
                   read(model_file) or "unknown board",
                   f"{sys.version_info.major}.{sys.version_info.minor}")

    def refusal(self, target: Target) -> str:
        """Why a bundle for `target` is not for this table ("" when it is)."""
        fits = (target.machine == self.machine and target.flavour == self.flavour
                and target.python == self.python
                and any(self.model.startswith(m) for m in target.models))
        if fits:
            return ""
        return (f"the bundle is for {target.describe()}; this table is a {self.model}, "
                f"{self.machine}, flavour {self.flavour}, Python {self.python}")


@dataclass(frozen=True, slots=True)
class Manifest:
    """What a bundle holds and is for; `files` maps a member's name to (size, sha256)."""

    version: str
    target: Target
    files: dict[str, tuple[int, str]]
    created_at: str
    created_by: str
    format: int = FORMAT

    def to_bytes(self) -> bytes:
        data = {"format": self.format, "version": self.version, "created_at": self.created_at,
                "created_by": self.created_by,
                "target": {"machine": self.target.machine, "flavour": self.target.flavour,
                           "models": list(self.target.models), "python": self.target.python},
                "files": {name: {"size": size, "sha256": digest}
                          for name, (size, digest) in sorted(self.files.items())}}
        return (json.dumps(data, indent=1, sort_keys=True) + "\n").encode("utf-8")

    @classmethod
    def from_bytes(cls, raw: bytes) -> Manifest:
        try:
            data = json.loads(raw.decode("utf-8"))
            if data["format"] != FORMAT:
                raise BundleRefused(f"the bundle's manifest is format {data['format']}; this "
                                    f"table reads format {FORMAT}")
            t = data["target"]
            target = Target(str(t["machine"]), str(t["flavour"]),
                            tuple(str(m) for m in t["models"]), str(t["python"]))
            files = {str(name): (int(f["size"]), str(f["sha256"]))
                     for name, f in data["files"].items()}
            manifest = cls(str(data["version"]), target, files, str(data["created_at"]),
                           str(data["created_by"]))
        except BundleRefused:
            raise
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise BundleRefused(f"the bundle's manifest cannot be read ({exc!r})") from None
        if not _VERSION.fullmatch(manifest.version):
            raise BundleRefused(f"the bundle's version {manifest.version!r} is not a version "
                                "number such as 1.2.0")
        return manifest

    @property
    def wheels(self) -> list[str]:
        return sorted(n for n in self.files if n.startswith("wheels/"))

    @property
    def units(self) -> list[str]:
        return sorted(n for n in self.files if n.startswith("units/"))


def version_key(version: str) -> tuple[int, ...]:
    """1.2 < 1.10 < 1.10.1; a local tag (+emu) does not count."""
    found = _VERSION.fullmatch(version)
    if found is None:
        return (-1,)
    parts = [int(p) for p in found.group(1).split(".")]
    return tuple(parts + [0] * (4 - len(parts)))


# --- keys ---------------------------------------------------------------------------------


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
        if len(text) != 64 or not _HEX.fullmatch(text):
            raise BundleRefused(f"{path}, line {n}: not a public key (64 hex digits)")
        keys.append(Ed25519PublicKey.from_public_bytes(bytes.fromhex(text)))
    if not keys:
        raise BundleRefused(f"this table trusts no publisher: no key in {path}")
    return keys


# --- making a bundle (the publisher) ------------------------------------------------------


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
        if not (_WHEEL.fullmatch(name) or _UNIT.fullmatch(name)) or name[6:] in NOT_UPDATED:
            raise TablesideError(f"{name}: a bundle holds wheels and tableside-*.service "
                                 "units only (not tableside-units.service)")
    if not _VERSION.fullmatch(version):
        raise TablesideError(f"{version!r} is not a version number such as 1.2.0")
    if not any(_is_own_wheel(n, version) for n in members):
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


def _is_own_wheel(name: str, version: str) -> bool:
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


# --- checking a bundle (the table) --------------------------------------------------------


def check(bundle: Path, keys: Sequence[Ed25519PublicKey], here: ThisTable,
          in_use: str = "", allow_older: bool = False) -> Manifest:
    """The bundle's manifest if the bundle is signed by a trusted key, holds exactly the
    manifest's files, is for this table and newer than `in_use`; `BundleRefused` with the
    reason otherwise. Nothing is written."""
    members = _members(bundle)
    with tarfile.open(bundle, "r:") as tar:
        raw, sig = _small(tar, members, MANIFEST), _small(tar, members, SIGNATURE)
    signature = sig.decode("ascii", "replace").strip()
    if len(signature) != 128 or not _HEX.fullmatch(signature):
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
        if not (_WHEEL.fullmatch(name) or _UNIT.fullmatch(name)) or name[6:] in NOT_UPDATED:
            raise BundleRefused(f"{bundle.name}: {name} is neither a wheel nor a Tableside "
                                "unit a bundle may replace")
        size = manifest.files[name][0]
        if members[name].size != size:
            raise BundleRefused(f"{bundle.name}: {name} is {members[name].size} bytes, its "
                                f"manifest says {size}: the file was changed or cut short")
    if not any(_is_own_wheel(n, manifest.version) for n in listed):
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


# --- where the versions live --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Releases:
    """The versions on this table: the image's own (`factory`, on the read-only root) and the
    ones updates installed under `root`/releases; `current` links to the one in use (none:
    the image's own), `trial` to the one to go back to while an update is being tried."""

    root: Path = RELEASES
    factory: Path = FACTORY

    @property
    def folder(self) -> Path:
        return self.root / "releases"

    @property
    def log(self) -> Path:
        return self.root / "updates.log"

    def in_use(self) -> Path:
        link = self.root / "current"
        if not link.is_symlink():
            return self.factory
        target = Path(os.path.realpath(link))
        return target if (target / "venv" / "bin" / "tableside").exists() else self.factory

    def version(self, release: Path) -> str:
        """The Tableside version a release's venv holds ("" if none)."""
        found = sorted(release.glob("venv/lib/python3*/site-packages/tableside-*.dist-info"))
        return found[0].name.removeprefix("tableside-").removesuffix(".dist-info") if found \
            else ""

    def prepare(self) -> None:
        """The folders, root's alone (the launcher runs nothing from a folder another user
        could change), and leftovers of an install that never finished removed."""
        for folder in (self.root, self.folder):
            folder.mkdir(mode=0o755, exist_ok=True)
            st = folder.lstat()
            if st.st_uid != os.geteuid() or st.st_mode & 0o022 or folder.is_symlink():
                raise UpdateFailed(f"{folder} is not root's alone (owner {st.st_uid}, mode "
                                   f"{st.st_mode & 0o777:o}): remove it and try again")
        for leftover in self.folder.glob(".incoming-*"):
            shutil.rmtree(leftover, ignore_errors=True)

    def switch(self, release: Path) -> None:
        """`current` to `release` in one rename (the image's own: a link to it as well)."""
        target = (os.path.relpath(release, self.root) if release.is_relative_to(self.root)
                  else str(release))
        _link(self.root, "current", target)

    def begin_trial(self, back_to: Path) -> None:
        target = (os.path.relpath(back_to, self.root) if back_to.is_relative_to(self.root)
                  else str(back_to))
        _link(self.root, "trial", target)

    def end_trial(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            (self.root / "trial").unlink()
        _sync_dir(self.root)

    def on_trial(self) -> bool:
        return (self.root / "trial").is_symlink()

    def installed(self) -> list[Path]:
        if not self.folder.is_dir():
            return []
        return sorted((p for p in self.folder.iterdir() if not p.name.startswith(".")),
                      key=lambda p: version_key(p.name))

    def prune(self, keep: Iterable[Path]) -> None:
        """Remove the versions not in `keep` (the data partition holds two at most)."""
        kept = {Path(os.path.realpath(p)) for p in keep}
        for release in self.installed():
            if Path(os.path.realpath(release)) not in kept:
                shutil.rmtree(release, ignore_errors=True)

    def note(self, outcome: Outcome) -> None:
        """One line of JSON in updates.log."""
        self.root.mkdir(mode=0o755, exist_ok=True)
        line = json.dumps({"at": outcome.at, "version": outcome.version,
                           "previous": outcome.previous, "outcome": outcome.outcome,
                           "detail": outcome.detail}, sort_keys=True)
        with self.log.open("a", encoding="utf-8") as fh:
            fh.write(line + "\n")
            fh.flush()
            os.fsync(fh.fileno())

    def history(self, last: int = 5) -> list[dict[str, Any]]:
        try:
            lines = self.log.read_text(encoding="utf-8").splitlines()
        except OSError:
            return []
        out = []
        for line in lines[-last:]:
            with contextlib.suppress(ValueError):
                out.append(json.loads(line))
        return out


def _link(folder: Path, name: str, target: str) -> None:
    tmp = folder / f".{name}.new"
    with contextlib.suppress(FileNotFoundError):
        tmp.unlink()
    os.symlink(target, tmp)
    os.replace(tmp, folder / name)
    _sync_dir(folder)


def _sync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


# --- installing ---------------------------------------------------------------------------


Installer = Callable[[Path, Path, Manifest], None]


def install(release: Path, staged: Path, manifest: Manifest,
            python: str = "/usr/bin/python3", timeout: float = 1800) -> None:
    """A venv at `release`/venv with exactly the bundle's wheels (pip offline, each wheel's
    hash required), the units beside it; `UpdateFailed` with pip's words otherwise."""
    release.mkdir(mode=0o755)
    venv = release / "venv"
    requirements = staged / "requirements.txt"
    requirements.write_text("".join(f"{staged / name} --hash=sha256:{manifest.files[name][1]}\n"
                                    for name in manifest.wheels))
    steps: list[list[str]] = [
        [python, "-m", "venv", str(venv)],
        [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--no-index",
         "--no-deps", "--no-cache-dir", "--require-hashes", "--disable-pip-version-check",
         "--no-warn-script-location", "-r", str(requirements)],
        [str(venv / "bin" / "tableside"), "--version"]]
    for step in steps:
        try:
            proc = subprocess.run(step, capture_output=True, text=True, timeout=timeout)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise UpdateFailed(f"installing {manifest.version}: {' '.join(step[:3])}: "
                               f"{exc}") from None
        if proc.returncode != 0:
            said = (proc.stderr.strip() or proc.stdout.strip()).splitlines()[-3:]
            raise UpdateFailed(f"installing {manifest.version}: {Path(step[0]).name} "
                               f"{' '.join(step[1:3])} failed: {' / '.join(said)}")
    if manifest.version not in proc.stdout:
        raise UpdateFailed(f"installing {manifest.version}: the new venv's tableside says "
                           f"{proc.stdout.strip()!r}")
    units = release / "units"
    units.mkdir(mode=0o755)
    for name in manifest.units:
        shutil.copyfile(staged / name, units / Path(name).name)
        (units / Path(name).name).chmod(0o644)
    for name in (MANIFEST, SIGNATURE):
        shutil.copyfile(staged / name, release / name)


# --- the services -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ServiceState:
    active: str = "inactive"
    sub: str = "dead"
    pid: int = 0
    restarts: int = 0
    result: str = ""

    def words(self) -> str:
        said = f"{self.active}/{self.sub}"
        if self.result and self.result != "success":
            said += f", {self.result}"
        return said + (f", restarted {self.restarts} time(s)" if self.restarts else "")


class Services(Protocol):
    """What an update asks of systemd (a fake stands in for it in the tests)."""

    def units(self) -> None: ...  # the units of the version in use, reloaded
    def restart(self, unit: str) -> None: ...
    def try_restart(self, unit: str) -> None: ...  # restarted only if it runs
    def state(self, unit: str) -> ServiceState: ...


@dataclass(frozen=True, slots=True)
class Systemd:
    """`systemctl` (a fake one on PATH in the tests) and `tableside-units`."""

    systemctl: str = "systemctl"
    units_script: str = str(UNITS_SCRIPT)
    env: dict[str, str] = field(default_factory=dict)

    def _run(self, *args: str) -> str:
        try:
            proc = subprocess.run(args, capture_output=True, text=True, timeout=120,
                                  env={**os.environ, **self.env})
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise UpdateFailed(f"{args[0]} {args[1] if len(args) > 1 else ''}: {exc}") from None
        if proc.returncode != 0:
            raise UpdateFailed(f"{' '.join(args)}: {proc.stderr.strip() or proc.returncode}")
        return proc.stdout

    def units(self) -> None:
        self._run(self.units_script)

    def restart(self, unit: str) -> None:
        self._run(self.systemctl, "restart", "--no-block", unit)

    def try_restart(self, unit: str) -> None:
        self._run(self.systemctl, "try-restart", "--no-block", unit)

    def state(self, unit: str) -> ServiceState:
        out = self._run(self.systemctl, "show", "--property=ActiveState,SubState,MainPID,"
                        "NRestarts,Result", unit)
        got = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)

        def number(key: str) -> int:
            value = got.get(key, "0")
            return int(value) if value.isdigit() else 0

        return ServiceState(got.get("ActiveState", "unknown"), got.get("SubState", "unknown"),
                            number("MainPID"), number("NRestarts"), got.get("Result", ""))


def wait_ready(services: Services, unit: str, wait: float, settle: float,
               before: ServiceState | None = None, poll: float = 0.5,
               clock: Callable[[], float] = time.monotonic,
               sleep: Callable[[float], None] = time.sleep) -> str:
    """"" once `unit` (Type=notify) is active and running, in a process other than the one
    `before` (told READY=1 to systemd), within `wait` seconds, and stays so `settle`
    seconds more; otherwise why not, in words."""
    deadline = clock() + wait
    while True:
        st = services.state(unit)
        fresh = before is None or st.pid != before.pid
        if st.active == "active" and st.sub == "running" and st.pid and fresh:
            break
        if clock() >= deadline:
            return (f"the dealer app did not report ready within {wait:g} s "
                    f"({st.words()})")
        sleep(poll)
    ready = st
    until = clock() + settle
    while clock() < until:
        sleep(poll)
        st = services.state(unit)
        if st.active != "active" or st.pid != ready.pid:
            return (f"the dealer app reported ready, then stopped within {settle:g} s "
                    f"({st.words()})")
    return ""


# --- applying -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Outcome:
    """One update's end: `applied`, `rolled back`, `refused`, `not installed` or
    `reverted` (to the image's own version), with the reason in words."""

    version: str
    previous: str
    outcome: str
    detail: str
    at: str = field(default_factory=lambda: datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"))

    @property
    def ok(self) -> bool:
        return self.outcome in ("applied", "reverted")


Recorder = Callable[[Outcome], None]


@dataclass
class Updater:
    """Everything an update touches, injectable for the tests."""

    releases: Releases = field(default_factory=Releases)
    services: Services = field(default_factory=Systemd)
    keys: Callable[[], Sequence[Ed25519PublicKey]] = trusted_keys
    here: Callable[[], ThisTable] = ThisTable.probe
    installer: Installer = install
    record: Recorder = lambda outcome: None  # the journal, when configured
    wait: float = 90.0
    settle: float = 10.0
    poll: float = 0.5
    say: Callable[[str], None] = lambda words: None  # progress, for people

    def apply(self, bundle: Path, allow_older: bool = False) -> Outcome:
        in_use = self.releases.in_use()
        previous = self.releases.version(in_use)
        try:
            manifest = check(bundle, self.keys(), self.here(), previous, allow_older)
            self.releases.prepare()
            release = self.releases.folder / manifest.version
            if release.exists() and release.resolve() == in_use.resolve():
                raise BundleRefused(f"version {manifest.version} is the one in use")
            staged = self.releases.folder / f".incoming-{manifest.version}"
            self._room(manifest)
            self.say(f"{bundle.name}: signed, for this table, version {manifest.version}; "
                     "checking its files")
            extract(bundle, manifest, staged)
        except BundleRefused as exc:
            return self._done(Outcome("", previous, "refused", str(exc)))
        # Every check has passed (the files' sha256 too): only now may a copy of the same
        # version already here (tried before and not kept, or the one --allow-older goes
        # back to) make room for it. A bundle refused above leaves it as it was.
        try:
            if release.exists():
                shutil.rmtree(release)
            self.say(f"installing {manifest.version} into {release}")
            self.installer(release, staged, manifest)
        except TablesideError as exc:
            shutil.rmtree(release, ignore_errors=True)
            return self._done(Outcome(manifest.version, previous, "not installed", str(exc)))
        finally:
            shutil.rmtree(staged, ignore_errors=True)
        return self._try(release, manifest.version, in_use, previous, "applied")

    def revert(self) -> Outcome:
        """Back to the image's own version, checked the same way."""
        in_use = self.releases.in_use()
        previous = self.releases.version(in_use)
        if in_use == self.releases.factory:
            return Outcome(previous, previous, "reverted", "the image's own version is "
                           "already in use")
        self.releases.prepare()
        return self._try(self.releases.factory, self.releases.version(self.releases.factory),
                         in_use, previous, "reverted")

    def _try(self, release: Path, version: str, in_use: Path, previous: str,
             success: str) -> Outcome:
        """Switch to `release`, restart, wait; back to `in_use` if the dealer app does not
        come up. A failure half way (systemd not answering) switches back as well."""
        self.releases.begin_trial(in_use)
        try:
            self.releases.switch(release)
            why = self._restart(version)
        except TablesideError as exc:
            why = str(exc)
        if not why:
            self.releases.end_trial()
            self.releases.prune([release, in_use])
            return self._done(Outcome(version, previous, success,
                                      f"the dealer app runs {version} and reported ready"))
        self.say(f"{version} did not start: {why}; going back to {previous}")
        try:
            self.releases.switch(in_use)
            back = self._restart(previous)
        except TablesideError as exc:
            back = str(exc)
        self.releases.end_trial()
        if release != self.releases.factory:
            shutil.rmtree(release, ignore_errors=True)
        after = (f"; {previous} runs again" if not back else
                 f"; {previous} did not start either: {back}")
        return self._done(Outcome(version, previous, "rolled back", why + after))

    def _restart(self, version: str) -> str:
        self.services.units()
        before = self.services.state(DEALER)
        self.say(f"restarting the dealer app on {version}; waiting up to {self.wait:g} s for "
                 "it to report ready")
        self.services.restart(DEALER)
        for unit in ALSO_RESTARTED:
            with contextlib.suppress(UpdateFailed):
                self.services.try_restart(unit)
        return wait_ready(self.services, DEALER, self.wait, self.settle, before, self.poll)

    def _room(self, manifest: Manifest) -> None:
        need = 4 * sum(size for name, (size, _) in manifest.files.items()) + 50_000_000
        free = shutil.disk_usage(self.releases.folder).free
        if free < need:
            raise BundleRefused(f"not enough room on the data partition for {manifest.version}"
                                f": {free / 1e6:,.0f} MB free, about {need / 1e6:,.0f} MB "
                                "needed")

    def _done(self, outcome: Outcome) -> Outcome:
        with contextlib.suppress(OSError):
            self.releases.note(outcome)
        try:
            self.record(outcome)
        except Exception as exc:  # the update stands; the journal's failure is said
            self.say(f"the outcome could not be written to the journal: {exc}")
        return outcome


# --- the outcome on record ----------------------------------------------------------------


def journal_recorder(config: Path) -> Recorder:
    """Put an outcome in the table's journal as a `software_update` row, written as the
    journal's owner (the kiosk user), never as root (a root-owned WAL file would lock the
    dealer app out of its own journal)."""

    def record(outcome: Outcome) -> None:
        from kiosk.config import load
        from kiosk.store.journal import Journal
        from kiosk.table.records import SoftwareUpdate

        cfg = load(config)
        row = SoftwareUpdate(outcome.version, outcome.previous, outcome.outcome,
                             outcome.detail)

        def write() -> None:
            cfg.journal.parent.mkdir(parents=True, exist_ok=True)
            with Journal.open(cfg.journal, cfg.table_id) as journal:
                journal.append(row.kind, row.to_payload())

        _as_owner(cfg.journal if cfg.journal.exists() else cfg.journal.parent, write)

    return record


def _as_owner(path: Path, job: Callable[[], None]) -> None:
    st = path.stat()
    if os.geteuid() != 0 or st.st_uid == 0:
        job()
        return
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child, as the journal's owner
        code = 1
        try:
            os.setgroups([])
            os.setgid(st.st_gid)
            os.setuid(st.st_uid)
            job()
            code = 0
        except BaseException as exc:
            sys.stderr.write(f"tableside: {exc}\n")
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise UpdateFailed(f"the journal {path} could not be written as its owner")


# --- the command --------------------------------------------------------------------------


def _refuse(message: str) -> NoReturn:
    from kiosk.program import refuse

    refuse(message)


@click.group()
def update() -> None:
    """Signed update bundles: make one (the publisher), apply one (on the table), see which
    version runs, go back to the image's own."""


@update.command("keygen")
@click.argument("key", type=click.Path(dir_okay=False, path_type=Path))
def update_keygen(key: Path) -> None:
    """A new publisher key in KEY (keep it off the tables); prints the public half for
    /etc/tableside/update-keys (image-build/build --update-key)."""
    try:
        click.echo(new_key(key))
    except FileExistsError:
        _refuse(f"{key} exists: a publisher key is never overwritten")


@update.command("make")
@click.option("--version", "version", required=True, help="Tableside's version in the bundle")
@click.option("--wheels", type=click.Path(file_okay=False, exists=True, path_type=Path),
              required=True, help="a folder with every wheel to install")
@click.option("--units", type=click.Path(file_okay=False, exists=True, path_type=Path),
              default=None, help="a folder of tableside-*.service units (default: none)")
@click.option("--key", type=click.Path(dir_okay=False, exists=True, path_type=Path),
              required=True, help="the publisher's key (tableside update keygen)")
@click.option("--flavour", type=click.Choice(sorted(MODELS)), default="pi4", show_default=True)
@click.option("--model", "models", multiple=True,
              help="a board the bundle is for, as the device tree's model begins (default: "
                   "the flavour's boards); repeat for several")
@click.option("--python", "python", default="3.11", show_default=True)
@click.option("-o", "--out", type=click.Path(dir_okay=False, path_type=Path), required=True)
def update_make(version: str, wheels: Path, units: Path | None, key: Path, flavour: str,
                models: tuple[str, ...], python: str, out: Path) -> None:
    """Make a signed bundle OUT from the wheels and units."""
    target = Target("aarch64", flavour, models or MODELS[flavour], python)
    manifest = make_bundle(out, version, sorted(wheels.glob("*.whl")),
                           sorted(units.glob("tableside-*.service")) if units else [],
                           load_key(key), target)
    click.echo(f"{out}: version {version} for {target.describe()}; {len(manifest.wheels)} "
               f"wheels, {len(manifest.units)} units, {out.stat().st_size / 1e6:.1f} MB")


@update.command("apply")
@click.argument("bundle", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--config", "config", type=click.Path(dir_okay=False, path_type=Path),
              default=Path("/data/table.toml"), show_default=True,
              help="the table's configuration: its journal gets the outcome")
@click.option("--wait", type=float, default=90.0, show_default=True,
              help="seconds the dealer app has to report ready")
@click.option("--settle", type=float, default=10.0, show_default=True,
              help="seconds it must then stay up")
@click.option("--allow-older", is_flag=True, help="go back to an older version on purpose")
def update_apply(bundle: Path, config: Path, wait: float, settle: float,
                 allow_older: bool) -> None:
    """Check BUNDLE, install it beside the version in use, switch, and go back if the dealer
    app does not start. Exit status 2 when the bundle is refused, 1 when it was rolled back
    or could not be installed."""
    done = _updater(config, wait, settle).apply(bundle, allow_older)
    _report(done)


@update.command("revert")
@click.option("--config", "config", type=click.Path(dir_okay=False, path_type=Path),
              default=Path("/data/table.toml"), show_default=True)
@click.option("--wait", type=float, default=90.0, show_default=True)
@click.option("--settle", type=float, default=10.0, show_default=True)
def update_revert(config: Path, wait: float, settle: float) -> None:
    """Go back to the version the SD image came with (checked as an update is)."""
    _report(_updater(config, wait, settle).revert())


@update.command("status")
def update_status() -> None:
    """The version in use, the versions on the data partition, the last outcomes."""
    rel = Releases()
    in_use = rel.in_use()
    own = rel.version(rel.factory)
    click.echo(f"in use: {rel.version(in_use) or '?'} "
               f"({'the image' + chr(39) + 's own' if in_use == rel.factory else in_use})")
    click.echo(f"the image's own: {own or '?'} ({rel.factory})")
    for release in rel.installed():
        click.echo(f"installed: {release.name} ({release})")
    if rel.on_trial():
        click.echo("an update is being tried (or was cut short: the next boot goes back)")
    for h in rel.history():
        click.echo(f"{h.get('at', '?')} {h.get('outcome', '?')}: {h.get('version') or '-'} "
                   f"(was {h.get('previous') or '-'}): {h.get('detail', '')}")


def _updater(config: Path, wait: float, settle: float) -> Updater:
    if os.geteuid() != 0:
        _refuse("an update is applied as root (sudo tableside update ...)")
    recorder: Recorder = journal_recorder(config) if config.exists() else (lambda o: None)
    return Updater(record=recorder, wait=wait, settle=settle,
                   say=lambda words: click.echo(words, err=True))


def _report(done: Outcome) -> None:
    from kiosk.program import say

    if done.ok:
        click.echo(f"{done.outcome.capitalize()}: {done.version} ({done.detail})")
        return
    if done.outcome == "refused":
        _refuse(f"refused: {done.detail}")
    say(f"{done.outcome}: {done.version}: {done.detail}")
    sys.exit(1)
