"""Offline play and clean updates through the service worker (site/sw.js).

Each test serves its own copy of the site with its own server, so it can really
go offline (the server is shut down as well as the context set offline) and can
deploy a changed build under the same origin.
"""
from __future__ import annotations

import json
import shutil
import threading
import time
from pathlib import Path
from urllib.parse import quote, urlsplit

import pytest

import build_site
import site_compress
from helpers import LANGS

from driver import EN, SAVE_KEY, SHARED_QUERY, TEST_FILES, first_visit_paths, new_match, play_until, table_snapshot, wait_playable
from spades import Match
from spades.ai import bot
from spades.notation import format_hand

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.browser

BOOT_MS = 120_000
#: The longest any page-side wait of this file may take: ``page.evaluate`` has no timeout of
#: its own, so every promise a test awaits in the page races this (see ``evaluate``).
WAIT_MS = 150_000


class Site:
    """A dist/ copy served on its own port; stop() takes it offline for good."""

    def __init__(self, root: Path):
        self.root = root
        self.server = build_site.make_server(root, 0)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        host, port = self.server.server_address[:2]
        self.url = f"http://{host}:{port}/"
        self.running = True

    def stop(self):
        if self.running:
            self.server.shutdown()
            self.server.server_close()
            self.running = False

    def build(self) -> str:
        return json.loads((self.root / "build.json").read_text())["build"]


@pytest.fixture()
def site(dist_dir, tmp_path, add_seed_files):
    root = tmp_path / "dist"
    shutil.copytree(dist_dir, root)
    add_seed_files(root)  # test-only files, outside the manifests: never precached
    s = Site(root)
    yield s
    s.stop()


@pytest.fixture()
def context(browser, site, seed_snapshot):
    """A fresh context whose Cache Storage holds this build's engine snapshot (as after
    any earlier visit), so the engine restores it instead of a plain start: the tests here
    are about the service worker, the snapshot's own paths are test_snapshot.py's."""
    ctx = browser.new_context()
    seeder = ctx.new_page()
    seed_snapshot(seeder, site.url)
    seeder.close()
    ctx.console_errors = []
    ctx.foreign_requests = []
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(site.url))

    def on_request(request):
        parts = urlsplit(request.url)
        if parts.scheme in ("http", "https") and f"{parts.scheme}://{parts.netloc}" != origin:
            ctx.foreign_requests.append(request.url)

    ctx.on("request", on_request)
    yield ctx
    ctx.close()


def new_page(ctx):
    page = ctx.new_page()
    page.set_default_timeout(60_000)
    page.console_warnings = []  # the engine's why of a fault (engine.js), in driver's failure messages
    page.on("console", lambda m: m.type == "error" and ctx.console_errors.append(m.text))
    page.on("console", lambda m: m.type == "warning" and page.console_warnings.append(m.text))
    page.on("pageerror", lambda e: ctx.console_errors.append(f"pageerror: {e}"))
    return page


def evaluate(page, js: str, arg=None, ms: int = WAIT_MS):
    """``page.evaluate(js, arg)`` that fails after ``ms`` instead of waiting for ever for a
    promise that never settles (``js``: a function of one argument)."""
    bounded = f"""async (arg) => {{
      let timer;
      const late = new Promise((_, reject) => {{
        timer = setTimeout(() => reject(new Error("no answer from the page within {ms} ms")), {ms});
      }});
      try {{ return await Promise.race([({js})(arg), late]); }} finally {{ clearTimeout(timer); }}
    }}"""
    return page.evaluate(bounded, arg)


