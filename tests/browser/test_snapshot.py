"""Snapshot boot (site/engine/worker.js + site/engine/snapshot.js): a repeat visit restores Pyodide's memory.

The first visit boots Pyodide normally and stores a memory snapshot of the
runtime with the engine imported; later visits, online and offline, restore it.
A snapshot that is missing, stale, truncated, corrupt or cannot be restored
means a normal boot and a fresh snapshot, with no error shown and the saved
match kept: snapshot.js's checks refuse each kind of damage before Pyodide sees
it, and the whole fallback is played through for a corrupt snapshot (refused
by those checks) and for one that passes them but cannot be restored. The worker says which way it booted in ``self.spadesBoot.path``
(read in the shared engine worker through engine_probe.py).

The snapshot options of ``loadPyodide`` are experimental: if a Pyodide upgrade
breaks restoring, test_repeat_visits_restore_the_snapshot fails loudly.
"""
from __future__ import annotations

import pytest
from driver import BLANK_PAGE
from engine_probe import boot_info

pytestmark = pytest.mark.browser

BOOT_MS = 120_000
SNAPSHOT_PREFIX = "spades-snapshot-"
READY_TO_BID = ("document.body.dataset.phase === 'bid' && "
                "document.querySelector(\"#bid-panel:not([hidden]) button[data-bid='3']:enabled\") !== null && "
                "document.querySelectorAll('#hand button[data-card]').length === 13")
MY_TURN_TO_PLAY = ("document.body.dataset.phase === 'play' && "
                   "document.querySelector('#hand button[data-card]:enabled') !== null")
HAND_JS = "[...document.querySelectorAll('#hand button[data-card]')].map((b) => b.dataset.card)"

# What Cache Storage holds for snapshots: {cache name: [{url, size, headerSize}]}.
STORED_JS = """async () => {
  const out = {};
  for (const name of await caches.keys()) {
    if (!name.startsWith("spades-snapshot-")) continue;
    const cache = await caches.open(name);
    out[name] = [];
    for (const req of await cache.keys()) {
      const resp = await cache.match(req);
      out[name].push({url: req.url, size: (await resp.arrayBuffer()).byteLength,
                      headerSize: Number(resp.headers.get("x-spades-size"))});
    }
  }
  return out;
}"""

# Damages the stored snapshot in one of several ways; returns the cache names after.
DAMAGE_JS = """async (kind) => {
  const hex = (buf) => Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, "0")).join("");
  const name = (await caches.keys()).find((k) => k.startsWith("spades-snapshot-"));
  const cache = await caches.open(name);
  const [req] = await cache.keys();
  const resp = await cache.match(req);
  const headers = new Headers(resp.headers);
  let bytes = new Uint8Array(await resp.arrayBuffer());
  if (kind === "truncated") {
    bytes = bytes.slice(0, bytes.length >> 1);
  } else if (kind === "corrupt") {
    bytes[bytes.length >> 1] ^= 0xff;
  } else if (kind === "unrestorable") {
    // intact as far as size and checksum go, but not a Pyodide heap: the restore itself throws
    bytes = new Uint8Array(1 << 16).fill(7);
    headers.set("x-spades-size", String(bytes.length));
    headers.set("x-spades-sha256", hex(await crypto.subtle.digest("SHA-256", bytes)));
  } else if (kind === "stale") {
    // left over from another build: the same entry, under another build's cache
    const other = await caches.open("spades-snapshot-0123456789ab");
    headers.set("x-spades-build", "0123456789ab");
    await other.put(req, new Response(bytes, { headers }));
    await caches.delete(name);
    return await caches.keys();
  }
  await cache.put(req, new Response(bytes, { headers }));
  return await caches.keys();
}"""


def open_fresh(page, url: str) -> dict:
    page.goto(url)
    page.wait_for_function(READY_TO_BID, timeout=BOOT_MS)
    return boot_info(page)


def wait_controlled(page) -> None:
    """Until the service worker controls the page (its cache is then complete)."""
    page.evaluate("""async () => {
      await navigator.serviceWorker.ready;
      while (!navigator.serviceWorker.controller) await new Promise((r) => setTimeout(r, 50));
    }""")


def bid_three(page) -> list[str]:
    page.click("#bid-panel:not([hidden]) button[data-bid='3']:enabled")
    page.wait_for_function(MY_TURN_TO_PLAY, timeout=BOOT_MS)
    return page.evaluate(HAND_JS)


def reload_resumed(page) -> tuple[dict, list[str]]:
    page.reload()
    page.wait_for_function(MY_TURN_TO_PLAY, timeout=BOOT_MS)
    return boot_info(page), page.evaluate(HAND_JS)


def assert_one_valid_snapshot(page, build: str) -> None:
    stored = page.evaluate(STORED_JS)
    assert list(stored) == [SNAPSHOT_PREFIX + build], stored
    [entry] = stored[SNAPSHOT_PREFIX + build]
    assert entry["size"] == entry["headerSize"]
    assert entry["url"].endswith("snapshot/pyodide-" + page.evaluate(
        "fetch('build.json').then((r) => r.json()).then((b) => b.pyodide)") + ".bin")


