"""How fast the game page reports engine faults: a benchmark, not a test.

Serves dist/ (build it first: python build_site.py build) and drives Chromium:
  kill    boot a seeded game, wait for the player's turn, terminate the engine worker
          from the page, and time (in the page, performance.now) until the role="alert"
          message is on screen with body[data-phase="error"];
  stall   pyodide.asm.wasm never answers: time from the request to the alert;
  block   pyodide.asm.wasm is refused: time from the request to the alert.
Prints the median (and all values) of the repeats for each.

    python tools/bench_watchdog.py [--repeats 5] [--json]
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "browser"))

from conftest import CHROMIUM_ARGS, find_chromium  # noqa: E402
from driver import KILL_AND_TIME  # noqa: E402
from engine_probe import DEDICATED_ENGINE  # noqa: E402

import build_site  # noqa: E402

BOOT_MS = 120_000
GAME = "?seed=41&speed=0&partner=easy&opponents=easy"
WASM = "**/pyodide/pyodide.asm.wasm"
# The page runs the dedicated engine worker (routes and terminate() reach no shared one).
RECORD_WORKERS = """
(() => {
  delete window.SharedWorker;
  const Real = window.Worker;
  window.__workers = [];
  window.Worker = class extends Real {
    constructor(...args) { super(...args); window.__workers.push(this); }
  };
})();
"""
PLAYER_TURN = ("() => !!document.querySelector(\"#bid-panel:not([hidden]) button:enabled, "
               "#hand button[data-card]:enabled\")")


def kill_once(browser, url: str) -> float:
    context = browser.new_context(service_workers="block")
    try:
        page = context.new_page()
        page.add_init_script(script=RECORD_WORKERS)
        page.goto(url + GAME)
        page.wait_for_function(PLAYER_TURN, timeout=BOOT_MS)
        return page.evaluate(KILL_AND_TIME)
    finally:
        context.close()


def wasm_fault_once(browser, url: str, fault: str) -> float:
    context = browser.new_context(service_workers="block")
    context.add_init_script(script=DEDICATED_ENGINE)  # routes reach no shared worker's requests
    try:
        page = context.new_page()
        hit = []

        def inject(route):
            hit.append(time.monotonic())
            if fault == "block":
                route.abort()

        context.route(WASM, inject)
        page.goto(url + GAME)
        page.wait_for_selector("body[data-phase='error'] [role='alert']", timeout=BOOT_MS)
        return (time.monotonic() - hit[0]) * 1000
    finally:
        context.unroute_all(behavior="ignoreErrors")  # the stalled request is left unanswered
        context.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    opts = ap.parse_args()
    from playwright.sync_api import sync_playwright

    server = build_site.make_server(ROOT / "dist", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = "http://127.0.0.1:%d/" % server.server_address[1]
    out = {}
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=find_chromium(pw), args=CHROMIUM_ARGS)
            out["kill"] = [kill_once(browser, url) for _ in range(opts.repeats)]
            out["stall"] = [wasm_fault_once(browser, url, "stall") for _ in range(opts.repeats)]
            out["block"] = [wasm_fault_once(browser, url, "block") for _ in range(opts.repeats)]
            browser.close()
    finally:
        server.shutdown()
    summary = {k: {"median_ms": round(statistics.median(v)), "all_ms": [round(x) for x in v]} for k, v in out.items()}
    if opts.json:
        print(json.dumps(summary))
    else:
        for k, v in summary.items():
            print(f"{k:6} median {v['median_ms']:6d} ms   {v['all_ms']}")


if __name__ == "__main__":
    main()
