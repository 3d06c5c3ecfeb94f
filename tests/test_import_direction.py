"""Packages that don't import upward: the import graph of kiosk/, hardware/ and pit/ has no
circle, between files or between packages, so each package can be read, tested and changed
standing on the ones below it. Imports made only for type checking (`if TYPE_CHECKING:`)
are not counted: nothing runs them."""

from __future__ import annotations

import ast
from collections import defaultdict
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("kiosk", "hardware", "pit")


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for top in PACKAGES:
        for path in (ROOT / top).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def _type_checking_only(tree: ast.Module) -> set[int]:
    """Line numbers of imports inside `if TYPE_CHECKING:` blocks."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                for sub in ast.walk(inner):
                    if isinstance(sub, ast.Import | ast.ImportFrom):
                        lines.add(sub.lineno)
    return lines


@cache
def import_graph() -> dict[str, set[str]]:
    """Module -> the modules of ours it imports (at any depth of its code)."""
    modules = _modules()
    graph: dict[str, set[str]] = defaultdict(set)
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _type_checking_only(tree)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(tree):
            if not isinstance(node, ast.Import | ast.ImportFrom) or node.lineno in skip:
                continue
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    parts = parts[: len(parts) - node.level + 1]
                    base = ".".join([*parts, base] if base else parts)
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base
                           for a in node.names]
            for target in targets:
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    graph[name].add(target)
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one node (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(set(graph) | {n for targets in graph.values() for n in targets}):
        if node not in index:
            visit(node)
    return found


def room(module: str) -> str:
    """The package a module counts in: kiosk's first level (kiosk.table, kiosk.cli), or the
    top package (hardware, pit)."""
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "kiosk" else parts[0]


def package_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    rooms: dict[str, set[str]] = defaultdict(set)
    for source, targets in graph.items():
        for target in targets:
            if room(source) != room(target):
                rooms[room(source)].add(room(target))
    return rooms


def test_no_file_imports_one_that_imports_it_back():
    assert circles(import_graph()) == []


def test_no_package_imports_one_that_depends_on_it():
    assert circles(package_graph(import_graph())) == []


def test_the_check_finds_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles(package_graph({"kiosk.table.x": {"kiosk.ui.y"},
                                  "kiosk.ui.y": {"kiosk.table.z"}})) == [
        ["kiosk.table", "kiosk.ui"]]


def test_the_layers_the_architecture_names():
    """The rules import only themselves; the devices know no screen, store or sync; the pit
    knows no screen."""
    rooms = package_graph(import_graph())
    assert rooms["kiosk.rules"] == set()
    assert not rooms["hardware"] & {"kiosk.table", "kiosk.store", "kiosk.sync", "kiosk.ui",
                                    "kiosk.cli", "kiosk.console", "pit"}
    assert "kiosk.ui" not in rooms["pit"]


def test_no_module_takes_another_modules_private_name():
    """What another module needs of a module is public; `_` (gettext's) is not private."""
    taken = []
    for module, path in _modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and \
                    node.module.split(".")[0] in PACKAGES:
                taken += [f"{module} takes {node.module}.{alias.name}" for alias in node.names
                          if alias.name.startswith("_") and alias.name != "_"
                          and not alias.name.startswith("__")]
    assert taken == []
