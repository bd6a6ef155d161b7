"""Browser test harness: build dist/ once, serve it on a free port, drive Chromium.

Chromium is looked up in this order (find_chromium): env CHROMIUM_PATH, a headless shell
(Playwright's, then the system's chromium-headless-shell), Playwright's own full build,
/usr/bin/chromium, chromium-browser, chromium, google-chrome.
Fixtures:
  site_url        base URL of the served dist/ (ends with "/")
  browser         a headless Chromium (session); its contexts ask for reduced motion
                  (REDUCED_MOTION: software drawing of animated frames is the suite's
                  largest cost in Chromium), the tests of movement ask for motion back
  page            a new page with empty localStorage, sessionStorage and IndexedDB, left
                  on a blank page of the site's origin. It lives in a context the tests
                  share (see ``page_pool``), whose shared engine is already booted: the
                  page's game joins it with a session of its own. A test marked
                  ``own_engine`` gets no engine running: its page boots one, restoring
                  this build's Pyodide memory snapshot from Cache Storage (~0.4 s)
                  instead of a plain start (~8 s). No service worker registers there,
                  and what a test sets on the context (routes, offline, other pages) is
                  undone after it. page.console_errors
                  and page.foreign_requests collect console errors / page errors / HTTP
                  >= 400 responses, and any request to an origin other than the test
                  server (tests assert both empty)
  fresh_page      the same in a context of its own, where the offline service worker
                  registers as for a player: for tests that change the context's
                  storage beyond the page's (the snapshot itself)
  first_visit_page  a page in a context of its own with nothing stored at all (about:blank,
                  empty Cache Storage): a first visit, for tests of the plain boot and of
                  storage, and for pages that never start the game's engine
  site_snapshot   the snapshot ``page`` is seeded with (taken from the shared game
                  page's own first visit, so making it costs no extra boot)
  seed_snapshot   seed_snapshot(page[, base]): the same seeding for a page in a context a
                  test made itself (base: another server of a dist/ copy that
                  add_seed_files(root) prepared)
  game            the shared game page, booted once per session (driver.SHARED_QUERY):
                  for tests that need a table, not a fresh boot or fresh storage. Each
                  test gets it with no dialog open, a 1280 x 800 viewport and empty
                  error lists; it starts its own match with driver.new_match (the New
                  match dialog, as a player would). Tests that reload, change settings
                  or need a fresh boot use ``page``.
  viewer          the shared hand viewer, booted once per session: tests show their
                  hand through its paste form (driver.show_hand).
  screenshot_dir  tests/browser/screenshots/ (gitignored)
Helpers that drive the page live in driver.py (test modules import it, never each other);
the test server is harness_server.py, the snapshot sharing snapshot_seed.py, and the engine's
workers (the shared one, which Playwright neither lists nor routes) are reached through
engine_probe.py.
"""
from __future__ import annotations

import os
import shutil
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import build_site  # noqa: E402
import driver  # noqa: E402
import engine_probe  # noqa: E402
from driver import BLANK_PAGE, TEST_FILES  # noqa: E402
from harness_server import BLANK_HTML, SNAPSHOT_FILE, serving  # noqa: E402
from snapshot_seed import EXPORT_SNAPSHOT_JS, SEED_SNAPSHOT_JS, shared_snapshot  # noqa: E402

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)


#: Where Playwright keeps its browsers, and where its builds of Chromium's headless shell lie there.
PLAYWRIGHT_BROWSERS = Path(os.environ.get("PLAYWRIGHT_BROWSERS_PATH") or Path.home() / ".cache" / "ms-playwright")
PLAYWRIGHT_HEADLESS_SHELL = "chromium_headless_shell-*/chrome-headless-shell-linux*/chrome-headless-shell"
#: The system's headless shell (Debian's chromium-headless-shell).
SYSTEM_HEADLESS_SHELLS = ("chromium-headless-shell", "chrome-headless-shell")


def find_headless_shell() -> str | None:
    """Chromium's headless shell (Playwright's build first, then the system's), or None.

    The same Blink and V8 as the full browser without its windowing layers: the suite's
    pages cost about a fifth less CPU in it. WebRTC inside a loopback-only namespace needs
    the full browser (test_friends_rtc.py asks for that)."""
    for path in sorted(PLAYWRIGHT_BROWSERS.glob(PLAYWRIGHT_HEADLESS_SHELL), reverse=True):
        if os.access(path, os.X_OK):
            return str(path)
    for name in SYSTEM_HEADLESS_SHELLS:
        found = shutil.which(name)
        if found:
            return found
    return None


