"""The browser tests' HTTP server (a helper of conftest.py): dist/ as build_site serves it,
plus test-only files (a blank page, the test pages, the engine snapshot) that the site
itself never holds."""
from __future__ import annotations

import contextlib
import functools
import os
import tempfile
import threading
from pathlib import Path
from urllib.parse import urlsplit

import build_site
import driver

#: Where the test server (and only it) serves test-only files: a blank page, the snapshot.
TEST_FILES = driver.TEST_FILES
BLANK_PAGE = driver.BLANK_PAGE
SNAPSHOT_FILE = TEST_FILES + "snapshot.bin"
BLANK_HTML = b'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>blank</title><link rel="icon" href="data:,"></head><body></body></html>'


class TestHandler(build_site.Handler):
    """build_site's static handler, plus TEST_FILES served from (and a POST of the
    snapshot written to) a temporary folder: the site itself is never changed."""

    def __init__(self, *args, test_dir: str, **kwargs):
        self.test_dir = test_dir
        super().__init__(*args, **kwargs)

    def translate_path(self, path):
        clean = urlsplit(path).path
        if clean.startswith("/" + TEST_FILES):
            return os.path.join(self.test_dir, os.path.basename(clean))
        return super().translate_path(path)

    def do_POST(self):  # noqa: N802 - stdlib naming
        if urlsplit(self.path).path != "/" + SNAPSHOT_FILE:
            self.send_error(404)
            return
        body = self.rfile.read(int(self.headers["Content-Length"]))
        Path(self.translate_path(self.path)).write_bytes(body)
        self.send_response(204)
        self.end_headers()


@contextlib.contextmanager
def serving(directory, test_files: bool = False):
    """Serve ``directory`` on a free 127.0.0.1 port in a thread; yields the base URL (ends
    with "/"). With ``test_files``, TEST_FILES are served too (see :class:`TestHandler`)."""
    if test_files:
        tmp = tempfile.TemporaryDirectory(prefix="spades-test-files-")
        Path(tmp.name, os.path.basename(BLANK_PAGE)).write_bytes(BLANK_HTML)
        driver.copy_test_pages(Path(tmp.name))
        handler = functools.partial(TestHandler, directory=os.fspath(directory), test_dir=tmp.name)
        server = build_site.Server(("127.0.0.1", 0), handler)
    else:
        tmp = None
        server = build_site.make_server(directory, 0)
    thread = threading.Thread(target=server.serve_forever, name="dist-server", daemon=True)
    thread.start()
    host, port = server.server_address[:2]
    try:
        yield f"http://{host}:{port}/"
    finally:
        server.shutdown()
        server.server_close()
        if tmp is not None:
            tmp.cleanup()
