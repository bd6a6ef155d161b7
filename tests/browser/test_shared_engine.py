"""One engine for a whole page (issue 31, item 2): the frames and tabs of the site in one
browser share one engine worker (a SharedWorker, site/engine/connect.js), each page with a
session of its own in the bridge's registry, ended when the page goes; play messages go
before analysis, and an analysis budget is spent in slices (site/engine/schedule.js); a dead
shared engine is reported on every page with Reload; without SharedWorker every page runs a
dedicated engine as before.

Engine workers are counted and ended through the DevTools protocol (engine_probe.py); the
registry is counted with the protocol's own ``sessions`` message, from a page of the site
that connects to the same engine. Times are never asserted (tools/bench_site.py measures them).
"""
from __future__ import annotations

import pytest
from driver import BLANK_PAGE, BOOT_MS, EN, SAVE_KEY, TEST_FILES, act, assert_clean, next_action, wait_playable
from engine_probe import DEDICATED_ENGINE, engine_count, kill_shared_engines

from spades import Match

pytestmark = [pytest.mark.browser, pytest.mark.own_engine]

TUTORIAL = TEST_FILES + "tutorial.html"
GAMES = {"g42": 42, "g43": 43}
VIEWERS = ("v1", "v2")
VIEWER_READY = "body[data-ready='1']"
HAND = "#hand button[data-card]"
#: Waits for a reported fault: the watchdog's idle limit (watchdog.js) plus slack for a busy machine.
FAULT_WAIT_MS = 40_000
#: What each page says (console.warn) when the engine worker's life lock came free.
ENGINE_ENDED = "engine failed (stopped): the engine worker has ended"

# The registry's size, asked by this page through an engine link of its own (the page must be
# a page of the site: it then shares the engine its other pages use).
SESSIONS_JS = """async () => {
  const { startEngine } = await import(new URL("../engine/engine.js", location.href).href);
  const { MSG } = await import(new URL("../engine/protocol.js", location.href).href);
  window.__probe = window.__probe || startEngine();
  await window.__probe.ready;
  return (await window.__probe.call(MSG.SESSIONS, {})).count;
}"""


def open_tutorial(page, site_url: str) -> dict:
    """The tutorial page (two game embeds, two hand viewers), every frame usable: frames by name."""
    page.set_viewport_size({"width": 1280, "height": 1200})
    page.goto(site_url + TUTORIAL)
    frames = {}
    for name in (*GAMES, *VIEWERS):
        frame = page.frame(name=name)
        assert frame is not None, name
        if name in GAMES:
            wait_playable(frame)
        else:
            frame.wait_for_selector(VIEWER_READY, timeout=BOOT_MS)
        frames[name] = frame
    return frames


def hand(frame) -> list[str]:
    return sorted(frame.eval_on_selector_all(HAND, "bs => bs.map(b => b.dataset.card)"))


def sessions(page) -> int:
    return page.evaluate(SESSIONS_JS)


# A page that never says BYE (its pagehide message is dropped): only its Web Lock tells the engine.
NO_BYE = """(() => {
  const post = MessagePort.prototype.postMessage;
  MessagePort.prototype.postMessage = function (msg, ...rest) {
    if (msg && msg.type === "bye") return;
    return post.call(this, msg, ...rest);
  };
})();"""


def wait_sessions(page, count: int) -> None:
    """Until the registry holds ``count`` sessions (asked again every 100 ms)."""
    page.wait_for_function(f"""async () => (await ({SESSIONS_JS})()) === {count}""", timeout=30_000, polling=100)


def test_a_tutorial_page_runs_one_engine_and_its_tables_play_apart(page, site_url):
    frames = open_tutorial(page, site_url)
    assert engine_count(page) == {"shared": 1, "dedicated": 0}
    g42, g43 = frames["g42"], frames["g43"]
    for name, seed in GAMES.items():
        assert hand(frames[name]) == sorted(Match(seed=seed).hand(0))
    # one table moves on, the other stays where it was
    for frame in (g42, g43):
        action = next_action(frame)
        assert action["kind"] == "bid"
    act(g42, next_action(g42))
    play = next_action(g42)
    assert play["kind"] == "play"
    act(g42, play)
    g42.wait_for_function("() => document.querySelectorAll('#hand button[data-card]').length === 12")
    assert len(hand(g43)) == 13 and next_action(g43) == {"kind": "bid"}
    assert play["card"] not in hand(g42)
    # then the other plays on its own match: its bid and card, its own save
    act(g43, next_action(g43))
    card = next_action(g43)
    act(g43, card)
    g43.wait_for_function("() => document.querySelectorAll('#hand button[data-card]').length === 12")
    assert sorted([*hand(g43), card["card"]]) == sorted(Match(seed=43).hand(0))
    assert sorted([*hand(g42), play["card"]]) == sorted(Match(seed=42).hand(0))
    # the registry holds the two matches (the viewers keep none), each under its page's id
    assert sessions(page) == 2
    assert engine_count(page) == {"shared": 1, "dedicated": 0}
    for name in VIEWERS:
        assert frames[name].get_attribute("body", "data-error") is None
    assert_clean(page)


