"""The standard library the game ships: Pyodide's ``python_stdlib.zip`` cut to what the engine imports.

The module list is derived, never kept by hand: every import statement of every module
in the engine's wheel (function-level ones included) is a root, and so is every module
of Pyodide's own packages (``_pyodide``, ``pyodide``: ``loadPyodide`` runs them) and the
few modules that Python's start-up and the engine worker's Python snippets import
(``BOOT_ROOTS``). From the roots, imports are followed through the archive's sources:
in Pyodide's packages all of them, elsewhere in the standard library those that run when
a module is imported (module level, ``try``/``if`` blocks and class bodies included; a
function's own imports run only when that function is called).

The sources are Python 3.14's, which an older ``ast`` cannot always parse, so ``trim``
runs inside Pyodide's own Python (build_site.py starts it under Node with
``stdlib_node.mjs``); the checks of a built archive (``missing``) parse only the engine
and run on any Python >= 3.11.

The trimmed archive holds the sources without their comments and, outside Pyodide's own
packages, without their docstrings (``__doc__`` is ``None``, as under ``python -OO``;
every line kept, so tracebacks keep their line numbers; checked to parse to the same
syntax tree) and stores its entries (no deflate): a host's gzip or brotli then
compresses the archive as one stream, far smaller than Pyodide's file-by-file deflate.
Entries are sorted and carry one fixed time, so the same inputs give the same bytes.

    python stdlib_trim.py --stdlib python_stdlib.zip --runtime pyodide.asm.mjs pyodide.asm.wasm \\
        --wheel spades.whl --out trimmed.zip [--also sysconfig,pkgutil]   # Python 3.14 (Pyodide)
"""
from __future__ import annotations

import argparse
import ast
import io
import json
import re
import sys
import tokenize
import zipfile
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import engine_bytecode

#: What Python's own start-up imports in Pyodide (the file system's encoding, ``site``),
#: found by experiment (``sys.modules`` after a bare boot). Everything else Pyodide's boot
#: imports is named in its runtime (``pyodide_roots``); the worker's Python snippets are
#: read from site/ (``snippet_imports``). A missing module fails the boot, and the
#: browser tests boot on the trimmed archive.
STARTUP = ("encodings", "encodings.aliases", "encodings.utf_8", "site")
#: ``sysconfig`` imports its data module by a computed name: every archive module so named is kept.
SYSCONFIG_DATA = "_sysconfigdata_"
#: The compressed bytes (gzip's) that shipping modules compiled may add to a first visit: at
#: 150 KB a quarter of the modules, the boot's largest (``loadPyodide`` in Node 3.4 -> 2.4 s).
COMPILED_ALLOWANCE = 150_000
#: The zlib level the growth is measured at (a host's gzip -9).
COMPRESS_LEVEL = 9
#: Pyodide's own packages: their modules named by the runtime are kept, and their imports
#: are followed into functions too (``loadPyodide`` and ``unpackArchive`` call them).
PYODIDE_PACKAGES = ("_pyodide", "pyodide")
_RUNTIME_NAME = re.compile(rb"(?<![\w.])_?pyodide(?:\.\w+)*")

#: Modules of the interpreter's core: no ``PyInit_`` function of their own.
CORE_MODULES = frozenset({"sys", "builtins", "_warnings", "marshal", "_frozen_importlib",
                          "_frozen_importlib_external"})

#: The same time on every entry (zip's earliest), so a build is reproducible.
ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)


class TrimError(RuntimeError):
    """The archive cannot be trimmed: a source does not parse, or an engine import is nowhere."""


@dataclass(frozen=True)
class Module:
    """One importable module of an archive: its dotted name, entry and whether it is a package."""

    name: str
    entry: str
    package: bool


def module_of(entry: str) -> Module | None:
    """The module an archive entry (``json/__init__.py``, ``os.py``, ``re/_parser.pyc``) defines,
    or None."""
    stem, dot, suffix = entry.rpartition(".")
    if not dot or suffix not in ("py", "pyc"):
        return None
    parts = stem.split("/")
    package = parts[-1] == "__init__"
    if package:
        parts.pop()
    if not parts or not all(parts):
        return None
    return Module(".".join(parts), entry, package)