# Waits until an active service worker of ``build`` controls the page (its install, which
# fills the cache completely, is then over); returns the cache names and what the cache holds.
WAIT_CACHED_JS = """
async (build) => {
  const sw = navigator.serviceWorker;
  const mine = () => sw.controller && sw.controller.scriptURL.includes("build=" + build);
  while (!mine()) await new Promise((r) => setTimeout(r, 50));
  const reg = await sw.getRegistration("./");
  const cache = (await caches.has("spades-" + build)) ? await caches.open("spades-" + build) : null;
  const cached = {};  // path -> [Content-Encoding, Content-Length] as stored
  for (const request of cache ? await cache.keys() : []) {
    const h = (await cache.match(request)).headers;
    cached[new URL(request.url).pathname] = [h.get("content-encoding"), h.get("content-length")];
  }
  return { keys: await caches.keys(), cached, script: reg.active && reg.active.scriptURL };
}
"""


def precache_paths(root: Path) -> list[str]:
    return [f["path"] for f in json.loads((root / "precache.json").read_text())["files"]]


def wait_cached(page, site) -> dict:
    info = evaluate(page, WAIT_CACHED_JS, site.build())
    # the engine worker's memory snapshot cache (spades-snapshot-*) is tested in test_snapshot.py
    site_caches = [k for k in info["keys"] if not k.startswith("spades-snapshot-")]
    assert site_caches == [f"spades-{site.build()}"], info["keys"]
    assert f"build={site.build()}" in info["script"]
    missing = [p for p in precache_paths(site.root) if "/" + p not in info["cached"]]
    assert not missing, f"not cached: {missing}"
    # stored as the page asks for them: plain (the server sent the br siblings), their own length
    sizes = {f["path"]: f["size"] for f in json.loads((site.root / "precache.json").read_text())["files"]}
    stored = {p: tuple(info["cached"]["/" + p]) for p in sizes}
    assert {p: h for p, h in stored.items() if h != (None, str(sizes[p]))} == {}
    assert (site.root / "pyodide" / "engine_stdlib.zip.br").is_file()  # so the check above means something
    return info


def notation_hand(seed: int = 9) -> tuple[str, object]:
    m = Match(seed=seed)
    bots = {s: bot("easy", s) for s in range(4)}
    while not m.hands_played:
        seat = m.to_act
        m.act(bots[seat].choose(m.view(seat)), seat=seat)
    record = m.hands_played[0]
    return format_hand(record), record


def sizes(root: Path) -> tuple[int, int]:
    files = json.loads((root / "precache.json").read_text())["files"]
    total = sum(f["size"] for f in files)
    core = sum(f["size"] for f in files if f["path"].startswith("pyodide/"))
    return total, core


#: What a first visit may transfer until its first bid is usable (issue 31): the bytes a host
#: sends with the build's gzip siblings, and with its brotli siblings.
FIRST_VISIT_BUDGET = {"gzip": 4_800_000, "br": 3_900_000}


def test_a_first_visit_transfers_within_its_budget(first_visit_page, site_url, dist_dir):
    paths = first_visit_paths(first_visit_page.context, site_url)
    info = json.loads((dist_dir / "build.json").read_text())
    # the engine boots on the trimmed standard library, never Pyodide's full one, and from its
    # bytecode, never the wheel (which is pip's and the Python page's)
    assert {info["stdlib"], info["engine"], "pyodide/pyodide.asm.wasm", "index.html", "i18n/en.json"} <= set(paths)
    assert "pyodide/python_stdlib.zip" not in paths and info["wheel"] not in paths
    assert not [p for p in paths if p.endswith((".gz", ".br"))]  # the browser asks for plain names
    sent = site_compress.transfer(dist_dir, paths)
    print(f"\nfirst visit until a usable bid: {len(paths)} files, {sent['identity']:,} bytes; "
          f"sent with gzip {sent['gzip']:,}, with brotli {sent['br']:,}")
    for encoding, budget in FIRST_VISIT_BUDGET.items():
        assert sent[encoding] <= budget, (encoding, sent)
    assert sent["br"] < sent["gzip"] < sent["identity"] / 2
    assert first_visit_page.console_errors == []


