#!/usr/bin/env python3
"""One engine for a whole page (issue 31, item 2): figures of a tutorial page (a benchmark, not a test).

    python tools/bench_frames.py [--repeats 5] [--turns 20] [--think-ms 700] [--only frames|memory|queue]
                                 [--mode shared|dedicated] [--no-build] [--json]

Builds dist/ unless --no-build, serves a copy with the test pages (tests/browser/pages, and the
pages written here) and drives headless Chromium, once with the shared engine (SharedWorker, as
shipped) and once with a dedicated engine per frame (SharedWorker taken away: the engine before
the shared one, and the fallback):
  frames  a page of four frames (two game embeds, two hand viewers: tests/browser/pages/
          tutorial.html) beside a page of one game embed: the engine workers running; the time
          from navigation until every frame is usable (a bid may be made, a hand is shown), on a
          first visit (a fresh profile each) and a repeat visit (one profile, the snapshot
          stored and the service worker in control), alternating, medians, each visit from a
          tab left to settle first (TAB_SETTLE_MS); after each visit
          the engine is left to store its snapshot, as a reader's open page lets it (a page
          closed at once takes a plain boot's snapshot with it, and every repeat visit would
          boot plain), and how the repeat visits' engines booted is reported; and where the
          time went: when the engine's first and last answers reached the frames (medians, ms
          from navigation): until the first, the engine was starting; after it, the engine
          answers the frames' messages and the frames draw them (all on one main thread)
  memory  the tab's memory with the four frames and with the one: the proportional set size
          (PSS, /proc) of the browser's renderer processes (pages, frames and workers) once a
          repeat visit has settled, less that of a blank page just before, in a browser of its
          own each time; medians
  queue   a game embed beside a viewer reviewing a whole hand (viewer.html?analyse=1) with the
          engine's largest budget per position (30 s: a long analysis) and on one engine (one
          core reported: no extra engines), against the same game alone: how long the game's
          play messages take from the page's postMessage to the reply (the wait behind the
          analysis included: its worst case is the worst wait of a move), and the time from
          your card to the next card you may play (Easy players, instant speed); the player
          thinks --think-ms before each card (a move then meets the analysis at any point of
          its slice)
Timings on a shared machine are noisy: compare within one run and read the ratios.
"""
from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import threading
from collections import Counter
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "browser"))

from bench_site import TURN_JS  # noqa: E402  (a card played and the next one playable)
from conftest import CHROMIUM_ARGS, find_chromium  # noqa: E402
from driver import NEXT_JS, TEST_FILES, add_test_pages  # noqa: E402
from engine_probe import DEDICATED_ENGINE, boot_infos, engine_count  # noqa: E402

import build_site  # noqa: E402

BOOT_MS = 300_000
MODES = ("shared", "dedicated")
TUTORIAL = TEST_FILES + "tutorial.html"
ONE_GAME = TEST_FILES + "bench-one-game.html"
GAME_AND_REVIEW = TEST_FILES + "bench-game-review.html"
GAME_ALONE = TEST_FILES + "bench-game-alone.html"
#: Seconds a repeat visit settles before its memory is read (the snapshot stored, caches quiet).
SETTLE_MS = 3000
#: How long a new tab is left before a timed visit starts (ms). Opening a tab costs the machine
#: CPU of its own for some hundreds of ms (the tab's renderer process, the driver's set-up); a
#: visit started at once shared the two cores with it, which slowed the one-frame page by about
#: 430 ms and the four-frame page by about 480 (median of 9 repeat visits each, one run), and so
#: understated the ratio between them (1.51 against 1.67). A reader's tab is open before the
#: address is typed.
TAB_SETTLE_MS = 1500

# Each frame notes when it first became usable (epoch ms): a game when a bid may be made (or a
# card played, resuming), a viewer when its hand is shown. Checked every animation frame.
USABLE_AT = """(() => {
  const usable = () => {
    const b = document.body;
    if (!b) return false;
    if (b.dataset.ready === '1') return true;
    if (b.dataset.phase === 'play') return !!document.querySelector('#hand button[data-card]:enabled');
    return b.dataset.phase === 'bid' && !!document.querySelector('#bid-panel:not([hidden]) button[data-bid]:enabled');
  };
  const tick = () => {
    if (usable()) window.__usableAt = performance.timeOrigin + performance.now();
    else requestAnimationFrame(tick);
  };
  if (window.top !== window) requestAnimationFrame(tick);
})();"""

