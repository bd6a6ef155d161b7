#!/usr/bin/env python3
"""Measure the browser figures the issues ask for (a benchmark, not a test).

    python tools/bench_site.py [--repeats 5] [--cards 20] [--json]

Builds dist/ unless --no-build, serves it on 127.0.0.1 and drives headless Chromium:
  boot     navigation → dealt hand ready to bid on index.html, against bare.html
           (the same Pyodide runtime + micropip, no engine), alternating runs; medians
  offline  the same, on a repeat visit with the network off (service worker cache)
  payload  bytes of dist/ outside Pyodide's core, and the first visit's total
  turn     time from your card to the next card you may play (speed 0, Hard bots)
  bots     decision times of each bot level inside Pyodide (python.html runs the code)
Timings on a shared machine are noisy: compare within one run and read the ratios.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "browser"))

import build_site  # noqa: E402
from conftest import CHROMIUM_ARGS, find_chromium  # noqa: E402
from test_game import NEXT_JS  # noqa: E402  (what the human can do next, as the tests read it)

READY_TO_BID = "document.body.dataset.phase === 'bid' && document.querySelectorAll('button[data-card]').length === 13"


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def time_game(context, url: str) -> float:
    page = context.new_page()
    page.goto(url)
    page.wait_for_function(READY_TO_BID, timeout=120_000)
    ms = page.evaluate("performance.now()")
    page.close()
    return ms


def time_bare(context, url: str) -> float:
    page = context.new_page()
    page.goto(url + "bare.html")
    page.wait_for_selector("body[data-ready='1']", timeout=120_000)
    ms = page.evaluate("performance.now()")
    page.close()
    return ms


def boot(browser, url: str, repeats: int) -> dict:
    game, bare = [], []
    for i in range(repeats):
        for which in ((0, 1) if i % 2 == 0 else (1, 0)):
            context = browser.new_context()
            if which == 0:
                game.append(time_game(context, url + f"index.html?seed={i + 1}&speed=0"))
            else:
                bare.append(time_bare(context, url))
            context.close()
    return {"game_ms": statistics.median(game), "bare_ms": statistics.median(bare),
            "ratio": statistics.median(game) / statistics.median(bare),
            "game_runs": [round(x) for x in game], "bare_runs": [round(x) for x in bare]}


def offline(browser, url: str, repeats: int) -> dict:
    context = browser.new_context()
    page = context.new_page()
    page.goto(url + "index.html?speed=0")
    page.wait_for_function(READY_TO_BID, timeout=120_000)
    page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller !== null || "
                           "(navigator.serviceWorker.ready.then(() => true), false)", timeout=120_000)
    page.reload()
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=120_000)
    page.close()
    context.set_offline(True)
    game, bare = [], []
    for i in range(repeats):
        page = context.new_page()
        page.add_init_script("localStorage.clear()")
        page.close()
        game.append(time_game(context, url + f"index.html?seed={i + 1}&speed=0"))
        bare.append(time_bare(context, url))
    context.close()
    return {"game_ms": statistics.median(game), "bare_ms": statistics.median(bare),
            "ratio": statistics.median(game) / statistics.median(bare)}


TURN_JS = """async () => {
  const enabled = () => [...document.querySelectorAll('#hand button[data-card]:not([disabled])')];
  const hand = () => document.querySelectorAll('#hand button[data-card]').length;
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  if (!enabled().length) { await frame(); if (!enabled().length) return {skip: true}; }
  const before = hand();
  const t0 = performance.now();
  enabled()[0].click();
  for (;;) {
    const cont = document.querySelector('button[data-action="continue"]');
    if (document.body.dataset.phase !== 'play' || (cont && cont.offsetParent !== null)) return {ms: performance.now() - t0, end: true};
    if (hand() === before - 1 && enabled().length > 0) return {ms: performance.now() - t0, end: false};
    await frame();
  }
}"""


def turns(browser, url: str, count: int) -> dict:
    context = browser.new_context()
    page = context.new_page()
    page.goto(url + "index.html?seed=11&speed=0&partner=hard&opponents=hard")
    times = []
    while len(times) < count:
        action = page.wait_for_function(NEXT_JS, timeout=120_000).json_value()
        if action["kind"] == "over":
            break
        if action["kind"] == "continue":
            page.click("#sheet-dialog button[data-action='continue']")
            page.wait_for_function("() => !document.querySelector('#sheet-dialog').open")
        elif action["kind"] == "bid":
            page.click("#bid-panel:not([hidden]) button[data-bid='3']:enabled")
            page.wait_for_function("() => !document.querySelector(\"#bid-panel:not([hidden]) button[data-bid='3']:enabled\")")
        else:
            result = page.evaluate(TURN_JS)
            if not result.get("skip") and not result["end"]:
                times.append(result["ms"])
    context.close()
    return {"median_ms": statistics.median(times), "p95_ms": p95(times), "samples": len(times)}


BOT_TIMING = """
import time, statistics, json
from spades import Match
from spades.ai import bot
out = {}
for level in ("easy", "normal", "hard"):
    times = []
    for seed in range(%(matches)d):
        m = Match(seed=seed)
        bots = [bot(level, seed * 4 + s) for s in range(4)]
        while m.phase != "over" and len(m.hands_played) < %(hands)d:
            seat = m.to_act
            t = time.perf_counter()
            action = bots[seat].choose(m.view(seat))
            times.append((time.perf_counter() - t) * 1000)
            m.act(action)
    times.sort()
    out[level] = {"median_ms": round(statistics.median(times), 2),
                  "p95_ms": round(times[int(0.95 * (len(times) - 1))], 2), "decisions": len(times)}
