#!/usr/bin/env python3
"""Build and serve the static Spades site (Python >= 3.11 standard library, and Node).

    python build_site.py build [--out dist]
    python build_site.py serve [--port 8000] [--no-build] [--out dist]

``build`` lays out ``dist/`` (every URL inside it is relative, so it works from
any static host and under any sub-path):

    dist/pyodide/            Pyodide core (pyodide.mjs, pyodide.asm.mjs,
                             pyodide.asm.wasm, python_stdlib.zip,
                             pyodide-lock.json) from the npm package pinned in
                             site/package-lock.json (``npm ci``, integrity
                             checked), plus the micropip wheel (sha256 pinned).
    dist/pyodide/engine_stdlib.zip
                             the standard library the engine worker boots with:
                             Pyodide's, cut to what the engine and Pyodide's boot
                             import, entries stored (stdlib_trim.py, run in
                             Pyodide's Python under Node; cached in .cache/stdlib/).
                             python.html keeps the full python_stdlib.zip.
    dist/wheels/spades-<version>-py3-none-any.whl
                             the engine the game boots, built from this
                             repository (only the ``spades`` package, without
                             its terminal modules ``spades.cli``; the same
                             wheel serves python.html's micropip, a browser
                             having no terminal). The published wheel for pip,
                             with the command line: ``python wheel_writer.py
                             --terminal DEST``.
    dist/wheels/latest.json  {"wheel": "<file name>", "sha256": "<hex>"}
    dist/...                 everything in site/ except node_modules/ and
                             package*.json; scripts and styles minified by
                             esbuild (pinned in site/package-lock.json), JSON
                             (the catalogues i18n/<lang>.json) without spacing.
    dist/embed.html          the game for an author's iframe: index.html with
                             its root element marked data-page="embed".
    dist/build.json          {"build": <content hash>, "wheel": "wheels/<name>",
                             "micropip": "pyodide/<name>", "pyodide": "<version>",
                             "stdlib": "pyodide/engine_stdlib.zip"}
    dist/precache.json       {"build": <content hash>, "files": [{"path", "size"}...]}
                             every file in dist/ except precache.json itself and
                             the siblings below.
    dist/**/<file>.gz, .br   precompressed siblings where they save 10 %
                             (site_compress.py: gzip level 9, brotli quality 11
                             by Node's zlib, cached in .cache/brotli/).

``serve`` builds (unless --no-build) and serves dist/ on 127.0.0.1 with an
explicit MIME map (.mjs as text/javascript, .wasm as application/wasm, ...),
``Cache-Control: no-cache``, and a file's .br or .gz sibling when the request's
``Accept-Encoding`` allows it (``Content-Encoding``, ``Vary: Accept-Encoding``).
"""
from __future__ import annotations

import argparse
import contextlib
import email.utils
import functools
import hashlib
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterable
from pathlib import Path
from typing import BinaryIO

import engine_bytecode
import site_compress
import stdlib_trim
import wheel_writer
from site_compact import bundle_pages, bundle_workers, compact, minify_tree

ROOT = Path(__file__).resolve().parent
SITE = ROOT / "site"
CACHE_WHEELS = ROOT / ".cache" / "wheels"
CACHE_STDLIB = ROOT / ".cache" / "stdlib"
CACHE_BYTECODE = ROOT / ".cache" / "bytecode"
CACHE_BROTLI = ROOT / ".cache" / "brotli"
STDLIB_NODE = ROOT / "stdlib_node.mjs"  # runs stdlib_trim.py and engine_bytecode.py in Pyodide's Python under Node

PYODIDE_VERSION = "314.0.7"
PYODIDE_CORE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)

#: The standard library the engine worker boots with: Pyodide's, cut to what the engine
#: and Pyodide's boot import (stdlib_trim.py). python.html keeps Pyodide's full one.
ENGINE_STDLIB = "engine_stdlib.zip"

MICROPIP_VERSION = "0.11.1"
MICROPIP_WHEEL = f"micropip-{MICROPIP_VERSION}-py3-none-any.whl"
MICROPIP_SHA256 = "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3"

#: Small browser modules from npm packages pinned in site/package-lock.json, shipped under
#: dist/vendor/ (package, file in the package, name in dist/vendor/): the QR code of a
#: friend's invitation.
VENDOR_MODULES = (("uqr", "dist/index.mjs", "uqr.mjs"),)
VENDOR_DIR = "vendor"

