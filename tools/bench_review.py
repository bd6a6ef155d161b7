#!/usr/bin/env python3
"""Review figures in Pyodide, in the built site (a benchmark, not a test; issue 12).

    python tools/bench_review.py [--deals 20] [--hands 3] [--workers N] [--json] [--no-build]
    python tools/bench_review.py --cpython [--hands 5] [--baseline COMMIT]

Serves dist/ and drives headless Chromium. In a page of the site it starts the engine
worker (engine.js) and sends the same bridge messages the page sends:
  first_lead  ``analyse {position}`` on the opening lead of random deals (every card visible,
              all legal cards): wall time per deal, trick value then score value (the
              message's budget is generous, so these are whole solves) — median and p95
  review      a whole-hand review as the page runs it (review.js: one ``analyse`` a card,
              2 s budget each, trick by trick from the end, or from both ends with extra engines,
              then once more the ones that ran out of time): time
              to the first result and to all 52, and how many positions said "not finished";
              medians and worst over ``--hands`` hands; run in a second page of the same profile,
              as a returning reader's (its engine restored from the snapshot: the review may add
              engines, review_boot and review_engines say how it ran; ``--workers N`` sets how
              many engines instead of the page's choice, to compare 1 with more)
Deals and hands are made in Python with the engine (random legal play). The machine may
be shared: read the figures as rough.

``--cpython`` runs the same whole-hand reviews in this Python instead (no browser: the same
``analyse`` bridge message per card, end-first, same budget) — a quick proxy for the page's
figure; with ``--baseline COMMIT`` that commit's engine (from git history) reviews the same
hands too, the two alternating hand by hand (A/B in one run, same machine load).
"""
from __future__ import annotations

import argparse
import importlib
import json
import os
import random
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "browser"))

from conftest import CHROMIUM_ARGS, find_chromium  # noqa: E402
from cpuclock import use_cpu_clock  # noqa: E402

import build_site  # noqa: E402
from spades.match import Match  # noqa: E402
from spades.notation import format_hand  # noqa: E402

CARDS = 52                   # cards judged in a whole-hand review
REOPEN_TRIES = 5             # new pages tried for one whose engine restores the snapshot
REOPEN_WAIT_S = 2.0          # between two of them
STORE_WAIT_S = 3.0           # idle time for the first page's engine to store its snapshot
STEP_BUDGET = 2.0            # seconds a position, as review.js sends it
BIG_BUDGET = 30              # the bridge's largest budget (MAX_BUDGET)
BOOT_JS = """async () => {
  const { startEngine } = await import('./engine/engine.js');
  window.benchEngine = startEngine({});
  await window.benchEngine.ready;
  return true;
}"""
SOLVE_JS = """async ([position, budget, score]) => {
  const t0 = performance.now();
  const r = await window.benchEngine.call('analyse', { position, budget, score });
  return { ms: performance.now() - t0, n: Object.keys(r.values).length };
}"""
REVIEW_JS = """async ([text, workers]) => {
  const { runReview, reviewWorkers } = await import('./lib/review.js');
  const t0 = performance.now();
  let first = null;
  const cache = new Map();
  const engines = workers || reviewWorkers(window.benchEngine);
  const run = runReview(window.benchEngine, { text, hand: 1, cache,
    onResult: () => { if (first === null) first = performance.now() - t0; }, onProgress: () => {},
    workers: engines });
  const how = await run.done;
  const unfinished = [...cache.values()].filter((r) => !r.finished).length;
  return { how, first_ms: first, total_ms: performance.now() - t0, unfinished, engines };
}"""


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def random_bids(m: Match, rnd: random.Random) -> None:
    for _ in range(4):
        m.bid(rnd.choice([b for b in m.legal_bids() if 1 <= b <= 4]))


def first_leads(n: int, seed: int) -> list[dict]:
    rnd = random.Random(seed)
    out = []
    for _ in range(n):
        m = Match(seed=rnd.getrandbits(32))
        random_bids(m, rnd)
        out.append({"hands": [m.hand(s) for s in range(4)], "trick": [], "leader": m.to_act,
                    "broken": False, "bids": list(m.bids), "won": [0, 0, 0, 0], "bags": [0, 0]})
    return out


def played_hands(n: int, seed: int) -> list[str]:
    rnd = random.Random(seed)
    out = []
    for _ in range(n):
        m = Match(seed=rnd.getrandbits(32))
        random_bids(m, rnd)
        while not m.hands_played:
            m.play(rnd.choice(m.legal_cards()))
        out.append(format_hand(m.hands_played[0]))
    return out


def review_cpython(package, text: str, budget: float) -> dict:
    """One whole-hand review as review.js runs it (one ``analyse`` a card, last card first), in CPython."""
    try:
        bridge_analysis = importlib.import_module(package.__name__ + ".bridge.analysis")
    except ModuleNotFoundError:   # an engine from before the packages by concern (issue 29)
        bridge_analysis = importlib.import_module(package.__name__ + ".bridge_analysis")
    use_cpu_clock(package)   # budgets in CPU time (the machine may be shared)
    t0 = time.perf_counter()
    c0 = time.process_time()
    first = None
    unfinished = 0
    for step in range(CARDS - 1, -1, -1):
        r = bridge_analysis.analyse({"text": text, "hand": 1, "step": step, "budget": budget})
        unfinished += not r["finished"]
        if first is None:
            first = time.perf_counter() - t0
    return {"first_s": first, "wall_s": time.perf_counter() - t0, "cpu_s": time.process_time() - c0,
            "unfinished": unfinished}


