"""Boot tests: bare Pyodide, the engine worker (ping), and the server's MIME types."""
from __future__ import annotations

import json
import re
import urllib.request
from contextlib import contextmanager

import pytest

from driver import ASK_SPY, BARE_PAGE, BLANK_PAGE, BOOT_MS, ROOT, bridge_save_at, seed_save, table_snapshot, wait_playable
from engine_probe import DEDICATED_ENGINE
from spades import bridge

pytestmark = pytest.mark.browser

BOOT_TIMEOUT_MS = 120_000

# Dynamic import of engine.js from the served site; returns timings and ping.
BOOT_ENGINE_JS = """
async () => {
  const t0 = performance.now();
  const { startEngine } = await import(new URL("../engine/engine.js", location.href).href);
  const stages = [];
  const engine = startEngine({ onProgress: (p) => stages.push(p.stage + ":" + p.fraction) });
  const early = engine.call("ping", {});      // sent during boot: must be queued
  await engine.ready;
  const readyMs = performance.now() - t0;
  const pong = await early;
  const pingMs = performance.now() - t0;
  let error = null;
  try {
    await engine.call("no-such-function", {});
  } catch (err) {
    error = { code: err.code, message: err.message, isError: err instanceof Error };
  }
  const again = await engine.call("ping");   // still alive after the error
  engine.stop();
  return { pong, again, stages, readyMs, pingMs, error };
}
"""


def head(url: str) -> str:
    with urllib.request.urlopen(urllib.request.Request(url, method="HEAD"), timeout=10) as resp:
        return resp.headers.get("Content-Type", "")


def test_mime_types_served(site_url):
    assert head(site_url + "pyodide/pyodide.asm.wasm") == "application/wasm"
    assert head(site_url + "pyodide/pyodide.mjs").startswith("text/javascript")
    assert head(site_url + "pyodide/pyodide.asm.mjs").startswith("text/javascript")
    assert head(site_url + "engine/worker.js").startswith("text/javascript")
    assert head(site_url + "build.json") == "application/json"
    assert head(site_url + "pyodide/python_stdlib.zip") == "application/zip"
    build = json.load(urllib.request.urlopen(site_url + "build.json", timeout=10))
    assert head(site_url + build["wheel"]) == "application/zip"
    assert head(site_url + build["micropip"]) == "application/zip"
    assert head(site_url + build["stdlib"]) == "application/zip"
    assert head(site_url + build["engine"]) == "application/zip"


def test_bare_pyodide_boots(first_visit_page, site_url, screenshot_dir):
    page = first_visit_page  # a page that never starts the game's engine: no snapshot to seed
    page.goto(site_url + BARE_PAGE)
    page.wait_for_selector("body[data-ready='1']", timeout=BOOT_TIMEOUT_MS)
    boot_ms = page.evaluate("window.bootMs")
    assert boot_ms > 0
    print(f"\nbare Pyodide (runtime + micropip) boot: {boot_ms} ms")
    page.screenshot(path=str(screenshot_dir / "bare.png"))
    assert page.console_errors == []
    assert page.foreign_requests == []


@pytest.mark.own_engine  # its boot's stages are the test's subject
def test_engine_worker_ping(page, site_url):
    page.goto(site_url + BLANK_PAGE)  # any same-origin page works as a host (one folder down)
    out = page.evaluate(BOOT_ENGINE_JS)
    print(f"\nengine ready: {out['readyMs']:.0f} ms, first ping reply: {out['pingMs']:.0f} ms")
    assert out["pong"]["pong"] is True
    assert out["again"]["pong"] is True
    assert out["stages"][-1] == "ready:1"
    assert {s.split(":")[0] for s in out["stages"]} == {"runtime", "engine", "ready"}
    assert out["error"]["isError"] is True
    # the engine's own refusal, as spades.bridge gives it in Python, not a crashed worker
    expected = json.loads(bridge.handle(json.dumps({"fn": "no-such-function", "args": {}})))["error"]
    assert expected["code"] == "unknown_message"
    assert {"code": out["error"]["code"], "message": out["error"]["message"]} == expected
    assert page.console_errors == []
    assert page.foreign_requests == []


@contextmanager
def loader_held(browser, site_url: str, address: str, wanted: str, prepare=None):
    """Open ``address`` with Pyodide's loader held until the page has posted ``wanted`` (an
    engine message); yield the page and the messages posted by then, the loader then let through. Service workers are blocked
    and the engine is a dedicated worker, so the route sees the engine's requests."""
    context = browser.new_context(service_workers="block")
    context.add_init_script(script=DEDICATED_ENGINE)
    held: list = []
    released = False

    def hold(route) -> None:
        if released:
            route.continue_()
        else:
            held.append(route)

    try:
        page = context.new_page()
        if prepare:
            prepare(page)
        page.add_init_script(script=ASK_SPY)
        context.route("**/pyodide/pyodide.mjs", hold)
        page.goto(site_url + address)
        # the loader is not answered (perhaps not yet asked for): no message can be answered yet
        page.wait_for_function("(fn) => window.__asked.includes(fn)", arg=wanted, timeout=BOOT_MS)
        asked = page.evaluate("window.__asked")
        released = True
        for route in held:
            route.continue_()
        yield page, asked
    finally:
        context.unroute_all(behavior="ignoreErrors")
        context.close()


def test_saved_match_is_asked_for_while_the_engine_starts(browser, site_url):
    """The game sends hello and, once the tab owns the match, resume at once: both wait in the
    engine's queue while Python starts, so the saved match is drawn with the engine's first
    answers instead of a round trip after them."""
    save = bridge_save_at(lambda st: st["phase"] == "play" and st["to_act"] == 0, seed=17)
    expected = json.loads(bridge.handle(json.dumps({"fn": "resume", "args": {"save": save}})))["result"]
    with loader_held(browser, site_url, "?speed=0", "resume", lambda page: seed_save(page, save)) as (page, asked):
        assert asked == ["hello", "resume"]
        wait_playable(page)
        shown = table_snapshot(page)
        assert shown["phase"] == "play"
        assert sorted(shown["hand"]) == sorted(expected["hand"])


def test_viewer_asks_for_its_hand_while_the_engine_starts(browser, site_url):
    """The viewer asks for the address's hand at once (it waits in the engine's queue) and
    draws it once the engine is up."""
    text = (ROOT / "tests" / "browser" / "pages" / "tutorial.html").read_text(encoding="utf-8")
    hand = re.search(r'name="v1"[^>]*src="\.\./viewer\.html\?hand=([^"]+)"', text).group(1)
    with loader_held(browser, site_url, "viewer.html?hand=" + hand, "review") as (page, asked):
        assert asked == ["review"]
        page.wait_for_selector("body[data-ready='1']", timeout=BOOT_MS)
        shown = page.locator("section.seat[data-seat='0'] [data-card]").count()
        assert shown == 13