def index(names: Iterable[str]) -> dict[str, Module]:
    """Every module the archive entries ``names`` define, by dotted name."""
    found = (module_of(n) for n in names)
    return {m.name: m for m in found if m is not None}


def builtin_modules(asm_mjs: str) -> frozenset[str]:
    """The modules compiled into Pyodide's Python: each exports ``PyInit_<name>`` from
    ``pyodide.asm.mjs``; the core (``CORE_MODULES``) has none."""
    return frozenset(re.findall(r"PyInit_(\w+)", asm_mjs)) | CORE_MODULES


def _absolute(module: Module, level: int, target: str | None) -> str:
    """The absolute name of ``from <level dots><target> import ...`` written in ``module``."""
    if level == 0:
        return target or ""
    base = module.name.split(".")
    if not module.package:
        base.pop()
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join([*base, target] if target else base)


#: What the tests of ``if`` statements that name the platform see in Pyodide.
PLATFORM = {"sys.platform": "emscripten", "os.name": "posix", "__name__": "<imported>",
            "TYPE_CHECKING": False}


def _known(node: ast.expr) -> object:
    """The value of a name ``PLATFORM`` knows (``sys.platform``, ``_os.name``), else ``_UNKNOWN``."""
    if isinstance(node, ast.Name) and node.id in PLATFORM:
        return PLATFORM[node.id]
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        key = f"{node.value.id.lstrip('_')}.{node.attr}"
        if key in PLATFORM:
            return PLATFORM[key]
        if node.attr == "TYPE_CHECKING":
            return False
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Tuple):
        items = [_known(e) for e in node.elts]
        return _UNKNOWN if _UNKNOWN in items else tuple(items)
    return _UNKNOWN


_UNKNOWN = object()


def _test(node: ast.expr) -> bool | None:
    """What an ``if`` test about the platform gives in Pyodide (``sys.platform == "win32"``,
    ``__name__ == "__main__"``, ``TYPE_CHECKING``), or None when it depends on more."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        inner = _test(node.operand)
        return None if inner is None else not inner
    if isinstance(node, ast.BoolOp):
        values = [_test(v) for v in node.values]
        if isinstance(node.op, ast.And):
            return False if False in values else (True if all(v is True for v in values) else None)
        return True if True in values else (False if all(v is False for v in values) else None)
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        left, right = _known(node.left), _known(node.comparators[0])
        if left is _UNKNOWN or right is _UNKNOWN:
            return None
        op = node.ops[0]
        if isinstance(op, (ast.Eq, ast.NotEq)):
            return (left == right) == isinstance(op, ast.Eq)
        if isinstance(op, (ast.In, ast.NotIn)) and isinstance(right, (tuple, str)) and isinstance(left, str):
            return (left in right) == isinstance(op, ast.In)
        return None
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "startswith"
            and len(node.args) == 1 and not node.keywords):
        value, prefix = _known(node.func.value), _known(node.args[0])
        if isinstance(value, str) and isinstance(prefix, (str, tuple)):
            return value.startswith(prefix)
        return None
    value = _known(node)
    return None if value is _UNKNOWN else bool(value)


def _statements(tree: ast.Module, deep: bool) -> Iterator[ast.stmt]:
    """The statements of ``tree`` that may run in Pyodide: all of them when ``deep``, else those
    run at import time. A branch of an ``if`` about the platform that Pyodide never takes is left out."""
    todo: list[ast.stmt] = list(tree.body)
    while todo:
        node = todo.pop()
        yield node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not deep:
            continue  # runs when called, not when imported
        if isinstance(node, ast.If):
            taken = _test(node.test)
            todo.extend(node.body if taken is not False else [])
            todo.extend(node.orelse if taken is not True else [])
            continue
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            for child in getattr(node, field, ()):
                if isinstance(child, (ast.ExceptHandler, ast.match_case)):
                    todo.extend(child.body)
                elif isinstance(child, ast.stmt):
                    todo.append(child)


@dataclass
class Imports:
    """What a module's import statements name: modules they load for sure, and the ``y`` of
    ``from x import y`` (``x.y`` if ``y`` is a submodule, else a name in ``x``)."""

    modules: set[str]
    maybe: set[str]

    def all(self) -> set[str]:
        return self.modules | self.maybe


def imports(module: Module, source: bytes | str, deep: bool) -> Imports:
    """The absolute names ``module``'s import statements load (inside functions too when ``deep``)."""
    try:
        tree = ast.parse(source, filename=module.entry)
    except SyntaxError as exc:
        raise TrimError(f"{module.entry} does not parse with Python {sys.version.split()[0]}: {exc}") from exc
    out = Imports(set(), set())
    for node in _statements(tree, deep):
        if isinstance(node, ast.Import):
            out.modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(module, node.level, node.module)
            out.modules.add(base)
            out.maybe.update(f"{base}.{a.name}" for a in node.names if a.name != "*")
    return out


