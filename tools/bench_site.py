#!/usr/bin/env python3
"""Measure the browser figures the issues ask for (a benchmark, not a test).

    python tools/bench_site.py [--repeats 5] [--cards 20] [--json]

Builds dist/ unless --no-build, serves it on 127.0.0.1 and drives headless Chromium:
  boot     first visit (fresh profile): navigation → the first bid usable on
           index.html (a plain boot, then the snapshot is made and stored), against
           the test-only bare.html (tests/browser/pages, served beside a copy of dist/) (the same Pyodide runtime alone: no micropip, no engine);
           alternating runs, medians; the snapshot's make/store time and bytes
  repeat   repeat visits in one profile: the game restoring its memory snapshot
           against bare.html with its files cached; alternating runs, medians
  offline  the same as repeat with the network off (service worker cache)
  payload  what a first visit transfers until its first bid is usable (the files it fetches,
           recorded in a fresh profile; their bytes as they are, with the gzip and brotli
           siblings, and gzipped at level 6 as a host compressing on the fly would), and the
           engine's trimmed standard library: modules, bytes stored and deflated, and what
           each form costs on a gzip and on a brotli host
  turn     time from your card to the next card you may play (speed 0, Hard bots)
  bots     decision times of each bot level inside Pyodide (python.html runs the code), and the
           same code in this CPython right after, for the Pyodide/CPython ratio of one run
Timings on a shared machine are noisy: compare within one run and read the ratios.
"""
from __future__ import annotations

import argparse
import gzip
import json
import shutil
import statistics
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "browser"))

from conftest import CHROMIUM_ARGS, find_chromium  # noqa: E402
from driver import BARE_PAGE, BID_USABLE_JS, NEXT_JS, add_test_pages, first_visit_paths  # noqa: E402  (NEXT_JS: what the human can do next, as the tests read it)
from engine_probe import boot_info  # noqa: E402

import build_site  # noqa: E402
import site_compress  # noqa: E402
import stdlib_trim  # noqa: E402

READY_TO_BID = BID_USABLE_JS


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def engine_boot_info(page) -> dict:
    """self.spadesBoot of the page's engine worker (shared or dedicated) once it booted and,
    after a plain boot, finished storing its snapshot (see site/engine/worker.js)."""
    return boot_info(page)


def time_game(context, url: str) -> tuple[float, dict]:
    """Navigation -> dealt hand ready to bid (ms), and the worker's boot info."""
    page = context.new_page()
    page.goto(url)
    page.wait_for_function(READY_TO_BID, timeout=120_000)
    ms = page.evaluate("performance.now()")
    origin = page.evaluate("performance.timeOrigin")
    info = engine_boot_info(page)
    info["since_navigation"] = {k: round(v - origin) for k, v in info.pop("marks", {}).items()}
    page.evaluate("localStorage.clear()")  # the next visit deals afresh instead of resuming
    page.close()
    return ms, info


def time_bare(context, url: str) -> float:
    page = context.new_page()
    page.goto(url + BARE_PAGE)
    page.wait_for_selector("body[data-ready='1']", timeout=120_000)
    ms = page.evaluate("performance.now()")
    page.close()
    return ms


def _compare(game: list[float], bare: list[float]) -> dict:
    return {"game_ms": round(statistics.median(game)), "bare_ms": round(statistics.median(bare)),
            "ratio": round(statistics.median(game) / statistics.median(bare), 3),
            "game_runs": [round(x) for x in game], "bare_runs": [round(x) for x in bare]}


def _median_of(infos: list[dict], key: str) -> float | None:
    values = [i[key] for i in infos if isinstance(i.get(key), (int, float))]
    return statistics.median(values) if values else None


def _median_marks(infos: list[dict]) -> dict:
    """Median time from navigation to each progress message of the worker."""
    keys = sorted({k for i in infos for k in i["since_navigation"]}, key=lambda k: statistics.median(
        i["since_navigation"][k] for i in infos if k in i["since_navigation"]))
    return {k: statistics.median(i["since_navigation"][k] for i in infos if k in i["since_navigation"]) for k in keys}