# Files of site/ that are build inputs, not site content.
SITE_EXCLUDE_DIRS = {"node_modules"}
SITE_EXCLUDE_FILES = {"package.json", "package-lock.json"}
SITE_EXCLUDE_SUFFIXES = (".md",)  # notes for translators and developers, not site content
NPM_STAMP = ".spades-lock-sha256"  # written into node_modules after `npm ci`

MIME_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".htm": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".map": "application/json",
    ".webmanifest": "application/manifest+json",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".whl": "application/zip",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".txt": "text/plain; charset=utf-8",
}
DEFAULT_MIME = "application/octet-stream"


class BuildError(RuntimeError):
    """A build step failed; the message says which and why."""


def log(msg: str) -> None:
    print(f"[build_site] {msg}", flush=True)


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> None:
    log("$ " + " ".join(cmd))
    try:
        subprocess.run(cmd, cwd=cwd, check=True, env=env)
    except FileNotFoundError as exc:
        raise BuildError(f"command not found: {cmd[0]} ({exc})") from exc
    except subprocess.CalledProcessError as exc:
        raise BuildError(f"command failed with exit code {exc.returncode}: {' '.join(cmd)}") from exc


# --------------------------------------------------------------------------- pyodide


def ensure_node_modules(site: Path = SITE) -> Path:
    """Run ``npm ci`` in site/ when node_modules is missing or older than the lock file."""
    lock = site / "package-lock.json"
    if not lock.is_file():
        raise BuildError(f"{lock} is missing: run `npm install` in site/ once to create it")
    want = sha256_file(lock)
    stamp = site / "node_modules" / NPM_STAMP
    pkg_json = site / "node_modules" / "pyodide" / "package.json"
    fresh = stamp.is_file() and stamp.read_text().strip() == want and pkg_json.is_file()
    if not fresh:
        npm = shutil.which("npm")
        if npm is None:
            raise BuildError("npm is not installed (needed to fetch the pinned Pyodide runtime)")
        run([npm, "ci", "--no-audit", "--no-fund"], cwd=site)
        stamp.write_text(want + "\n")
    return site / "node_modules" / "pyodide"


def copy_vendor_modules(node_modules: Path, dest: Path) -> None:
    """Copy VENDOR_MODULES from the pinned packages into ``dest`` (dist/vendor/)."""
    dest.mkdir(parents=True, exist_ok=True)
    for package, path, name in VENDOR_MODULES:
        src = node_modules / package / path
        if not src.is_file():
            raise BuildError(f"{src} is missing: run `npm ci` in site/ ({package} is pinned there)")
        shutil.copy2(src, dest / name)


def copy_pyodide_core(pkg_dir: Path, dest: Path) -> None:
    pkg_json = pkg_dir / "package.json"
    try:
        version = json.loads(pkg_json.read_text())["version"]
    except (OSError, ValueError, KeyError) as exc:
        raise BuildError(f"cannot read the Pyodide version from {pkg_json}: {exc}") from exc
    if version != PYODIDE_VERSION:
        raise BuildError(
            f"site/node_modules/pyodide is version {version}, but build_site.py pins "
            f"{PYODIDE_VERSION}: fix site/package.json + package-lock.json or PYODIDE_VERSION"
        )
    dest.mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_CORE_FILES:
        src = pkg_dir / name
        if not src.is_file():
            raise BuildError(f"Pyodide {version} package lacks {name} ({src})")
        shutil.copy2(src, dest / name)


def ensure_micropip(cache: Path = CACHE_WHEELS) -> Path:
    wheel = cache / MICROPIP_WHEEL
    if not wheel.is_file():
        cache.mkdir(parents=True, exist_ok=True)
        run(
            [sys.executable, "-m", "pip", "download", f"micropip=={MICROPIP_VERSION}",
             "--no-deps", "--python-version", "3.14", "--only-binary=:all:", "-q", "-d", str(cache)],
            cwd=ROOT,
        )
    if not wheel.is_file():
        raise BuildError(f"pip download did not produce {wheel}")
    got = sha256_file(wheel)
    if got != MICROPIP_SHA256:
        raise BuildError(
            f"{wheel} has sha256 {got}, expected {MICROPIP_SHA256}; delete it and rebuild"
        )
    return wheel