def find_chromium(playwright=None, *, headless_shell: bool = False) -> str | None:
    """The Chromium to drive: env CHROMIUM_PATH when set, else (``headless_shell``) a
    headless shell, else the full browser (Playwright's own build first, then the
    system's). Benchmarks leave ``headless_shell`` off: they time what players run."""
    env = os.environ.get("CHROMIUM_PATH")
    if env and os.path.isfile(env):
        return env
    if headless_shell:
        shell = find_headless_shell()
        if shell:
            return shell
    if playwright is not None:
        try:
            path = playwright.chromium.executable_path
        except Exception:  # noqa: BLE001 - no bundled browser registered
            path = None
        if path and os.path.isfile(path):
            return path
    if os.path.isfile("/usr/bin/chromium"):
        return "/usr/bin/chromium"
    for name in ("chromium-browser", "chromium", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture(scope="session")
def dist_dir() -> Path:
    """dist/ built once per session (set SPADES_NO_BUILD=1 to reuse an existing build)."""
    out = ROOT / "dist"
    if not (os.environ.get("SPADES_NO_BUILD") and (out / "build.json").is_file()):
        build_site.build(out)
    return out


@pytest.fixture(scope="session")
def serve():
    """:func:`serving`, for tests that serve a directory of their own."""
    return serving


@pytest.fixture(scope="session")
def site_url(dist_dir):
    with serving(dist_dir, test_files=True) as url:
        yield url


@pytest.fixture(scope="session")
def playwright_instance():
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as pw:
        yield pw


#: The tests play as a player who asks for reduced motion (the site's own answer to it: no
#: transition, no CSS animation, no card flight); the tests of movement ask for motion back
#: (``page.emulate_media(reduced_motion=WITH_MOTION)``). Chromium here draws without a
#: GPU, so every animated frame is drawn in software: the turn's glow, a seat's change of
#: colour and a card's lift took about a third of its CPU over tricks played by clicks.
REDUCED_MOTION = "reduce"
WITH_MOTION = "no-preference"


class ReducedMotionBrowser:
    """A Playwright browser whose new contexts and pages ask for :data:`REDUCED_MOTION`
    unless a test says otherwise; everything else is the browser's own."""

    def __init__(self, browser) -> None:
        self._browser = browser

    def new_context(self, **options):
        options.setdefault("reduced_motion", REDUCED_MOTION)
        return self._browser.new_context(**options)

    def new_page(self, **options):
        options.setdefault("reduced_motion", REDUCED_MOTION)
        return self._browser.new_page(**options)

    def __getattr__(self, name: str):
        return getattr(self._browser, name)


@pytest.fixture(scope="session")
def browser(playwright_instance):
    """A headless Chromium (see find_chromium) whose contexts ask for reduced motion."""
    exe = find_chromium(playwright_instance, headless_shell=True)
    if exe is None:
        pytest.fail("no Chromium found: install Debian's chromium or set CHROMIUM_PATH")
    browser = playwright_instance.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
    yield ReducedMotionBrowser(browser)
    browser.close()


def watch(context, page, site_url: str):
    """Collect console errors, page errors, HTTP errors and requests to other origins on
    ``page.console_errors`` / ``page.foreign_requests`` (context-level, so requests made
    by workers are seen too). Returns a function that detaches the context's recorders."""
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(site_url))
    page.console_errors = []
    page.console_warnings = []
    page.foreign_requests = []

    def on_console(msg):
        if msg.type == "error":
            page.console_errors.append(msg.text)
        elif msg.type == "warning":
            page.console_warnings.append(msg.text)

    def on_request(request):
        url = request.url
        if url.startswith(("data:", "blob:", "about:")):
            return
        parts = urlsplit(url)
        if f"{parts.scheme}://{parts.netloc}" != origin:
            page.foreign_requests.append(url)

    def on_response(response):
        if response.status >= 400:
            page.console_errors.append(f"HTTP {response.status}: {response.url}")

    page.on("console", on_console)
    page.on("pageerror", lambda err: page.console_errors.append(f"pageerror: {err}"))
    context.on("request", on_request)
    context.on("response", on_response)

    def detach() -> None:
        context.remove_listener("request", on_request)
        context.remove_listener("response", on_response)
    return detach


@pytest.fixture(scope="session")
def site_snapshot(request, site_url, tmp_path_factory) -> dict:
    """This build's Pyodide memory snapshot as the shared game page's first visit stored
    it: {name, url, headers, size} of its Cache Storage entry; its bytes are served at
    SNAPSHOT_FILE. A worker that did not store one fails here, loudly.

    Under pytest-xdist the first worker to need it makes it and leaves a copy in the
    workers' common temporary folder; the others serve that copy instead of booting a game
    page of their own for it (see snapshot_seed.shared_snapshot)."""
    def make() -> dict:
        return request.getfixturevalue("shared_game").evaluate(EXPORT_SNAPSHOT_JS, site_url + SNAPSHOT_FILE)
    if not hasattr(request.config, "workerinput"):
        return make()
    return shared_snapshot(tmp_path_factory.getbasetemp().parent / "site-snapshot", site_url + SNAPSHOT_FILE, make)


