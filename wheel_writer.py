"""Write the pure-Python ``spades`` wheel with the standard library only.

Why not ``pip wheel``: on a fresh virtualenv or a Debian system Python there is
no ``wheel`` package (and maybe no setuptools), so a setuptools build fails
without network access to PyPI. The engine is one pure-Python package, so its
wheel (a zip with ``<name>.dist-info/{METADATA,WHEEL,RECORD}``, see the binary
distribution format spec) is simple to write directly.

Reproducible: entries are sorted, every timestamp is fixed and file modes are
fixed, so the same sources give the same bytes (and the same sha256).
"""
from __future__ import annotations

import argparse
import ast
import base64
import hashlib
import io
import re
import tokenize
import tomllib
import zipfile
from pathlib import Path

import engine_bytecode

# 1980-01-01 00:00:00, the earliest time a zip entry can hold (like SOURCE_DATE_EPOCH=315532800).
ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)
FILE_MODE = 0o644 << 16  # rw-r--r-- in the zip entry's external attributes
GENERATOR = "spades-wheel-writer 1"
TAG = "py3-none-any"
SKIP_SUFFIXES = (".pyc", ".pyo")
SKIP_DIRS = {"__pycache__"}
#: Development tools kept out of every wheel: the arena and its old-commit baselines
#: compare bots from a checkout of this repository (the baselines need its git
#: history); a player's or an author's Pyodide never runs them.
DEV_ONLY = frozenset({"spades/cli/arena.py", "spades/cli/baseline.py"})
#: The terminal's modules (``python -m spades``), kept out of the wheel the game boots: a
#: browser page has no terminal. The published wheel (``terminal=True``, for pip) has them.
TERMINAL_ONLY = ("spades/__main__.py", "spades/cli/")


def terminal_only(name: str) -> bool:
    """Whether archive name ``name`` is one of the terminal's modules (:data:`TERMINAL_ONLY`)."""
    return any(name == t or (t.endswith("/") and name.startswith(t)) for t in TERMINAL_ONLY)


class WheelError(RuntimeError):
    """pyproject.toml or the package cannot make a wheel; the message says why."""


def _record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return "sha256=" + digest.decode("ascii")


def _normalize(name: str) -> str:
    """The distribution name as wheel file names spell it (PEP 427/503)."""
    return re.sub(r"[-_.]+", "_", name).lower()


def project_metadata(root: Path) -> dict:
    """The ``[project]`` table of root/pyproject.toml, checked for what a wheel needs."""
    try:
        project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    except (OSError, tomllib.TOMLDecodeError, KeyError) as exc:
        raise WheelError(f"cannot read [project] from {root / 'pyproject.toml'}: {exc}") from exc
    for key in ("name", "version"):
        if not isinstance(project.get(key), str):
            raise WheelError(f"pyproject.toml [project] lacks a string {key!r}")
    if project.get("dependencies"):
        raise WheelError("the engine must have no runtime dependencies")
    return project


def metadata_text(project: dict, readme: str | None) -> str:
    """METADATA (core metadata 2.1) for the fields pyproject.toml declares."""
    lines = ["Metadata-Version: 2.1", f"Name: {project['name']}", f"Version: {project['version']}"]
    if project.get("description"):
        lines.append(f"Summary: {project['description']}")
    if project.get("requires-python"):
        lines.append(f"Requires-Python: {project['requires-python']}")
    lic = project.get("license")
    if isinstance(lic, dict) and lic.get("text"):
        lines.append(f"License: {lic['text']}")
    for extra, reqs in sorted((project.get("optional-dependencies") or {}).items()):
        lines.append(f"Provides-Extra: {extra}")
        lines.extend(f'Requires-Dist: {req}; extra == "{extra}"' for req in reqs)
    if readme is not None:
        lines.append("Description-Content-Type: text/markdown")
        return "\n".join(lines) + "\n\n" + readme
    return "\n".join(lines) + "\n"


def entry_points_text(project: dict) -> str | None:
    scripts = project.get("scripts") or {}
    if not scripts:
        return None
    body = "".join(f"{name} = {target}\n" for name, target in sorted(scripts.items()))
    return "[console_scripts]\n" + body


def strip_comments(source: bytes) -> bytes:
    """``source`` without its ``#`` comments and the blanks before them, nor the docstrings of
    private functions (:func:`private_docstrings`), every line kept.

    The wheel is what the browser downloads; comments and the notes on private helpers are
    for readers of the repository, the public API's docstrings (``help()``) stay. Lines are
    kept so a traceback's line numbers still point at the repository's source.
    Deterministic, so the wheel stays reproducible.
    """
    text = source.decode("utf-8")
    lines = text.split("\n")
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.COMMENT:
            row, col = tok.start
            lines[row - 1] = lines[row - 1][:col].rstrip()
    for rows in private_docstrings(text):
        for row in rows:
            lines[row] = ""
    return "\n".join(lines).encode("utf-8")