# Each frame notes when the engine's answers reached it before it became usable (epoch ms): the
# first one tells how long the engine took to start, the time after it what the frames' own work
# took (the frames of a page share one main thread).
ANSWERED_AT = """(() => {
  if (window.top === window) return;
  window.__answeredAt = [];
  const heard = new WeakSet();
  for (const proto of [Worker.prototype, MessagePort.prototype]) {
    const post = proto.postMessage;
    proto.postMessage = function (msg, ...rest) {
      if (msg && typeof msg.fn === 'string' && !heard.has(this)) {
        heard.add(this);
        this.addEventListener('message', (e) => {
          if (e.data && e.data.type === 'reply' && !window.__usableAt) {
            window.__answeredAt.push(performance.timeOrigin + performance.now());
          }
        });
      }
      return post.call(this, msg, ...rest);
    };
  }
})();"""

FRAME_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title><link rel="icon" href="data:,">
<style>body {{ margin: 0; display: flex; flex-wrap: wrap; gap: 8px; }} iframe {{ border: 0; width: 620px; height: 560px; }}</style>
</head><body>
{frames}
</body></html>
"""
GAME_FRAME = ('<iframe name="{name}" title="Spades" '
              'src="../embed.html?seed={seed}&amp;partner=easy&amp;opponents=easy&amp;speed=0&amp;compact=1"></iframe>')


#: The reviewed hand: bench_review.py's fifth bench hand (its opening positions take the
#: solver seconds: a long analysis).
REVIEW_HAND = 4


def review_hand() -> str:
    """A completed hand in notation whose review is long, for the viewer."""
    from bench_review import played_hands

    return played_hands(REVIEW_HAND + 1, 12)[REVIEW_HAND]


def write_pages(folder: Path) -> None:
    """The benchmark's own pages beside the test pages: one game embed; a game beside a viewer
    reviewing a hand; the same game alone (the same frame size)."""
    game = GAME_FRAME.format(name="g42", seed=42)
    viewer = f'<iframe name="review" title="A hand" src="../viewer.html?analyse=1&amp;hand={quote(review_hand(), safe="")}"></iframe>'
    pages = {ONE_GAME: ("One game embed", game), GAME_AND_REVIEW: ("A game and a review", game + "\n" + viewer),
             GAME_ALONE: ("A game alone", game)}
    for path, (title, frames) in pages.items():
        (folder / Path(path).name).write_text(FRAME_PAGE.format(title=title, frames=frames), encoding="utf-8")


def new_context(browser, mode: str, *spies: str, **kwargs):
    """A browser context in ``mode`` whose frames note when they are usable, with ``spies`` (init
    scripts) of the figures read from it."""
    context = browser.new_context(viewport={"width": 1280, "height": 1200}, **kwargs)
    for script in (USABLE_AT, *spies):
        context.add_init_script(script=script)
    if mode == "dedicated":
        context.add_init_script(script=DEDICATED_ENGINE)
    return context


def settled_tab(context):
    """A new tab of ``context``, left ``TAB_SETTLE_MS`` to finish its own start-up."""
    page = context.new_page()
    page.wait_for_timeout(TAB_SETTLE_MS)
    return page


def all_usable_ms(page, url: str) -> float:
    """Navigate ``page`` to ``url``: ms from navigation until every frame is usable."""
    page.goto(url)
    count = page.evaluate("() => document.querySelectorAll('iframe').length")
    while len(page.frames) < count + 1:
        page.wait_for_timeout(20)
    stamps = [frame.wait_for_function("() => window.__usableAt", timeout=BOOT_MS).json_value()
              for frame in page.frames if frame is not page.main_frame]
    return max(stamps) - page.evaluate("performance.timeOrigin")


def answered_ms(page) -> tuple[float, float]:
    """ms from ``page``'s navigation until the engine's first and its last answer reached a frame,
    before every frame was usable (call after :func:`all_usable_ms`)."""
    times = [t for frame in page.frames if frame is not page.main_frame
             for t in frame.evaluate("() => window.__answeredAt")]
    origin = page.evaluate("performance.timeOrigin")
    return min(times) - origin, max(times) - origin


def renderer_pss_kb(browser) -> int:
    """The proportional set size of the browser's renderer processes (kB, from /proc)."""
    cdp = browser.new_browser_cdp_session()
    try:
        processes = cdp.send("SystemInfo.getProcessInfo")["processInfo"]
    finally:
        cdp.detach()
    total = 0
    for proc in processes:
        if proc["type"] != "renderer":
            continue
        try:
            text = Path(f"/proc/{proc['id']}/smaps_rollup").read_text()
        except OSError:
            continue  # gone meanwhile
        total += next(int(line.split()[1]) for line in text.splitlines() if line.startswith("Pss:"))
    return total