def boot(browser, url: str, repeats: int) -> dict:
    """First visits (fresh browser profile each): the game's plain boot against bare.html."""
    game, bare, infos = [], [], []
    for i in range(repeats):
        for which in ((0, 1) if i % 2 == 0 else (1, 0)):
            context = browser.new_context()
            if which == 0:
                ms, info = time_game(context, url + f"index.html?seed={i + 1}&speed=0")
                game.append(ms)
                infos.append(info)
            else:
                bare.append(time_bare(context, url))
            context.close()
    out = _compare(game, bare)
    out["paths"] = sorted({i["path"] for i in infos})
    out["wheel_unpack_ms"] = _median_of(infos, "unpackMs")
    out["engine_import_ms"] = _median_of(infos, "importMs")
    out["snapshot"] = {
        "make_ms": _median_of(infos, "snapshotMs"),  # makeMemorySnapshot(), before "ready"
        "store_ms": _median_of(infos, "storeMs"),  # sha256 + Cache Storage put, after "ready"
        "bytes": _median_of(infos, "bytes"),
        "stored": [i["stored"] for i in infos],
    }
    out["heap_bytes_plain"] = _median_of(infos, "heapBytes")
    out["worker_marks_ms"] = _median_marks(infos)
    return out


def _warm_context(browser, url: str):
    """A browser profile after one visit: snapshot stored, service worker in control."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(url + "index.html?speed=0")
    page.wait_for_function(READY_TO_BID, timeout=120_000)
    engine_boot_info(page)
    page.evaluate("""async () => {
      await navigator.serviceWorker.ready;
      while (!navigator.serviceWorker.controller) await new Promise((r) => setTimeout(r, 50));
    }""")
    page.evaluate("localStorage.clear()")
    page.close()
    time_bare(context, url)  # bare.html's own files cached too
    return context


def repeat(browser, url: str, repeats: int, offline: bool) -> dict:
    """Repeat visits in one warm profile: the game restoring its snapshot against bare.html."""
    context = _warm_context(browser, url)
    if offline:
        context.set_offline(True)
    game, bare, infos = [], [], []
    for i in range(repeats):
        for which in ((0, 1) if i % 2 == 0 else (1, 0)):
            if which == 0:
                ms, info = time_game(context, url + f"index.html?seed={i + 1}&speed=0")
                game.append(ms)
                infos.append(info)
            else:
                bare.append(time_bare(context, url))
    context.close()
    out = _compare(game, bare)
    out["paths"] = sorted({i["path"] for i in infos})
    out["verify_ms"] = _median_of(infos, "verifyMs")  # read + size + sha256, beside the loader script
    out["restore_ms"] = _median_of(infos, "restoreMs")  # from there to a ping answered
    out["heap_bytes_restored"] = _median_of(infos, "heapBytes")
    out["worker_marks_ms"] = _median_marks(infos)
    return out


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
                  "p95_ms": round(times[int(0.95 * (len(times) - 1))], 2), "max_ms": round(times[-1], 2),
                  "decisions": len(times)}
print("BOTS" + json.dumps(out))
"""


def bots_in_pyodide(browser, url: str, matches: int = 2, hands: int = 2) -> dict:
    page = browser.new_page()
    page.goto(url + "python.html")
    page.wait_for_selector("#run:not([disabled])", timeout=120_000)
    page.fill("#code", BOT_TIMING % {"matches": matches, "hands": hands})
    # clicked from a timer: the run may keep the page busy longer than a click waits
    page.evaluate("setTimeout(() => document.querySelector('#run').click(), 0)")
    page.wait_for_function("document.querySelector('#output').textContent.includes('BOTS')", timeout=600_000)
    text = page.text_content("#output")
    page.close()
    inside = json.loads(text[text.index("BOTS") + 4:].splitlines()[0])
    import contextlib
    import io
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(BOT_TIMING % {"matches": matches, "hands": hands}, {})   # our own benchmark code, same as above
    here = json.loads(out.getvalue()[4:])
    return {level: {**inside[level], "cpython_median_ms": here[level]["median_ms"],
                    "cpython_p95_ms": here[level]["p95_ms"],
                    "median_ratio": round(inside[level]["median_ms"] / max(here[level]["median_ms"], 1e-3), 2)}
            for level in inside}