def open_page(context, site_url):
    """A new page of ``context`` with the recorders of :func:`watch`; returns (page, detach)."""
    page = context.new_page()
    page.set_default_timeout(60_000)
    return page, watch(context, page, site_url)


def new_page(browser, site_url):
    """A page in a fresh context, with the error/foreign-request recorders of :func:`watch`."""
    return open_page(browser.new_context(), site_url)[0]


@pytest.fixture()
def first_visit_page(browser, site_url):
    page = new_page(browser, site_url)
    yield page
    page.context.close()


@pytest.fixture(scope="session")
def seed_snapshot(site_snapshot, site_url):
    """``seed_snapshot(page)``: put this build's snapshot into the Cache Storage of
    ``page``'s context (the page is left on a blank page of the site), so the engine's
    next boot there restores it. For tests that make contexts of their own."""
    def seed(page, base: str = site_url) -> None:
        page.goto(base + BLANK_PAGE)
        page.evaluate(SEED_SNAPSHOT_JS, [site_snapshot, base + SNAPSHOT_FILE])
    return seed


@pytest.fixture(scope="session")
def add_seed_files(site_snapshot, site_url):
    """``add_seed_files(root)``: put the blank page and this build's snapshot into a copy
    of dist/ at ``root`` (under TEST_FILES, not in its manifests), so ``seed_snapshot(page,
    base)`` works for a test that serves that copy itself at ``base``. The snapshot's
    bytes are fetched from the test server once per session."""
    with urllib.request.urlopen(site_url + SNAPSHOT_FILE) as resp:
        snapshot = resp.read()

    def add(root: Path) -> None:
        folder = root / TEST_FILES
        folder.mkdir(exist_ok=True)
        (folder / os.path.basename(BLANK_PAGE)).write_bytes(BLANK_HTML)
        (folder / os.path.basename(SNAPSHOT_FILE)).write_bytes(snapshot)
    return add


@pytest.fixture()
def fresh_page(browser, site_url, seed_snapshot):
    page = new_page(browser, site_url)
    seed_snapshot(page)
    yield page
    page.context.close()


#: Empties the pooled context's storage for the next test (on a blank page of the site;
#: the only other page open is the pool's keeper, a blank page that opens no database):
#: every key, every database, every cache but the engine's snapshot.
#: Returns whether the snapshot is still there.
RESET_STORAGE_JS = """async (snapshot) => {
  localStorage.clear();
  for (const db of await indexedDB.databases()) {
    await new Promise((ok, fail) => {
      const req = indexedDB.deleteDatabase(db.name);
      req.onsuccess = ok;
      req.onerror = () => fail(req.error);
      req.onblocked = () => fail(new Error("database " + db.name + " is still open"));
    });
  }
  for (const key of await caches.keys()) if (key !== snapshot) await caches.delete(key);
  return await caches.has(snapshot);
}"""


#: Whether no page of the pooled context holds a match's lock (site/game/persistence.js
#: names them "<save key>.owner").
NO_MATCH_LOCKS_JS = """async () => !(await navigator.locks.query()).held.some((l) => l.name.endsWith('.owner'))"""
#: How long the ``page`` fixture waits for the closed pages' match locks to be free (ms).
LOCKS_FREE_MS = 30_000

#: How long :func:`drop_engine` waits for the kept engine to end (s).
ENGINE_END_S = 30

#: On the pool's keeper page: open a link to the site's shared engine, as a game page does
#: (site/engine/connect.js), and keep it; resolves once the engine is ready.
#: ``window.__engineEnded`` turns true once that worker has ended (its life lock).
KEEP_ENGINE_JS = """async (base) => {
  const [{ openEngine }, { LINK }] = await Promise.all(
    ['engine/connect.js', 'engine/protocol.js'].map((path) => import(new URL(path, base).href)));
  window.__engineEnded = false;
  await new Promise((resolve, reject) => {
    openEngine().listen({
      message: ({ data }) => {
        if (data && data.type === LINK.LIFE) {
          navigator.locks.request(data.lock, () => { window.__engineEnded = true; });
        } else if (data && data.type === 'progress' && data.stage === 'ready') {
          resolve();
        } else if (data && data.type === 'boot-error') {
          reject(new Error(data.message));
        }
      },
      error: () => reject(new Error('the engine worker failed')),
      messageerror: () => {},
    });
  });
}"""


def keep_engine(keeper, site_url: str) -> None:
    """Boot the site's shared engine from ``keeper`` (a blank page of the site) and keep it."""
    keeper.evaluate(KEEP_ENGINE_JS, site_url)