def test_viewer_works_offline_after_one_visit(context, site):
    page = new_page(context)
    page.goto(site.url + "viewer.html")
    page.wait_for_selector("body[data-engine='ready']", timeout=BOOT_MS)
    wait_cached(page, site)

    # really offline: the browser context and the server
    context.set_offline(True)
    site.stop()

    text, record = notation_hand()
    viewer_url = site.url + "viewer.html?hand=" + quote(text) + "#step=57"
    # the figures (against a bare Pyodide page, online and offline) are tools/bench_site.py's
    page.goto(viewer_url)
    page.wait_for_selector("body[data-ready='1'], body[data-error]", timeout=BOOT_MS)
    assert page.get_attribute("body", "data-error") is None, page.inner_text("#error")
    delta = page.locator("#score [data-team-delta='0']").get_attribute("data-value")
    assert int(delta) == record.scores[0].delta

    # query strings are ignored for cached pages
    page.goto(site.url + "viewer.html?anything=1")
    page.wait_for_selector("body[data-engine='ready']", timeout=BOOT_MS)
    # the directory address is index.html, offline too
    response = page.goto(site.url + "?seed=5")
    assert response is not None and response.ok
    assert response.body() == (site.root / "index.html").read_bytes()
    page.goto(site.url + "viewer.html")
    page.wait_for_selector("body[data-engine='ready']", timeout=BOOT_MS)

    total, core = sizes(site.root)
    print(f"first visit downloads {total:,} bytes: Pyodide core {core:,} ({100 * core / total:.1f} %), "
          f"own payload {total - core:,}")
    assert context.console_errors == []
    assert context.foreign_requests == []




def hand_size(page) -> int:
    return page.locator("#hand button[data-card]").count()


def test_game_works_offline(context, site):
    """After one visit the game plays offline: the page, its engine and a hand, by clicking."""
    page = new_page(context)
    page.goto(site.url + "index.html" + SHARED_QUERY)
    wait_playable(page)
    wait_cached(page, site)  # the game page itself registered the service worker
    context.set_offline(True)
    site.stop()
    t0 = time.perf_counter()
    page.goto(site.url + "index.html" + SHARED_QUERY)
    wait_playable(page)
    new_match(page, seed=5)
    play_until(page, lambda p, a: a["kind"] == "play" and hand_size(p) == 12)  # a trick played
    print(f"\noffline game: boot, new match, bid and one trick in {(time.perf_counter() - t0) * 1000:.0f} ms")
    assert context.console_errors == []
    assert context.foreign_requests == []


#: A page of an author's own on the same site (docs/embedding.md, "Offline and updates"):
#: it registers the service worker with its own update notice. Test-only: written into the
#: served copy, never into a manifest.
AUTHOR_PAGE = "author-page.html"
AUTHOR_HTML = b"""<!doctype html><html lang="en"><head><meta charset="utf-8"><title>An author's page</title>
<link rel="icon" href="data:,"></head><body><p>An author's page</p>
<script type="module">
  import { registerServiceWorker } from "./lib/sw-register.js";
  window.updateReady = new Promise((resolve) => {
    registerServiceWorker({ onUpdateReady: (apply) => { window.applyUpdate = apply; resolve(typeof apply); } });
  });
</script></body></html>
"""