def test_a_page_that_goes_ends_its_session(page, site_url):
    context = page.context
    page.goto(site_url + BLANK_PAGE)
    tables = []
    for seed in (7, 8):
        other = context.new_page()
        if seed == 7:
            other.add_init_script(script=NO_BYE)
        other.goto(site_url + f"embed.html?seed={seed}&partner=easy&opponents=easy&speed=0")
        wait_playable(other)
        tables.append(other)
    assert sessions(page) == 2
    assert engine_count(page) == {"shared": 1, "dedicated": 0}
    tables[0].close()                       # the tab is closed: its lock comes free (it says no BYE)
    wait_sessions(page, 1)
    tables[1].goto(site_url + BLANK_PAGE)   # the other page navigates away
    wait_sessions(page, 0)
    assert engine_count(page) == {"shared": 1, "dedicated": 0}   # the engine stays for this page


def test_a_dead_shared_engine_is_reported_on_every_page_with_reload(page, site_url):
    frames = open_tutorial(page, site_url)
    g42 = frames["g42"]
    act(g42, next_action(g42))                       # a bid: the match is saved
    g42.wait_for_function("() => document.body.dataset.phase === 'play'")
    saved = page.evaluate("() => Object.fromEntries(Object.entries(localStorage).filter(([k]) => k.startsWith('spades.embed.save')))")
    assert len(saved) == 2
    assert kill_shared_engines(page) == 1
    for name in GAMES:
        frame = frames[name]
        frame.wait_for_selector("body[data-phase='error']", timeout=FAULT_WAIT_MS)
        assert frame.locator("[role='alert']").inner_text() == EN["fault.stopped"]
        assert frame.locator("#fault-panel button[data-role='fault-reload']").inner_text() == EN["fault.reload"]
    for name in VIEWERS:
        frame = frames[name]
        frame.wait_for_selector("body[data-engine='failed']", timeout=FAULT_WAIT_MS)
        assert frame.locator("#error").get_attribute("role") == "alert"
        assert frame.locator("#error").inner_text().startswith(EN["viewer.status.stopped"])
        assert frame.locator("#error button[data-role='fault-reload']").inner_text() == EN["fault.reload"]
    # every page was told by the engine's life lock coming free, not by a silence running out
    assert [w for w in page.console_warnings if w.startswith("engine")] == [ENGINE_ENDED] * 4
    # the matches are kept as they were
    assert page.evaluate("() => Object.fromEntries(Object.entries(localStorage).filter(([k]) => k.startsWith('spades.embed.save')))") == saved
    # Reload in one frame: it starts a fresh engine and resumes its match
    g42.click("#fault-panel button[data-role='fault-reload']")
    g42 = page.frame(name="g42")
    g42.wait_for_selector("body[data-phase='play']", timeout=BOOT_MS)
    assert next_action(g42)["kind"] == "play"
    assert engine_count(page) == {"shared": 1, "dedicated": 0}
    assert frames["g43"].evaluate("() => document.body.dataset.phase") == "error"   # the others still say so
    assert SAVE_KEY not in page.evaluate("Object.keys(localStorage)")


def test_without_shared_workers_each_page_runs_an_engine_of_its_own(page, site_url):
    page.add_init_script(script=DEDICATED_ENGINE)
    frames = open_tutorial(page, site_url)
    assert engine_count(page) == {"shared": 0, "dedicated": 4}
    for name, seed in GAMES.items():
        frame = frames[name]
        assert hand(frame) == sorted(Match(seed=seed).hand(0))
        act(frame, next_action(frame))
        card = next_action(frame)
        act(frame, card)
        frame.wait_for_function("() => document.querySelectorAll('#hand button[data-card]').length === 12")
        assert card["card"] not in hand(frame)
    assert_clean(page)


# ---------------------------------------------------------------- the queue (schedule.js)

