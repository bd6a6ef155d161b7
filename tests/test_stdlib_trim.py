"""The trimmed standard library (stdlib_trim.py): how imports are found, and that the
archive the game ships holds every module the engine imports."""
from __future__ import annotations

import json
import shutil
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import build_site  # noqa: E402
import engine_bytecode  # noqa: E402
import stdlib_trim  # noqa: E402
from stdlib_trim import Module  # noqa: E402


def names(source: str, deep: bool = False, name: str = "pkg.mod", package: bool = False) -> set[str]:
    found = stdlib_trim.imports(Module(name, name.replace(".", "/") + ".py", package), source, deep)
    return found.modules


def test_module_level_imports_are_followed_and_function_level_ones_only_when_deep():
    source = (
        "import os, json.decoder\n"
        "from collections import abc\n"
        "try:\n    import _fast\nexcept ImportError:\n    import slow\n"
        "class C:\n    import inclass\n"
        "def f():\n    import lazy\n"
    )
    assert names(source) == {"os", "json.decoder", "collections", "_fast", "slow", "inclass"}
    assert names(source, deep=True) == names(source) | {"lazy"}
    found = stdlib_trim.imports(Module("m", "m.py", False), source, False)
    assert "collections.abc" in found.maybe and "collections.abc" not in found.modules


def test_relative_imports_resolve_inside_their_package():
    assert names("from . import b\nfrom .c import d\nfrom .. import e\n", name="pkg.sub.mod") == {
        "pkg.sub", "pkg.sub.c", "pkg"}
    assert names("from .x import y\n", name="pkg", package=True) == {"pkg.x"}


@pytest.mark.parametrize(("test", "kept"), [
    ('sys.platform == "win32"', {"other"}),
    ('sys.platform != "win32"', {"body"}),
    ('_os.name == "nt"', {"other"}),
    ('sys.platform.startswith(("win", "cygwin"))', {"other"}),
    ('sys.platform in ("emscripten", "wasi")', {"body"}),
    ('__name__ == "__main__"', {"other"}),
    ("TYPE_CHECKING", {"other"}),
    ("typing.TYPE_CHECKING", {"other"}),
    ('not sys.platform == "win32" and HAVE_X', {"body", "other"}),  # depends on more: both kept
    ("HAVE_X", {"body", "other"}),
])
def test_branches_pyodide_never_takes_are_left_out(test, kept):
    assert names(f"if {test}:\n    import body\nelse:\n    import other\n") == kept


def test_codecs_named_where_text_is_encoded_or_decoded():
    stdlib = stdlib_trim.index(["encodings/__init__.py", "encodings/cp437.py", "encodings/latin_1.py",
                                "encodings/utf_8.py", "encodings/hex_codec.py"])
    aliases = {"latin1": "latin_1", "hex": "hex_codec", "utf8": "utf_8"}
    source = (
        "def f(raw, enc=None, encoding='UTF8'):\n"
        "    name = 'hex'\n"                      # a string, but no codec is looked up by it
        "    open('x', encoding='Latin1')\n"
        "    return raw.decode(enc or 'cp437')\n"
    )
    assert stdlib_trim.codecs_named(source, aliases, stdlib) == {
        "encodings.cp437", "encodings.latin_1", "encodings.utf_8"}


def test_modules_a_package_registers_count_as_present(tmp_path):
    archive = tmp_path / "a.zip"
    stdlib_trim.write_archive(archive, [
        ("os.py", b"import sys\nsys.modules['os.path'] = path\n"), ("posixpath.py", b""),
    ])
    with zipfile.ZipFile(archive) as zf:
        mods = stdlib_trim.modules_of(zf)
    assert mods["os.path"].entry == "os.py"


def test_the_runtime_names_pyodides_boot_modules():
    stdlib = stdlib_trim.index(["pyodide/__init__.py", "pyodide/ffi/__init__.py", "pyodide/code.py",
                                "_pyodide/__init__.py", "_pyodide/_importhook.py", "pyodide/console.py"])
    blobs = [b'x"pyodide.code"y API.pyodide_base "pyodide.ffi.JsProxy"', b"\0_pyodide._importhook\0pyodide.asm.wasm\0"]
    assert stdlib_trim.pyodide_roots(blobs, stdlib) == {
        "pyodide.code", "pyodide.ffi", "_pyodide._importhook", "pyodide"}


def test_worker_snippets_imports_are_read_from_script_text():
    text = (
        'import { loadPyodide } from "./pyodide/pyodide.mjs";\n'
        "const CODE = `\nimport sys\nimport importlib, pkgutil as p\nfrom json import dumps\n`;\n"
        "const SP = \"import sysconfig; sysconfig.get_paths()['purelib']\";\n"
        'const w = await import("./worker.js");\n'
    )
    assert stdlib_trim.snippet_imports(text) == {"sys", "importlib", "pkgutil", "json", "sysconfig"}


