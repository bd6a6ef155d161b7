#!/usr/bin/env python3
"""Measure the match history's figures (a benchmark, not a test).

    python tools/bench_history.py [--matches 2000] [--repeats 5] [--no-build] [--json]

Plays ``--matches`` whole matches with the engine (quick seeded players: a simple
trick-count bid, a random legal card), has the bridge ``resume`` each save (the engine's
state is what the game hands to ``addMatch``), stores them through site/history.js in
headless Chromium, then reports:
  open      stats.html with every match stored: DOMContentLoaded → figures, charts and
            list drawn ("stats-drawn" mark), "stats-ready" (language + database open)
            → drawn, and the read of all records alone; medians of --repeats reloads;
            open_empty_ms: the same with no match stored (the machine's baseline)
  storage   IndexedDB bytes per match (navigator.storage.estimate before/after)
  export    the history file's size
  import    the file imported into a fresh browser profile, every match replayed by the
            engine (the engine is booted first by a one-match import, timed apart)
  payload   bytes (and gzip) of the history files in dist/, and the whole own payload
"""
from __future__ import annotations

import argparse
import gzip
import json
import random
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "browser"))
sys.path.insert(0, str(ROOT / "tools"))

from bench_site import payload  # noqa: E402
from conftest import CHROMIUM_ARGS, find_chromium  # noqa: E402

import build_site  # noqa: E402
from spades import Match, bridge  # noqa: E402
from spades.ai import LEVELS  # noqa: E402
from spades.session import SESSION_FORMAT  # noqa: E402

HISTORY_FILES = ["history.js", "historyfile.js", "historysummary.js", "statcalc.js", "statsview.js", "stats.js",
                 "stats.html", "stats.css", "chart.js"]
DAY_MS = 86_400_000
START_MS = 1_700_000_000_000
BATCH = 200  # matches per page.evaluate while storing

# A batch goes in through importAll (one transaction) with the engine's states from Python
# standing in for the browser engine's replay: the records are built exactly as addMatch builds them.
ADD_JS = """async (text) => {
  const items = JSON.parse(text);
  const { openHistory } = await import('./history.js');
  const h = await openHistory();
  const states = new Map(items.map((it) => [it.saveText, it.state]));
  const file = JSON.stringify({ format: 'spades-history', version: 1,
    matches: items.map((it) => ({ date: it.date, save: it.saveText })) });
  return (await h.importAll(file, async (save) => states.get(save))).added;
}"""
USAGE_JS = "async () => (await navigator.storage.estimate()).usage"
OPEN_JS = """() => {
  const mark = (name) => performance.getEntriesByName(name)[0].startTime;
  const nav = performance.getEntriesByType('navigation')[0];
  const drawn = performance.getEntriesByName('stats-drawn')[0].startTime;
  const ready = performance.getEntriesByName('stats-ready')[0].startTime;
  return { fromDomReady: drawn - nav.domContentLoadedEventEnd, fromReady: drawn - ready,
           read: performance.getEntriesByName('stats-listed')[0].startTime - ready,
           compute: mark('stats-computed') - mark('stats-listed'), charts: mark('stats-charted') - mark('stats-computed'),
           list: mark('stats-listed-drawn') - mark('stats-charted'),
           fromNavigation: drawn, matches: Number(document.querySelector('[data-stat=matches]').dataset.value) };
}"""


def quick_match(seed: int) -> Match:
    """A whole match: each seat bids its sure-looking tricks and plays a random legal card."""
    rnd = random.Random(seed)
    m = Match(seed=seed)
    while m.phase != "over":
        if m.phase == "bid":
            hand = m.view(m.to_act).hand
            high = sum(1 for c in hand if (c[0] in "AK" and c[1] != "S") or (c[1] == "S" and c[0] in "AKQJ"))
            spades = sum(1 for c in hand if c[1] == "S")
            m.bid(min(13, high + max(0, spades - 3)))
        else:
            m.play(rnd.choice(m.legal_cards()))
    return m


