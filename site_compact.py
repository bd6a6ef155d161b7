"""The shipped form of site files: JSON without spacing, pages without indentation, each page's
scripts bundled and everything minified by esbuild.

Lossless for the browser; used by build_site.py when it copies site/ into dist/. The host's
compression (or the precompressed siblings, site_compress.py) does the rest.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

#: Where the bundler puts the code two scripts of one page share, and each dynamic import. One
#: folder below the site root, as every page script is, so the relative addresses inside the
#: code hold there too.
CHUNK_DIR = "chunks"
#: A page's module script: ``<script type="module" src="...">`` (the attributes in any order).
MODULE_SCRIPT = re.compile(r'<script\b(?=[^>]*\btype="module")[^>]*\bsrc="([^"]+)"[^>]*>', re.IGNORECASE)
#: The ``async`` attribute in a script tag.
ASYNC = re.compile(r'\sasync(?=[\s>=])', re.IGNORECASE)
#: A module worker's script as the code that starts it names it: ``new URL("…-worker.js",
#: import.meta.url)`` (the site's convention: a worker's script is named ``*-worker.js``).
WORKER_SCRIPT = re.compile(r'new URL\(\s*["\']([^"\']+-worker\.js)["\']\s*,\s*import\.meta\.url\s*\)')


def _strip_html(text: str) -> str:
    """Drop indentation from a page, except inside ``<pre>``, ``<textarea>`` and ``<script>``.

    The line breaks stay, so whitespace between inline elements is kept.
    """
    out = []
    verbatim = 0
    for line in text.splitlines():
        lower = line.lower()
        out.append(line if verbatim else line.lstrip())
        verbatim += sum(lower.count(f"<{tag}") - lower.count(f"</{tag}") for tag in ("pre", "textarea", "script"))
        verbatim = max(verbatim, 0)
    return "\n".join(out) + "\n"


def compact(name: str, data: bytes) -> bytes:
    """Shipped form of a site file: JSON re-serialised without spacing, pages without indentation.

    Scripts and style sheets are left as they are here: esbuild minifies them afterwards
    (``minify_tree``). Everything else is copied as it is.
    """
    if name.endswith((".json", ".webmanifest")):
        return json.dumps(json.loads(data), ensure_ascii=False, separators=(",", ":")).encode()
    if name.endswith(".html"):
        return _strip_html(data.decode("utf-8")).encode()
    return data


def page_scripts(root: Path) -> list[list[str]]:
    """The module scripts each of the site's pages (the ``.html`` files at ``root``) loads, as
    paths from ``root``, in bundles: a page's ``async`` module scripts one list each, its other
    module scripts one list (pages loading the same scripts give one list). These are the
    bundler's entry points, read from the pages rather than kept in a list.

    An ``async`` script is the page's early start (the engine's: game/early-engine.js), meant to
    run before the page's own modules have loaded: bundled alone, it asks for no chunk it would
    otherwise share with them (one round trip fewer before the engine starts), at the price of a
    copy of the few modules it shares (they hold no state of their own).

    Raises :class:`ValueError` when two different lists share a script: it could be bundled
    only one way.
    """
    groups: list[list[str]] = []
    for page in sorted(root.glob("*.html")):
        tags = [(match.group(1), ASYNC.search(match.group(0)) is not None)
                for match in MODULE_SCRIPT.finditer(page.read_text(encoding="utf-8"))]
        alone = sorted({src for src, is_async in tags if is_async})
        together = sorted({src for src, is_async in tags if not is_async})
        for scripts in [[src] for src in alone] + ([together] if together else []):
            if scripts not in groups:
                groups.append(scripts)
    owner: dict[str, list[str]] = {}
    for group in groups:
        for src in group:
            if src in owner:
                raise ValueError(f"{src} is loaded beside {owner[src]} and beside {group}: bundle it one way")
            owner[src] = group
    return groups


def bundle_pages(root: Path, esbuild: Path, external: tuple[str, ...] = ()) -> list[list[str]]:
    """Replace each page script under ``root`` by a bundle of it and the modules it imports
    (esbuild, ES modules), a page at a time; return the entry points, one list a bundle
    (``page_scripts``).

    Why: a page then asks for a few files instead of some sixty modules, and each request costs
    the renderer's main thread, which every frame of a tutorial page shares. Bundled a page at
    a time, a page's code sits in its own scripts: only the code two scripts of one page share,
    and each dynamic import, goes to ``CHUNK_DIR`` (shared code still runs once in the page).
    Bundling all pages together spread each page's code over some twenty chunks that every
    frame asked for one by one. Every page's bundles are read from the unbundled site (and
    written over it at the end), so no page bundles another's output.
    The modules stay in the site beside the bundles (the workers are bundled on their own,
    ``bundle_workers``; tests import some by name). ``external``: import paths left as they
    are (the Pyodide runtime, served as it is).
    """
    groups = page_scripts(root)
    with tempfile.TemporaryDirectory(prefix="bundles-") as tmp:
        out = Path(tmp)
        for entries in groups:
            subprocess.run(
                [str(esbuild), *entries, "--bundle", "--splitting", "--format=esm", "--charset=utf8",
                 "--log-level=warning", f"--outdir={out}", f"--outbase={root}",
                 f"--chunk-names={CHUNK_DIR}/[name]-[hash]", *(f"--external:{path}" for path in external)],
                cwd=root, check=True,
            )
        for made in sorted(out.rglob("*")):
            if made.is_file():
                dest = root / made.relative_to(out)
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(made, dest)
    return groups


def worker_scripts(root: Path) -> list[str]:
    """The module workers' scripts the site's modules start, as paths from ``root``: read from
    the code (``WORKER_SCRIPT``) rather than kept in a list. Bundled output (``CHUNK_DIR``) and
    installed packages are not read."""
    top = root.resolve()
    found: set[str] = set()
    for module in top.rglob("*.js"):
        if module.relative_to(top).parts[0] in (CHUNK_DIR, "node_modules"):
            continue
        for address in WORKER_SCRIPT.findall(module.read_text(encoding="utf-8")):
            script = (module.parent / address).resolve()
            if script.is_file() and script.is_relative_to(top):
                found.add(script.relative_to(top).as_posix())
    return sorted(found)


def bundle_workers(root: Path, esbuild: Path, external: tuple[str, ...] = ()) -> list[str]:
    """Replace each module worker's script under ``root`` by one file holding it and every module
    it imports, a dynamic import included (esbuild without chunks); return the scripts.

    Why: a module worker fetches its imports one level at a time, and the engine worker's chain
    (entry, pages, protocol, messages, worker, then Pyodide's loader) cost a round trip each
    before Python could start, on every visit. Bundled whole, the worker's first request after
    its own script is the first of Pyodide's files. A dynamic import of a bundled module stays
    lazy (it runs when imported) but needs no request. ``external``: import paths left as they
    are (the Pyodide runtime)."""
    workers = worker_scripts(root)
    with tempfile.TemporaryDirectory(prefix="workers-") as tmp:
        out = Path(tmp)
        for script in workers:
            subprocess.run(
                [str(esbuild), script, "--bundle", "--format=esm", "--charset=utf8", "--log-level=warning",
                 f"--outfile={out / script}", *(f"--external:{path}" for path in external)],
                cwd=root, check=True,
            )
        for script in workers:
            shutil.copyfile(out / script, root / script)
    return workers


def minify_tree(root: Path, esbuild: Path, skip: tuple[str, ...] = ()) -> None:
    """Minify every script and style sheet under ``root`` in place with esbuild (one call).

    Whitespace, syntax and local names only: no bundling, no lowering (ES modules and
    classic workers keep their form), UTF-8 kept as UTF-8. Deterministic for one esbuild version.
    """
    files = sorted(
        p.relative_to(root).as_posix() for p in root.rglob("*")
        if p.is_file() and p.suffix in (".js", ".mjs", ".css") and not p.relative_to(root).as_posix().startswith(skip)
    )
    if not files:
        return
    subprocess.run(
        [str(esbuild), *files, "--minify", "--charset=utf8", "--legal-comments=none",
         "--log-level=warning", f"--outdir={root}", f"--outbase={root}", "--allow-overwrite"],
        cwd=root, check=True,
    )