def current_build(page) -> str:
    return page.evaluate("fetch('build.json').then((r) => r.json()).then((b) => b.build)")


def test_repeat_visits_restore_the_snapshot(first_visit_page, site_url):
    page = first_visit_page
    first = open_fresh(page, site_url + "index.html?seed=7&speed=0")
    assert first["path"] == "plain"
    assert first["stored"] is True
    build = current_build(page)
    assert_one_valid_snapshot(page, build)
    assert first["bytes"] == page.evaluate(STORED_JS)[SNAPSHOT_PREFIX + build][0]["size"]
    hand = bid_three(page)
    wait_controlled(page)

    online, resumed = reload_resumed(page)
    assert online["path"] == "snapshot", (
        "a repeat visit did not restore the stored Pyodide memory snapshot: did a Pyodide "
        f"upgrade change loadPyodide's _loadSnapshot/_makeSnapshot? boot info: {online}")
    assert resumed == hand  # the saved match resumed on the restored engine
    page.click("#hand button[data-card]:enabled")
    page.wait_for_function("document.querySelectorAll('#hand button[data-card]').length === 12", timeout=BOOT_MS)
    after_play = page.evaluate(HAND_JS)

    page.context.set_offline(True)
    offline, resumed = reload_resumed(page)
    assert offline["path"] == "snapshot", f"offline repeat visit did not restore the snapshot: {offline}"
    assert resumed == after_play
    assert page.console_errors == []
    assert page.foreign_requests == []


# snapshot.js itself, on a blank page of the site (no engine started): what findSnapshot makes
# of the stored entry, then what a store leaves behind. Returns both steps' outcomes.
FIND_JS = """async () => {
  const { findSnapshot, storeSnapshot } = await import("../engine/snapshot.js");
  const base = new URL("../", location.href);
  const build = await (await fetch(new URL("build.json", base))).json();
  const names = async () => (await caches.keys()).filter((k) => k.startsWith("spades-snapshot-")).sort();
  const found = await findSnapshot(build, base);
  let outcome;
  if (found === null) outcome = { found: "none" };
  else {
    try { outcome = { found: "bytes", size: (await found.bytes).byteLength }; }
    catch (err) { outcome = { found: "refused", message: err.message }; }
  }
  outcome.after = await names();
  outcome.stored = await storeSnapshot(build, base, new Uint8Array(1024).fill(1));
  outcome.afterStore = await names();
  outcome.build = build.build;
  return outcome;
}"""


@pytest.mark.parametrize("kind", ["intact", "truncated", "corrupt", "stale"])
def test_a_damaged_or_stale_snapshot_is_never_handed_to_pyodide(fresh_page, site_url, site_snapshot, kind):
    """The checks before a restore (snapshot.js): a truncated or corrupt entry is refused and
    dropped, another build's is not looked at, and storing a new one leaves only this build's.
    (The worker's fallback after each is the same plain boot: the next test boots through it.)"""
    page = fresh_page
    page.goto(site_url + BLANK_PAGE)
    if kind != "intact":
        page.evaluate(DAMAGE_JS, kind)
    out = page.evaluate(FIND_JS)
    this = SNAPSHOT_PREFIX + out["build"]
    if kind == "intact":
        assert (out["found"], out["size"], out["after"]) == ("bytes", site_snapshot["size"], [this])
    elif kind == "stale":
        assert (out["found"], out["after"]) == ("none", [SNAPSHOT_PREFIX + "0123456789ab"])
    else:
        assert (out["found"], out["message"], out["after"]) == (
            "refused", "the stored snapshot is truncated or corrupt", [])
    assert (out["stored"], out["afterStore"]) == (True, [this])
    assert page.console_errors == []


@pytest.mark.parametrize("kind", ["corrupt", "unrestorable"])
def test_damaged_snapshot_falls_back_to_a_normal_boot(fresh_page, site_url, kind):
    # ``fresh_page`` holds the snapshot a first visit of this build stored (conftest.site_snapshot),
    # in a context of its own: the test damages it
    page = fresh_page
    first = open_fresh(page, site_url + "index.html?seed=9&speed=0")
    assert (first["path"], first["stored"]) == ("snapshot", False)
    build = current_build(page)
    hand = bid_three(page)
    saved = page.evaluate("localStorage.getItem('spades.save.v1')")

    keys = page.evaluate(DAMAGE_JS, kind)
    assert (SNAPSHOT_PREFIX + build in keys) == (kind != "stale")
    fallback, resumed = reload_resumed(page)
    assert fallback["path"] == "plain", f"{kind} snapshot was restored: {fallback}"
    assert resumed == hand  # the saved match is untouched and resumes
    assert page.evaluate("localStorage.getItem('spades.save.v1')") == saved
    assert page.locator("[role='alert']:visible").count() == 0
    # the damaged (or stale) snapshot was replaced by a good one of this build
    assert fallback["stored"] is True
    assert_one_valid_snapshot(page, build)

    restored, resumed = reload_resumed(page)
    assert restored["path"] == "snapshot"
    assert resumed == hand
    assert page.console_errors == []
