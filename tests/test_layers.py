"""The core's imports point one way (docs/architecture.md, "Packages, and what each imports"):
the rules import no other package, the journal only the rules, the drivers the rules and two
small helpers, the session the rules, the journal and the drivers; and no cycle among them.
Every import is read, those inside functions too."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROJECT = ("kiosk", "hardware", "pit")

ALLOWED = {
    "kiosk.rules": {"kiosk.rules"},
    "kiosk.store": {"kiosk.rules", "kiosk.store"},
    "kiosk.shoe": {"kiosk.rules"},
    "kiosk.stopping": set(),
    "hardware": {"hardware", "kiosk.rules", "kiosk.shoe", "kiosk.stopping"},
    "kiosk.table": {"kiosk.rules", "kiosk.store", "kiosk.table", "hardware"},
}
"""Each core part, and the parts it may import."""


def _part(module: str) -> str:
    """The part of the project `module` belongs to: the longest name in ALLOWED it is in, or
    its package (kiosk.ui, kiosk.config, pit, ...)."""
    for name in sorted(ALLOWED, key=len, reverse=True):
        if module == name or module.startswith(name + "."):
            return name
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "kiosk" else parts[0]


def _sources(part: str) -> list[Path]:
    path = ROOT / part.replace(".", "/")
    return [path.with_suffix(".py")] if path.with_suffix(".py").is_file() else sorted(
        path.rglob("*.py"))


def imports(part: str) -> dict[str, set[str]]:
    """The project's modules each source file of `part` imports: {other part: {file, ...}}."""
    out: dict[str, set[str]] = {}
    for path in _sources(part):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module] if isinstance(node, ast.ImportFrom) and node.module
                     and node.level == 0 else [])
            for name in names:
                if name.split(".")[0] in PROJECT:
                    out.setdefault(_part(name), set()).add(str(path.relative_to(ROOT)))
    return out


def test_each_core_part_imports_only_what_it_may() -> None:
    wrong = {part: {other: sorted(files) for other, files in imports(part).items()
                    if other not in allowed}
             for part, allowed in ALLOWED.items()}
    assert {p: w for p, w in wrong.items() if w} == {}


def test_the_core_has_no_import_cycle() -> None:
    graph = {part: set(imports(part)) - {part} for part in ALLOWED}
    done: set[str] = set()

    def visit(part: str, path: tuple[str, ...]) -> None:
        assert part not in path, " -> ".join((*path, part))
        if part in done:
            return
        for other in graph.get(part, ()):
            visit(other, (*path, part))
        done.add(part)

    for part in graph:
        visit(part, ())


def test_the_check_reads_every_import() -> None:
    # The session's imports are all seen; the rules' registry imports the screens by name
    # only (importlib, when the UI side asks), never with an import statement.
    found = imports("kiosk.table")
    assert {"kiosk.rules", "kiosk.store", "hardware"} <= set(found)
    assert "kiosk.ui" not in imports("kiosk.rules")
    assert _part("kiosk.ui.games") == "kiosk.ui" and _part("kiosk.rules.game") == "kiosk.rules"
