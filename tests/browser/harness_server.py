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


#: The site's files do not change while the tests run (a test that changes a file serves a
#: copy of its own): a context's pages take them from its memory cache instead of asking
#: again, which spares each page load ~60 requests' round trips through this server.
SITE_CACHE = "max-age=86400"


class TestHandler(build_site.Handler):
    """build_site's static handler, plus TEST_FILES served from (and a POST of the
    snapshot written to) a temporary folder: the site itself is never changed."""

    def __init__(self, *args, test_dir: str, **kwargs):
        self.test_dir = test_dir
        super().__init__(*args, **kwargs)

    @staticmethod
    def _test_file(path: str) -> bool:
        """Whether a request's path names a test-only file (served from ``test_dir``)."""
        return urlsplit(path).path.startswith("/" + TEST_FILES)

    @property
    def cache_control(self) -> str:  # build_site.Handler's attribute, by request
        """The site's files may be cached (SITE_CACHE); the test-only files may change."""
        return "no-cache" if self._test_file(getattr(self, "path", "/")) else SITE_CACHE

    def translate_path(self, path):
        if self._test_file(path):
            return os.path.join(self.test_dir, os.path.basename(urlsplit(path).path))
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
def serving(directory, test_files: bool = False, port: int = 0):
    """Serve ``directory`` on 127.0.0.1 (``port``, else a free one) in a thread; yields the
    base URL (ends with "/"). With ``test_files``, TEST_FILES are served too (see
    :class:`TestHandler`)."""
    if test_files:
        tmp = tempfile.TemporaryDirectory(prefix="spades-test-files-")
        Path(tmp.name, os.path.basename(BLANK_PAGE)).write_bytes(BLANK_HTML)
        driver.copy_test_pages(Path(tmp.name))
        handler = functools.partial(TestHandler, directory=os.fspath(directory), test_dir=tmp.name)
        server = build_site.Server(("127.0.0.1", port), handler)
    else:
        tmp = None
        server = build_site.make_server(directory, port)
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


def main(argv: list[str]) -> None:
    """``python harness_server.py DIST PORT [SNAPSHOT]``: serve DIST with the test files (the
    blank page, and the engine snapshot from file SNAPSHOT) on 127.0.0.1:PORT until
    terminated, after printing "ready" once it listens. For a server inside a network
    namespace of its own, where the test process cannot reach (test_friends_rtc.py)."""
    import signal
    import urllib.request

    def stop(*_):
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop)
    dist, port = Path(argv[0]), int(argv[1])
    with serving(dist, test_files=True, port=port) as url:
        if len(argv) > 2:
            upload = urllib.request.Request(url + SNAPSHOT_FILE, data=Path(argv[2]).read_bytes(), method="POST")
            urllib.request.urlopen(upload).close()
        print("ready", flush=True)
        threading.Event().wait()


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
