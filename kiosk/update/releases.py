"""Where the versions live on the data partition, and installing one.

kiosk/update/__init__.py says how an update goes.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kiosk.update.bundle import (
    FACTORY,
    MANIFEST,
    RELEASES,
    SIGNATURE,
    Manifest,
    Outcome,
    UpdateFailed,
    version_key,
)


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


