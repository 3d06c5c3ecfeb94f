"""The pit and the table's sync share the signed configuration through kiosk/signed_config.py,
which imports neither: the pit never imports the table's sync (no cycle between them)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _imports(path: Path) -> set[str]:
    """Every module `path` imports, at the top or inside a function."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
    return found


def test_the_pit_never_imports_the_tables_sync() -> None:
    offending = {str(p.relative_to(ROOT)): sorted(m for m in _imports(p)
                                                  if m.startswith("kiosk.sync"))
                 for p in sorted((ROOT / "pit").glob("*.py"))}
    assert {k: v for k, v in offending.items() if v} == {}


def test_the_signed_configuration_imports_neither_side() -> None:
    mods = _imports(ROOT / "kiosk" / "signed_config.py")
    assert not [m for m in mods if m.startswith(("pit", "kiosk.sync"))], mods
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, pit.app, pit.cli, kiosk.signed_config; "
                               "print(sorted(m for m in sys.modules "
                               "if m.startswith('kiosk.sync')))"],
        cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert loaded.returncode == 0, loaded.stderr
    assert loaded.stdout.strip() == "[]"
