"""What a bundle is: its format, its manifest (the version and the tables it is
for) and the errors of updating.

kiosk/update/__init__.py says how an update goes.
"""

from __future__ import annotations

import json
import platform
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

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
"""The flavours a bundle is made for, and their boards as the device tree's `model` begins."""
TAKES = {"pi4-rpi": "pi4"}
"""Image flavours that take another flavour's bundles. pi4-rpi (a Pi 4 with Raspberry Pi's
kernel, for the DSI panel) has the pi4 root but for the kernel and the graphics libraries:
the same Python, ABI and memory pages, so a pi4 bundle's wheels and units fit it, and one
bundle, made for pi4, updates every Pi 4 table, those made before pi4-rpi existed too."""
MAX_FILE = 512 * 1024 * 1024
MAX_FILES = 400
WHEEL_NAME = re.compile(r"wheels/[A-Za-z0-9_.+-]+\.whl")
UNIT_NAME = re.compile(r"units/tableside-[a-z0-9-]+\.service")
VERSION_TEXT = re.compile(r"(\d+(?:\.\d+){0,3})(?:\+[a-z0-9.]+)?")
HEX_TEXT = re.compile(r"[0-9a-f]+")
NOT_UPDATED = ("tableside-units.service",)
"""Units a bundle may not replace: the one that undoes an unfinished update is the safety
net, and stays the image's own."""


class BundleRefused(TablesideError):
    """A bundle this table will not install; the message says why, in words."""


class UpdateFailed(TablesideError):
    """An update that could not be carried out (the table runs the version before)."""




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
        fits = (target.machine == self.machine
                and target.flavour == TAKES.get(self.flavour, self.flavour)
                and target.python == self.python
                and any(self.model.startswith(m) for m in target.models))
        if fits:
            return ""
        takes = (f" (it takes {TAKES[self.flavour]} bundles)" if self.flavour in TAKES
                 else "")
        return (f"the bundle is for {target.describe()}; this table is a {self.model}, "
                f"{self.machine}, flavour {self.flavour}{takes}, Python {self.python}")


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
        if not VERSION_TEXT.fullmatch(manifest.version):
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
    found = VERSION_TEXT.fullmatch(version)
    if found is None:
        return (-1,)
    parts = [int(p) for p in found.group(1).split(".")]
    return tuple(parts + [0] * (4 - len(parts)))


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
