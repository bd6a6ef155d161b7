"""Boot tests: bare Pyodide, the engine worker (ping), and the server's MIME types."""
from __future__ import annotations

import json
import urllib.request

import pytest

from driver import BARE_PAGE, BLANK_PAGE
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