def private_docstrings(text: str) -> list[range]:
    """The line indexes of the docstrings of private functions (``_name``, not dunders) in
    ``text``: those with other statements after them, on lines of their own (blanking the
    lines leaves the code as it was)."""
    lines = text.split("\n")
    found = []
    for node in engine_bytecode.documented(ast.parse(text)):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or len(node.body) < 2:
            continue
        if not node.name.startswith("_") or node.name.startswith("__"):
            continue
        doc, after = node.body[0], node.body[1]
        end = doc.end_lineno or doc.lineno
        alone = (not lines[doc.lineno - 1][:doc.col_offset].strip()
                 and not lines[end - 1][doc.end_col_offset:].strip() and after.lineno > end)
        if alone:
            found.append(range(doc.lineno - 1, end))
    return found


def package_files(root: Path, package: str, *, terminal: bool = False) -> list[tuple[str, bytes]]:
    """(archive name, bytes) of every file of root/package, without caches nor :data:`DEV_ONLY`
    tools, and without the terminal's modules unless ``terminal``; sorted.

    Python sources go in without their comments (:func:`strip_comments`)."""
    pkg = root / package
    if not (pkg / "__init__.py").is_file():
        raise WheelError(f"{pkg} is not a package (no __init__.py)")
    files = []
    for path in pkg.rglob("*"):
        rel = path.relative_to(root)
        if not path.is_file() or SKIP_DIRS & set(rel.parts) or path.suffix in SKIP_SUFFIXES:
            continue
        if rel.as_posix() in DEV_ONLY or (not terminal and terminal_only(rel.as_posix())):
            continue
        data = path.read_bytes()
        files.append((rel.as_posix(), strip_comments(data) if path.suffix == ".py" else data))
    return sorted(files)


def _write(zf: zipfile.ZipFile, name: str, data: bytes) -> None:
    info = zipfile.ZipInfo(name, date_time=ZIP_EPOCH)
    info.external_attr = FILE_MODE
    info.compress_type = zipfile.ZIP_DEFLATED
    zf.writestr(info, data, compresslevel=9)


def write_wheel(root: Path, dest: Path, package: str = "spades", *, terminal: bool = False) -> Path:
    """Write ``<name>-<version>-py3-none-any.whl`` for root/package into ``dest``; return its path.

    By default the wheel the game boots: no terminal modules, so no console script either.
    ``terminal=True`` writes the published wheel for pip, with ``python -m spades`` and the
    ``spades`` command. Both have the same file name (one version), so they go in different folders.
    """
    project = project_metadata(root)
    readme_path = root / str(project.get("readme") or "README.md")
    readme = readme_path.read_text(encoding="utf-8") if readme_path.is_file() else None
    dist = f"{_normalize(project['name'])}-{project['version']}"
    info_dir = f"{dist}.dist-info"
    entries = package_files(root, package, terminal=terminal)
    meta = [
        (f"{info_dir}/METADATA", metadata_text(project, readme).encode()),
        (f"{info_dir}/WHEEL", (
            f"Wheel-Version: 1.0\nGenerator: {GENERATOR}\nRoot-Is-Purelib: true\nTag: {TAG}\n"
        ).encode()),
        (f"{info_dir}/top_level.txt", f"{package}\n".encode()),
    ]
    entry_points = entry_points_text(project) if terminal else None
    if entry_points:
        meta.append((f"{info_dir}/entry_points.txt", entry_points.encode()))
    entries += sorted(meta)
    record_name = f"{info_dir}/RECORD"
    record = "".join(f"{name},{_record_hash(data)},{len(data)}\n" for name, data in entries)
    record += f"{record_name},,\n"
    dest.mkdir(parents=True, exist_ok=True)
    target = dest / f"{dist}-{TAG}.whl"
    with zipfile.ZipFile(target, "w") as zf:
        for name, data in entries:
            _write(zf, name, data)
        _write(zf, record_name, record.encode())
    return target


def main(argv: list[str] | None = None) -> int:
    """``python wheel_writer.py DEST [--terminal]``: write a wheel of this checkout into DEST."""
    ap = argparse.ArgumentParser(description="Write the spades wheel with the standard library only.")
    ap.add_argument("dest", type=Path, help="folder to write the wheel into")
    ap.add_argument("--terminal", action="store_true",
                    help="the published wheel for pip: with the command line (python -m spades)")
    args = ap.parse_args(argv)
    try:
        print(write_wheel(Path(__file__).resolve().parent, args.dest, terminal=args.terminal))
    except (OSError, WheelError) as exc:
        print(f"error: {exc}")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