print("BOTS" + json.dumps(out))
"""


def bots_in_pyodide(browser, url: str, matches: int = 2, hands: int = 2) -> dict:
    page = browser.new_page()
    page.goto(url + "python.html")
    page.wait_for_selector("#run:not([disabled])", timeout=120_000)
    page.fill("#code", BOT_TIMING % {"matches": matches, "hands": hands})
    page.click("#run")
    page.wait_for_function("document.querySelector('#output').textContent.includes('BOTS')", timeout=600_000)
    text = page.text_content("#output")
    page.close()
    return json.loads(text[text.index("BOTS") + 4:].splitlines()[0])


def payload(dist: Path) -> dict:
    manifest = json.loads((dist / "precache.json").read_text())
    files = manifest["files"]
    core = sum(f["size"] for f in files if f["path"].startswith("pyodide/"))
    total = sum(f["size"] for f in files) + (dist / "precache.json").stat().st_size
    return {"first_visit_bytes": total, "pyodide_core_bytes": core, "own_bytes": total - core}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--cards", type=int, default=20)
    parser.add_argument("--no-build", action="store_true")
    parser.add_argument("--only", choices=["boot", "offline", "payload", "turn", "bots"], action="append")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    dist = ROOT / "dist"
    if not args.no_build:
        build_site.build(dist)
    server = build_site.make_server(dist, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    from playwright.sync_api import sync_playwright
    results: dict = {}
    wanted = args.only or ["payload", "boot", "turn", "bots", "offline"]
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=find_chromium(pw), args=CHROMIUM_ARGS)
        if "payload" in wanted:
            results["payload"] = payload(dist)
        if "boot" in wanted:
            results["boot"] = boot(browser, url, args.repeats)
        if "turn" in wanted:
            results["turn"] = turns(browser, url, args.cards)
        if "bots" in wanted:
            results["bots"] = bots_in_pyodide(browser, url)
        if "offline" in wanted:
            results["offline"] = offline(browser, url, args.repeats)
        browser.close()
    server.shutdown()
    print(json.dumps(results, indent=None if args.json else 2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