#: ``sys.modules['os.path'] = ...``: a module a package registers itself, with no file of its own.
_REGISTERED = re.compile(rb"""sys\.modules\[\s*['"]([\w.]+)['"]\s*\]\s*=""")


def registered(source: bytes) -> set[str]:
    """The modules a source puts into ``sys.modules`` under a name of its own (``os.path``)."""
    return {m.decode() for m in _REGISTERED.findall(source)}


def _with_parents(name: str) -> list[str]:
    """``a.b.c`` with the packages importing it imports first: ``a``, ``a.b``, ``a.b.c``."""
    parts = name.split(".")
    return [".".join(parts[: i + 1]) for i in range(len(parts))]


def engine_sources(wheel: Path) -> dict[Module, bytes]:
    """Every Python module of the engine's wheel with its source."""
    with zipfile.ZipFile(wheel) as zf:
        return {m: zf.read(m.entry) for m in index(zf.namelist()).values()}


def engine_imports(sources: dict[Module, bytes]) -> Imports:
    """Every name the engine's modules import, function-level imports included, its own package left out."""
    own = {m.name.split(".")[0] for m in sources}
    out = Imports(set(), set())
    for module, source in sources.items():
        found = imports(module, source, deep=True)
        out.modules |= {n for n in found.modules if n.split(".")[0] not in own}
        out.maybe |= {n for n in found.maybe if n.split(".")[0] not in own}
    return out


def missing(engine: Imports, archive: Iterable[str], builtin: frozenset[str]) -> list[str]:
    """The modules the engine imports that are neither among ``archive``'s modules nor ``builtin``.

    ``archive`` includes the modules its packages register (``registered``); a ``from x
    import y`` needs ``x`` (``y`` may be a plain name).
    """
    have = set(archive) | builtin
    return sorted(n for n in engine.modules if n not in have)


def closure(roots: Iterable[str], stdlib: dict[str, Module], read: Callable[[str], bytes]) -> set[str]:
    """The modules of ``stdlib`` that importing ``roots`` loads (``read(entry)`` gives a source),
    with the codecs (``encodings.cp437``) the loaded sources name in a string."""
    aliases = codec_aliases(read(stdlib["encodings.aliases"].entry)) if "encodings.aliases" in stdlib else {}
    todo = sorted(set(roots))
    keep: set[str] = set()
    while todo:
        for part in _with_parents(todo.pop()):
            mod = stdlib.get(part)
            if mod is None or part in keep:
                continue
            keep.add(part)
            source = read(mod.entry)
            todo.extend(imports(mod, source, deep=part.split(".")[0] in PYODIDE_PACKAGES).all())
            todo.extend(codecs_named(source, aliases, stdlib))
    return keep


