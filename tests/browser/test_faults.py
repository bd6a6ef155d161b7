"""Worker faults (issue 10, cases 1 and 2): a boot file blocked, corrupt or never
answering, a killed worker, a lost reply. Each must end, within a bounded time, in the
one right outcome: ``body[data-phase="error"]``, the translated text in a ``role="alert"``
element with a Reload button, and the saved match exactly as it was.

Faults are injected from outside the page: Playwright routes for the files, and an
init script that records the page's workers (to terminate them) and can drop replies.
Playwright's routes do not reach a shared worker's requests, so these tests run the dedicated
engine worker (engine_probe.DEDICATED_ENGINE), but the lost reply, also run with the shared one;
a dead shared engine on a page of several frames is test_shared_engine.py's.
Times are printed, never asserted (the bound is only a wait limit).
"""
from __future__ import annotations

import json
import time

import pytest

from driver import BOOT_MS, EN, KILL_AND_TIME, SAVE_KEY, assert_clean, next_action, wait_playable
from engine_probe import DEDICATED_ENGINE, engine_count

pytestmark = [pytest.mark.browser, pytest.mark.own_engine]

#: What the page says (console.warn) when the engine worker's life lock came free.
ENGINE_ENDED = "engine failed (stopped): the engine worker has ended"

#: Waits for a reported fault: the watchdog's limits (watchdog.js) plus slack for a busy machine.
FAULT_WAIT_MS = 40_000
#: The deadline of a plain request (watchdog.REQUEST_MS) plus slack.
REPLY_WAIT_MS = 30_000
SENTINEL = "a save the engine must never see or touch"

# Records every Worker the page starts (window.__workers) and the boot-error messages the
# engine worker sends (window.__bootErrors: the faults it reports itself, as against those
# only the page's watchdog sees), and drops the engine's replies while
# window.__dropReplies is true: the page's own code is not touched.
WORKER_SPY = """
(() => {
  const Real = window.Worker;
  window.__workers = [];
  window.__bootErrors = [];
  window.__dropReplies = false;
  window.Worker = class extends Real {
    constructor(...args) {
      super(...args);
      window.__workers.push(this);
      super.addEventListener("message", (event) => {
        if (event.data && event.data.type === "boot-error") window.__bootErrors.push(String(event.data.message));
      });
    }
    addEventListener(type, listener, options) {
      if (type !== "message") return super.addEventListener(type, listener, options);
      return super.addEventListener(type, (event) => {
        if (window.__dropReplies && event.data && event.data.type === "reply") return;
        listener(event);
      }, options);
    }
  };
})();
"""

# Drops the engine's replies while window.__dropReplies is true, whichever worker carries them
# (a dedicated Worker, or a shared worker's MessagePort).
DROP_REPLIES = """
(() => {
  window.__dropReplies = false;
  for (const proto of [Worker.prototype, MessagePort.prototype]) {
    const add = proto.addEventListener;
    proto.addEventListener = function (type, listener, options) {
      if (type !== "message") return add.call(this, type, listener, options);
      return add.call(this, type, (event) => {
        if (window.__dropReplies && event.data && event.data.type === "reply") return;
        listener(event);
      }, options);
    };
  }
})();
"""

PUT_SENTINEL = """
(([key, value]) => { if (localStorage.getItem(key) === null) localStorage.setItem(key, value); })(%s);
"""



def fault_context(browser, site_url):
    """A context without service workers (routes then see every request) whose pages start the
    dedicated engine worker (routes do not reach a shared worker's requests)."""
    context = browser.new_context(service_workers="block")
    context.add_init_script(script=DEDICATED_ENGINE)
    page = context.new_page()
    page.set_default_timeout(60_000)
    return context, page


def expect_fault(page, key: str) -> None:
    """The page shows the fault `key` (English text) as an alert with a Reload button."""
    page.wait_for_selector("body[data-phase='error']", timeout=FAULT_WAIT_MS)
    alert = page.locator("[role='alert']")
    assert alert.count() == 1
    assert alert.inner_text() == EN[key]
    reload = page.locator("#fault-panel button[data-role='fault-reload']")
    assert reload.inner_text() == EN["fault.reload"]
    assert reload.evaluate("(b) => b === document.activeElement")


BOOT_FAULTS = [
    ("pyodide/pyodide.asm.wasm", "blocked"),
    ("pyodide/pyodide.asm.wasm", "corrupt"),
    ("pyodide/pyodide.asm.wasm", "stalled"),
    ("pyodide/engine_stdlib.zip", "stalled"),
    ("pyodide/engine_stdlib.zip", "corrupt"),
    ("pyodide/pyodide.mjs", "blocked"),
    ("pyodide/pyodide.mjs", "stalled"),
    ("build.json", "stalled"),
    ("wheels/*-bytecode.zip", "corrupt"),
]
#: The faults the engine worker itself reports (a failed request or a file it cannot use),
#: without waiting for the watchdog's stall limit (Pyodide's loader only logs a failed wasm
#: instantiation, so the worker watches for that itself). A stalled file is left to the
#: watchdog.
REPORTED_BY_WORKER = {
    ("pyodide/pyodide.asm.wasm", "blocked"),
    ("pyodide/pyodide.mjs", "blocked"),
    ("pyodide/pyodide.asm.wasm", "corrupt"),
    ("pyodide/engine_stdlib.zip", "corrupt"),
    ("wheels/*-bytecode.zip", "corrupt"),
}
CONTENT_TYPES = {".wasm": "application/wasm", ".js": "text/javascript", ".json": "application/json"}


