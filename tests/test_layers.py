"""The package's layers: every import in ``spades/`` (function-level ones included) goes down
or sideways, never up, and no modules import each other in a circle.

Each module is given a layer below (a new module must be placed there, or this test fails).
An import ``a -> b`` is allowed when ``b``'s layer is at most ``a``'s; modules of one layer may
import each other but never in a circle. Packages' ``__init__`` modules count as modules of
their own (``from . import x`` of a submodule is an import of that submodule). Imports under
``if TYPE_CHECKING:`` are for annotations only (never run) and are not counted.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "spades"

#: Bottom to top (README, "Layers"). A name ending in "." covers the package's every module.
LAYERS: list[tuple[str, ...]] = [
    ("spades.errors",),
    ("spades.safejson",),
    ("spades.cards",),
    ("spades.rules",),                                  # the house-rule options
    ("spades.legal", "spades.version"),                 # the rules of play
    ("spades.scoring", "spades.view"),
    ("spades.record",),
    ("spades.start",),
    ("spades.saveformat",),                             # the save format, handed the match
    ("spades.match",),
    ("spades.save", "spades.notation"),
    ("spades",),                                        # the engine's public face
    ("spades.solver.memo",),
    ("spades.solver.position",),
    ("spades.solver.quick", "spades.solver.table", "spades.solver.moves"),
    ("spades.solver.state",),
    ("spades.solver.margin",),
    ("spades.solver.search",),
    ("spades.solver",),
    ("spades.solver.review",),
    ("spades.ai.",),
    ("spades.newmatch",),
    ("spades.session",),
    ("spades.bridge.", "spades.cli."),
    ("spades.__main__",),
]
#: Pairs of sibling layers' packages that must not import each other at all.
APART = [("spades.bridge", "spades.cli")]


def module_names(package: Path = PACKAGE) -> dict[str, Path]:
    """Every module of the package by dotted name (``__init__`` as the package's own name)."""
    out = {}
    for path in sorted(package.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def imports_of(name: str, path: Path, modules: set[str]) -> set[str]:
    """The package's modules that module ``name`` imports anywhere in its code (functions too)."""
    is_package = path.name == "__init__.py"
    here = name.split(".") if is_package else name.split(".")[:-1]
    found: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {id(n) for block in ast.walk(tree) if isinstance(block, ast.If) and _is_type_checking(block.test)
                   for stmt in block.body for n in ast.walk(stmt)}
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "spades")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(here[:len(here) - node.level + 1] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            if base.split(".")[0] != "spades":
                continue
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if sub in modules else base)
    return {m for m in found if m in modules and m != name}


def _is_type_checking(test: ast.expr) -> bool:
    """Whether an ``if`` tests ``TYPE_CHECKING`` (or ``typing.TYPE_CHECKING``)."""
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def layer_of(name: str) -> int:
    """The index of ``name``'s layer in :data:`LAYERS` (a ``KeyError`` if it has none)."""
    for i, names in enumerate(LAYERS):
        for entry in names:
            if name == entry or (entry.endswith(".") and (name + ".").startswith(entry)):
                return i
    raise KeyError(name)


def upward(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """Imports from a lower layer to a higher one, and between packages kept :data:`APART`."""
    bad = [(a, b) for a, deps in graph.items() for b in deps if layer_of(b) > layer_of(a)]
    for x, y in APART:
        bad += [(a, b) for a, deps in graph.items() for b in deps
                if (a.startswith(x) and b.startswith(y)) or (a.startswith(y) and b.startswith(x))]
    return sorted(bad)


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected set of more than one module (Tarjan), each a circle of imports."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def package_graph() -> dict[str, set[str]]:
    modules = module_names()
    return {name: imports_of(name, path, set(modules)) for name, path in modules.items()}


def test_every_module_has_a_layer():
    missing = []
    for name in module_names():
        try:
            layer_of(name)
        except KeyError:
            missing.append(name)
    assert missing == []


def test_no_import_goes_up_a_layer():
    assert upward(package_graph()) == []


def test_no_circle_of_imports():
    assert cycles(package_graph()) == []


def test_the_graph_sees_relative_function_level_and_submodule_imports():
    graph = package_graph()
    assert "spades.solver.moves" in graph["spades.solver.state"]          # from .moves import …
    assert "spades.cli.arena" in graph["spades.cli"]                      # inside main()
    assert "spades.solver.review" in graph["spades.bridge.analysis"]      # from ..solver import review
    assert "spades.ai.sampling" in graph["spades.ai.hardbid"]
    assert "spades.saveformat" in graph["spades.match"] and "spades.match" not in graph["spades.saveformat"]


def test_the_checks_fail_on_an_upward_import_and_on_a_circle(tmp_path):
    package = tmp_path / "spades"
    (package / "ai").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "cards.py").write_text("def f():\n    from .ai import hard\n")      # engine -> ai, in a function
    (package / "ai" / "__init__.py").write_text("")
    (package / "ai" / "hard.py").write_text("from . import hardbid\n")
    (package / "ai" / "hardbid.py").write_text("from .hard import x\n")
    (package / "view.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .ai import hard\n")
    modules = module_names(package)
    graph = {name: imports_of(name, path, set(modules)) for name, path in modules.items()}
    assert upward(graph) == [("spades.cards", "spades.ai.hard")]
    assert cycles(graph) == [["spades.ai.hard", "spades.ai.hardbid"]]


@pytest.mark.parametrize("name", ["spades.newthing", "spades.solver.extra"])
def test_a_module_without_a_layer_is_reported(name):
    with pytest.raises(KeyError):
        layer_of(name)