def redeploy(root: Path, marker: str) -> str:
    """Change one file of the served copy and rewrite its manifests as build_site does. The
    changed file's precompressed siblings go (write_manifests drops the manifests' own): the
    server would send them, the old version, to every browser (all accept br and gzip), so the
    page would never see the new build. The test-only files stay out of the manifests."""
    changed = root / "css" / "viewer.css"
    with open(changed, "a", encoding="utf-8") as fh:
        fh.write(f"\n/* {marker} */\n")
    site_compress.drop_siblings(changed)
    info = json.loads((root / "build.json").read_text())
    aside = root.parent / "test-only"
    aside.mkdir()
    test_only = [p for p in (root / TEST_FILES.strip("/"), root / AUTHOR_PAGE) if p.exists()]
    for path in test_only:
        path.rename(aside / path.name)
    try:
        new = build_site.write_manifests(root, wheel=info["wheel"], micropip=info["micropip"],
                                         pyodide=info["pyodide"], stdlib=info["stdlib"],
                                         engine=info["engine"])
    finally:
        for path in test_only:
            (aside / path.name).rename(path)
        aside.rmdir()
    precache = precache_paths(root)
    assert "css/viewer.css" in precache
    assert not [p for p in precache if p.startswith(TEST_FILES) or p == AUTHOR_PAGE or p.endswith((".br", ".gz"))]
    return new["build"]


# Waits until the worker of ``build`` has installed (its cache is complete) and waits to
# take over; fails at once when its install fails instead (the old worker stays).
WAIT_UPDATE_JS = """
async (build) => {
  const reg = await navigator.serviceWorker.getRegistration("./");
  if (!reg) throw new Error("no service worker registration");
  const ours = (worker) => !!worker && worker.scriptURL.includes("build=" + build);
  let installing = false;
  for (;;) {
    if (ours(reg.waiting)) return reg.waiting.scriptURL;
    if (ours(reg.installing)) installing = true;
    else if (installing) throw new Error("the worker of build " + build + " failed to install");
    await new Promise((r) => setTimeout(r, 50));
  }
}
"""

# What the page is served now: the caches, a changed file and the build.
SERVED_JS = """async () => ({
  keys: (await caches.keys()).sort(),
  css: await (await fetch("css/viewer.css")).text(),
  build: (await (await fetch("build.json")).json()).build,
  script: navigator.serviceWorker.controller && navigator.serviceWorker.controller.scriptURL,
})"""


def site_caches(keys: list[str]) -> list[str]:
    """The service worker's caches (the engine's snapshots are test_snapshot.py's)."""
    return sorted(k for k in keys if not k.startswith("spades-snapshot-"))


def test_new_deployment_mid_hand_keeps_the_match(context, site):
    """A deployment while a hand is under way: the next page load resumes the match on the
    old build (the old worker serves the old cache only, never a mix) and says a new version
    is ready; the player plays on; Reload moves to the new build, the match where it was,
    the old cache gone; and the new build plays offline."""
    page = new_page(context)
    page.goto(site.url + "index.html" + SHARED_QUERY)
    wait_playable(page)
    old = site.build()
    wait_cached(page, site)
    new_match(page, seed=21)
    play_until(page, lambda p, a: a["kind"] == "play" and hand_size(p) == 11)  # two tricks played
    table = table_snapshot(page)

    new = redeploy(site.root, "deployment two")
    assert new != old
    page.reload()  # the next online page load notices the new build
    wait_playable(page)
    assert table_snapshot(page) == table
    evaluate(page, WAIT_UPDATE_JS, new)
    banner = page.wait_for_selector("#sw-update-banner", timeout=BOOT_MS)
    assert EN["update.ready"] in banner.inner_text()
    # the notice leaves the hand free: no card of the hand under it
    assert page.evaluate("""() => {
      const b = document.querySelector('#sw-update-banner').getBoundingClientRect();
      return [...document.querySelectorAll('#hand [data-card]')].map((c) => c.getBoundingClientRect())
        .filter((r) => r.left < b.right && r.right > b.left && r.top < b.bottom && r.bottom > b.top).length;
    }""") == 0
    served = evaluate(page, SERVED_JS)
    assert site_caches(served["keys"]) == sorted([f"spades-{old}", f"spades-{new}"])
    assert "deployment two" not in served["css"]
    assert served["build"] == old
    assert f"build={old}" in served["script"]

    # the player plays on while the new version waits
    play_until(page, lambda p, a: a["kind"] == "play" and hand_size(p) == 10)
    table = table_snapshot(page)
    saved = page.evaluate("(key) => localStorage.getItem(key)", SAVE_KEY)
    with page.expect_navigation(timeout=BOOT_MS):
        page.click("#sw-update-banner [data-sw-action='reload']")
    wait_playable(page)
    assert table_snapshot(page) == table
    assert page.evaluate("(key) => localStorage.getItem(key)", SAVE_KEY) == saved
    served = evaluate(page, SERVED_JS)
    assert site_caches(served["keys"]) == [f"spades-{new}"]
    assert f"spades-snapshot-{old}" not in served["keys"]  # the old build's snapshot went with its cache
    assert "deployment two" in served["css"]
    assert served["build"] == new
    assert f"build={new}" in served["script"]
    assert page.locator("#sw-update-banner").count() == 0

    # the new build plays offline on its own, and the match is still there
    context.set_offline(True)
    site.stop()
    page.reload()
    wait_playable(page)
    assert table_snapshot(page) == table
    assert "deployment two" in evaluate(page, "async () => (await fetch('css/viewer.css')).text()")
    play_until(page, lambda p, a: a["kind"] == "play" and hand_size(p) == 9)
    assert context.console_errors == []
    assert context.foreign_requests == []