def codec_aliases(source: bytes) -> dict[str, str]:
    """The ``aliases`` table of ``encodings/aliases.py`` (a dict literal): alias -> codec module."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "aliases" for t in node.targets):
            return dict(ast.literal_eval(node.value))
    return {}


def _normalize_codec(name: str) -> str:
    """A codec name as ``encodings.search_function`` looks it up (``"Latin-1"`` -> ``latin_1``)."""
    words = re.findall(r"[A-Za-z0-9.]+", name.lower())
    return "_".join(words)


#: Calls whose leading arguments name a codec (``data.decode("cp437")``, ``codecs.lookup(name)``).
CODEC_CALLS = frozenset({"encode", "decode", "lookup", "getencoder", "getdecoder", "getincrementalencoder",
                         "getincrementaldecoder", "getreader", "getwriter", "iterencode", "iterdecode"})


def _codec_arguments(tree: ast.AST) -> Iterator[ast.expr]:
    """The expressions of ``tree`` that give a codec's name: the first argument of a
    ``CODEC_CALLS`` call, any ``encoding=`` argument, the default of an ``encoding`` parameter."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Attribute) and node.func.attr in CODEC_CALLS and node.args:
                yield node.args[0]
            yield from (k.value for k in node.keywords if k.arg == "encoding")
        elif isinstance(node, ast.arguments):
            params = [*node.posonlyargs, *node.args]
            defaults = dict(zip(params[len(params) - len(node.defaults):], node.defaults))
            defaults.update((a, d) for a, d in zip(node.kwonlyargs, node.kw_defaults) if d is not None)
            yield from (d for a, d in defaults.items() if a.arg == "encoding")


def codecs_named(source: bytes | str, aliases: dict[str, str], stdlib: dict[str, Module]) -> set[str]:
    """The codec modules (``encodings.cp437``) that ``source`` names where it encodes or decodes:
    a codec is imported by name when first used (``data.decode(enc or "cp437")``), never by an
    import statement."""
    out: set[str] = set()
    for expr in _codec_arguments(ast.parse(source)):
        for node in ast.walk(expr):
            if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
                continue
            norm = _normalize_codec(node.value)
            for name in (aliases.get(norm), aliases.get(norm.replace(".", "_")), norm):
                if name and f"encodings.{name}" in stdlib:
                    out.add(f"encodings.{name}")
                    break
    return out


def pyodide_roots(runtime: Iterable[bytes], stdlib: dict[str, Module]) -> set[str]:
    """The modules of Pyodide's packages its runtime imports: the dotted names in
    ``pyodide.asm.mjs`` and ``pyodide.asm.wasm`` (``"pyodide.code"``, ``_pyodide._importhook``)
    that are modules of the archive (for ``pyodide.ffi.JsProxy``, ``pyodide.ffi``)."""
    out: set[str] = set()
    for blob in runtime:
        for found in _RUNTIME_NAME.findall(blob):
            name = found.decode()
            while name and name not in stdlib:
                name = name.rpartition(".")[0]
            if name:
                out.add(name)
    return out


_SNIPPET_IMPORT = re.compile(r"""(?:^|[;\n"'`])[ \t]*(?:import[ \t]+([\w., \t]+)|from[ \t]+([\w.]+)[ \t]+import\b)""")


def snippet_imports(text: str) -> set[str]:
    """The modules the Python code inside a script's text imports (``import sys``,
    ``"import sysconfig; ..."``, ``from x import y``). A JavaScript import (braces, quotes)
    never matches; a stray word that matches is harmless: only archive modules are kept."""
    out: set[str] = set()
    for plain, source in _SNIPPET_IMPORT.findall(text):
        names = [source] if source else [n.strip().split(" ")[0] for n in plain.split(",")]
        out.update(n for n in names if n and all(p.isidentifier() for p in n.split(".")))
    return out


def write_archive(out: Path, entries: Iterable[tuple[str, bytes]]) -> None:
    """A zip of ``entries`` stored (not deflated), sorted, every entry at ``ZIP_EPOCH``."""
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as zf:
        for name, data in sorted(entries):
            info = zipfile.ZipInfo(name, ZIP_EPOCH)
            info.external_attr = (0o40755 << 16 | 0x10) if name.endswith("/") else 0o644 << 16
            zf.writestr(info, data)


def _directories(entries: Iterable[str]) -> set[str]:
    """The directory entries (``json/``) of the folders holding ``entries``."""
    return {"/".join(e.split("/")[:i]) + "/" for e in entries for i in range(1, e.count("/") + 1)}