def main_cpython(args: argparse.Namespace) -> dict:
    """Whole-hand reviews in CPython (today's engine, and ``--baseline``'s beside it)."""
    import spades
    sides = [("today", spades)]
    if args.baseline:
        from spades.cli.baseline import load
        sides.append(("baseline", load(args.baseline)))
    runs: dict[str, list[dict]] = {name: [] for name, _ in sides}
    for i, text in enumerate(played_hands(args.hands, args.seed)):
        for name, package in sides if i % 2 == 0 else sides[::-1]:
            r = review_cpython(package, text, args.budget)
            runs[name].append(r)
            print(json.dumps({"hand": i, "engine": name, **{k: round(v, 3) for k, v in r.items()}}), file=sys.stderr, flush=True)
    out: dict = {"python": sys.version.split()[0], "budget_s": args.budget, "hands": args.hands,
                 "load_average": [round(x, 1) for x in os.getloadavg()]}
    for name, rs in runs.items():
        out[name] = {"median_wall_s": round(statistics.median(r["wall_s"] for r in rs), 2),
                     "median_cpu_s": round(statistics.median(r["cpu_s"] for r in rs), 2),
                     "total_cpu_s": round(sum(r["cpu_s"] for r in rs), 2),
                     "not_finished_positions": [r["unfinished"] for r in rs]}
    if args.baseline:
        out["cpu_ratio_baseline_over_today"] = round(out["baseline"]["total_cpu_s"] / out["today"]["total_cpu_s"], 2)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--hands", type=int, default=3)
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--cap", type=float, default=BIG_BUDGET, help="seconds a first-lead solve may take")
    ap.add_argument("--workers", type=int, default=0,
                    help="engines the review uses (default: as the page decides, reviewWorkers)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--cpython", action="store_true", help="whole-hand reviews in this Python, no browser")
    ap.add_argument("--baseline", help="with --cpython: also review with this commit's engine (A/B)")
    ap.add_argument("--budget", type=float, default=STEP_BUDGET, help="with --cpython: seconds per position")
    args = ap.parse_args(argv)
    if args.cpython:
        result = main_cpython(args)
        print(json.dumps(result) if args.json else json.dumps(result, indent=2))
        return 0
    dist = ROOT / "dist"
    if not args.no_build:
        build_site.build(dist)
    from playwright.sync_api import sync_playwright
    server = build_site.make_server(dist, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = "http://127.0.0.1:%d/" % server.server_address[1]
    result: dict = {}
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=find_chromium(), args=CHROMIUM_ARGS)
            browser_context = browser.new_context()
            page = browser_context.new_page()
            page.goto(url + "viewer.html")
            page.evaluate(BOOT_JS)
            page.evaluate(SOLVE_JS, [first_leads(1, 0)[0], 1, False])      # warm up the engine
            times: dict[str, list[float]] = {"tricks": [], "tricks_and_score": []}
            unfinished = dict.fromkeys(times, 0)
            for pos in first_leads(args.deals, args.seed):
                for kind in times:
                    r = page.evaluate(SOLVE_JS, [pos, args.cap, kind != "tricks"])
                    times[kind].append(r["ms"])      # a solve past the cap counts as the cap
                    unfinished[kind] += r["n"] == 0
                print(f"deal {len(times['tricks'])}: {times['tricks'][-1]:.0f} ms tricks, "
                      f"{times['tricks_and_score'][-1]:.0f} ms both", file=sys.stderr, flush=True)
            result["first_lead_ms"] = {k: {"median": round(statistics.median(v)), "p95": round(p95(v)), "deals": len(v),
                                           "past_cap": unfinished[k]} for k, v in times.items()}
            result["cap_s"] = args.cap
            # the review as a returning reader's page runs it: a new page once the first has
            # gone, its engine restored from the memory snapshot the first visit stored, so the
            # review may add engines (lib/review.js reviewWorkers) where the device has the cores
            time.sleep(STORE_WAIT_S)        # the engine stores its snapshot once idle (worker.js)
            page.close()
            for _ in range(REOPEN_TRIES):   # until the first page's engine is gone (a shared worker
                page = browser_context.new_page()   # outlives its last page for a moment)
                page.goto(url + "viewer.html")
                page.evaluate(BOOT_JS)
                if page.evaluate("() => window.benchEngine.boot") == "snapshot":
                    break
                page.close()
                time.sleep(REOPEN_WAIT_S)
                page = None
            if page is None:
                page = browser_context.new_page()
                page.goto(url + "viewer.html")
                page.evaluate(BOOT_JS)
            result["review_boot"] = page.evaluate("() => window.benchEngine.boot")
            runs = []
            for text in played_hands(args.hands, args.seed):
                runs.append(page.evaluate(REVIEW_JS, [text, args.workers]))
                print(f"review: {runs[-1]}", file=sys.stderr, flush=True)
            result["review_engines"] = runs[0]["engines"] if runs else None
            result["load_average"] = [round(x, 1) for x in __import__("os").getloadavg()]
            result["review"] = {
                "first_result_ms": round(statistics.median(r["first_ms"] for r in runs)),
                "whole_hand_ms": round(statistics.median(r["total_ms"] for r in runs)),
                "worst_hand_ms": round(max(r["total_ms"] for r in runs)),
                "not_finished_positions": [r["unfinished"] for r in runs], "hands": len(runs)}
            browser.close()
    finally:
        server.shutdown()
    print(json.dumps(result) if args.json else json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
