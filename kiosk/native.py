"""The blackjack engine compiled with mypyc, used only while it matches the source.

The engine (kiosk/rules/blackjack) is typed Python checked by `mypy --strict`; mypyc compiles
those same files to C extension modules, which run the same rules 2.2 to 2.4 times as fast
(bench/blackjack_engine.py; docs/compiled-engine.md). Nothing else changes: the journal
records (operations.py) stay ordinary Python, and every test runs against what the kiosk runs.

`python -c 'import sys; from kiosk.native import main; sys.exit(main())'` builds into
build/native/ (scripts/bootstrap.sh runs it; it needs gcc and the Python headers, and says
why and carries on without it when they are missing; one build at a time, under a lock).
`install()`, called when the `kiosk` package is imported, puts the compiled modules ahead of
the source only when the build's fingerprint (the compiled sources, the build flags, the
interpreter, the platform) still matches; an edited engine.py, a stale or half-written build,
or TABLESIDE_PURE=1 in the environment all mean the source runs as it is, so a build can
never be out of date.
"""

from __future__ import annotations

import fcntl
import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / "build" / "native"
STAMP = "FINGERPRINT"
# The hot path of a blackjack round: the engine, its values, and the basic strategy the odds
# simulation asks at every decision. The records (operations.py) stay interpreted: they
# subclass the journal's Operation, which every game shares.
SOURCES = (*(f"kiosk/rules/blackjack/{name}.py" for name in (
    "engine", "hands", "settle", "cut", "house", "strategy")), "kiosk/rules/cards.py",
    "kiosk/shoe.py", "kiosk/house_edge.py")
PURE_ENV = "TABLESIDE_PURE"


def _inputs(root: Path) -> list[str]:
    """What the compiled code is made from and checks types against: SOURCES and every
    module of the rules they import (operations, money, errors ...)."""
    rules = sorted(p.relative_to(root).as_posix() for p in (root / "kiosk/rules").rglob("*.py"))
    return sorted({*SOURCES, *rules})


def fingerprint(root: Path = ROOT) -> str:
    """What a build must match: its sources and the rules they import, how they are built,
    the interpreter and the platform."""
    h = hashlib.sha256()
    h.update(f"{sys.version}|{sysconfig.get_config_var('EXT_SUFFIX')}|".encode())
    h.update(_SETUP.encode())
    for rel in _inputs(root):
        h.update(rel.encode() + b"\0" + (root / rel).read_bytes() + b"\0")
    return h.hexdigest()


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def write_manifest(build: Path, root: Path = ROOT) -> None:
    """The build's FINGERPRINT: the fingerprint, then each compiled file (mypyc's shared
    runtime included) with its size and sha256, so a truncated or missing file is noticed."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    lines = [fingerprint(root)]
    for f in sorted(build.rglob(f"*{suffix}")):
        lines.append(f"{f.relative_to(build).as_posix()} {f.stat().st_size} {_digest(f)}")
    (build / STAMP).write_text("\n".join(lines) + "\n")


def current_build(root: Path = ROOT) -> dict[str, str] | None:
    """Module name -> extension file, if a whole build matching the source is there (every
    file its manifest lists, whole and unchanged); else None."""
    build = root / "build" / "native"
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    try:
        first, *listed = (build / STAMP).read_text().splitlines()
        if first != fingerprint(root):
            return None
        files: dict[str, str] = {}
        for line in listed:
            rel, size, digest = line.split(" ")
            f = build / rel
            if f.stat().st_size != int(size) or _digest(f) != digest:
                return None
            files[rel[: -len(suffix)].replace("/", ".")] = str(f)
    except (OSError, ValueError):
        return None
    wanted = {rel[:-3].replace("/", ".") for rel in SOURCES}
    return files if wanted <= files.keys() else None


class _CompiledFinder(importlib.abc.MetaPathFinder):
    """Finds the compiled modules (and mypyc's shared runtime) ahead of the source."""

    def __init__(self, files: dict[str, str]) -> None:
        self.files = files

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        file = self.files.get(fullname)
        if file is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, file)
        return importlib.util.spec_from_file_location(fullname, file, loader=loader)


def active() -> bool:
    """Whether the compiled engine is the one imported (or will be)."""
    return any(isinstance(f, _CompiledFinder) for f in sys.meta_path)


def install() -> bool:
    """Use the compiled engine when a build matches the source; returns whether it does."""
    if os.environ.get(PURE_ENV) or active():
        return active()
    files = current_build()
    if files is None:
        return False
    sys.meta_path.insert(0, _CompiledFinder(files))
    return True


_SETUP = """
import sys
from setuptools import setup
from mypyc.build import mypycify
out, work, *paths = sys.argv[1:]
modules = mypycify(paths, opt_level="3", target_dir=work)
for m in modules:  # floats as Python computes them: no fused multiply-add (the Pi's gcc would)
    m.extra_compile_args.append("-ffp-contract=off")
setup(name="tableside-native", script_args=["-q", "build_ext", "--build-lib", out,
      "--build-temp", work, "--parallel", "2"], ext_modules=modules)
"""


def build(root: Path = ROOT, quiet: bool = True) -> str:
    """Compile SOURCES into build/native (atomically: a failed build leaves none); returns
    what happened in a line."""
    try:
        (root / "build").mkdir(exist_ok=True)
        lock = open(root / "build" / "native.lock", "w")  # noqa: SIM115 - held to the end
    except OSError:
        if current_build(root) is not None:  # a read-only checkout, built already
            return "the compiled engine is up to date"
        raise
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # a second bootstrap waits, then finds it built
        return _build(root, quiet)


def _sync_tree(top: Path) -> None:
    """Every file and folder of `top` on the disk (an SD card can lose a fresh rename)."""
    for p in sorted(top.rglob("*"), reverse=True):
        fd = os.open(p, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _build(root: Path, quiet: bool) -> str:
    want = fingerprint(root)
    if current_build(root) is not None:
        return "the compiled engine is up to date"
    target = root / "build" / "native"
    work = root / "build" / "native-work"
    fresh = root / "build" / "native-new"
    for d in (work, fresh):
        shutil.rmtree(d, ignore_errors=True)
    work.mkdir(parents=True)
    result = subprocess.run(
        [sys.executable, "-c", _SETUP, str(fresh), str(work), *SOURCES],
        cwd=root, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        shutil.rmtree(fresh, ignore_errors=True)
        tail = (result.stderr or result.stdout).strip().splitlines()[-5:]
        raise RuntimeError("mypyc could not compile the engine:\n" + "\n".join(tail))
    write_manifest(fresh, root)
    if (fresh / STAMP).read_text().split("\n", 1)[0] != want:
        shutil.rmtree(fresh, ignore_errors=True)
        raise RuntimeError("the engine's source changed while it was compiled: run it again")
    _sync_tree(fresh)
    shutil.rmtree(target, ignore_errors=True)
    fresh.rename(target)
    fd = os.open(target.parent, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    shutil.rmtree(work, ignore_errors=True)
    if not quiet:
        print(result.stdout, end="")
    return f"compiled {len(SOURCES)} engine modules into {target.relative_to(root)}"


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args == ["--check"]:
        ok = current_build() is not None
        print("the compiled engine matches the source" if ok
              else "no compiled engine matches the source: the engine runs as Python")
        return 0 if ok else 1
    try:
        print(f"tableside: {build(quiet='-v' not in args)}", file=sys.stderr)
    except (RuntimeError, OSError) as exc:
        print(f"tableside: {exc}\ntableside: the engine runs as plain Python (slower, the "
              "same rules)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
