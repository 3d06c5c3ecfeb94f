"""image-build/wheels builds Tableside's own wheel from the project's files alone: a build's
root filesystem under build/ (with /proc mounted in it while mmdebstrap runs, and links that
lead back up the tree) is never handed to pip, whose setuptools would walk all of it."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# pip for the script: `wheel` lists the folder it was given (its last argument) and leaves a
# wheel where -w says; `install` and `download` do nothing (no network here).
FAKE_PIP = """#!/bin/sh
case "$2" in
  wheel)
    for a in "$@"; do src="$a"; done
    (cd "$src" && find . -mindepth 1 | LC_ALL=C sort) > "$(dirname "$0")/../given.txt"
    : > "$5/tableside-9.9.9-py3-none-any.whl";;
esac
exit 0
"""


def _tree(tmp_path: Path) -> Path:
    tree = tmp_path / "tree"
    (tree / "image-build").mkdir(parents=True)
    shutil.copy2(ROOT / "image-build" / "wheels", tree / "image-build" / "wheels")
    shutil.copy2(ROOT / "image-build" / "constraints.txt", tree / "image-build")
    (tree / "pyproject.toml").write_text('[project]\nname = "tableside"\n')
    (tree / "kiosk").mkdir()
    (tree / "kiosk" / "__init__.py").write_text("")
    (tree / ".gitignore").write_text("build/\n.venv/\nartifacts/\n")
    rootfs = tree / "build" / "image" / "rootfs"
    (rootfs / "usr" / "bin").mkdir(parents=True)
    os.symlink(".", rootfs / "usr" / "bin" / "X11")  # as Debian's x11-common has it
    os.symlink("/", rootfs / "host")  # as /proc/self/root is, while mmdebstrap runs
    (rootfs / "etc").mkdir()
    (rootfs / "etc" / "hostname").write_text("tableside\n")
    env = tmp_path / "env"
    (env / "bin").mkdir(parents=True)
    (env / "bin" / "pip").write_text(FAKE_PIP)
    (env / "bin" / "pip").chmod(0o755)
    return tree


def _given(tree: Path, tmp_path: Path) -> list[str]:
    proc = subprocess.run([str(tree / "image-build" / "wheels"), str(tmp_path / "out"),
                           str(tmp_path / "env")], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "out" / "tableside-9.9.9-py3-none-any.whl").exists()
    return (tmp_path / "env" / "given.txt").read_text().splitlines()


def test_the_own_wheel_is_built_from_the_checkouts_files_not_a_build_under_it(
        tmp_path: Path) -> None:
    if shutil.which("git") is None:
        pytest.skip("no git")
    tree = _tree(tmp_path)
    git = ["git", "-C", str(tree), "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "pyproject.toml", "kiosk", ".gitignore", "image-build"],
                   check=True)
    subprocess.run([*git, "commit", "-q", "-m", "tree"], check=True)
    (tree / "kiosk" / "new.py").write_text("")  # not committed yet: still the project's
    given = _given(tree, tmp_path)
    assert "./pyproject.toml" in given and "./kiosk/__init__.py" in given
    assert "./kiosk/new.py" in given
    assert not [p for p in given if p.startswith("./build")], given


def test_outside_a_git_checkout_build_venv_and_artifacts_are_left_out(tmp_path: Path) -> None:
    tree = _tree(tmp_path)
    (tree / ".venv").mkdir()
    (tree / ".venv" / "pyvenv.cfg").write_text("")
    given = _given(tree, tmp_path)
    assert "./pyproject.toml" in given and "./kiosk/__init__.py" in given
    assert not [p for p in given if p.startswith(("./build", "./.venv"))], given