#: How long a page waits for the offline service worker to take control (ms).
CONTROL_WAIT_MS = 120_000


#: Waits until the service worker controls the page ("controlled"), or is active without
#: controlling it ("active"), or the wait is over ("none").
CONTROL_STATE_JS = """async (wait) => {
  if (!navigator.serviceWorker) return "controlled";
  const deadline = performance.now() + wait;
  for (;;) {
    if (navigator.serviceWorker.controller) return "controlled";
    const reg = await navigator.serviceWorker.getRegistration();
    if (reg && reg.active && reg.active.state === "activated") return "active";
    if (performance.now() > deadline) return "none";
    await new Promise((r) => setTimeout(r, 50));
  }
}"""


def wait_controlled(page) -> None:
    """Wait until the site's service worker controls ``page``; fail with the likely cause when it
    never does (its install fails when a file of the precache list does not match its digest).
    A worker that became active while the page was loading (a page navigated during its
    activation can miss its claim: seen about once in five warm-ups) controls the page's next
    load, so the page is loaded once more."""
    state = page.evaluate(CONTROL_STATE_JS, CONTROL_WAIT_MS)
    if state == "active":
        page.reload()
        state = page.evaluate(CONTROL_STATE_JS, CONTROL_WAIT_MS)
    if state != "controlled":
        raise SystemExit(f"the service worker did not take control within {CONTROL_WAIT_MS // 1000} s: its "
                         "install failed? (after editing dist/ by hand, delete the edited files' .br/.gz "
                         "siblings and run build_site.write_manifests again)")


def settled_boots(page) -> list[str]:
    """How each engine of ``page`` booted ("snapshot" or "plain"), once each has also stored its
    snapshot (or given up): a page closed sooner takes a plain boot's snapshot with it, and the
    next visit boots plain again; a returning reader's page had stayed open that long."""
    return sorted(info["path"] for info in boot_infos(page))


def frames_figures(browser, url: str, repeats: int, mode: str) -> dict:
    """First and repeat visits of the four-frame page and the one-frame page, in ``mode``."""
    first = {"four": [], "one": []}
    again = {"four": [], "one": []}
    answers: dict[str, dict[str, list[tuple[float, float]]]] = {
        "first": {"four": [], "one": []}, "repeat": {"four": [], "one": []}}
    workers = {}
    pages = {"four": url + TUTORIAL, "one": url + ONE_GAME}
    for i in range(repeats):
        for which in (("four", "one") if i % 2 == 0 else ("one", "four")):
            context = new_context(browser, mode, ANSWERED_AT)
            page = settled_tab(context)
            first[which].append(all_usable_ms(page, pages[which]))
            answers["first"][which].append(answered_ms(page))
            if i == 0:
                workers[which] = engine_count(page)
            context.close()
    # repeat visits: one profile that has seen both pages (snapshot stored, service worker in control)
    context = new_context(browser, mode, ANSWERED_AT)
    page = context.new_page()
    for which in ("four", "one"):
        all_usable_ms(page, pages[which])
        settled_boots(page)
    wait_controlled(page)
    page.close()
    boots: dict[str, list[str]] = {"four": [], "one": []}
    for i in range(repeats):
        for which in (("four", "one") if i % 2 == 0 else ("one", "four")):
            page = settled_tab(context)
            again[which].append(all_usable_ms(page, pages[which]))
            answers["repeat"][which].append(answered_ms(page))
            boots[which] += settled_boots(page)
            page.close()
    context.close()

    def med(values: list[float]) -> int:
        return round(statistics.median(values))

    def answered(visits: dict[str, list[tuple[float, float]]]) -> dict:
        return {which: {"first": med([a for a, _ in runs]), "last": med([b for _, b in runs])}
                for which, runs in visits.items()}

    return {
        "engine_workers": workers,
        "first_visit_ms": {"four_frames": med(first["four"]), "one_frame": med(first["one"]),
                           "ratio": round(statistics.median(first["four"]) / statistics.median(first["one"]), 2),
                           "runs": {k: [round(x) for x in v] for k, v in first.items()},
                           "engine_answers": answered(answers["first"])},
        "repeat_visit_ms": {"four_frames": med(again["four"]), "one_frame": med(again["one"]),
                            "ratio": round(statistics.median(again["four"]) / statistics.median(again["one"]), 2),
                            "runs": {k: [round(x) for x in v] for k, v in again.items()},
                            "engine_answers": answered(answers["repeat"]),
                            "engine_boots": {k: dict(Counter(v)) for k, v in boots.items()}},
    }


