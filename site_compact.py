"""The shipped form of site files: the same code without comments, indentation or JSON spacing.

A light pass that is lossless for the browser (no renaming, no bundling), used by
build_site.py when it copies site/ into dist/.
"""
from __future__ import annotations

import gzip
import json
import re
import subprocess
from pathlib import Path


def _strip_js(text: str) -> str:
    """Drop whole-line comments and indentation from a script, leaving template literals intact.

    Only lines wholly outside a template literal (`` `...` ``) are touched, so
    multi-line strings such as embedded Python code keep their layout.
    """
    out = []
    in_template = in_block = False
    for line in text.splitlines():
        stripped = line.strip()
        if in_template:
            out.append(line)
        elif in_block:
            in_block = "*/" not in stripped
            continue
        elif stripped.startswith("//") or not stripped:
            continue
        elif stripped.startswith("/*"):
            in_block = "*/" not in stripped
            continue
        else:
            out.append(stripped)
        code = line.split("//")[0] if not in_template and "`" not in line else line
        if code.count("`") % 2:
            in_template = not in_template
    return "\n".join(out) + "\n"


def _strip_css(text: str) -> str:
    """Drop comments, indentation and blank lines from a style sheet."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return "\n".join(line.strip() for line in text.splitlines() if line.strip()) + "\n"


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
    """Shipped form of a site file: the same code without comments, indentation or JSON spacing.

    A light, lossless-for-the-browser pass (no renaming, no bundling): JSON is
    re-serialised, scripts and styles lose comments and indentation, pages their indentation.
    """
    if name.endswith((".json", ".webmanifest")):
        return json.dumps(json.loads(data), ensure_ascii=False, separators=(",", ":")).encode()
    if name.endswith((".js", ".mjs")):
        return _strip_js(data.decode("utf-8")).encode()
    if name.endswith(".css"):
        return _strip_css(data.decode("utf-8")).encode()
    if name.endswith(".html"):
        return _strip_html(data.decode("utf-8")).encode()
    return data


# Catalogues ship gzip-compressed under a suffix no web server maps to a Content-Encoding,
# so every host serves the bytes as they are (the service worker checks their size) and
# site/i18n.js inflates them with DecompressionStream.
PACKED_SUFFIX = ".jgz"


def pack_json(data: bytes) -> bytes:
    """A JSON file's shipped, packed form: compact JSON, gzip level 9 with no time stamp (reproducible)."""
    return gzip.compress(compact("x.json", data), compresslevel=9, mtime=0)


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