def _brotli_size(data: bytes, cache: Path) -> int:
    """Brotli (quality 11, as the build's siblings) of ``data``'s bytes, through the build's cache."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "blob"
        path.write_bytes(data)
        return site_compress.Brotli(cache).compress([path])[path].stat().st_size


def archive_figures(dist: Path) -> dict:
    """The engine's trimmed standard library: modules, and its bytes stored (as shipped) and
    deflated (the same entries, as Pyodide's own archive packs them), each as it is, on a
    gzip host (level 9) and on a brotli host (quality 11)."""
    import zipfile
    info = json.loads((dist / "build.json").read_text())
    stored = (dist / info["stdlib"]).read_bytes()
    with zipfile.ZipFile(dist / info["stdlib"]) as zf:
        names = zf.namelist()
        modules, compiled = len(stdlib_trim.index(names)), sum(1 for n in names if n.endswith(".pyc"))
        deflated_path = Path(tempfile.mkdtemp()) / "deflated.zip"
        with zipfile.ZipFile(deflated_path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as out:
            for item in zf.infolist():
                out.writestr(item.filename, zf.read(item), compress_type=zipfile.ZIP_DEFLATED)
    deflated = deflated_path.read_bytes()
    shutil.rmtree(deflated_path.parent, ignore_errors=True)
    cache = build_site.CACHE_BROTLI
    return {"modules": modules, "compiled": compiled, "full_archive_bytes": (dist / "pyodide" / "python_stdlib.zip").stat().st_size,
            **{f"{name}_{host}": size for name, data in (("stored", stored), ("deflated", deflated))
               for host, size in (("bytes", len(data)), ("gzip", len(site_compress.gzip_bytes(data))),
                                  ("brotli", _brotli_size(data, cache)))}}


def payload(browser, url: str, dist: Path) -> dict:
    """What a first visit transfers until its first bid is usable, and the trimmed archive."""
    context = browser.new_context()
    paths = first_visit_paths(context, url)
    context.close()
    sent = site_compress.transfer(dist, paths)
    on_the_fly = sum(len(gzip.compress((dist / p).read_bytes(), 6)) for p in paths)
    return {"first_visit_files": paths, "first_visit_bytes": sent["identity"],
            "sent_gzip_siblings": sent["gzip"], "sent_brotli_siblings": sent["br"],
            "sent_gzip_level6_on_the_fly": on_the_fly,
            "dist_bytes": build_site.summarize(dist), "engine_stdlib": archive_figures(dist)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--cards", type=int, default=20)
    parser.add_argument("--no-build", action="store_true")
    parser.add_argument("--only", choices=["boot", "repeat", "offline", "payload", "turn", "bots"], action="append")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    dist = ROOT / "dist"
    if not args.no_build:
        build_site.build(dist)
    # served: a copy of dist/ with the test-only bare page (the baseline) added
    served = Path(tempfile.mkdtemp(prefix="spades-bench-")) / "dist"
    shutil.copytree(dist, served)
    add_test_pages(served)
    server = build_site.make_server(served, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    from playwright.sync_api import sync_playwright
    results: dict = {}
    wanted = args.only or ["payload", "boot", "repeat", "offline", "turn", "bots"]
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=find_chromium(pw), args=CHROMIUM_ARGS)
        if "payload" in wanted:
            results["payload"] = payload(browser, url, served)
        if "boot" in wanted:
            results["boot"] = boot(browser, url, args.repeats)
        if "repeat" in wanted:
            results["repeat"] = repeat(browser, url, args.repeats, offline=False)
        if "offline" in wanted:
            results["offline"] = repeat(browser, url, args.repeats, offline=True)
        if "turn" in wanted:
            results["turn"] = turns(browser, url, args.cards)
        if "bots" in wanted:
            results["bots"] = bots_in_pyodide(browser, url)
        browser.close()
    server.shutdown()
    shutil.rmtree(served.parent, ignore_errors=True)
    print(json.dumps(results, indent=None if args.json else 2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