def test_comments_go_and_every_line_stays():
    source = b"#!/usr/bin/env python\nx = 1  # one\n# whole line\ns = '# not a comment'\n"
    out = stdlib_trim.strip_comments(source)
    assert out == b"\nx = 1\n\ns = '# not a comment'\n"
    latin = b"# -*- coding: latin-1 -*-\nx = '\xe9'  # kept as it is\n"
    assert stdlib_trim.strip_comments(latin) == latin


DOCUMENTED = (
    b'"""The module.\n\nIts second line."""\n'
    b"class A:\n"
    b"    '''One line.'''\n"
    b"    def f(self):\n"
    b'        """Two\n        lines."""; y = 2\n'
    b"        return y\n"
    b"def g(): 'only a docstring'\n"
    b"s = '\xc3\xa9t\xc3\xa9'  # not a docstring: a value\n"
    b"def h():\n"
    b"    r'''caf\xc3\xa9\n    ok'''\n"
    b"    return 'kept'\n"
)


def test_docstrings_become_none_and_every_line_stays():
    out = stdlib_trim.strip_docstrings(DOCUMENTED)
    assert len(out.splitlines()) == len(DOCUMENTED.splitlines())
    assert b"second line" not in out and b"One line" not in out and b"caf" not in out
    ns: dict = {}
    exec(compile(out, "m.py", "exec"), ns)
    assert (ns.get("__doc__"), ns["A"].__doc__, ns["A"].f.__doc__, ns["g"].__doc__, ns["h"].__doc__) == (None,) * 5
    assert (ns["A"]().f(), ns["h"](), ns["s"]) == (2, "kept", "\u00e9t\u00e9")
    # the statements after a docstring keep their lines (tracebacks' line numbers)
    assert out.splitlines()[8].strip() == DOCUMENTED.splitlines()[8].strip() == b"return y"
    latin = b"# -*- coding: latin-1 -*-\n'''Doc \xe9.'''\n"
    assert stdlib_trim.strip_docstrings(latin) == latin


def test_shipped_sources_keep_docstrings_only_in_pyodides_packages():
    bare = stdlib_trim.strip_comments(DOCUMENTED)
    assert bare != DOCUMENTED
    assert stdlib_trim.slim("json/__init__.py", DOCUMENTED) == stdlib_trim.strip_docstrings(bare)
    assert stdlib_trim.slim("_pyodide/docstring.py", DOCUMENTED) == bare
    assert stdlib_trim.slim("pyodide/ffi/__init__.py", DOCUMENTED) == bare
    assert stdlib_trim.slim("json/data.txt", DOCUMENTED) == DOCUMENTED


def _growth(name: str, source: bytes) -> int:
    return stdlib_trim._gzip_size(engine_bytecode.pyc(source, name)) - stdlib_trim._gzip_size(source)


def test_compile_choice_takes_most_source_per_added_byte_within_the_allowance():
    plain = b"x = 1\n" * 400                       # much source, little added as bytecode
    dense = b"".join(b"v%d = %d\n" % (i, i * 7919) for i in range(300))  # its numbers add more
    registers = b"import sys\nsys.modules['mine.path'] = sys\n"
    sources = {"dense.py": dense, "plain.py": plain, "os.py": registers, "data.txt": b"x", "empty/__init__.py": b""}
    g_plain, g_dense = _growth("plain.py", plain), _growth("dense.py", dense)
    assert 0 < g_plain < g_dense and len(plain) / g_plain > len(dense) / g_dense
    everything = stdlib_trim.compile_choice(sources, 10**9)
    assert sorted(everything) == ["dense.py", "plain.py"]  # never a registering module, data or an empty file
    assert everything["plain.py"] == engine_bytecode.pyc(plain, "plain.py")
    assert sorted(stdlib_trim.compile_choice(sources, g_dense)) == ["plain.py"]  # the better ratio first
    assert sorted(stdlib_trim.compile_choice(sources, g_plain + g_dense)) == ["dense.py", "plain.py"]
    assert stdlib_trim.compile_choice(sources, g_plain - 1) == {}


def test_an_archive_with_compiled_entries_indexes_them_as_modules():
    names = ["json/__init__.pyc", "json/decoder.py", "re/_parser.pyc", "os.py", "README.txt", "json/"]
    mods = stdlib_trim.index(names)
    assert sorted(mods) == ["json", "json.decoder", "os", "re._parser"]
    assert (mods["json"].entry, mods["json"].package) == ("json/__init__.pyc", True)