def strip_comments(source: bytes) -> bytes:
    """``source`` without its comments, every line kept (tracebacks keep their line numbers).

    A source that does not declare UTF-8 is returned as it is (its coding line must stay).
    The result must parse to the same syntax tree, else TrimError.
    """
    encoding, _ = tokenize.detect_encoding(io.BytesIO(source).readline)
    if encoding not in ("utf-8", "utf-8-sig"):
        return source
    lines = source.decode(encoding).splitlines(keepends=True)
    comments = [t.start for t in tokenize.tokenize(io.BytesIO(source).readline) if t.type == tokenize.COMMENT]
    for row, col in reversed(comments):
        line = lines[row - 1]
        lines[row - 1] = line[:col].rstrip() + ("\n" if line.endswith("\n") else "")
    out = "".join(lines).encode("utf-8")
    if ast.dump(ast.parse(out)) != ast.dump(ast.parse(source)):
        raise TrimError("stripping comments changed the code")  # never expected: tokenize knows comments
    return out


def strip_docstrings(source: bytes) -> bytes:
    """``source`` with each docstring replaced by ``None`` over the same lines: ``__doc__`` is then
    ``None``, as Python's ``-OO`` leaves it (the standard library supports that), and tracebacks
    keep their line numbers. Docstrings are about a fifth of the engine's standard library.

    A source that does not declare UTF-8 is returned as it is. The result must parse to the
    source's syntax tree with its docstrings ``None``, else TrimError.
    """
    encoding, _ = tokenize.detect_encoding(io.BytesIO(source).readline)
    if encoding not in ("utf-8", "utf-8-sig"):
        return source
    tree = ast.parse(source)
    docs = [opening.value for node in engine_bytecode.documented(tree)
            if isinstance(opening := node.body[0], ast.Expr) and isinstance(opening.value, ast.Constant)]
    lines = source.splitlines(keepends=True)  # ast's offsets: lines from 1, columns in UTF-8 bytes
    for doc in sorted(docs, key=lambda d: (d.lineno, d.col_offset), reverse=True):
        first, last = doc.lineno - 1, (doc.end_lineno or doc.lineno) - 1
        head, tail = lines[first][:doc.col_offset], lines[last][doc.end_col_offset:]
        spanned = last - first
        lines[first:last + 1] = [head + (b"(None" + b"\n" * spanned + b")" if spanned else b"None") + tail]
    out = b"".join(lines)
    for doc in docs:
        doc.value = None
    if ast.dump(ast.parse(out)) != ast.dump(tree):
        raise TrimError("replacing docstrings changed the code")
    return out


def modules_of(zf: zipfile.ZipFile) -> dict[str, Module]:
    """The modules of an archive, with those its packages register (``os.path``) as their package's."""
    mods = index(zf.namelist())
    for mod in list(mods.values()):
        if mod.entry.endswith(".py"):  # a module that registers others is never compiled (compile_choice)
            for name in registered(zf.read(mod.entry)):
                mods.setdefault(name, mod)
    return mods


def _gzip_size(data: bytes) -> int:
    return len(zlib.compress(data, COMPRESS_LEVEL))


def compile_choice(sources: dict[str, bytes], allowance: int) -> dict[str, bytes]:
    """Which of the archive's module ``sources`` (entry → source as shipped) go in compiled,
    each → its ``.pyc`` (:func:`engine_bytecode.pyc`).

    Python imports a ``.pyc`` without compiling it, and compiling the boot's modules is most
    of ``loadPyodide``'s time; but bytecode compresses worse than source. So modules go in by
    the most source (what a compile's time grows with) per byte they add compressed, first,
    while the bytes added stay within ``allowance``. A module that puts others into
    ``sys.modules`` (``os`` → ``os.path``) stays source: the archive's check reads that there.
    """
    ranked = []
    for entry, source in sources.items():
        if not entry.endswith(".py") or not source or registered(source):
            continue
        code = engine_bytecode.pyc(source, entry)
        growth = max(0, _gzip_size(code) - _gzip_size(source))
        ranked.append((-len(source) / max(growth, 1), entry, code, growth))
    chosen: dict[str, bytes] = {}
    used = 0
    for _, entry, code, growth in sorted(ranked):
        if used + growth <= allowance:
            chosen[entry] = code
            used += growth
    return chosen