def drop_engine(keeper, site_url: str) -> None:
    """Let the keeper's engine go, and wait until no shared engine runs in its context."""
    keeper.goto(site_url + BLANK_PAGE)   # a page that leaves ends its documents' workers
    deadline = time.monotonic() + ENGINE_END_S
    while engine_probe.shared_engines(keeper):
        if time.monotonic() > deadline:
            raise AssertionError("the pool's shared engine did not end")
        keeper.wait_for_timeout(50)


@pytest.fixture(scope="session")
def page_pool(browser, site_url, seed_snapshot):
    """The context ``page`` lends pages from. A new context per test would cost ~0.8 s of
    Chromium's CPU for itself, its copy of the 31 MB snapshot and its service worker's
    download of the whole site; the tests only need empty storage and the snapshot. The
    offline service worker is blocked here (its own tests use contexts of their own),
    which also keeps every request visible to routes.

    One page of the site's origin stays open all session (``context.keeper``, on a blank
    page): Chromium then gives each new page of the site that page's renderer process
    instead of starting one (which cost ~0.6 s of Chromium's CPU a page). The keeper also
    holds the site's shared engine: each test's pages join that booted engine (a session of
    their own in it, as a tutorial page's frames do) instead of restoring the snapshot
    again (~1.2 s of CPU a page). Tests marked ``own_engine`` (boots, faults, engine counts)
    run with no engine kept; the next test boots it again."""
    context = browser.new_context(service_workers="block")
    context.keeper = context.new_page()
    seed_snapshot(context.keeper)
    keep_engine(context.keeper, site_url)
    yield context
    context.close()


@pytest.fixture()
def page(request, page_pool, site_url, site_snapshot, seed_snapshot):
    context = page_pool
    keeper = context.keeper
    own_engine = request.node.get_closest_marker("own_engine") is not None
    if own_engine:
        drop_engine(keeper, site_url)
    elif keeper.evaluate("window.__engineEnded !== false"):
        keep_engine(keeper, site_url)  # a test ended it (or ran without it): a new one
    page, detach = open_page(context, site_url)
    page.goto(site_url + BLANK_PAGE)
    if not page.evaluate(RESET_STORAGE_JS, site_snapshot["name"]):
        seed_snapshot(page)            # a test dropped it: put it back
    yield page
    detach()
    for other in context.pages:
        if other is not keeper:
            other.close()
    # the closed pages' matches are free before the next test's pages claim them: a page
    # waits only a moment for a match lock a closing page still holds (site/game/tablock.js)
    keeper.wait_for_function(NO_MATCH_LOCKS_JS, timeout=LOCKS_FREE_MS, polling=50)
    context.unroute_all(behavior="ignoreErrors")
    context.set_offline(False)
    context.clear_cookies()


@pytest.fixture(scope="session")
def shared_game(browser, site_url):
    """One booted game page for the whole session (see ``game``)."""
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(60_000)
    watch(context, page, site_url)
    page.add_init_script(script=driver.SPY)
    page.goto(site_url + driver.SHARED_QUERY)
    page.wait_for_selector("body[data-phase='bid'], body[data-phase='play']", timeout=driver.BOOT_MS)
    yield page
    context.close()


@pytest.fixture(scope="session")
def shared_viewer(browser, site_url, seed_snapshot):
    """One booted hand viewer for the whole session (see ``viewer``)."""
    page = new_page(browser, site_url)
    seed_snapshot(page)
    page.goto(site_url + "viewer.html")
    page.wait_for_selector("body[data-engine='ready']", timeout=driver.BOOT_MS)
    yield page
    page.context.close()


@pytest.fixture()
def viewer(shared_viewer):
    """The shared hand viewer (English, no hand given in its address), with empty error
    lists; a test shows its hand with driver.show_hand (the paste form)."""
    shared_viewer.console_errors.clear()
    shared_viewer.foreign_requests.clear()
    yield shared_viewer


@pytest.fixture()
def game(shared_game):
    """The shared game page, reset for one test: no dialog open, 1280 x 800, no errors
    recorded, no pointer events or announcements remembered (driver.SPY)."""
    page = shared_game
    page.evaluate("""() => {
      for (const d of document.querySelectorAll('dialog[open]')) d.close();
      window.__pointer = [];
      window.__live = [];
    }""")
    page.wait_for_function("() => !document.querySelector('dialog[open]')")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.console_errors.clear()
    page.foreign_requests.clear()
    yield page


@pytest.fixture(scope="session")
def screenshot_dir() -> Path:
    path = ROOT / "tests" / "browser" / "screenshots"
    path.mkdir(parents=True, exist_ok=True)
    return path
