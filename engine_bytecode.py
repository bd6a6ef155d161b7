"""The engine as Pyodide's Python runs it: every module of the engine's wheel compiled to bytecode.

A plain start of the engine worker (a first visit, or a lost snapshot) imports every engine
module before the first bid; from sources, Python compiles each one first. This archive
holds each module compiled once at build time instead (``spades/x.pyc`` beside nothing:
Python imports a lone ``.pyc`` as it is), so the worker unpacks it into ``site-packages``
and imports without compiling. The wheel stays the form for pip and ``python.html``.

The bytecode is Python 3.14's, so the compile runs inside Pyodide's own Python
(``build_site.py`` starts it under Node with ``stdlib_node.mjs``). What it leaves out, since
nothing in the engine reads them at run time: docstrings (the wheel keeps the public ones)
and the column ranges of each line (line numbers stay, for tracebacks). Asserts stay.
Entries are sorted, stored with one fixed time and deflated: the same wheel gives the same bytes.

    python engine_bytecode.py --wheel spades.whl --out spades.pyc.zip   # Python 3.14 (Pyodide)
"""
from __future__ import annotations

import argparse
import ast
import importlib.util
import marshal
import sys
import zipfile
from collections.abc import Iterable, Iterator

#: The same time on every entry (zip's earliest), so a build is reproducible.
ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)
#: PEP 552 flags: a hash-based ``.pyc`` whose source is not checked (there is none beside it).
UNCHECKED_HASH = 0b01
#: Deflate level of the entries (the archive is sent as it is, already compressed).
DEFLATE_LEVEL = 9


#: Syntax whose first statement, if a string, is its docstring.
Documented = ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef
DOCUMENTED = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


def documented(tree: ast.Module) -> Iterator[Documented]:
    """The module, classes and functions of ``tree`` whose body opens with a docstring."""
    for node in ast.walk(tree):
        if isinstance(node, DOCUMENTED):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                yield node


def without_docstrings(tree: ast.Module) -> ast.Module:
    """``tree`` with the docstring of the module and of every class and function taken out
    (a body left empty gets ``pass``)."""
    for node in list(documented(tree)):
        doc = node.body.pop(0)
        if not node.body:
            node.body.append(ast.copy_location(ast.Pass(), doc))
    return tree


def pyc(source: bytes, filename: str) -> bytes:
    """The ``.pyc`` of ``source``: header (magic, flags, source hash) and marshalled code."""
    tree = without_docstrings(ast.parse(source, filename))
    code = compile(tree, filename, "exec", dont_inherit=True, optimize=0)
    return (importlib.util.MAGIC_NUMBER + UNCHECKED_HASH.to_bytes(4, "little")
            + importlib.util.source_hash(source) + marshal.dumps(code))


def module_sources(names: Iterable[str]) -> list[str]:
    """The modules' sources among a wheel's entry ``names`` (its metadata left out), sorted:
    what the archive compiles, each as ``name + "c"``."""
    return sorted(n for n in names if n.endswith(".py") and ".dist-info/" not in n)


def compile_wheel(wheel: str, out: str) -> int:
    """Write the archive of ``wheel``'s modules as bytecode to ``out``; return how many."""
    with zipfile.ZipFile(wheel) as zin:
        entries = {name + "c": pyc(zin.read(name), name) for name in module_sources(zin.namelist())}
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=DEFLATE_LEVEL) as zout:
        for name, data in sorted(entries.items()):
            info = zipfile.ZipInfo(name, date_time=ZIP_EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zout.writestr(info, data, compresslevel=DEFLATE_LEVEL)
    return len(entries)


def debug_ranges() -> bool:
    """Whether this Python writes column ranges into bytecode (off with ``PYTHONNODEBUGRANGES``)."""
    _, _, start, _ = next(iter(compile("x = 1", "<probe>", "exec").co_positions()))
    return start is not None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--wheel", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    if debug_ranges():
        print("engine_bytecode: run with PYTHONNODEBUGRANGES=1 (no column ranges)", file=sys.stderr)
        return 2
    count = compile_wheel(args.wheel, args.out)
    print(f"engine bytecode: {count} modules (Python {sys.version.split()[0]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
