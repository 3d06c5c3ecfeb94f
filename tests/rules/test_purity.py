"""docs/architecture.md: `kiosk/rules` is pure Python: no Kivy, gpiozero, serial, SQLite, clock or
randomness imported. Cards come in as inputs; the rules never draw them themselves."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parents[2] / "kiosk" / "rules"
FORBIDDEN = frozenset({
    "kivy", "gpiozero", "serial", "sqlite_utils", "sqlite3", "httpx", "random", "time",
    "datetime", "os", "socket", "threading", "asyncio",
    # No translation in the rules: a refusal keeps its English template and values
    # (NotAllowed.of) and the screens translate it (kiosk/i18n.py, `said`).
    "gettext", "babel", "locale",
})
# kiosk.* imports must stay inside kiosk.rules, so nothing impure comes in through another
# package (kiosk.shoe, for one, imports random)
ALLOWED_KIOSK_PREFIX = "kiosk.rules"


def imported_modules(source: str, package: str = "kiosk.rules") -> set[str]:
    """Every module a source file imports, dotted, relative imports resolved."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                found.add(".".join([*base, node.module] if node.module else base))
            else:
                assert node.module is not None
                found.add(node.module)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name | ast.Attribute)
              and getattr(node.func, "id", getattr(node.func, "attr", "")) in (
                  "__import__", "import_module")
              and node.args and isinstance(node.args[0], ast.Constant)):
            found.add(str(node.args[0].value))
    return found


def impure(modules: set[str]) -> set[str]:
    return {m for m in modules if m.split(".")[0] in FORBIDDEN
            or (m.split(".")[0] == "kiosk" and not m.startswith(ALLOWED_KIOSK_PREFIX))}


RULE_FILES = sorted(RULES.rglob("*.py"))


def test_the_rules_package_is_there():
    names = {str(p.relative_to(RULES)) for p in RULE_FILES}
    assert {"baccarat/engine.py", "money.py", "cards.py", "operations.py", "baccarat/odds.py",
            "baccarat/outcomes.py", "errors.py", "registry.py", "game.py"} <= names


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: p.name)
def test_rules_module_is_pure(path):
    # docs/architecture.md: game rules are pure (no device, store, clock or randomness)
    modules = imported_modules(path.read_text(encoding="utf-8"))
    assert impure(modules) == set(), path.name


@pytest.mark.parametrize(("source", "caught"), [
    ("import random", {"random"}),
    ("import os.path", {"os.path"}),
    ("from datetime import datetime", {"datetime"}),
    ("from time import monotonic", {"time"}),
    ("import sqlite3 as db", {"sqlite3"}),
    ("from kivy.clock import Clock", {"kivy.clock"}),
    ("def f():\n    import serial\n", {"serial"}),
    ("import importlib\nimportlib.import_module('gpiozero')", {"gpiozero"}),
    ("__import__('socket')", {"socket"}),
    ("from kiosk.shoe import SeededShoe", {"kiosk.shoe"}),
    ("from kiosk.store import journal", {"kiosk.store"}),
    ("from ..store import journal", {"kiosk.store"}),
    ("from fractions import Fraction\nfrom .cards import Card\nimport dataclasses", set()),
])
def test_the_checker_catches_impure_imports(source, caught):
    # the purity test itself must be able to fail
    assert impure(imported_modules(source)) == caught


PROBE = r"""
import json, sys
opened = []
sys.addaudithook(lambda event, args: opened.append(str(args[0])) if event == "open" else None)
meta, hooks = list(sys.meta_path), list(sys.path_hooks)
import kiosk.rules, kiosk.rules.registry
import kiosk.rules.baccarat.engine, kiosk.rules.blackjack.engine
print(json.dumps({
    "meta_path_added": [repr(f) for f in sys.meta_path if f not in meta],
    "path_hooks_added": [repr(h) for h in sys.path_hooks if h not in hooks],
    "opened_outside_the_source": sorted({p for p in opened if p.endswith((".so", ".pyd"))
                                         or "/build/" in p}),
    "impure_modules": sorted(m for m in sys.modules
                             if m.split(".")[0] in ("kivy", "gpiozero", "serial",
                                                    "sqlite_utils", "sqlite3", "random",
                                                    "httpx", "hardware")),
}))
"""


def test_importing_the_rules_has_no_side_effects() -> None:
    """In a clean interpreter: no import hook installed, nothing read from a build directory
    or a compiled extension of ours, nothing of devices, storage or randomness imported."""
    import json
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    proc = subprocess.run([sys.executable, "-c", PROBE], cwd=root, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    found = json.loads(proc.stdout)
    assert found == {"meta_path_added": [], "path_hooks_added": [],
                     "opened_outside_the_source": [], "impure_modules": []}
    compiled = [p.name for p in (root / "kiosk").rglob("*") if p.suffix in (".so", ".pyd")]
    assert compiled == []