def matches(count: int) -> list[dict]:
    """(saveText, state, date) per match, as the game would hand them to addMatch."""
    out = []
    for i in range(count):
        m = quick_match(i)
        save = json.dumps({"format": SESSION_FORMAT, "version": 1, "partner": LEVELS[i % 3],
                           "opponents": LEVELS[(i // 3) % 3], "seed": i, "match": json.loads(m.to_json())})
        state = bridge.call("resume", {"save": save})
        out.append({"saveText": save, "state": state, "date": START_MS + i * DAY_MS // 4})
    return out


def open_page(context, url: str):
    page = context.new_page()
    page.set_default_timeout(600_000)
    page.goto(url + "stats.html?lang=en")
    page.wait_for_selector("body[data-ready='1']")
    return page


def open_times(page, repeats: int, stored: int) -> dict:
    """Medians over `repeats` reloads of the stats page's opening marks (see OPEN_JS)."""
    runs = []
    for _ in range(repeats):
        page.reload()
        page.wait_for_selector("body[data-ready='1']")
        runs.append(page.evaluate(OPEN_JS))
    assert {r["matches"] for r in runs} == {stored}
    return {k: round(statistics.median(r[k] for r in runs), 1) for k in ("fromDomReady", "fromReady", "read", "compute", "charts", "list", "fromNavigation")}


def import_file(page, text: str) -> float:
    page.evaluate("document.body.dataset.import = ''")
    start = time.perf_counter()
    page.set_input_files("input[data-action='import-history']",
                         files=[{"name": "h.json", "mimeType": "application/json", "buffer": text.encode()}])
    page.wait_for_selector("body[data-import='done']")
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--no-build", action="store_true")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--no-import", action="store_true", help="skip the (slow) import figure")
    args = parser.parse_args()
    dist = ROOT / "dist"
    if not args.no_build:
        build_site.build(dist)
    t0 = time.perf_counter()
    games = matches(args.matches)
    results: dict = {"matches": args.matches, "hands_per_match": statistics.mean(len(g["state"]["sheet"]) for g in games),
                     "generate_s": round(time.perf_counter() - t0, 1)}
    server = build_site.make_server(dist, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=find_chromium(pw), args=CHROMIUM_ARGS)
        context = browser.new_context(accept_downloads=True)
        page = open_page(context, url)
        results["open_empty_ms"] = open_times(page, args.repeats, 0)
        before = page.evaluate(USAGE_JS)
        t0 = time.perf_counter()
        added = sum(page.evaluate(ADD_JS, json.dumps(games[i:i + BATCH])) for i in range(0, len(games), BATCH))
        assert added == len(games), added
        results["store_s"] = round(time.perf_counter() - t0, 1)
        results["storage_bytes_per_match"] = round((page.evaluate(USAGE_JS) - before) / len(games))
        results["open_ms"] = open_times(page, args.repeats, len(games))
        with page.expect_download() as info:
            page.click("button[data-action='export-history']")
        text = Path(info.value.path()).read_text(encoding="utf-8")
        results["export_bytes"] = len(text.encode())
        if args.no_import:
            browser.close()
            server.shutdown()
            print(json.dumps(results, indent=None if args.json else 2))
            return 0
        fresh = browser.new_context()
        page = open_page(fresh, url)
        one = json.loads(text)
        one["matches"] = one["matches"][:1]
        results["import_engine_boot_s"] = round(import_file(page, json.dumps(one)), 1)
        results["import_s"] = round(import_file(page, text), 1)
        results["import_added"] = int(page.get_attribute("#import-result p", "data-added"))
        browser.close()
    server.shutdown()
    sizes = {name: (dist / name).stat().st_size for name in HISTORY_FILES}
    results["payload"] = {"history_files_bytes": sum(sizes.values()),
                          "history_files_gzip": sum(len(gzip.compress((dist / n).read_bytes(), 9)) for n in HISTORY_FILES),
                          **payload(dist)}
    print(json.dumps(results, indent=None if args.json else 2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