def memory_figures(launch, url: str, repeats: int, mode: str) -> dict:
    """The tab's memory (MB) on a repeat visit of the four-frame and the one-frame page, in
    ``mode``: each sample in a browser of its own (``launch()``), against a blank page just before."""
    pages = {"four": url + TUTORIAL, "one": url + ONE_GAME}
    samples: dict[str, list[float]] = {"four": [], "one": []}
    for i in range(repeats):
        for which in (("four", "one") if i % 2 == 0 else ("one", "four")):
            browser = launch()
            context = new_context(browser, mode)
            page = context.new_page()
            all_usable_ms(page, pages[which])        # the first visit stores the snapshot
            wait_controlled(page)
            page.goto(url + TEST_FILES + "blank.html")
            page.wait_for_timeout(SETTLE_MS)
            blank_kb = renderer_pss_kb(browser)
            all_usable_ms(page, pages[which])
            page.wait_for_timeout(SETTLE_MS)
            samples[which].append((renderer_pss_kb(browser) - blank_kb) / 1024)
            browser.close()
    return {"four_frames_mb": round(statistics.median(samples["four"])),
            "one_frame_mb": round(statistics.median(samples["one"])),
            "runs": {k: [round(x) for x in v] for k, v in samples.items()}}


REVIEW_RUNNING = ("() => { const s = document.querySelector('#analyse-stop'); "
                  "return !!s && !s.hidden; }")

# In every frame: each engine request's time from postMessage to its reply (window.__latency:
# [fn, ms]); in the viewer, analyses get the largest budget and the device reports one core (the
# review then runs on the page's own engine only).
LATENCY_SPY = """(() => {
  if (window.top === window) return;
  const viewer = location.pathname.endsWith('/viewer.html');
  if (viewer) Object.defineProperty(navigator, 'hardwareConcurrency', { get: () => 1 });
  window.__latency = [];
  const asked = new WeakMap();   // channel -> Map(id -> [fn, t0])
  for (const proto of [Worker.prototype, MessagePort.prototype]) {
    const post = proto.postMessage;
    proto.postMessage = function (msg, ...rest) {
      if (msg && typeof msg.fn === 'string') {
        if (viewer && msg.fn === 'analyse') msg = { ...msg, args: { ...msg.args, budget: 30 } };
        if (!asked.has(this)) {
          const mine = new Map();
          asked.set(this, mine);
          this.addEventListener('message', (e) => {
            const d = e.data;
            if (!d || d.type !== 'reply' || !mine.has(d.id)) return;
            const [fn, t0] = mine.get(d.id);
            mine.delete(d.id);
            window.__latency.push([fn, performance.now() - t0]);
          });
        }
        asked.get(this).set(msg.id, [msg.fn, performance.now()]);
      }
      return post.call(this, msg, ...rest);
    };
  }
})();"""