def corrupt_body(path: str) -> bytes:
    if path.endswith(".wasm"):
        return b"\x00asm\x01\x00\x00\x00" + b"\xff" * 4096
    if path.endswith(".js"):
        return b"export const = ;"
    return b"PK\x03\x04 damaged"


@pytest.mark.parametrize(("path", "fault"), BOOT_FAULTS)
def test_boot_file_fault_is_reported_and_save_kept(browser, site_url, path, fault):
    context, page = fault_context(browser, site_url)
    try:
        page.add_init_script(script=PUT_SENTINEL % json.dumps([SAVE_KEY, SENTINEL]))
        page.add_init_script(script=WORKER_SPY)
        hit = []  # when the faulty file was asked for (time.monotonic)

        def inject(route):
            hit.append(time.monotonic())
            if fault == "blocked":
                route.abort()
            elif fault == "corrupt":
                ctype = next((v for k, v in CONTENT_TYPES.items() if path.endswith(k)), "application/zip")
                route.fulfill(status=200, body=corrupt_body(path), content_type=ctype)
            # stalled: never answered

        context.route(f"**/{path}", inject)
        page.goto(site_url + "?speed=0")
        expect_fault(page, "fault.boot")
        assert len(hit) == 1
        print(f"\n{fault} {path}: fault on screen {time.monotonic() - hit[0]:.1f} s after the request")
        assert page.evaluate("(key) => localStorage.getItem(key)", SAVE_KEY) == SENTINEL
        reported = page.evaluate("() => window.__bootErrors")
        assert len(reported) == (1 if (path, fault) in REPORTED_BY_WORKER else 0), reported
    finally:
        context.unroute_all(behavior="ignoreErrors")  # a stalled request is left unanswered
        context.close()


def test_worker_failing_before_the_page_has_loaded_is_reported(browser, site_url):
    """The engine worker is started from the page's head (game/early-engine.js), before app.js
    has loaded: a failure it reports meanwhile is kept and shown once the page is up."""
    context, page = fault_context(browser, site_url)
    try:
        page.add_init_script(script=PUT_SENTINEL % json.dumps([SAVE_KEY, SENTINEL]))
        held = []
        context.route("**/pyodide/pyodide.mjs", lambda route: route.abort())
        context.route("**/game/app.js", lambda route: held.append(route))  # the page's modules wait
        page.goto(site_url + "?speed=0", wait_until="commit")
        page.wait_for_function("""() => self.spadesEarlyEngine && self.spadesEarlyEngine.early.some(
          (e) => e.data && e.data.type === 'boot-error')""", timeout=FAULT_WAIT_MS)
        for route in held:
            route.continue_()
        context.unroute("**/game/app.js")
        expect_fault(page, "fault.boot")
        assert page.evaluate("(key) => localStorage.getItem(key)", SAVE_KEY) == SENTINEL
    finally:
        context.unroute_all(behavior="ignoreErrors")
        context.close()


def test_killed_worker_is_reported_and_save_kept(page, site_url):
    page.add_init_script(script=DEDICATED_ENGINE)
    page.add_init_script(script=WORKER_SPY)
    page.goto(site_url + "?seed=41&speed=0&partner=easy&opponents=easy")
    wait_playable(page)
    next_action(page)  # the player's turn: the engine is idle
    saved = page.evaluate("(key) => localStorage.getItem(key)", SAVE_KEY)
    assert json.loads(saved)["seed"] == 41
    ms = page.evaluate(KILL_AND_TIME)
    print(f"\nkilled worker -> message on screen: {ms:.0f} ms")
    expect_fault(page, "fault.stopped")
    # told by the worker's life lock coming free, not by a silence running out
    assert [w for w in page.console_warnings if w.startswith("engine")] == [ENGINE_ENDED]
    assert page.evaluate("(key) => localStorage.getItem(key)", SAVE_KEY) == saved
    # the table takes no more clicks
    assert page.locator("#hand button:enabled, #bid-panel button:enabled").count() == 0
    assert_clean(page)


@pytest.mark.parametrize("engine", ["dedicated", "shared"])
def test_lost_reply_is_reported_and_save_kept(page, site_url, engine):
    if engine == "dedicated":
        page.add_init_script(script=DEDICATED_ENGINE)
    page.add_init_script(script=DROP_REPLIES)
    page.goto(site_url + "?seed=42&speed=0&partner=easy&opponents=easy")
    page.wait_for_selector("body[data-phase='bid']", timeout=BOOT_MS)
    assert engine_count(page) == {"shared": int(engine == "shared"), "dedicated": int(engine == "dedicated")}
    assert next_action(page) == {"kind": "bid"}
    saved = page.evaluate("(key) => localStorage.getItem(key)", SAVE_KEY)
    page.evaluate("() => { window.__dropReplies = true; }")
    page.click("#bid-panel button[data-bid='3']")
    page.wait_for_selector("body[data-phase='error']", timeout=REPLY_WAIT_MS)
    expect_fault(page, "fault.stopped")
    assert page.evaluate("(key) => localStorage.getItem(key)", SAVE_KEY) == saved
    assert_clean(page)
