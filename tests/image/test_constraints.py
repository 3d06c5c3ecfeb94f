"""The Pi's venv is pinned whole: image-build/constraints.txt
holds every runtime dependency of Tableside and theirs, at the versions this checkout's tests
ran with, and image-build/wheels downloads with it; lgpio at 0.2.2.0 for aarch64."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
LOCK = ROOT / "image-build" / "lock.py"


def _lock() -> ModuleType:
    spec = importlib.util.spec_from_file_location("image_lock", LOCK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["image_lock"] = module
    spec.loader.exec_module(module)
    return module


def _file() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "image-build" / "constraints.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            found = re.fullmatch(r"([a-z0-9-]+)==([A-Za-z0-9.+-]+)", line)
            assert found, f"not a pin: {line!r}"
            pins[found.group(1)] = found.group(2)
    return pins


def test_every_runtime_dependency_is_pinned_at_the_version_the_tests_ran_with() -> None:
    lock = _lock()
    wanted, written = lock.pins(), _file()
    assert set(wanted) == set(written), ("image-build/constraints.txt is out of date: run "
                                         ".venv/bin/python image-build/lock.py --write")
    differ = {k: (written[k], wanted[k]) for k in wanted
              if k not in lock.TOOLS and written[k] != wanted[k]}
    assert differ == {}, differ
    # Tableside's own pins, the Pi's GPIO among them.
    assert {k: written[k] for k in ("kivy", "gpiozero", "pyserial", "sqlite-utils", "lgpio")} \
        == {"kivy": "2.3.1", "gpiozero": "2.0.1", "pyserial": "3.5",
            "sqlite-utils": "3.39.1", "lgpio": "0.2.2.0"}
    # Their own dependencies too, which pyproject.toml does not name.
    assert {"anyio", "certifi", "cffi", "h11", "httpcore", "idna", "psycopg-binary"} <= set(
        written)


def test_the_wheels_are_downloaded_with_the_constraints() -> None:
    text = (ROOT / "image-build" / "wheels").read_text()
    assert '-c "$top/image-build/constraints.txt"' in text
    assert "--platform manylinux_2_34_aarch64" in text  # lgpio's real wheel, not its stub