def test_written_archive_is_stored_and_reproducible(tmp_path):
    entries = [("b.py", b"x = 1\n" * 50), ("a/", b""), ("a/__init__.py", b"")]
    stdlib_trim.write_archive(tmp_path / "1.zip", entries)
    stdlib_trim.write_archive(tmp_path / "2.zip", list(reversed(entries)))
    assert (tmp_path / "1.zip").read_bytes() == (tmp_path / "2.zip").read_bytes()
    with zipfile.ZipFile(tmp_path / "1.zip") as zf:
        assert {i.compress_type for i in zf.infolist()} == {zipfile.ZIP_STORED}
        assert zf.namelist() == ["a/", "a/__init__.py", "b.py"]


# ----------------------------------------------------------------------------- the shipped archive


def _shipped() -> tuple[Path, Path]:
    """dist/'s trimmed archive and game wheel, or (when dist/ is not built) freshly built ones."""
    dist = ROOT / "dist"
    if (dist / "build.json").is_file():
        info = json.loads((dist / "build.json").read_text())
        return dist / info["stdlib"], dist / info["wheel"]
    out = ROOT / ".cache" / "test-stdlib"
    shutil.rmtree(out, ignore_errors=True)
    wheel = build_site.build_engine_wheel(out / "wheels")
    archive = out / build_site.ENGINE_STDLIB
    build_site.build_stdlib(build_site.ensure_node_modules(), wheel, archive)
    return archive, wheel


@pytest.fixture(scope="module")
def shipped() -> tuple[Path, Path]:
    return _shipped()


def _repo_imports(wheel: Path) -> stdlib_trim.Imports:
    """The imports of every module under spades/ that the game's wheel ships (function-level ones too)."""
    with zipfile.ZipFile(wheel) as zf:
        in_wheel = set(zf.namelist())
    sources = {}
    for path in sorted((ROOT / "spades").rglob("*.py")):
        entry = path.relative_to(ROOT).as_posix()
        if entry in in_wheel:
            sources[stdlib_trim.module_of(entry)] = path.read_bytes()
    assert len(sources) == len([n for n in in_wheel if n.endswith(".py")])
    return stdlib_trim.engine_imports(sources)


def test_every_engine_import_resolves_inside_the_shipped_archive(shipped):
    archive, wheel = shipped
    builtin = stdlib_trim.builtin_modules((build_site.SITE / "node_modules" / "pyodide" / "pyodide.asm.mjs")
                                          .read_text(encoding="utf-8"))
    engine = _repo_imports(wheel)
    assert {"json", "random", "dataclasses", "re"} <= engine.modules   # the check sees real imports
    with zipfile.ZipFile(archive) as zf:
        present = stdlib_trim.modules_of(zf)
        assert {i.compress_type for i in zf.infolist()} == {zipfile.ZIP_STORED}
    assert stdlib_trim.missing(engine, present, builtin) == []
    # modules the engine imports from the archive (not built in) are really there
    assert {"json", "json.decoder", "random", "dataclasses", "typing", "re"} <= set(present)
    # and the archive is a cut, not the full library
    full = stdlib_trim.index(zipfile.ZipFile(build_site.SITE / "node_modules" / "pyodide" / "python_stdlib.zip")
                             .namelist())
    assert len(present) < len(full) / 2
    for absent in ("sqlite3", "tkinter", "email", "http.server", "unittest.mock", "xml.dom"):
        assert absent not in present


def test_the_check_fails_when_a_module_the_engine_imports_is_missing(shipped, tmp_path):
    archive, wheel = shipped
    builtin = stdlib_trim.builtin_modules("")  # nothing built in but the core
    engine = _repo_imports(wheel)
    with zipfile.ZipFile(archive) as zf:
        gone = stdlib_trim.modules_of(zf)["random"].entry
        entries = [(i.filename, zf.read(i)) for i in zf.infolist() if i.filename != gone]
    cut = tmp_path / "cut.zip"
    stdlib_trim.write_archive(cut, entries)
    with zipfile.ZipFile(cut) as zf:
        absent = stdlib_trim.missing(engine, stdlib_trim.modules_of(zf), builtin)
    assert "random" in absent
    assert {"time", "zlib"} <= set(absent)  # built into Pyodide, so absent when nothing is built in


def test_the_shipped_archive_holds_the_chosen_modules_compiled(shipped):
    archive, _ = shipped
    with zipfile.ZipFile(archive) as zf:
        names = zf.namelist()
        compiled = [n for n in names if n.endswith(".pyc")]
        headers = {zf.read(n)[4:8] for n in compiled}
        sources = [n for n in names if n.endswith(".py")]
    # a share of the modules, never both forms of one, never a module that registers others
    assert 10 <= len(compiled) < len(sources)
    assert not {n[:-1] for n in compiled} & set(sources)
    assert "os.py" in sources and "os.pyc" not in compiled
    # each a lone bytecode file that Python takes without its source (PEP 552: hash-based, unchecked)
    assert headers == {engine_bytecode.UNCHECKED_HASH.to_bytes(4, "little")}