def slim(entry: str, source: bytes) -> bytes:
    """An archive entry as shipped: sources without comments, and without docstrings outside
    Pyodide's own packages (``loadPyodide`` reads theirs)."""
    if not entry.endswith(".py"):
        return source
    source = strip_comments(source)
    return source if entry.split("/")[0] in PYODIDE_PACKAGES else strip_docstrings(source)


def trim(stdlib_zip: Path, runtime: list[Path], wheel: Path, out: Path, also: Iterable[str] = (),
         allowance: int = COMPILED_ALLOWANCE) -> dict:
    """Write the trimmed archive ``out`` from Pyodide's full one; return what it holds.

    ``runtime`` are Pyodide's ``pyodide.asm.mjs`` and ``pyodide.asm.wasm`` (the modules
    its boot imports, the modules built in); ``also`` more roots (the worker's snippets);
    ``allowance`` the compressed bytes that modules shipped compiled may add (:func:`compile_choice`).
    Raises TrimError when an engine import is neither in the full archive nor built in.
    """
    sources = engine_sources(wheel)
    engine = engine_imports(sources)
    blobs = [path.read_bytes() for path in runtime]
    builtin = builtin_modules(b"".join(b for p, b in zip(runtime, blobs) if p.suffix == ".mjs").decode("utf-8"))
    with zipfile.ZipFile(stdlib_zip) as zf:
        stdlib = modules_of(zf)
        absent = missing(engine, stdlib, builtin)
        if absent:
            raise TrimError(f"the engine imports modules Pyodide does not have: {', '.join(absent)}")
        aliases = codec_aliases(zf.read(stdlib["encodings.aliases"].entry))
        roots = (engine.all() | set(STARTUP) | set(also) | pyodide_roots(blobs, stdlib)
                 | {n for n in stdlib if n.startswith(SYSCONFIG_DATA)}
                 | {c for source in sources.values() for c in codecs_named(source, aliases, stdlib)})
        keep = closure(roots, stdlib, zf.read)
        files = {stdlib[name].entry for name in keep}
        shipped = {name: slim(name, zf.read(name)) for name in sorted(files)}
    compiled = compile_choice(shipped, allowance)
    entries = [(name + "c", compiled[name]) if name in compiled else (name, data) for name, data in shipped.items()]
    entries += [(d, b"") for d in sorted(_directories(files))]
    write_archive(out, entries)
    return {"modules": sorted({stdlib[n].name for n in keep}), "engine_imports": sorted(engine.modules),
            "compiled": sorted(compiled), "bytes": sum(len(d) for _, d in entries),
            "python": sys.version.split()[0]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stdlib", required=True, type=Path, help="Pyodide's python_stdlib.zip")
    parser.add_argument("--runtime", required=True, type=Path, nargs="+",
                        help="Pyodide's pyodide.asm.mjs and pyodide.asm.wasm")
    parser.add_argument("--wheel", required=True, type=Path, help="the engine's wheel")
    parser.add_argument("--out", required=True, type=Path, help="the trimmed archive to write")
    parser.add_argument("--also", default="", help="more modules to keep, comma-separated")
    parser.add_argument("--report", type=Path, help="where to write what it holds (JSON)")
    args = parser.parse_args(argv)
    if engine_bytecode.debug_ranges():
        print("stdlib_trim: run with PYTHONNODEBUGRANGES=1 (no column ranges)", file=sys.stderr)
        return 2
    try:
        info = trim(args.stdlib, args.runtime, args.wheel, args.out, [n for n in args.also.split(",") if n])
    except TrimError as exc:
        print(f"stdlib_trim: error: {exc}", file=sys.stderr)
        return 1
    text = json.dumps(info, indent=1) + "\n"
    if args.report:
        args.report.write_text(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
