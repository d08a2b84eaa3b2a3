"""The import graph of ``fracas``: three floors, no import up a floor, no cycle.

Every module under ``src/fracas`` is read with :mod:`ast` (nothing is imported).
An import counts wherever it stands -- at module level or inside a function -- since
either runs sooner or later; only imports under ``if TYPE_CHECKING:`` are exempt
(they never run).  ``from fracas.x import y`` is an import of ``fracas.x.y`` when that
is a module, else of ``fracas.x``.  The floors, from the bottom:

1. **core**: ``fracas.core``, the package root ``fracas`` (which re-exports the
   core's names) and ``fracas._compiled`` (which loads the compiled build or the
   source).  It knows no rule set, no file format and no front end.
2. **rule sets**, on two tiers:

   a. the *shared layers* every rule set and front end may use, which know no rule
      set by name (they find one through the registry): ``fracas.scenario``
      (scenario files and saved logs), ``fracas.odds`` (exact odds),
      ``fracas.testing`` (the conformance kit), ``fracas.ai`` (the search policy a
      rule set offers as ``policy: search``);
   b. the rule sets, ``fracas.rules.*``; one rule set never imports another.

3. **interfaces**: ``fracas.cli`` (and ``python -m fracas``), ``fracas.web``,
   ``fracas.sim``, ``fracas.rl``, ``fracas.store``.  They may import each other
   (the console serves a store), never in a cycle.

An import may go down a floor (or tier) or stay on it; an import up is refused, and
so is any cycle between modules, on any floor.  A failure names the file and line of
every offending import.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import fracas

SRC = Path(fracas.__file__).resolve().parent

#: Floor of each top-level part, bottom first; tiers of the middle floor as halves.
FLOORS: dict[str, float] = {
    "fracas": 1,
    "fracas._compiled": 1,
    "fracas.core": 1,
    "fracas.scenario": 2,
    "fracas.odds": 2,
    "fracas.testing": 2,
    "fracas.ai": 2,
    "fracas.rules": 2.5,
    "fracas.cli": 3,
    "fracas.__main__": 3,
    "fracas.web": 3,
    "fracas.sim": 3,
    "fracas.rl": 3,
    "fracas.store": 3,
}
_NAMES = {1: "core", 2: "shared layers", 2.5: "rule sets", 3: "interfaces"}



@dataclass(frozen=True)
class Import:
    """``source`` imports ``target`` at ``line`` of ``path``."""

    source: str
    target: str
    path: Path
    line: int

    def __str__(self) -> str:
        where = self.path.relative_to(SRC.parent) if self.path.is_relative_to(SRC.parent) \
            else self.path
        return f"{where}:{self.line}: {self.source} imports {self.target}"


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(SRC.rglob("*.py")):
        parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(name: str, path: Path, modules: dict[str, Path]) -> list[Import]:
    """Every import of a ``fracas`` module in one file, TYPE_CHECKING blocks left out."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[Import] = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking(child):
                for other in child.orelse:
                    visit_node(other)
                continue
            visit_node(child)

    def visit_node(node: ast.AST) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "fracas" or alias.name.startswith("fracas."):
                    found.append(Import(name, alias.name, path, node.lineno))
            return
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                kept = parts[:len(parts) - node.level + 1]
                base = ".".join([*kept, *([node.module] if node.module else [])])
            if base == "fracas" or base.startswith("fracas."):
                for alias in node.names:
                    full = f"{base}.{alias.name}"
                    found.append(Import(name, full if full in modules else base, path,
                                        node.lineno))
            return
        visit(node)

    visit(ast.parse(path.read_text(encoding="utf-8"), str(path)))
    return found


def _graph() -> tuple[dict[str, Path], list[Import]]:
    modules = _modules()
    edges = [edge for name, path in modules.items()
             for edge in _imports(name, path, modules)]
    return modules, edges


def _part(module: str) -> str:
    """The top-level part a module belongs to (a rule set is its own part)."""
    parts = module.split(".")
    if len(parts) >= 3 and parts[1] == "rules":
        return ".".join(parts[:3])
    return ".".join(parts[:2])