# --------------------------------------------------------------------------- engine wheel


def build_engine_wheel(dest: Path, root: Path = ROOT, *, terminal: bool = False) -> Path:
    """Write the ``spades`` wheel (only the package and its metadata) into ``dest``.

    By default the wheel the game boots, without the terminal's modules (``spades.cli``);
    ``terminal=True``: the published wheel for pip, with them (wheel_writer.TERMINAL_ONLY).
    Written with the standard library (wheel_writer), so a bare Python with
    only pip builds it, and reproducibly: same sources -> same bytes.
    """
    try:
        wheel = wheel_writer.write_wheel(root, dest, terminal=terminal)
    except (OSError, wheel_writer.WheelError) as exc:
        raise BuildError(f"cannot write the engine wheel: {exc}") from exc
    check_wheel_contents(wheel, terminal=terminal)
    return wheel


def check_wheel_contents(wheel: Path, *, terminal: bool = False) -> None:
    """Refuse a wheel with files outside the package, without the bridge, or (the game's)
    with a terminal-only module."""
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
    bad = [n for n in names if not (n.startswith("spades/") or ".dist-info/" in n)]
    if bad:
        raise BuildError(f"{wheel.name} contains files outside the spades package: {bad[:10]}")
    if "spades/bridge/__init__.py" not in names:
        raise BuildError(f"{wheel.name} lacks spades/bridge/__init__.py")
    terminal_files = [n for n in names if wheel_writer.terminal_only(n)]
    if terminal_files and not terminal:
        raise BuildError(f"{wheel.name}, the game's wheel, holds terminal-only modules: {terminal_files[:10]}")


# --------------------------------------------------------------------------- trimmed stdlib


def worker_snippet_imports(site: Path = SITE) -> set[str]:
    """The modules the Python snippets in site/'s scripts import (the engine worker's)."""
    text = "".join(
        p.read_text(encoding="utf-8") for p in sorted(site.rglob("*.js"))
        if SITE_EXCLUDE_DIRS.isdisjoint(p.relative_to(site).parts)
    )
    return stdlib_trim.snippet_imports(text)


def content_key(paths: Iterable[Path], extra: str = "") -> str:
    """A short hash of the files ``paths`` (in order) and ``extra``: a build step's cache key."""
    key = hashlib.sha256()
    for path in paths:
        key.update(sha256_file(path).encode())
    key.update(extra.encode())
    return key.hexdigest()[:24]


def run_in_pyodide(pkg_dir: Path, script: str, why: str, args: list[str],
                   env: dict[str, str] | None = None) -> None:
    """Run the build script ``script`` (beside this file) with ``args`` in Pyodide's own Python
    under Node (``stdlib_node.mjs``), with ``env`` added to this process's environment."""
    node = shutil.which("node")
    if node is None:
        raise BuildError(f"node is not installed (needed to {why})")
    run([node, str(STDLIB_NODE), str(pkg_dir), str(ROOT / script), *args], cwd=ROOT,
        env={**os.environ, **env} if env else None)


def build_stdlib(pkg_dir: Path, wheel: Path, dest: Path, cache: Path = CACHE_STDLIB) -> dict:
    """Write the engine's trimmed standard library ``dest`` (``stdlib_trim.trim``); return its report.

    The trim runs in Pyodide's own Python (Node, ``stdlib_node.mjs``): the sources are
    Python 3.14's. Its result depends only on Pyodide's files, the engine's imports, the
    worker's snippets and the two scripts, so it is kept in ``.cache/stdlib/`` under a
    hash of those and reused.
    """
    runtime = [pkg_dir / "pyodide.asm.mjs", pkg_dir / "pyodide.asm.wasm"]
    full = pkg_dir / "python_stdlib.zip"
    also = sorted(worker_snippet_imports())
    engine = stdlib_trim.engine_imports(stdlib_trim.engine_sources(wheel))
    key = content_key((full, *runtime, ROOT / "stdlib_trim.py", ROOT / "engine_bytecode.py", STDLIB_NODE),
                      json.dumps([sorted(engine.modules), sorted(engine.maybe), also]))
    cached, report = cache / f"{key}.zip", cache / f"{key}.json"
    if not (cached.is_file() and report.is_file()):
        cache.mkdir(parents=True, exist_ok=True)
        tmp = cached.with_suffix(".tmp")
        run_in_pyodide(pkg_dir, "stdlib_trim.py", "trim the standard library",
                       ["--stdlib", str(full), "--runtime", *map(str, runtime), "--wheel", str(wheel),
                        "--also", ",".join(also), "--out", str(tmp), "--report", str(report)],
                       env={"PYTHONNODEBUGRANGES": "1"})
        tmp.replace(cached)
    info = json.loads(report.read_text())
    with zipfile.ZipFile(cached) as zf:
        absent = stdlib_trim.missing(engine, stdlib_trim.modules_of(zf),
                                     stdlib_trim.builtin_modules(runtime[0].read_text(encoding="utf-8")))
    if absent:
        raise BuildError(f"the trimmed standard library lacks modules the engine imports: {absent}")
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(cached, dest)
    return info