# schedule.js driven on a blank page of the site with a stand-in for Python: `execute` records
# each call (page, message, budget) and may add requests meanwhile (as if they came during it);
# an analysis of step 0 never finishes, any other does at once. Resolves once `expect` replies
# came, and after two more turns of the event loop (a stray run would have happened by then).
SCHEDULE_JS = """async ([script, expect]) => {
  const { createSchedule, SLICE_S } = await import(new URL("../engine/schedule.js", location.href).href);
  const { MSG } = await import(new URL("../engine/protocol.js", location.href).href);
  const calls = [];
  const replies = [];
  const gone = new Set();
  const during = {};   // call number -> requests added while it runs
  let done;
  const finished = new Promise((resolve) => { done = resolve; });
  const schedule = createSchedule({
    execute: (page, fn, args) => {
      calls.push([page.name, fn, args.budget === undefined ? null : args.budget]);
      for (const [p, msg] of during[calls.length] || []) schedule.add(p, msg);
      const analysis = fn === MSG.ANALYSE;
      return { ok: true, result: analysis ? { finished: args.step !== 0 } : {} };
    },
    onRun: () => {},
    onReply: (job, out) => {
      replies.push([job.page.name, job.id, out.result.finished === undefined ? null : out.result.finished]);
      if (replies.length === expect) done();
    },
    alive: (page) => !gone.has(page.name),
  });
  const pages = { game: { name: "game" }, viewer: { name: "viewer" }, reader: { name: "reader" }, left: { name: "left" } };
  for (const [when, page, id, fn, args] of script) {
    const request = [pages[page], { id, fn: MSG[fn], args }];
    if (when === 0) schedule.add(...request);
    else (during[when] = during[when] || []).push(request);
  }
  gone.add("left");
  schedule.drop(pages.left);
  schedule.open();
  await finished;
  for (let i = 0; i < 2; i++) {
    await new Promise((resolve) => { const c = new MessageChannel(); c.port1.onmessage = resolve; c.port2.postMessage(0); });
  }
  return { calls, replies, slice: SLICE_S };
}"""


def test_play_goes_before_analysis_and_a_budget_is_spent_in_slices(page, site_url):
    page.goto(site_url + BLANK_PAGE)
    out = page.evaluate(SCHEDULE_JS, [[
        # waiting when the engine opens: analyses of the viewer, a move of the game
        [0, "viewer", 1, "ANALYSE", {"text": "t", "step": 0, "budget": 1.25}],
        [0, "viewer", 2, "ANALYSE", {"text": "t", "step": 5, "budget": 1}],
        [0, "game", 1, "BID", {"n": 3}],
        [0, "left", 1, "PLAY", {"card": "AS"}],                                 # its page has gone
        [0, "viewer", 3, "ANALYSE", {"text": "t", "step": 6, "budget": 99}],   # a budget refused whole
        # a move that comes while the first slice of the long analysis runs (the second call)
        [2, "game", 2, "PLAY", {"card": "2C"}],
    ], 5])
    assert out["slice"] == 0.5
    assert out["calls"] == [
        ["game", "bid", None],          # play first
        ["viewer", "analyse", 0.5],     # the first slice of 1.25 s; it does not finish
        ["game", "play", None],         # the move that came meanwhile goes next
        ["viewer", "analyse", 0.5],     # step 5: a budget of 1, finished in its first slice
        ["viewer", "analyse", 99],      # a budget out of range is not sliced: the engine refuses it
        ["viewer", "analyse", 0.5],     # step 0 again: its second slice
        ["viewer", "analyse", 0.25],    # and the rest of its budget
    ]
    assert out["replies"] == [
        ["game", 1, None], ["game", 2, None], ["viewer", 2, True], ["viewer", 3, True], ["viewer", 1, False],
    ]


def test_a_viewer_loading_its_hand_goes_before_another_pages_analysis(page, site_url):
    """A viewer shows nothing until the engine has read its hand (``review``: milliseconds), so
    that message goes with play: on a tutorial page a second viewer's analysis waiting first does
    not hold it back."""
    page.goto(site_url + BLANK_PAGE)
    out = page.evaluate(SCHEDULE_JS, [[
        [0, "viewer", 1, "ANALYSE", {"text": "t", "step": 5, "budget": 1}],
        [0, "reader", 1, "REVIEW", {"text": "t"}],
    ], 2])
    assert out["calls"] == [["reader", "review", None], ["viewer", "analyse", 0.5]]
    assert out["replies"] == [["reader", 1, None], ["viewer", 1, True]]


def test_a_shared_engine_that_ends_before_it_is_ready_is_replaced_once(page, site_url):
    """A page reloaded just as the last page of its engine left can meet that engine while it is
    being ended: the page starts a fresh one (once) instead of saying the engine could not start.
    Here the engine is ended as soon as it exists, well before its boot (a snapshot restore) is
    done."""
    page.goto(site_url + "?speed=0", wait_until="commit")
    killed = 0
    while not killed:
        killed = kill_shared_engines(page)
    assert killed == 1
    wait_playable(page)
    assert page.evaluate("() => document.body.dataset.phase") != "error"
    act(page, next_action(page))                # the new engine answers
    # one engine serves the page: the replacement (a shared one; a worker of its own where the
    # browser reported the first as failing to start, connect.js), and nothing said it failed
    assert sum(engine_count(page).values()) == 1
    assert [w for w in page.console_warnings if w.startswith("engine failed")] == []
    assert_clean(page)
