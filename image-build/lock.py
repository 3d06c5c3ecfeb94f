"""The versions a table's venv installs: Tableside's runtime dependencies and theirs, each
pinned to the version this checkout's tests ran with (the virtualenv `scripts/test` made),
for the Pi (aarch64, CPython 3.11, Linux).

    .venv/bin/python image-build/lock.py            print the pins
    .venv/bin/python image-build/lock.py --write    write image-build/constraints.txt

image-build/wheels downloads the Pi's wheels with `-c constraints.txt`, so the image and an
update bundle install exactly these, never what PyPI serves on the day of the build;
tests/image/test_constraints.py fails when a pin in pyproject.toml moved and this file did
not follow.
"""

from __future__ import annotations

import sys
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

HERE = Path(__file__).resolve().parent
CONSTRAINTS = HERE / "constraints.txt"
PI = {**default_environment(), "platform_machine": "aarch64", "sys_platform": "linux",
      "platform_system": "Linux", "os_name": "posix", "implementation_name": "cpython",
      "platform_python_implementation": "CPython", "python_version": "3.11"}
"""The Pi's environment markers: a requirement for aarch64 only counts, one for Windows not."""
ONLY_ON_THE_PI = {"lgpio": "0.2.2.0"}
"""Wheels this machine (x86_64) does not install, pinned as pyproject.toml pins them."""
TOOLS = frozenset({"pip", "setuptools", "wheel"})
"""Packaging tools some dependencies name: pinned like the rest, but `scripts/test` upgrades
pip in its venv, so their versions here are not held to the venv's (the test skips them)."""


def _applies(req: Requirement, extras: tuple[str, ...]) -> bool:
    if req.marker is None:
        return True
    return any(req.marker.evaluate({**PI, "extra": e}) for e in ("", *extras))


def pins(project: str = "tableside") -> dict[str, str]:
    """Every distribution the project needs at run time on the Pi, by name: its version."""
    found: dict[str, str] = {}
    todo: list[tuple[str, tuple[str, ...]]] = [(project, ())]
    done: set[tuple[str, tuple[str, ...]]] = set()
    while todo:
        name, extras = todo.pop()
        if (name, extras) in done:
            continue
        done.add((name, extras))
        key = canonicalize_name(name)
        if key in ONLY_ON_THE_PI:
            found[key] = ONLY_ON_THE_PI[key]
            continue
        try:
            dist = distribution(name)
        except PackageNotFoundError:
            raise SystemExit(f"lock: {name} is not installed here: run scripts/test first, "
                             f"or add it to ONLY_ON_THE_PI") from None
        if key != canonicalize_name(project):
            found[key] = dist.version
        for line in dist.requires or []:
            req = Requirement(line)
            if _applies(req, extras):
                todo.append((req.name, tuple(sorted(req.extras))))
    return dict(sorted(found.items()))


def text() -> str:
    head = ("# The Pi's venv, every runtime dependency pinned (image-build/lock.py writes it; do\n"
            "# not edit by hand). image-build/wheels downloads with -c this file.\n")
    return head + "".join(f"{name}=={version}\n" for name, version in pins().items())


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        CONSTRAINTS.write_text(text())
        print(f"wrote {CONSTRAINTS}")
    else:
        print(text(), end="")
