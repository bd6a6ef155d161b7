"""Unit tests of build_site.py (no browser, no network)."""
from __future__ import annotations

import ast
import base64
import gzip
import hashlib
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import zipfile
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import build_site  # noqa: E402
import site_compact  # noqa: E402
import wheel_writer  # noqa: E402


@pytest.mark.parametrize(
    "name, mime",
    [
        ("a.mjs", "text/javascript"),
        ("a.js", "text/javascript"),
        ("pyodide.asm.wasm", "application/wasm"),
        ("build.json", "application/json"),
        ("app.webmanifest", "application/manifest+json"),
        ("python_stdlib.zip", "application/zip"),
        ("spades-1.0.0-py3-none-any.whl", "application/zip"),
        ("card.svg", "image/svg+xml"),
        ("index.html", "text/html"),
        ("style.css", "text/css"),
        ("icon.png", "image/png"),
        ("favicon.ico", "image/x-icon"),
        ("notes.txt", "text/plain"),
        ("DIR/UPPER.WASM", "application/wasm"),
        ("unknown.bin", "application/octet-stream"),
    ],
)
def test_mime_map(name, mime):
    assert build_site.guess_type(name).split(";")[0] == mime


def test_server_headers(tmp_path):
    (tmp_path / "x.wasm").write_bytes(b"\0asm")
    (tmp_path / "x.mjs").write_text("export {};")
    server = build_site.make_server(tmp_path, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        base = "http://127.0.0.1:%d/" % server.server_address[1]
        with urllib.request.urlopen(base + "x.wasm", timeout=10) as resp:
            assert resp.headers["Content-Type"] == "application/wasm"
            assert resp.headers["Cache-Control"] == "no-cache"
            assert resp.read() == b"\0asm"
        with urllib.request.urlopen(base + "x.mjs", timeout=10) as resp:
            assert resp.headers["Content-Type"].startswith("text/javascript")
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def served(tmp_path):
    """A server of ``tmp_path``: yields (folder, base URL)."""
    server = build_site.make_server(tmp_path, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield tmp_path, "http://127.0.0.1:%d/" % server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


def _get(url: str, accept: str | None = None, **headers: str):
    """(status, headers, body) of a GET with that Accept-Encoding (None: no such header)."""
    request = urllib.request.Request(url, headers={**({"Accept-Encoding": accept} if accept is not None else {}),
                                                   **headers})
    try:
        with urllib.request.urlopen(request, timeout=10) as resp:
            return resp.status, resp.headers, resp.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers, exc.read()


def _with_siblings(folder: Path, name: str, data: bytes) -> None:
    (folder / name).write_bytes(data)
    (folder / (name + ".gz")).write_bytes(gzip.compress(data))
    (folder / (name + ".br")).write_bytes(b"BROTLI:" + data[:8])  # the server never decodes it


@pytest.mark.parametrize(("accept", "encoding"), [
    ("gzip, deflate, br", "br"),
    ("br;q=1.0, gzip;q=0.8", "br"),
    ("gzip, deflate", "gzip"),
    ("gzip, br;q=0", "gzip"),
    ("GZIP", "gzip"),
    ("identity", None),
    ("br;q=0, gzip;q=0", None),
    (None, None),
])
def test_server_answers_accept_encoding_from_the_siblings(served, accept, encoding):
    folder, base = served
    wasm = b"\0asm" + bytes(range(256)) * 40
    _with_siblings(folder, "x.wasm", wasm)
    status, headers, body = _get(base + "x.wasm", accept)
    assert status == 200
    assert headers["Content-Type"] == "application/wasm"
    assert headers["Vary"] == "Accept-Encoding"
    assert headers["Cache-Control"] == "no-cache"
    assert headers.get("Content-Encoding") == encoding
    expected = {"br": (folder / "x.wasm.br").read_bytes(), "gzip": (folder / "x.wasm.gz").read_bytes(), None: wasm}
    assert body == expected[encoding]
    assert int(headers["Content-Length"]) == len(body)
    if encoding == "gzip":
        assert gzip.decompress(body) == wasm


def test_server_keeps_types_and_revalidation_for_encoded_answers(served):
    folder, base = served
    _with_siblings(folder, "app.mjs", b"export const x = 1;\n" * 50)
    _with_siblings(folder, "index.html", b"<!doctype html><title>x</title>" * 20)
    status, headers, _ = _get(base + "app.mjs", "br")
    assert (status, headers["Content-Type"], headers["Content-Encoding"]) == (200, "text/javascript; charset=utf-8", "br")
    # the directory is its index.html, negotiated the same way
    status, headers, body = _get(base, "gzip")
    assert (status, headers["Content-Type"], headers["Content-Encoding"]) == (200, "text/html; charset=utf-8", "gzip")
    assert gzip.decompress(body).startswith(b"<!doctype html>")
    # revalidation (the service worker's "no-cache" fetches): unchanged -> 304, for either form
    stamp = headers["Last-Modified"]
    for accept in ("br", None):
        status, headers, body = _get(base + "app.mjs", accept, **{"If-Modified-Since": stamp})
        assert (status, body) == (304, b"")
        assert headers["Vary"] == "Accept-Encoding"
    os.utime(folder / "app.mjs", (time.time() + 60, time.time() + 60))
    status, _, _ = _get(base + "app.mjs", "br", **{"If-Modified-Since": stamp})
    assert status == 200


def test_server_sends_files_without_siblings_as_they_are(served):
    folder, base = served
    (folder / "w.whl").write_bytes(b"PK\3\4 already deflated")
    status, headers, body = _get(base + "w.whl", "gzip, br")
    assert (status, body) == (200, b"PK\3\4 already deflated")
    assert "Content-Encoding" not in headers and "Vary" not in headers
    status, _, _ = _get(base + "missing.js", "br")
    assert status == 404


def test_server_answers_when_a_deployment_removes_a_sibling_meanwhile(served, monkeypatch):
    """A redeployment may delete ``x.br`` after the server saw it and before it opens it: the
    answer is then the next form the browser accepts, never a dropped connection."""
    folder, base = served
    data = b'{"build": "abc"}' * 40
    _with_siblings(folder, "build.json", data)
    (folder / "build.json.br").unlink()
    seen = os.path.isfile
    monkeypatch.setattr(build_site.os.path, "isfile",
                        lambda p: seen(p) or os.fspath(p).endswith("build.json.br"))
    status, headers, body = _get(base + "build.json", "gzip, br")
    assert (status, headers.get("Content-Encoding")) == (200, "gzip")
    assert gzip.decompress(body) == data
    (folder / "build.json.gz").unlink()
    status, headers, body = _get(base + "build.json", "br")
    assert (status, headers.get("Content-Encoding"), body) == (200, None, data)


@pytest.mark.parametrize(("header", "accepted"), [
    ("gzip, deflate, br, zstd", {"gzip", "deflate", "br", "zstd"}),
    ("br;q=0.5,gzip;q=0", {"br"}),
    ("br; q=bad", set()),
    ("", set()),
    (None, set()),
])
def test_accept_encoding_parsing(header, accepted):
    assert build_site.accepted_encodings(header) == accepted


def test_server_is_quiet_when_a_browser_drops_a_download(tmp_path, capfd):
    (tmp_path / "big.bin").write_bytes(b"\1" * (8 << 20))
    server = build_site.make_server(tmp_path, 0)
    errors = []
    real = server.handle_error

    def record(request, client_address):
        errors.append(sys.exc_info()[0])
        real(request, client_address)

    server.handle_error = record
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with socket.create_connection(server.server_address[:2], timeout=10) as sock:
            sock.sendall(b"GET /big.bin HTTP/1.1\r\nHost: x\r\n\r\n")
            assert sock.recv(64).startswith(b"HTTP/1.0 200")
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # reset, not FIN
        deadline = time.monotonic() + 10
        while not errors and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        server.shutdown()
        server.server_close()
    assert len(errors) == 1 and issubclass(errors[0], ConnectionError), errors
    assert "Traceback" not in capfd.readouterr().err


class _Refs(HTMLParser):
    def __init__(self):
        super().__init__()
        self.refs: list[str] = []

    def handle_starttag(self, tag, attrs):
        for key, value in attrs:
            if key in ("src", "href", "action") and value:
                self.refs.append(value)


def _html_files():
    site = ROOT / "site"
    return sorted(p for p in site.rglob("*.html") if "node_modules" not in p.relative_to(site).parts)


@pytest.mark.parametrize("path", _html_files(), ids=lambda p: p.relative_to(ROOT / "site").as_posix())
def test_site_html_references_are_relative(path):
    parser = _Refs()
    parser.feed(path.read_text(encoding="utf-8"))
    bad = [r for r in parser.refs if r.startswith("/") or r.lower().startswith(("http:", "https:"))]
    assert bad == [], f"{path.name}: absolute references break sub-path hosting: {bad}"


def test_site_js_imports_are_relative():
    pattern = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(\s*|new\s+Worker\s*\(\s*)["'](/|https?:)""")
    for path in sorted((ROOT / "site").glob("*.js")):
        text = path.read_text(encoding="utf-8")
        assert not pattern.search(text), f"{path.name} imports by an absolute URL"


def _tree(root: Path, files: dict[str, bytes]) -> None:
    for rel, data in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)


def test_summary_numbers_add_up(tmp_path):
    _tree(tmp_path, {
        "pyodide/pyodide.asm.wasm": b"w" * 1000,
        "pyodide/pyodide.mjs": b"m" * 100,
        "index.html": b"h" * 10,
        "wheels/spades-1.0.0-py3-none-any.whl": b"z" * 7,
        "pyodide-not-core.txt": b"t" * 3,
    })
    sizes = build_site.summarize(tmp_path)
    assert sizes == {"total": 1120, "pyodide": 1100, "own": 20}


def test_manifests(tmp_path):
    _tree(tmp_path, {"a.js": b"1", "sub/b.css": b"22"})
    info = build_site.write_manifests(tmp_path, wheel="wheels/w.whl", micropip="pyodide/m.whl")
    assert json.loads((tmp_path / "build.json").read_text()) == info
    assert info["pyodide"] == build_site.PYODIDE_VERSION
    pre = json.loads((tmp_path / "precache.json").read_text())
    assert pre["build"] == info["build"]
    listed = {f["path"]: f["size"] for f in pre["files"]}
    assert listed == {"a.js": 1, "sub/b.css": 2, "build.json": (tmp_path / "build.json").stat().st_size}
    # the hash depends on content only: rewriting manifests keeps it; editing a file changes it
    assert build_site.write_manifests(tmp_path, "wheels/w.whl", "pyodide/m.whl")["build"] == info["build"]
    (tmp_path / "a.js").write_bytes(b"2")
    assert build_site.write_manifests(tmp_path, "wheels/w.whl", "pyodide/m.whl")["build"] != info["build"]


def test_rewritten_manifests_lose_their_stale_siblings(tmp_path):
    # A copy of dist/ that gains files and has its manifests written again (the benches'
    # test pages) must not keep the old build.json.br & co.: a server sends those instead.
    _tree(tmp_path, {"a.js": b"1", "build.json": b"old", "build.json.br": b"old",
                     "build.json.gz": b"old", "precache.json.gz": b"old", "a.js.gz": b"kept"})
    build_site.write_manifests(tmp_path, wheel="wheels/w.whl", micropip="pyodide/m.whl")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.js", "a.js.gz", "build.json", "precache.json"]


def test_copy_site_skips_build_inputs(tmp_path):
    site, out = tmp_path / "site", tmp_path / "out"
    _tree(site, {
        "index.html": b"x", "package.json": b"{}", "package-lock.json": b"{}",
        "node_modules/pyodide/pyodide.mjs": b"x", "i18n/fr.json": b"{}", "img/package.json": b"{}",
    })
    build_site.copy_site(site, out)
    got = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert got == ["i18n/fr.json", "img/package.json", "index.html"]


def test_embed_page_is_the_game_page_with_its_root_marked(tmp_path):
    """embed.html is written from the site's own index.html, not kept beside it: the same page,
    its root element marked for site/game/app.js, so a frame loads the game without a second
    navigation."""
    page = (ROOT / "site" / "index.html").read_text(encoding="utf-8")
    (tmp_path / "index.html").write_text(page, encoding="utf-8")
    build_site.write_embed_page(tmp_path)
    embed = (tmp_path / build_site.EMBED_PAGE).read_text(encoding="utf-8")
    assert embed.count('<html lang="en" data-page="embed">') == 1
    assert embed.replace(' data-page="embed"', "", 1) == page
    assert not (ROOT / "site" / build_site.EMBED_PAGE).exists()   # one source: index.html
    (tmp_path / "index.html").write_text("<!doctype html><html><body></body></html>", encoding="utf-8")
    with pytest.raises(build_site.BuildError, match="root element"):
        build_site.write_embed_page(tmp_path)


def test_refuses_dangerous_out_dirs():
    for bad in (ROOT, ROOT.parent, ROOT / "site", ROOT / "site" / "x"):
        with pytest.raises(build_site.BuildError):
            build_site._safe_out(bad)


def test_wheel_content_check(tmp_path):
    bad = tmp_path / "spades-1.0.0-py3-none-any.whl"
    with zipfile.ZipFile(bad, "w") as zf:
        zf.writestr("spades/bridge/__init__.py", "")
        zf.writestr("tests/test_x.py", "")
    with pytest.raises(build_site.BuildError, match="outside"):
        build_site.check_wheel_contents(bad)


@pytest.mark.parametrize("name", ["spades/cli/__init__.py", "spades/cli/game.py", "spades/__main__.py"])
def test_the_games_wheel_may_not_hold_a_terminal_module(tmp_path, name):
    wheel = tmp_path / "spades-1.0.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        zf.writestr("spades/bridge/__init__.py", "")
        zf.writestr(name, "")
    with pytest.raises(build_site.BuildError, match="terminal-only"):
        build_site.check_wheel_contents(wheel)
    build_site.check_wheel_contents(wheel, terminal=True)          # the published wheel may


def test_the_games_wheel_leaves_out_the_terminal_and_the_published_one_has_it(tmp_path):
    game = build_site.build_engine_wheel(tmp_path / "game")
    published = build_site.build_engine_wheel(tmp_path / "published", terminal=True)
    with zipfile.ZipFile(game) as zf:
        game_names = set(zf.namelist())
    with zipfile.ZipFile(published) as zf:
        published_names = set(zf.namelist())
        entry_points = zf.read("spades-1.0.0.dist-info/entry_points.txt").decode()
    terminal = {n for n in published_names if n.startswith("spades/cli/")} | {"spades/__main__.py"}
    assert {"spades/cli/__init__.py", "spades/cli/game.py", "spades/cli/reasons.py"} <= terminal
    assert not terminal & game_names and "spades-1.0.0.dist-info/entry_points.txt" not in game_names
    assert published_names - game_names == terminal | {"spades-1.0.0.dist-info/entry_points.txt"}
    assert entry_points == "[console_scripts]\nspades = spades.cli:main\n"
    assert not wheel_writer.DEV_ONLY & published_names
    assert game.stat().st_size < published.stat().st_size


def test_engine_wheel_holds_only_spades(tmp_path):
    wheel = build_site.build_engine_wheel(tmp_path)
    assert re.fullmatch(r"spades-[\w.]+-py3-none-any\.whl", wheel.name)
    with zipfile.ZipFile(wheel) as zf:
        tops = {n.split("/")[0] for n in zf.namelist()}
    assert tops == {"spades", wheel.name.split("-py3")[0] + ".dist-info"}


def _copy_project(dest: Path) -> Path:
    """A copy of the wheel's inputs (pyproject.toml, its readme, spades/) with fresh file times."""
    dest.mkdir(parents=True)
    for name in ("pyproject.toml", "docs/package.md"):
        (dest / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, dest / name)
    shutil.copytree(ROOT / "spades", dest / "spades", ignore=shutil.ignore_patterns("__pycache__"))
    for path in dest.rglob("*"):
        os.utime(path, (1_900_000_000, 1_900_000_000))
    return dest


def test_engine_wheel_is_reproducible(tmp_path):
    first = build_site.build_engine_wheel(tmp_path / "a")
    copy = _copy_project(tmp_path / "copy")
    (copy / "spades" / "__pycache__").mkdir(exist_ok=True)
    (copy / "spades" / "__pycache__" / "x.cpython-311.pyc").write_bytes(b"junk")
    second = build_site.build_engine_wheel(tmp_path / "b", root=copy)
    assert first.name == second.name
    assert first.read_bytes() == second.read_bytes()
    # a changed source changes the wheel
    (copy / "spades" / "cards.py").write_text((copy / "spades" / "cards.py").read_text() + "\nEDIT = 1\n")
    third = build_site.build_engine_wheel(tmp_path / "c", root=copy)
    assert build_site.sha256_file(third) != build_site.sha256_file(first)


def _without_private_docstrings(tree: ast.Module) -> ast.Module:
    """``tree`` with the docstring dropped from every private function that has more statements."""
    for node in ast.walk(tree):
        if (isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("_")
                and not node.name.startswith("__") and len(node.body) > 1 and isinstance(node.body[0], ast.Expr)
                and isinstance(node.body[0].value, ast.Constant) and isinstance(node.body[0].value.value, str)):
            del node.body[0]
    return tree


def test_engine_wheel_sources_lose_only_comments_and_private_docstrings(tmp_path):
    """Each shipped module parses to the repository's syntax tree, positions included, less the
    docstrings of private functions; public docstrings (help()) stay."""
    wheel = build_site.build_engine_wheel(tmp_path)
    with zipfile.ZipFile(wheel) as zf:
        shipped = {n: zf.read(n).decode() for n in zf.namelist() if n.endswith(".py")}
    sources = {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8")
               for p in (ROOT / "spades").rglob("*.py") if "__pycache__" not in p.parts}
    assert set(sources) >= wheel_writer.DEV_ONLY
    assert sorted(shipped) == sorted(n for n in set(sources) - wheel_writer.DEV_ONLY if not wheel_writer.terminal_only(n))
    sources = {name: text for name, text in sources.items() if name in shipped}
    for name, text in sources.items():
        assert shipped[name].count("\n") == text.count("\n"), name
        assert "#" not in "".join(line for line in shipped[name].splitlines() if line.lstrip().startswith("#")), name
        assert ast.dump(ast.parse(shipped[name]), include_attributes=True) == \
            ast.dump(_without_private_docstrings(ast.parse(text)), include_attributes=True), name
    assert sum(map(len, shipped.values())) < sum(map(len, sources.values()))
    solver = ast.parse(shipped["spades/solver/search.py"])
    docs = {n.name: ast.get_docstring(n) for n in ast.walk(solver) if isinstance(n, ast.FunctionDef)}
    assert docs["solve"] is not None and docs["values"] is not None and docs["_node"] is None


@pytest.mark.parametrize(("source", "blanked"), [
    ('def _f():\n    """Private."""\n    return 1\n', [1]),
    ('def _f():\n    """Two\n    lines."""\n    return 1\n', [1, 2]),
    ('def f():\n    """Public."""\n    return 1\n', []),
    ('def __init__(self):\n    """Dunder."""\n    self.x = 1\n', []),
    ('def _f():\n    """Only a docstring."""\n', []),
    ('def _f(): """Shares its line."""; return 1\n', []),
    ('def _f():\n    """Then code."""; return 1\n', []),
    ('class C:\n    def _m(self):\n        """Method."""\n        return 1\n', [2]),
])
def test_private_docstrings_blanked_only_where_the_code_stays(source, blanked):
    assert [r for rows in wheel_writer.private_docstrings(source) for r in rows] == blanked
    stripped = wheel_writer.strip_comments(source.encode()).decode()
    assert stripped.count("\n") == source.count("\n")
    if blanked:
        assert ast.dump(ast.parse(stripped), include_attributes=True) == \
            ast.dump(_without_private_docstrings(ast.parse(source)), include_attributes=True)
    else:
        assert stripped == source


def test_engine_wheel_record_matches_its_files(tmp_path):
    wheel = build_site.build_engine_wheel(tmp_path)
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        info = wheel.name.split("-py3")[0] + ".dist-info"
        record = zf.read(f"{info}/RECORD").decode().splitlines()
        rows = {line.split(",")[0]: line.split(",")[1:] for line in record}
        assert set(rows) == set(names)
        for name in names:
            if name.endswith("/RECORD"):
                assert rows[name] == ["", ""]
                continue
            data = zf.read(name)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            assert rows[name] == [f"sha256={digest}", str(len(data))]
        wheel_meta = zf.read(f"{info}/WHEEL").decode()
        assert "Root-Is-Purelib: true" in wheel_meta and "Tag: py3-none-any" in wheel_meta
        assert zf.read(f"{info}/METADATA").decode().startswith("Metadata-Version: 2.1\nName: spades\nVersion: ")
        assert {zi.date_time for zi in zf.infolist()} == {wheel_writer.ZIP_EPOCH}
        # the package sorted, then the metadata sorted, RECORD last (as the wheel spec recommends)
        package = [n for n in names if n.startswith("spades/")]
        meta = [n for n in names if n.startswith(info + "/") and not n.endswith("/RECORD")]
        assert names == sorted(package) + sorted(meta) + [f"{info}/RECORD"]


def _pip_install(wheel: Path, target: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "-q",
         "--disable-pip-version-check", "--target", str(target), str(wheel)],
        check=True, capture_output=True,
    )


def _run_in(target: Path, code: str) -> subprocess.CompletedProcess:
    # -S: no site packages, so not this checkout's editable install either (only the wheel)
    return subprocess.run([sys.executable, "-I", "-S", "-c", f"import sys; sys.path.insert(0, {str(target)!r}); " + code],
                          capture_output=True, text=True, cwd=target.parent)


def test_engine_wheel_installs_with_pip_and_imports(tmp_path):
    target = tmp_path / "target"
    _pip_install(build_site.build_engine_wheel(tmp_path / "w"), target)
    code = "import spades, spades.bridge, json; print(spades.__file__); print(json.loads(spades.bridge.handle(json.dumps({'fn': 'ping', 'args': {}})))['ok'])"
    ran = _run_in(target, code)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.splitlines() == [str(target / "spades" / "__init__.py"), "True"]
    # the game's wheel has no terminal: no spades.cli to import
    cli = _run_in(target, "import spades.cli")
    assert cli.returncode == 1 and "ModuleNotFoundError: No module named 'spades.cli'" in cli.stderr


def test_published_wheel_installs_with_pip_and_runs_the_command_line(tmp_path):
    target = tmp_path / "target"
    _pip_install(build_site.build_engine_wheel(tmp_path / "w", terminal=True), target)
    bench = _run_in(target, "from spades.cli import main; sys.exit(main(['bench', '--json', '--seconds', '0.05', '--repeats', '1']))")
    assert bench.returncode == 0, bench.stderr
    assert json.loads(bench.stdout)["hands_per_second"] > 0
    # the arena (a tool of the repository) is not installed: a coded refusal, no traceback
    arena = _run_in(target, "from spades.cli import main; sys.exit(main(['arena', 'normal', 'easy']))")
    assert arena.returncode == 2
    assert arena.stderr.startswith("error [no_arena]:") and "Traceback" not in arena.stderr


def test_wheel_writer_refuses_a_project_without_a_version(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "spades"\n')
    (tmp_path / "spades").mkdir()
    (tmp_path / "spades" / "__init__.py").write_text("")
    with pytest.raises(build_site.BuildError, match="version"):
        build_site.build_engine_wheel(tmp_path / "out", root=tmp_path)
    assert not (tmp_path / "out").exists() or list((tmp_path / "out").iterdir()) == []


def _fake_build(files: dict[str, bytes], fail: bool = False):
    def build_into(out: Path) -> dict:
        _tree(out, files)
        if fail:
            raise build_site.BuildError("simulated failure half-way")
        return {"build": "x", "wheel": "wheels/w.whl", "sizes": build_site.summarize(out)}
    return build_into


def _snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_failed_build_leaves_previous_dist_untouched(tmp_path, monkeypatch):
    out = tmp_path / "dist"
    _tree(out, {"index.html": b"old", "pyodide/a.wasm": b"old wasm"})
    before = _snapshot(out)
    monkeypatch.setattr(build_site, "_build_into", _fake_build({"index.html": b"new"}, fail=True))
    with pytest.raises(build_site.BuildError, match="half-way"):
        build_site.build(out)
    assert _snapshot(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dist"]  # no temporary folder left


def test_successful_build_replaces_dist_whole(tmp_path, monkeypatch):
    out = tmp_path / "dist"
    _tree(out, {"index.html": b"old", "stale.js": b"gone"})
    monkeypatch.setattr(build_site, "_build_into", _fake_build({"index.html": b"new", "wheels/w.whl": b"w"}))
    build_site.build(out)
    assert _snapshot(out) == {"index.html": b"new", "wheels/w.whl": b"w"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dist"]


def test_built_dist_is_consistent():
    dist = ROOT / "dist"
    if not (dist / "build.json").is_file():
        pytest.skip("dist/ not built (run `python build_site.py build`)")
    info = json.loads((dist / "build.json").read_text())
    assert (dist / info["wheel"]).is_file()
    assert (dist / info["micropip"]).is_file()
    latest = json.loads((dist / "wheels" / "latest.json").read_text())
    assert info["wheel"] == "wheels/" + latest["wheel"]
    assert build_site.sha256_file(dist / info["wheel"]) == latest["sha256"]
    for name in build_site.PYODIDE_CORE_FILES:
        assert (dist / "pyodide" / name).is_file()
    pre = json.loads((dist / "precache.json").read_text())
    for entry in pre["files"]:
        assert (dist / entry["path"]).stat().st_size == entry["size"]
    on_disk = {p.relative_to(dist).as_posix() for p in dist.rglob("*") if p.is_file()}
    listed = {e["path"] for e in pre["files"]}
    siblings = {p for p in on_disk if p.endswith((".gz", ".br"))}
    # the offline cache holds what the browser asks for: every file, never a sibling
    assert on_disk - listed - siblings == {"precache.json"}
    assert not listed & siblings
    assert {s.rpartition(".")[0] for s in siblings} <= on_disk
    # the engine boots on the trimmed library, which is precached; the full one stays for python.html
    assert info["stdlib"] == "pyodide/" + build_site.ENGINE_STDLIB and info["stdlib"] in listed
    for name in ("pyodide/pyodide.asm.wasm", info["stdlib"], "index.html", "i18n/en.json"):
        assert {name + ".gz", name + ".br"} <= siblings, name
    for name in (info["wheel"], "pyodide/python_stdlib.zip", "icons/icon-192.png"):  # already deflated
        assert not {name + ".gz", name + ".br"} & siblings, name
    assert not any(p.endswith(".jgz") for p in on_disk)
    for path in sorted(dist.rglob("*.gz"))[:20]:
        assert gzip.decompress(path.read_bytes()) == path.with_suffix("").read_bytes()


def test_siblings_are_written_where_they_save_and_reproducibly(tmp_path):
    import site_compress
    root = tmp_path / "out"
    text = b"function f() { return 1; }\n" * 200
    _tree(root, {"a.js": text, "sub/b.json": b'{"k": "v"}' * 100, "w.whl": os.urandom(4000), "tiny.txt": b"x"})
    brotli = site_compress.Brotli(tmp_path / "cache")
    assert site_compress.write_siblings(root, brotli) == {"gzip": 2, "br": 2}
    got = sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())
    assert got == ["a.js", "a.js.br", "a.js.gz", "sub/b.json", "sub/b.json.br", "sub/b.json.gz", "tiny.txt", "w.whl"]
    assert gzip.decompress((root / "a.js.gz").read_bytes()) == text
    assert len((root / "a.js.br").read_bytes()) < len((root / "a.js.gz").read_bytes()) < len(text)
    # the same bytes again (gzip without a time stamp; brotli from the cache, by content)
    first = _snapshot(root)
    for sibling in list(root.rglob("*.gz")) + list(root.rglob("*.br")):
        sibling.unlink()
    site_compress.write_siblings(root, brotli)
    assert _snapshot(root) == first
    assert site_compress.is_sibling(root / "a.js.br") and not site_compress.is_sibling(root / "w.whl")
    # what a host sends for a first visit of a.js and w.whl, by each encoding
    sizes = site_compress.transfer(root, ["a.js", "w.whl"])
    assert sizes == {"identity": len(text) + 4000, "gzip": (root / "a.js.gz").stat().st_size + 4000,
                     "br": (root / "a.js.br").stat().st_size + 4000}


def test_manifests_leave_siblings_out(tmp_path):
    _tree(tmp_path, {"a.js": b"1" * 100, "a.js.gz": b"z", "a.js.br": b"b", "lone.gz": b"g"})
    build_site.write_manifests(tmp_path, wheel="wheels/w.whl", micropip="pyodide/m.whl")
    listed = {f["path"] for f in json.loads((tmp_path / "precache.json").read_text())["files"]}
    assert listed == {"a.js", "lone.gz", "build.json"}  # lone.gz is a file of its own, no sibling
    manifests = sum((tmp_path / n).stat().st_size for n in ("build.json", "precache.json"))
    assert build_site.summarize(tmp_path)["total"] == 100 + 1 + manifests


def _node() -> str:
    """Node.js, which runs the bundles in the tests below (the test is skipped without it)."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    return node


def _esbuild() -> Path:
    esbuild = ROOT / "site" / "node_modules" / ".bin" / "esbuild"
    if not esbuild.is_file():
        pytest.skip("site/node_modules not installed (run `python build_site.py build` once)")
    return esbuild


def test_scripts_and_styles_are_left_to_esbuild(tmp_path):
    """compact() leaves scripts and styles alone; esbuild's minification drops comments and
    spacing and keeps template literals (the worker's Python snippets) exactly."""
    script = (
        "// a comment line\n"
        "/* a block\n   comment */\n"
        "export function f() {\n"
        "    const url = 'http://127.0.0.1/x'; // trailing comment\n"
        "    return `first\n"
        "    # inside a template: kept\n"
        "        indented python`;\n"
        "}\n"
    )
    css = "/* note */\n.a {\n    color: red; /* why */\n}\n"
    assert site_compact.compact("a.js", script.encode()) == script.encode()
    assert site_compact.compact("s.css", css.encode()) == css.encode()
    (tmp_path / "a.js").write_text(script)
    (tmp_path / "s.css").write_text(css)
    (tmp_path / "skip").mkdir()
    (tmp_path / "skip" / "b.js").write_text(script)
    site_compact.minify_tree(tmp_path, _esbuild(), skip=("skip/",))
    out = (tmp_path / "a.js").read_text()
    assert "comment" not in out and "    const" not in out
    assert "`first\n    # inside a template: kept\n        indented python`" in out
    assert "http://127.0.0.1/x" in out
    assert (tmp_path / "s.css").read_text().strip() == ".a{color:red}"
    assert (tmp_path / "skip" / "b.js").read_text() == script


BUNDLE_TREE = {
    "package.json": '{"type": "module"}',
    "index.html": '<script src="classic.js"></script>\n<script type="module" src="game/early.js" async></script>\n'
                  '<script type="module" src="game/a.js"></script>\n<script type="module" src="game/c.js"></script>\n',
    "embed.html": '<script type="module" src="game/c.js"></script><script type="module" src="game/a.js"></script>'
                  '<script async type="module" src="game/early.js"></script>\n',
    "other.html": '<script type="module" src="view/b.js"></script>\n',
    "lib/shared.js": 'globalThis.loads = (globalThis.loads || 0) + 1;\n'
                     'export const where = new URL("../lib/here.txt", import.meta.url).pathname;\n',
    "lib/both.js": 'globalThis.both = (globalThis.both || 0) + 1;\nexport const two = 2;\n',
    "game/early.js": 'import { where } from "../lib/shared.js";\nglobalThis.early = where;\n',
    "game/a.js": 'import { where } from "../lib/shared.js";\nimport { two } from "../lib/both.js";\n'
                 'import "../rt/runtime.js";\nglobalThis.a = where + two;\n',
    "game/c.js": 'import { two } from "../lib/both.js";\nglobalThis.c = two;\n',
    "view/b.js": 'import { where } from "../lib/shared.js";\nglobalThis.b = where;\n'
                 'globalThis.later = import("./late.js");\n',
    "view/late.js": "export const late = 7;\n",
    "rt/runtime.js": "globalThis.runtime = (globalThis.runtime || 0) + 1;\n",
}
#: Loads one page's bundled scripts in one realm (as the game page loads three) and prints what ran.
BUNDLE_RUN = """
const page = process.argv[2] === "game" ? ["./game/early.js", "./game/a.js", "./game/c.js"] : ["./view/b.js"];
for (const script of page) await import(script);
const late = globalThis.later ? (await globalThis.later).late : null;
console.log(JSON.stringify({ loads: globalThis.loads, both: globalThis.both ?? 0, early: globalThis.early ?? null,
                             a: globalThis.a ?? null, b: globalThis.b ?? null, runtime: globalThis.runtime ?? 0, late }));
"""


def test_page_scripts_are_bundled_a_page_at_a_time(tmp_path):
    """Each page's module scripts become bundles, a page at a time: code two scripts of one page
    share sits in one chunk, so it runs once in that page; an async script (the early start) is
    bundled alone with its own copy of what it shares (no chunk to wait for); another page's
    script carries its own copy; a dynamic import stays lazy in a chunk; a relative address
    resolved from a shared module still names the same file; the external runtime is imported
    as written, not copied in; the unbundled modules stay."""
    node = _node()
    _tree(tmp_path, {rel: text.encode() for rel, text in BUNDLE_TREE.items()})
    pages = [["game/early.js"], ["game/a.js", "game/c.js"], ["view/b.js"]]   # index.html and embed.html: one way
    assert site_compact.page_scripts(tmp_path) == pages
    assert site_compact.bundle_pages(tmp_path, _esbuild(), external=("../rt/*",)) == pages
    entry = (tmp_path / "game" / "a.js").read_text()
    assert "../lib/shared.js" not in entry and '"../rt/runtime.js"' in entry
    early = (tmp_path / "game" / "early.js").read_text()
    assert " from " not in early and "globalThis.loads" in early                  # whole, alone
    chunks = {c.name: c.read_text() for c in (tmp_path / site_compact.CHUNK_DIR).glob("*.js")}
    assert sum("globalThis.both" in text for text in chunks.values()) == 1        # a.js and c.js share it
    assert "globalThis.loads" in (tmp_path / "view" / "b.js").read_text()          # the other page's own copy
    assert sum("late = 7" in text for text in chunks.values()) == 1                # the lazy import
    (tmp_path / "run.mjs").write_text(BUNDLE_RUN)
    here = (tmp_path / "lib" / "here.txt").as_posix()
    runs = {page: json.loads(subprocess.run([node, "run.mjs", page], cwd=tmp_path, capture_output=True,
                                            text=True, check=True).stdout) for page in ("game", "other")}
    assert runs == {"game": {"loads": 2, "both": 1, "early": here, "a": here + "2", "b": None, "runtime": 1,
                             "late": None},
                    "other": {"loads": 1, "both": 0, "early": None, "a": None, "b": here, "runtime": 0, "late": 7}}
    assert (tmp_path / "lib" / "shared.js").read_text() == BUNDLE_TREE["lib/shared.js"]  # kept


WORKER_TREE = {
    "package.json": '{"type": "module"}',
    "page/start.js": 'export const worker = () => new URL("../work/calc-worker.js", import.meta.url);\n',
    "work/calc-worker.js": 'import { twice } from "./dep.js";\nglobalThis.first = twice(2);\n'
                           'globalThis.load = () => import("./late.js").then((m) => m.late);\n'
                           'globalThis.runtime = import("../rt/runtime.js").then((m) => m.name);\n',
    "work/dep.js": "export const twice = (x) => 2 * x;\n",
    "work/late.js": 'globalThis.lateRan = true;\nexport const late = "late";\n',
    "rt/runtime.js": 'export const name = "runtime";\n',
    "chunks/old-worker-user.js": 'new URL("../gone/stale-worker.js", import.meta.url);\n',
}
WORKER_RUN = """
await import("./work/calc-worker.js");
await new Promise((resolve) => setTimeout(resolve, 10));
const before = globalThis.lateRan ?? false;
console.log(JSON.stringify({ first: globalThis.first, before, late: await globalThis.load(),
                             runtime: await globalThis.runtime }));
"""


def test_worker_scripts_are_bundled_whole(tmp_path):
    """A module worker's script, found where the code starts it (chunks are not read), becomes
    one file: its static and dynamic imports inside it (the dynamic one still runs only once
    imported), the external runtime imported as written; the unbundled modules stay."""
    node = _node()
    _tree(tmp_path, {rel: text.encode() for rel, text in WORKER_TREE.items()})
    assert site_compact.worker_scripts(tmp_path) == ["work/calc-worker.js"]
    assert site_compact.bundle_workers(tmp_path, _esbuild(), external=("../rt/*",)) == ["work/calc-worker.js"]
    bundle = (tmp_path / "work" / "calc-worker.js").read_text()
    assert "./dep.js" not in bundle and "./late.js" not in bundle and '"../rt/runtime.js"' in bundle
    assert not (tmp_path / site_compact.CHUNK_DIR / "late.js").exists()
    (tmp_path / "run.mjs").write_text(WORKER_RUN)
    ran = json.loads(subprocess.run([node, "run.mjs"], cwd=tmp_path, capture_output=True, text=True,
                                    check=True).stdout)
    assert ran == {"first": 4, "before": False, "late": "late", "runtime": "runtime"}
    assert (tmp_path / "work" / "dep.js").read_text() == WORKER_TREE["work/dep.js"]  # kept


def test_the_sites_workers_are_found():
    assert site_compact.worker_scripts(ROOT / "site") == ["engine/engine-worker.js", "lib/historyread-worker.js"]


def test_a_script_two_pages_load_beside_different_scripts_is_refused(tmp_path):
    (tmp_path / "one.html").write_text('<script type="module" src="x.js"></script><script type="module" src="y.js"></script>')
    (tmp_path / "two.html").write_text('<script type="module" src="x.js"></script>')
    with pytest.raises(ValueError, match=r"x\.js is loaded beside"):
        site_compact.page_scripts(tmp_path)


def test_shipped_json_and_pages_are_compacted_losslessly():
    data = {"k": "Pikk ász", "n": [1, 2]}
    shipped = site_compact.compact("x.json", json.dumps(data, indent=2, ensure_ascii=False).encode())
    assert json.loads(shipped) == data and b"\n" not in shipped
    assert "Pikk ász".encode() in shipped  # UTF-8 kept, not escaped
    page = "<div>\n    <p>  kept  </p>\n    <pre>\n    code\n      indented\n    </pre>\n  <textarea>\n  x</textarea>\n</div>\n"
    assert site_compact.compact("page.html", page.encode()).decode() == (
        "<div>\n<p>  kept  </p>\n<pre>\n    code\n      indented\n    </pre>\n<textarea>\n  x</textarea>\n</div>\n")