def engine_bytecode_name(wheel: Path) -> str:
    """The bytecode archive's name beside ``wheel`` (``spades-1.0.0-py3-none-any.whl`` →
    ``spades-1.0.0-bytecode.zip``)."""
    name, version = wheel.name.split("-")[:2]
    return f"{name}-{version}-bytecode.zip"


def build_bytecode(pkg_dir: Path, wheel: Path, dest: Path, cache: Path = CACHE_BYTECODE) -> int:
    """Write the engine's modules as Pyodide's bytecode to ``dest`` (``engine_bytecode.py``, run
    in Pyodide's own Python under Node); return how many modules.

    The worker's plain start imports them without compiling (about a quarter of a second less
    before the first bid, measured in Pyodide under Node). The result depends only on the
    wheel, Pyodide's runtime and the two scripts: kept in ``.cache/bytecode/`` under their hash.
    """
    runtime = [pkg_dir / "pyodide.asm.mjs", pkg_dir / "pyodide.asm.wasm"]
    cached = cache / f"{content_key((wheel, *runtime, ROOT / 'engine_bytecode.py', STDLIB_NODE))}.zip"
    if not cached.is_file():
        cache.mkdir(parents=True, exist_ok=True)
        tmp = cached.with_suffix(".tmp")
        run_in_pyodide(pkg_dir, "engine_bytecode.py", "compile the engine for Pyodide",
                       ["--wheel", str(wheel), "--out", str(tmp)], env={"PYTHONNODEBUGRANGES": "1"})
        tmp.replace(cached)
    with zipfile.ZipFile(wheel) as whl, zipfile.ZipFile(cached) as pyc:
        want = [n + "c" for n in engine_bytecode.module_sources(whl.namelist())]
        if sorted(pyc.namelist()) != want:
            raise BuildError(f"the engine's bytecode does not match its wheel: {cached}")
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(cached, dest)
    return len(want)


# --------------------------------------------------------------------------- site + manifests


def copy_site(site: Path, dest: Path) -> None:
    for dirpath, dirnames, filenames in os.walk(site):
        dirnames[:] = sorted(d for d in dirnames if d not in SITE_EXCLUDE_DIRS)
        rel = Path(dirpath).relative_to(site)
        for name in sorted(filenames):
            if rel == Path(".") and name in SITE_EXCLUDE_FILES:
                continue
            if name.endswith(SITE_EXCLUDE_SUFFIXES):
                continue
            target = dest / rel / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(compact(name, (Path(dirpath) / name).read_bytes()))


#: Where the built site holds the protocol's table (site/engine/protocol.js imports it).
PROTOCOL_MODULE = Path("engine") / "messages.js"


#: Where the built site holds variant 1.0.0's description (site/lib/rules-words.js imports it).
DEFAULT_RULES_MODULE = Path("engine") / "default-rules.js"


def write_protocol(dest: Path) -> None:
    """Write the protocol's table (spades/bridge/protocol.py, the one source) for the page, and
    the engine's description of variant 1.0.0 (``spades.Rules().to_dict()``), against which the
    page says what a house-rules combination changes."""
    from spades import Rules
    from spades.bridge.protocol import to_javascript

    (dest / PROTOCOL_MODULE).write_text(to_javascript(), encoding="utf-8")
    described = json.dumps(Rules().to_dict(), sort_keys=True)
    (dest / DEFAULT_RULES_MODULE).write_text(
        "// Generated by build_site.py from spades.Rules(): do not edit.\n"
        f"export const DEFAULT_RULES_DESCRIPTION = Object.freeze({described});\n",
        encoding="utf-8",
    )