def play_turns(game, count: int, think_ms: int, still=lambda: True) -> list[float]:
    """Play ``count`` turns in the game frame (a bid of 3 where asked), each after ``think_ms``;
    the turn times (ms)."""
    times: list[float] = []
    while len(times) < count and still():
        game.wait_for_timeout(think_ms)
        action = game.wait_for_function(NEXT_JS, timeout=BOOT_MS).json_value()
        if action["kind"] == "over":
            break
        if action["kind"] == "continue":
            game.click("#sheet-dialog button[data-action='continue']")
            game.wait_for_function("() => !document.querySelector('#sheet-dialog').open")
        elif action["kind"] == "bid":
            game.click("#bid-panel:not([hidden]) button[data-bid='3']:enabled")
            game.wait_for_function("() => !document.querySelector(\"#bid-panel:not([hidden]) button[data-bid='3']:enabled\")")
        else:
            result = game.evaluate(TURN_JS)
            if not result.get("skip") and not result["end"]:
                times.append(result["ms"])
    return times


def _spread(values: list[float]) -> dict:
    return {"median": round(statistics.median(values)) if values else None,
            "max": round(max(values)) if values else None, "count": len(values)}


def queue_figures(browser, url: str, turns: int, think_ms: int, mode: str) -> dict:
    """A game's turns beside a viewer reviewing a hand, and alone, in ``mode``."""
    out: dict = {}
    for which, path in (("alone", GAME_ALONE), ("beside_review", GAME_AND_REVIEW)):
        context = new_context(browser, mode, LATENCY_SPY)
        page = context.new_page()
        all_usable_ms(page, url + path)
        game = page.frame(name="g42")
        game.evaluate("() => { window.__latency = []; }")   # the boot's own messages aside
        if which == "beside_review":
            review = page.frame(name="review")
            review.wait_for_function(REVIEW_RUNNING, timeout=BOOT_MS)

            def running(frame=review) -> bool:
                return frame.evaluate(REVIEW_RUNNING)
            times = play_turns(game, turns, think_ms, running)
            still = running()
        else:
            times = play_turns(game, turns, think_ms)
            still = None
        latency = game.evaluate("() => window.__latency")
        out[which] = {"turn_ms": _spread(times), "play_message_ms": _spread([ms for _, ms in latency]),
                      "by_message": {fn: _spread([ms for f, ms in latency if f == fn]) for fn in sorted({f for f, _ in latency})},
                      "review_still_running": still, "engine_workers": engine_count(page)}
        context.close()
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--think-ms", type=int, default=700)
    parser.add_argument("--no-build", action="store_true")
    parser.add_argument("--only", choices=["frames", "memory", "queue"], action="append")
    parser.add_argument("--mode", choices=MODES, action="append")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    dist = ROOT / "dist"
    if not args.no_build:
        build_site.build(dist)
    served = Path(tempfile.mkdtemp(prefix="spades-bench-frames-")) / "dist"
    shutil.copytree(dist, served)
    add_test_pages(served)
    (served / TEST_FILES / "blank.html").write_text("<!doctype html><title>blank</title>", encoding="utf-8")
    write_pages(served / TEST_FILES)
    info = json.loads((served / "build.json").read_text())
    build_site.write_manifests(served, info["wheel"], info["micropip"], info["pyodide"], stdlib=info["stdlib"],
                               engine=info["engine"])
    server = build_site.make_server(served, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    from playwright.sync_api import sync_playwright
    results: dict = {}
    wanted = args.only or ["frames", "memory", "queue"]
    with sync_playwright() as pw:
        def launch():
            return pw.chromium.launch(executable_path=find_chromium(pw), args=CHROMIUM_ARGS)
        browser = launch()
        for mode in args.mode or MODES:
            if "frames" in wanted:
                results.setdefault("frames", {})[mode] = frames_figures(browser, url, args.repeats, mode)
            if "memory" in wanted:
                results.setdefault("memory", {})[mode] = memory_figures(launch, url, args.repeats, mode)
            if "queue" in wanted:
                results.setdefault("queue", {})[mode] = queue_figures(browser, url, args.turns, args.think_ms, mode)
        browser.close()
    server.shutdown()
    shutil.rmtree(served.parent, ignore_errors=True)
    print(json.dumps(results, indent=None if args.json else 2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
