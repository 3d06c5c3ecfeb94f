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

from kiosk.update.applying import Updater, journal_recorder
from kiosk.update.bundle import (
    ALSO_RESTARTED,
    DEALER,
    DOMAIN,
    FACTORY,
    FLAVOUR_FILE,
    FORMAT,
    HEX_TEXT,
    KEYS,
    MANIFEST,
    MAX_FILE,
    MAX_FILES,
    MODEL_FILE,
    MODELS,
    NOT_UPDATED,
    RELEASES,
    SIGNAGE,
    SIGNATURE,
    UNIT_NAME,
    UNITS_SCRIPT,
    VERSION_TEXT,
    WHEEL_NAME,
    BundleRefused,
    Manifest,
    Outcome,
    Recorder,
    Target,
    ThisTable,
    UpdateFailed,
    version_key,
)
from kiosk.update.checking import check, extract
from kiosk.update.commands import (
    update,
    update_apply,
    update_keygen,
    update_make,
    update_revert,
    update_status,
)
from kiosk.update.keys import load_key, new_key, public_hex, trusted_keys
from kiosk.update.making import is_own_wheel, make_bundle
from kiosk.update.releases import Installer, Releases, install
from kiosk.update.services import Services, ServiceState, Systemd, wait_ready

__all__ = [
    "ALSO_RESTARTED",
    "DEALER",
    "DOMAIN",
    "FACTORY",
    "FLAVOUR_FILE",
    "FORMAT",
    "HEX_TEXT",
    "KEYS",
    "MANIFEST",
    "MAX_FILE",
    "MAX_FILES",
    "MODELS",
    "MODEL_FILE",
    "NOT_UPDATED",
    "RELEASES",
    "SIGNAGE",
    "SIGNATURE",
    "UNITS_SCRIPT",
    "UNIT_NAME",
    "VERSION_TEXT",
    "WHEEL_NAME",
    "BundleRefused",
    "Installer",
    "Manifest",
    "Outcome",
    "Recorder",
    "Releases",
    "ServiceState",
    "Services",
    "Systemd",
    "Target",
    "ThisTable",
    "UpdateFailed",
    "Updater",
    "check",
    "extract",
    "install",
    "is_own_wheel",
    "journal_recorder",
    "load_key",
    "make_bundle",
    "new_key",
    "public_hex",
    "trusted_keys",
    "update",
    "update_apply",
    "update_keygen",
    "update_make",
    "update_revert",
    "update_status",
    "version_key",
    "wait_ready",
]
