"""The layout of site/ (read as text, no browser needed): one folder per page, `lib/` and
`engine/` beneath them. A page's modules import `lib/`, `engine/` and their own folder,
never another page's; `lib/` imports only `lib/` and `engine/`; `engine/` only itself. Every
module a script names, every script and style sheet a page names, and every worker URL
exists, so a moved file cannot leave a dangling path behind.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

import build_site
import site_compact

SITE = Path(__file__).resolve().parents[2] / "site"
PAGE_FOLDERS = ("game", "viewer", "stats", "python")
#: What each folder's modules may import (besides the Pyodide runtime the build adds).
ALLOWED = {
    **{page: {page, "lib", "engine"} for page in PAGE_FOLDERS},
    "lib": {"lib", "engine"},
    "engine": {"engine"},
}
#: Shipped by the build from site/node_modules, not files of site/: the Pyodide runtime and
#: small pinned modules (build_site.VENDOR_MODULES).
RUNTIME = {"pyodide", "vendor"}
#: Modules the build writes into dist/ (no file of site/): the protocol's table and the
#: engine's description of variant 1.0.0.
GENERATED = {SITE / build_site.PROTOCOL_MODULE, SITE / build_site.DEFAULT_RULES_MODULE}

STATIC_IMPORT = re.compile(r"""^\s*(?:import|export)\b[^;'"]*?\bfrom\s*["']([^"']+)["']""", re.M)
DYNAMIC_IMPORT = re.compile(r"""\bimport\(\s*["']([^"']+)["']\s*\)""")
#: new URL("x", import.meta.url) (or a template literal's start, up to its first ${).
MODULE_RELATIVE_URL = re.compile(r"""new URL\(\s*["'`]([^"'`$]*)[^,]*,\s*import\.meta\.url""")
#: A worker's script: started inline (new Worker(new URL("x.js", ...))) or named first (a
#: const X_URL = new URL("x.js", import.meta.url), as connect.js names the engine's, shared or not).
WORKER_URL = re.compile(r"""new (?:Shared)?Worker\(\s*new URL\(\s*["']([^"']+)["']"""
                        r"""|_URL = new URL\(\s*["']([^"']+\.js)["']\s*,\s*import\.meta\.url""")
PAGE_REF = re.compile(r"""<(?:script[^>]*\bsrc|link[^>]*rel="stylesheet"[^>]*\bhref)="([^"]+)\"""")


def modules() -> list[Path]:
    return sorted(p for p in SITE.rglob("*.js") if "node_modules" not in p.parts)


def without_comments(text: str) -> str:
    """The source without // line comments (usage examples in headers name imports)."""
    return re.sub(r"^\s*//.*$", "", text, flags=re.M)


def imports(path: Path) -> list[str]:
    text = without_comments(path.read_text(encoding="utf-8"))
    return STATIC_IMPORT.findall(text) + DYNAMIC_IMPORT.findall(text)


def folder_of(path: Path) -> str:
    rel = path.relative_to(SITE)
    return rel.parts[0] if len(rel.parts) > 1 else "."


def test_every_script_lives_in_a_folder_of_its_concern():
    loose = [p.name for p in modules() if folder_of(p) == "."]
    # the service worker (its scope is the whole site) and the one-line embed (authors write SITE/embed.js)
    assert loose == ["embed.js", "sw.js"], f"scripts at the site root besides these two: {loose}"
    folders = {folder_of(p) for p in modules()} - {"."}
    assert folders == set(ALLOWED), folders


@pytest.mark.parametrize("path", modules(), ids=lambda p: p.relative_to(SITE).as_posix())
def test_imports_resolve_and_respect_the_layers(path):
    here = folder_of(path)
    for spec in imports(path):
        assert spec.startswith("."), f"{spec}: only relative imports (the site requests no other origin)"
        target = (path.parent / spec).resolve()
        rel = target.relative_to(SITE)
        if rel.parts[0] in RUNTIME:
            continue
        assert target.is_file() or target in GENERATED, f"{spec} does not exist"
        assert rel.parts[0] in ALLOWED[here], f"{here}/ must not import {rel.as_posix()}"


def test_the_generated_modules_are_not_kept_in_site():
    assert not any(p.is_file() for p in GENERATED), "a generated module is also kept in site/"


def test_worker_urls_resolve():
    found = []
    for path in modules():
        for match in WORKER_URL.findall(path.read_text(encoding="utf-8")):
            spec = next(m for m in match if m)
            found.append((path.name, spec))
            assert (path.parent / spec).is_file(), f"{path.name} starts a worker from {spec}, which does not exist"
    # connect.js starts the engine (shared or dedicated); historyread.js its reader
    assert sorted(found) == [("connect.js", "../engine/engine-worker.js"),
                             ("historyread.js", "../lib/historyread-worker.js")], found


def test_addresses_from_a_module_hold_where_the_build_bundles_it():
    """An address a module resolves against its own (``new URL(x, import.meta.url)``) names the
    same place from the build's chunk folder, where the module's code may end up
    (site_compact.CHUNK_DIR): written from the site root's level (``../engine/x.js``)."""
    found = []
    for path in modules():
        for spec in MODULE_RELATIVE_URL.findall(without_comments(path.read_text(encoding="utf-8"))):
            found.append(path.name)
            own = os.path.normpath(path.parent.relative_to(SITE) / spec)
            bundled = os.path.normpath(Path(site_compact.CHUNK_DIR) / spec)
            assert own == bundled, f"{path.name}: {spec} is {own} from its folder but {bundled} from a chunk"
    assert sorted(set(found)) == ["connect.js", "historyread.js", "i18n.js", "worker.js"], found


@pytest.mark.parametrize("page", sorted(SITE.glob("*.html")), ids=lambda p: p.name)
def test_page_scripts_and_styles_exist(page):
    refs = PAGE_REF.findall(page.read_text(encoding="utf-8"))
    for ref in refs:
        assert (SITE / ref).is_file(), f"{page.name} names {ref}, which does not exist"
    assert any(ref.endswith(".js") for ref in refs), f"{page.name} loads no script"
