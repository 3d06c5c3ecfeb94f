"""Every bench script answers --help with what it measures, and measures nothing then (a
technician asking how to run one must not start a ten-minute load on the table's pit)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = sorted(p for p in (ROOT / "bench").glob("*.py")
                 if 'if __name__ == "__main__":' in p.read_text(encoding="utf-8"))


def test_every_script_with_a_main_is_checked() -> None:
    names = {p.name for p in SCRIPTS}
    assert {"sync.py", "anchor.py", "arizona.py", "engine.py", "stopping.py"} <= names


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_help_says_what_it_measures_and_runs_nothing(script: Path) -> None:
    out = subprocess.run([sys.executable, str(script), "--help"], capture_output=True,
                         text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    doc = ast.get_docstring(ast.parse(script.read_text(encoding="utf-8"))) or ""
    if "usage:" in out.stdout:  # an argparse script: its usage, then its options
        assert out.stdout.startswith("usage:")
    else:  # the docstring alone: no figure was printed, so nothing was measured
        assert out.stdout.strip() == doc.strip()