def floor(module: str) -> float:
    """The floor of ``module`` (see the module's docstring)."""
    part = _part(module)
    if part.startswith("fracas.rules"):
        return FLOORS["fracas.rules"]
    if part not in FLOORS:
        raise AssertionError(f"{module}: no floor is set for {part}; add it to FLOORS in "
                             "tests/test_layers.py (and say why in its docstring)")
    return FLOORS[part]


def upward_imports(edges: list[Import]) -> list[Import]:
    """Imports that run up a floor, or from one rule set into another."""
    def across_rule_sets(edge: Import) -> bool:
        source, target = _part(edge.source), _part(edge.target)
        return source != target and source.startswith("fracas.rules.") \
            and target.startswith("fracas.rules.")

    return [edge for edge in edges
            if floor(edge.target) > floor(edge.source) or across_rule_sets(edge)]


def cycles(modules: dict[str, Path], edges: list[Import]) -> list[list[Import]]:
    """One closed chain of imports for every group of modules that import each other."""
    graph: dict[str, dict[str, Import]] = defaultdict(dict)
    for edge in edges:
        if edge.target in modules:
            graph[edge.source].setdefault(edge.target, edge)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def connect(node: str) -> None:  # Tarjan's strongly connected components
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph[node]:
            if nxt not in index:
                connect(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.add(member)
                if member == node:
                    break
            if len(group) > 1 or node in graph[node]:
                groups.append(group)

    for module in sorted(modules):
        if module not in index:
            connect(module)
    return [_chain(graph, group) for group in groups]


def _chain(graph: dict[str, dict[str, Import]], group: set[str]) -> list[Import]:
    """The shortest closed chain of imports through the group's first module."""
    start = min(group)
    paths: dict[str, list[Import]] = {start: []}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for nxt, edge in sorted(graph[node].items()):
            if nxt == start:
                return [*paths[node], edge]
            if nxt in group and nxt not in paths:
                paths[nxt] = [*paths[node], edge]
                queue.append(nxt)
    raise AssertionError(f"no cycle through {start}")  # pragma: no cover


def test_every_module_has_a_floor() -> None:
    for module in _modules():
        floor(module)


def test_no_import_runs_up_a_floor() -> None:
    _, edges = _graph()
    bad = upward_imports(edges)
    assert not bad, "imports up a floor (core < shared layers < rule sets < interfaces):\n" + \
        "\n".join(f"{edge} ({_NAMES[floor(edge.source)]} -> {_NAMES[floor(edge.target)]})"
                  for edge in bad)


def test_no_import_cycles() -> None:
    modules, edges = _graph()
    found = cycles(modules, edges)
    assert not found, "import cycles:\n" + "\n\n".join(
        "\n".join(str(edge) for edge in chain) for chain in found)


def test_the_checker_sees_function_imports_and_skips_type_checking(tmp_path: Path) -> None:
    source = tmp_path / "probe.py"
    source.write_text("from typing import TYPE_CHECKING\n"
                      "if TYPE_CHECKING:\n    from fracas.cli import app\n"
                      "def f():\n    from fracas.scenario import loader\n"
                      "    import fracas.core.dice\n", encoding="utf-8")
    modules = {"fracas.scenario.loader": source, "fracas.core.dice": source}
    found = [(e.target, e.line) for e in _imports("fracas.core.probe", source, modules)]
    assert found == [("fracas.scenario.loader", 5), ("fracas.core.dice", 6)]


def test_the_checker_finds_a_cycle_and_an_upward_import(tmp_path: Path) -> None:
    here = tmp_path / "x.py"
    edges = [Import("fracas.core.a", "fracas.core.b", here, 1),
             Import("fracas.core.b", "fracas.core.a", here, 2),
             Import("fracas.core.b", "fracas.cli.app", here, 3)]
    modules = {"fracas.core.a": here, "fracas.core.b": here, "fracas.cli.app": here}
    assert [[e.line for e in chain] for chain in cycles(modules, edges)] == [[1, 2]]
    assert [e.line for e in upward_imports(edges)] == [3]