#: The game for an author's iframe (docs/embedding.md): index.html itself, its root element
#: marked (site/game/app.js reads the mark), written by the build so the page is never kept
#: twice. A page that only forwarded the frame to index.html?embed=1 cost every game frame a
#: second navigation (a document loaded and thrown away), on the main thread that all the frames
#: of a tutorial page share.
EMBED_PAGE = "embed.html"
#: The game page's root element, and the embed page's (the mark: ``data-page="embed"``).
GAME_ROOT = '<html lang="en">'
EMBED_ROOT = '<html lang="en" data-page="embed">'


def write_embed_page(dest: Path) -> None:
    """Write ``dest/embed.html``: the game page ``dest/index.html`` with its root element marked."""
    page = (dest / "index.html").read_text(encoding="utf-8")
    if page.count(GAME_ROOT) != 1:
        raise BuildError(f"index.html must hold its root element {GAME_ROOT} once, to mark it for {EMBED_PAGE}")
    (dest / EMBED_PAGE).write_text(page.replace(GAME_ROOT, EMBED_ROOT), encoding="utf-8")


def minify_site(out: Path, site: Path = SITE) -> None:
    """Bundle each page's scripts and each module worker's script, then minify the shipped scripts
    and styles (esbuild, pinned in site/package-lock.json). The Pyodide runtime a page or worker
    imports stays as it is."""
    esbuild = site / "node_modules" / ".bin" / ("esbuild.cmd" if os.name == "nt" else "esbuild")
    if not esbuild.is_file():
        raise BuildError(f"{esbuild} is missing: run `npm ci` in site/")
    try:
        bundle_workers(out, esbuild, external=("../pyodide/*",))
        bundle_pages(out, esbuild, external=("../pyodide/*",))
        minify_tree(out, esbuild, skip=("pyodide/", "wheels/"))
    except (OSError, ValueError, subprocess.CalledProcessError) as exc:
        raise BuildError(f"esbuild could not bundle and minify the site: {exc}") from exc


def list_files(out: Path) -> list[Path]:
    """The shipped files of ``out``: everything but the precompressed siblings (``x.js.br``)."""
    return sorted((p for p in out.rglob("*") if p.is_file() and not site_compress.is_sibling(p)),
                  key=lambda p: p.relative_to(out).as_posix())


def content_hash(out: Path, skip: set[str]) -> str:
    digest = hashlib.sha256()
    for path in list_files(out):
        rel = path.relative_to(out).as_posix()
        if rel in skip:
            continue
        digest.update(rel.encode() + b"\0" + sha256_file(path).encode() + b"\n")
    return digest.hexdigest()[:12]


def write_manifests(out: Path, wheel: str, micropip: str, pyodide: str = PYODIDE_VERSION,
                    stdlib: str | None = None, engine: str | None = None) -> dict:
    """Write build.json and precache.json for the files now in ``out`` (``stdlib``: the
    engine's trimmed standard library; ``engine``: its bytecode; both named in build.json for
    the worker). Their precompressed siblings go with the old versions: a server would send
    those in their place (the build writes new ones afterwards)."""
    build = content_hash(out, skip={"build.json", "precache.json"})
    info = {"build": build, "wheel": wheel, "micropip": micropip, "pyodide": pyodide}
    if stdlib is not None:
        info["stdlib"] = stdlib
    if engine is not None:
        info["engine"] = engine
    (out / "build.json").write_text(json.dumps(info, indent=2) + "\n")
    files = [
        {"path": p.relative_to(out).as_posix(), "size": p.stat().st_size}
        for p in list_files(out)
        if p.relative_to(out).as_posix() != "precache.json"
    ]
    (out / "precache.json").write_text(json.dumps({"build": build, "files": files}, separators=(",", ":")) + "\n")
    for name in ("build.json", "precache.json"):
        site_compress.drop_siblings(out / name)
    return info


def summarize(out: Path) -> dict[str, int]:
    """Byte totals: everything, the Pyodide folder, and our own payload (the rest)."""
    total = pyodide = 0
    for path in list_files(out):
        size = path.stat().st_size
        total += size
        if path.relative_to(out).parts[0] == "pyodide":
            pyodide += size
    return {"total": total, "pyodide": pyodide, "own": total - pyodide}


