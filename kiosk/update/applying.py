"""Applying a bundle: install, switch, restart, wait, and switch back if it
fails; the outcome on record.

kiosk/update/__init__.py says how an update goes.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from kiosk.rules.errors import TablesideError
from kiosk.update.bundle import (
    ALSO_RESTARTED,
    DEALER,
    BundleRefused,
    Manifest,
    Outcome,
    Recorder,
    ThisTable,
    UpdateFailed,
)
from kiosk.update.checking import check, extract
from kiosk.update.keys import trusted_keys
from kiosk.update.releases import Installer, Releases, install
from kiosk.update.services import Services, Systemd, wait_ready


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


