"""The engine's bytecode for the worker (engine_bytecode.py, build_site.build_bytecode).

The compile runs in Pyodide's Python at build time, so here (CPython >= 3.11) the archive is
checked by its form: one ``.pyc`` per module of the wheel and nothing else, each a hash-based
``.pyc`` of one and the same Python that is not this one. That it imports and plays is the
browser suite's: every plain boot of the engine worker starts from it.
"""
from __future__ import annotations

import ast
import importlib.util
import json
import marshal
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import engine_bytecode  # noqa: E402

SOURCE = b'''"""The module's docstring."""
import math


class Shape:
    """A class's docstring."""

    def area(self):
        """Only a docstring: the body keeps a pass."""


def circle(r):
    """A function's docstring."""
    assert r >= 0, "a radius is not negative"
    return math.pi * r * r
'''


def _strings(code) -> set[str]:
    """Every string constant of ``code`` and of the code objects inside it."""
    out = set()
    for const in code.co_consts:
        if isinstance(const, str):
            out.add(const)
        elif hasattr(const, "co_consts"):
            out |= _strings(const)
    return out


def test_docstrings_go_and_the_code_still_runs():
    tree = engine_bytecode.without_docstrings(ast.parse(SOURCE))
    code = compile(tree, "shape.py", "exec")
    assert not {s for s in _strings(code) if "docstring" in s}
    assert "a radius is not negative" in _strings(code)         # asserts stay
    namespace: dict = {}
    exec(code, namespace)
    assert namespace["circle"](1.0) == pytest.approx(3.141592653589793)
    assert namespace["Shape"]().area() is None
    assert namespace["circle"].__doc__ is None
    with pytest.raises(AssertionError, match="not negative"):
        namespace["circle"](-1)


def test_a_pyc_is_hash_based_and_unchecked_with_this_pythons_code():
    data = engine_bytecode.pyc(SOURCE, "shape.py")
    assert data[:4] == importlib.util.MAGIC_NUMBER
    assert int.from_bytes(data[4:8], "little") == engine_bytecode.UNCHECKED_HASH
    assert data[8:16] == importlib.util.source_hash(SOURCE)
    namespace: dict = {}
    exec(marshal.loads(data[16:]), namespace)
    assert namespace["circle"](2.0) == pytest.approx(12.566370614359172)


def test_the_archive_is_sorted_stored_once_per_module_and_reproducible(tmp_path):
    wheel = tmp_path / "pkg-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        zf.writestr("pkg/__init__.py", "")
        zf.writestr("pkg/shape.py", SOURCE)
        zf.writestr("pkg-1.0.dist-info/METADATA", "Name: pkg\n")
    first, second = tmp_path / "a.zip", tmp_path / "b.zip"
    assert engine_bytecode.compile_wheel(str(wheel), str(first)) == 2
    engine_bytecode.compile_wheel(str(wheel), str(second))
    assert first.read_bytes() == second.read_bytes()
    with zipfile.ZipFile(first) as zf:
        assert zf.namelist() == ["pkg/__init__.pyc", "pkg/shape.pyc"]
        assert {i.date_time for i in zf.infolist()} == {engine_bytecode.ZIP_EPOCH}


def test_the_shipped_bytecode_is_the_wheels_modules_for_pyodides_python():
    dist = ROOT / "dist"
    if not (dist / "build.json").is_file():
        pytest.skip("dist/ not built (run `python build_site.py build`)")
    info = json.loads((dist / "build.json").read_text())
    with zipfile.ZipFile(dist / info["wheel"]) as whl:
        modules = sorted(n + "c" for n in whl.namelist() if n.endswith(".py"))
    with zipfile.ZipFile(dist / info["engine"]) as zf:
        assert zf.namelist() == modules
        headers = {zf.read(n)[:8] for n in modules}
    assert len(modules) > 40
    # one Python wrote them all, hash-based and unchecked, and it is not this one (Pyodide's)
    assert len(headers) == 1
    (header,) = headers
    assert int.from_bytes(header[4:8], "little") == engine_bytecode.UNCHECKED_HASH
    assert header[:4] != importlib.util.MAGIC_NUMBER
