"""The shipped form of site files: JSON without spacing, pages without indentation, scripts
and style sheets minified by esbuild.

Lossless for the browser (no bundling); used by build_site.py when it copies site/ into
dist/. The host's compression (or the precompressed siblings, site_compress.py) does the rest.
"""
from __future__ import annotations

import json
import subprocess
from pathlib import Path


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