def test_update_callback_instead_of_banner(context, site):
    """An author's page that passes onUpdateReady gets apply() and shows no banner; apply()
    moves the page to the new build, and in a second tab, where the update is then already
    in place, apply() simply reloads it."""
    (site.root / AUTHOR_PAGE).write_bytes(AUTHOR_HTML)
    page, other = new_page(context), new_page(context)
    page.goto(site.url + AUTHOR_PAGE)
    old = site.build()
    wait_cached(page, site)  # the first install: no update to announce
    other.goto(site.url + AUTHOR_PAGE)
    new = redeploy(site.root, "deployment three")
    for tab in (page, other):
        tab.reload()
        evaluate(tab, WAIT_UPDATE_JS, new)
        assert evaluate(tab, "() => window.updateReady") == "function"
        assert tab.locator("#sw-update-banner").count() == 0
        assert evaluate(tab, SERVED_JS)["build"] == old  # until a page applies it
    with page.expect_navigation(timeout=BOOT_MS):
        page.evaluate("() => window.applyUpdate()")
    served = evaluate(page, SERVED_JS)
    assert site_caches(served["keys"]) == [f"spades-{new}"]
    assert served["build"] == new
    assert f"build={new}" in served["script"]
    assert page.locator("#sw-update-banner").count() == 0
    with other.expect_navigation(timeout=BOOT_MS):
        other.evaluate("() => window.applyUpdate()")
    assert evaluate(other, SERVED_JS)["build"] == new
    assert context.console_errors == []
    assert context.foreign_requests == []


def test_language_switch_works_offline(context, site):
    """Every language's catalogue is precached (i18n/<lang>.json): offline, the settings'
    language switch still changes every text, and nothing is fetched from the network."""
    page = new_page(context)
    page.goto(site.url + "index.html?lang=en")
    page.wait_for_load_state("load")
    info = wait_cached(page, site)
    assert {f"/i18n/{lang}.json" for lang in LANGS} <= set(info["cached"])
    context.set_offline(True)
    site.stop()
    page.goto(site.url + "index.html")
    wait_playable(page)
    for lang in ("ru", "hu", "de"):
        catalogue = json.loads((ROOT / "site" / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
        page.click(".tools button[data-action='settings']")
        page.select_option("#lang-select", lang)
        page.wait_for_function("(lang) => document.documentElement.lang === lang", arg=lang)
        assert page.text_content(".tools button[data-action='new-match']") == catalogue["action.newMatch"]
        assert page.text_content("#settings-title") == catalogue["settings.title"]
        page.keyboard.press("Escape")
    assert context.console_errors == []
    assert context.foreign_requests == []