def _safe_out(out: Path) -> Path:
    out = out.resolve()
    if out in (ROOT, SITE) or out in ROOT.parents or SITE in out.parents:
        raise BuildError(f"refusing to use {out} as the output directory")
    return out


def build(out: Path | str = ROOT / "dist") -> dict:
    """Build the site into ``out``; return build.json's content plus byte totals.

    Everything is built in a temporary folder beside ``out`` and swapped in only
    when complete, so a failed build leaves the previous ``out`` untouched.
    """
    out = _safe_out(Path(out))
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}-new-", dir=out.parent))
    try:
        info = _build_into(tmp)
        _swap_in(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    sizes = info["sizes"]
    log(f"built {out} (build {info['build']}, engine {Path(info['wheel']).name}, Pyodide {PYODIDE_VERSION})")
    log(
        f"total {sizes['total']:,} bytes = Pyodide core {sizes['pyodide']:,} bytes"
        f" + own payload {sizes['own']:,} bytes"
    )
    return info


def _swap_in(new: Path, out: Path) -> None:
    """Replace ``out`` by the finished folder ``new`` (two renames on one file system)."""
    old = None
    if out.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{out.name}-old-", dir=out.parent))
        old.rmdir()
        out.rename(old)
    try:
        new.rename(out)
    except OSError:
        if old is not None:
            old.rename(out)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def _build_into(out: Path) -> dict:
    """Lay out a complete site in the empty folder ``out``."""
    brotli = site_compress.Brotli(CACHE_BROTLI)
    try:
        return _lay_out(out, brotli)
    finally:
        brotli.stop()


def _lay_out(out: Path, brotli: site_compress.Brotli) -> dict:
    pkg_dir = ensure_node_modules(SITE)
    copy_pyodide_core(pkg_dir, out / "pyodide")
    # Pyodide's own files take the longest to brotli (minutes, once: cached): start at once.
    brotli.start(out / "pyodide" / name for name in PYODIDE_CORE_FILES if name != "python_stdlib.zip")
    micropip = ensure_micropip()
    shutil.copy2(micropip, out / "pyodide" / micropip.name)

    wheel = build_engine_wheel(out / "wheels")
    (out / "wheels" / "latest.json").write_text(
        json.dumps({"wheel": wheel.name, "sha256": sha256_file(wheel)}, indent=2) + "\n"
    )
    stdlib = build_stdlib(pkg_dir, wheel, out / "pyodide" / ENGINE_STDLIB)
    log(f"engine stdlib: {len(stdlib['modules'])} modules, {stdlib['bytes']:,} bytes (Python {stdlib['python']})")
    engine = out / "wheels" / engine_bytecode_name(wheel)
    log(f"engine bytecode: {build_bytecode(pkg_dir, wheel, engine)} modules, {engine.stat().st_size:,} bytes")

    copy_site(SITE, out)
    write_embed_page(out)
    copy_vendor_modules(pkg_dir.parent, out / VENDOR_DIR)
    write_protocol(out)
    minify_site(out)
    info = write_manifests(out, wheel=f"wheels/{wheel.name}", micropip=f"pyodide/{micropip.name}",
                           stdlib=f"pyodide/{ENGINE_STDLIB}", engine=f"wheels/{engine.name}")
    try:
        siblings = site_compress.write_siblings(out, brotli)
    except (OSError, site_compress.CompressError) as exc:
        raise BuildError(f"cannot write the compressed siblings: {exc}") from exc
    log(f"precompressed siblings: {siblings['gzip']} .gz, {siblings['br']} .br")
    return {**info, "sizes": summarize(out)}


# --------------------------------------------------------------------------- server


def guess_type(path: str) -> str:
    return MIME_TYPES.get(os.path.splitext(path)[1].lower(), DEFAULT_MIME)


def accepted_encodings(header: str | None) -> set[str]:
    """The content codings an ``Accept-Encoding`` header accepts (``q=0`` refuses one)."""
    out = set()
    for part in (header or "").split(","):
        name, _, params = part.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if name and q > 0:
            out.add(name.strip().lower())
    return out


class Handler(http.server.SimpleHTTPRequestHandler):
    """Static files with our MIME map, no-cache, and no per-request logging.

    A file with a precompressed sibling (``x.wasm.br``, ``x.wasm.gz``) is answered with
    the sibling the request's ``Accept-Encoding`` allows (brotli first), with
    ``Content-Encoding``, the file's own type and ``Last-Modified``, and ``Vary:
    Accept-Encoding`` whenever a sibling exists.
    """

    vary = False
    #: Every answer's ``Cache-Control``: a browser asks again each time (a new build is seen
    #: at once; the service worker keeps the offline copy).
    cache_control = "no-cache"

    def guess_type(self, path):  # the standard library's signature
        return guess_type(os.fspath(path))

    def send_head(self):
        self.vary = False
        path = self.translate_path(self.path)
        if os.path.isdir(path) and self.path.split("?")[0].endswith("/"):
            path = os.path.join(path, "index.html")
        if not os.path.isfile(path):
            return super().send_head()
        self.vary = any(os.path.isfile(path + suffix) for suffix in site_compress.ENCODINGS.values())
        wanted = accepted_encodings(self.headers.get("Accept-Encoding"))
        for encoding, suffix in site_compress.ENCODINGS.items() if self.vary else ():
            if encoding in wanted:
                try:  # opened, not looked for first: a deployment may remove it meanwhile
                    body = open(path + suffix, "rb")  # noqa: SIM115 - closed by the caller
                except FileNotFoundError:
                    continue
                return self._send_encoded(path, body, encoding)
        return super().send_head()

    def _send_encoded(self, path: str, body: BinaryIO, encoding: str) -> BinaryIO | None:
        """The head of ``path``'s answer as its open ``encoding`` sibling ``body`` (or 304 if
        unchanged); returns the body to send, or None (``body`` then closed)."""
        try:
            mtime = int(os.stat(path).st_mtime)
            since = self.headers.get("If-Modified-Since")
            unchanged = False
            if since and "If-None-Match" not in self.headers:
                with contextlib.suppress(TypeError, ValueError, IndexError, OverflowError):  # unreadable: send it
                    unchanged = email.utils.parsedate_to_datetime(since).timestamp() >= mtime
            if unchanged:
                body.close()
                self.send_response(http.HTTPStatus.NOT_MODIFIED)
                self.end_headers()
                return None
            self.send_response(http.HTTPStatus.OK)
            self.send_header("Content-Type", guess_type(path))
            self.send_header("Content-Encoding", encoding)
            self.send_header("Content-Length", str(os.fstat(body.fileno()).st_size))
            self.send_header("Last-Modified", self.date_time_string(mtime))
            self.end_headers()
        except BaseException:
            body.close()
            raise
        return body

    def end_headers(self):
        self.send_header("Cache-Control", self.cache_control)
        if self.vary:
            self.send_header("Vary", "Accept-Encoding")
        super().end_headers()

    def log_message(self, format, *args):  # quiet
        pass


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request, client_address):
        """A browser that dropped the connection mid-file (a tab closed) is not an error to print."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def make_server(directory: Path | str, port: int = 0, host: str = "127.0.0.1") -> Server:
    """An HTTP server for ``directory`` on host:port (port 0 = any free port); call serve_forever()."""
    handler = functools.partial(Handler, directory=os.fspath(directory))
    return Server((host, port), handler)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    p_build = sub.add_parser("build", help="build the static site")
    p_build.add_argument("--out", default=str(ROOT / "dist"))
    p_serve = sub.add_parser("serve", help="build, then serve dist/ on 127.0.0.1")
    p_serve.add_argument("--out", default=str(ROOT / "dist"))
    p_serve.add_argument("--port", type=int, default=8000)
    p_serve.add_argument("--no-build", action="store_true")
    args = parser.parse_args(argv)

    try:
        if args.cmd == "build" or not args.no_build:
            build(args.out)
    except BuildError as exc:
        print(f"build_site: error: {exc}", file=sys.stderr)
        return 1
    if args.cmd == "serve":
        out = Path(args.out).resolve()
        if not (out / "build.json").is_file():
            print(f"build_site: error: {out} is not built (run without --no-build)", file=sys.stderr)
            return 1
        server = make_server(out, args.port)
        port = server.server_address[1]  # serve mode always listens on 127.0.0.1 only
        print(f"Serving {out} at http://127.0.0.1:{port}/  (Ctrl-C to stop)", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
