"""Driving the game page like a player, shared by every browser test module.

Test modules import what they need from here and never from each other. Everything
here clicks, presses keys or reads the page; nothing reaches into the page's modules.
"""
from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

ROOT = Path(__file__).resolve().parents[2]
EN = json.loads((ROOT / "site" / "i18n" / "en.json").read_text(encoding="utf-8"))
BOOT_MS = 120_000
#: The game's phase once it takes a bid or a card, or once it shows a fault.
PLAYABLE_OR_FAULT = "body[data-phase='bid'], body[data-phase='play'], body[data-phase='error']"
QUERY = "?seed={seed}&speed=0&partner=easy&opponents=easy"
#: The address of the shared game page: instant speed, Easy computer players, no seed.
SHARED_QUERY = "?speed=0&partner=easy&opponents=easy"
SAVE_KEY = "spades.save.v1"
#: Where the test server serves test-only files (and a copy of dist/ keeps them).
TEST_FILES = "__tests__/"
#: Test-only pages (the bare Pyodide benchmark page and its worker), never shipped in dist/.
TEST_PAGES = Path(__file__).resolve().parent / "pages"
BARE_PAGE = TEST_FILES + "bare.html"
BLANK_PAGE = TEST_FILES + "blank.html"

# What the human can do next (None while computer players act / animations run).
NEXT_JS = """() => {
  const phase = document.body.dataset.phase;
  if (phase === 'over') return {kind: 'over'};
  const dlg = document.querySelector('#sheet-dialog');
  if (dlg && dlg.open) {
    const c = dlg.querySelector("button[data-action='continue']");
    if (c && !c.hidden) return {kind: 'continue'};
    return null;
  }
  if (phase === 'bid' && document.querySelector("#bid-panel:not([hidden]) button[data-bid='3']:enabled"))
    return {kind: 'bid'};
  if (phase === 'play') {
    const c = document.querySelector('#hand button[data-card]:enabled');
    if (c) return {kind: 'play', card: c.dataset.card};
  }
  return null;
}"""

GONE_JS = "(sel) => !document.querySelector(sel)"

#: A point of the element ``sel`` (relative to its box) that a tap there reaches: cards in
#: the hand overlap, so its middle may belong to the next card. None when none is found.
TAP_POINT_JS = """(sel) => {
  const el = document.querySelector(sel);
  if (!el) return null;
  const r = el.getBoundingClientRect();
  for (const fy of [0.5, 0.25, 0.15, 0.75]) {
    for (const fx of [0.5, 0.3, 0.15, 0.08]) {
      const x = r.left + r.width * fx, y = r.top + r.height * fy;
      const hit = document.elementFromPoint(x, y);
      if (hit && el.contains(hit)) return {x: x - r.left, y: y - r.top};
    }
  }
  return null;
}"""


#: axe-core, the npm devDependency pinned in site/package.json (`npm ci`, which the build
#: runs, installs it): injected into a page as inline script text, never fetched.
AXE = ROOT / "site" / "node_modules" / "axe-core" / "axe.min.js"
#: What axe checks: WCAG 2.0/2.1/2.2 A and AA, and axe's best practices.
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
#: The impacts no screen may have.
AXE_BLOCKING = ("serious", "critical")


def axe_violations(page) -> list[dict]:
    """axe's violations on the whole document of ``page`` (injected once a page):
    [{id, impact, help, nodes: [{target, summary}]}]."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    return page.evaluate(
        """async (tags) => {
          const r = await axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});
          return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.map(n => ({target: n.target.join(' '), summary: n.failureSummary}))}));
        }""",
        AXE_TAGS,
    )


def axe_blocking(page) -> list[dict]:
    """The violations of impact serious or critical on ``page`` now (a clean screen has none)."""
    return [v for v in axe_violations(page) if v["impact"] in AXE_BLOCKING]


def tool(page, action: str) -> None:
    """Press the game menu's button ``action``; on a phone it is behind "More" (menu.js)."""
    sel = f".tools [data-action='{action}']"
    if not page.is_visible(sel):
        page.click(".tools [data-role='menu-toggle']")
    page.click(sel)


def open_rules(page) -> None:
    """Open New match from the menu with its house-rules section open (whether or not the
    dialog remembered the section open from an earlier visit)."""
    tool(page, "new-match")
    page.wait_for_selector("#new-dialog[open]")
    if not page.is_visible("#rules-preset"):
        page.click("[data-role='rules-box'] > summary")
    page.wait_for_selector("#rules-preset")


def tap_card(page, sel: str) -> None:
    """Click (or tap) the card ``sel`` on a part of it that shows."""
    page.wait_for_selector(sel)
    point = page.evaluate(TAP_POINT_JS, sel)
    page.click(sel, position=point) if point else page.click(sel)


def assert_clean(page, origin: str | None = None) -> None:
    """No console error, page error or HTTP error, and no request to another origin
    (with ``origin``: requests to that origin are also allowed, for a second server)."""
    assert page.console_errors == [], page.console_errors
    foreign = [u for u in page.foreign_requests if not (origin and u.startswith(origin))]
    assert foreign == [], foreign


def wait_playable(target, timeout: int = BOOT_MS) -> None:
    """Until the game page or frame ``target`` takes a bid or a card; fails at once, saying
    why, when the page shows a fault instead (the engine could not start or stopped)."""
    try:
        target.wait_for_selector(PLAYABLE_OR_FAULT, timeout=timeout)
    except PlaywrightTimeoutError:
        shown = target.evaluate("() => [document.body.dataset.phase, document.body.innerText.slice(0, 400)]")
        raise AssertionError(f"not playable after {timeout} ms: phase {shown[0]!r}, page text {shown[1]!r}") from None
    if target.evaluate("document.body.dataset.phase") == "error":
        page = getattr(target, "page", target)  # a frame's page collects the console
        fault = target.text_content("[data-role='fault-text']")
        raise AssertionError(f"the page shows a fault: {fault!r}; {getattr(page, 'console_warnings', [])}")


def frame_where(page, matches, timeout: int = BOOT_MS):
    """The first frame of ``page`` whose URL ``matches``, once there is one (a frame may still be
    on its way there)."""
    deadline = time.monotonic() + timeout / 1000
    while (frame := page.frame(url=matches)) is None:
        assert time.monotonic() < deadline, f"no frame matched within {timeout} ms: {[f.url for f in page.frames]}"
        page.wait_for_timeout(100)
    return frame


def open_game(page, site_url: str, seed: int, extra: str = "") -> None:
    """Load the game with a seeded deal (a fresh boot) and wait until the table is playable."""
    page.goto(site_url + QUERY.format(seed=seed) + extra)
    wait_playable(page)


def new_match(page, seed: int) -> None:
    """Start a seeded match with Easy players through the New match dialog, as a player
    would, and wait until the engine has dealt it (its save holds the seed)."""
    page.evaluate("(key) => localStorage.removeItem(key)", SAVE_KEY)
    tool(page, "new-match")
    page.wait_for_selector("#new-dialog[open]")
    page.select_option("#new-partner", "easy")
    page.select_option("#new-opponents", "easy")
    page.fill("#new-seed", str(seed))
    page.click("#new-dialog button[data-action='start-match']")
    page.wait_for_function(
        """([key, seed]) => {
          const text = localStorage.getItem(key);
          if (!text) return false;
          const save = JSON.parse(text);
          return save.seed === seed && ['bid', 'play'].includes(document.body.dataset.phase);
        }""",
        arg=[SAVE_KEY, seed],
        timeout=30_000,
    )


def next_action(page) -> dict:
    return page.wait_for_function(NEXT_JS, timeout=30_000).json_value()


def act(page, action: dict) -> None:
    """Do one human action by clicking, then wait until the page has taken it."""
    kind = action["kind"]
    if kind == "continue":
        page.click("#sheet-dialog button[data-action='continue']")
        page.wait_for_function("() => !document.querySelector('#sheet-dialog').open")
    elif kind == "bid":
        sel = "#bid-panel:not([hidden]) button[data-bid='3']:enabled"
        page.click(sel)
        page.wait_for_function(GONE_JS, arg=sel)
    elif kind == "play":
        sel = f"#hand button[data-card='{action['card']}']:enabled"
        tap_card(page, sel)
        # played: gone from the hand, or (same card in the next deal) no longer playable
        page.wait_for_function(GONE_JS, arg=sel)


def play_until(page, predicate, limit: int = 400) -> dict:
    """Act (bid 3, first playable card, Continue) until predicate(page, action) holds."""
    for _ in range(limit):
        action = next_action(page)
        if predicate(page, action):
            return action
        if action["kind"] == "over":
            raise AssertionError("match ended before the wanted position")
        act(page, action)
    raise AssertionError("position not reached")


def table_snapshot(page) -> dict:
    return page.evaluate("""() => ({
      hand: [...document.querySelectorAll('#hand button[data-card]')].map(b => b.dataset.card),
      trick: [...document.querySelectorAll('.trick-slot')].map(s => {
        const c = s.querySelector('.card'); return c ? s.dataset.pos + ':' + c.dataset.card : null;
      }).filter(Boolean).sort(),
      scores: [document.querySelector('[data-score="0"]').textContent,
               document.querySelector('[data-score="1"]').textContent],
      bids: [...document.querySelectorAll('.seat .seat-bid')].map(b => b.textContent),
      tricks: [...document.querySelectorAll('.seat .seat-tricks')].map(b => b.textContent),
      phase: document.body.dataset.phase,
    })""")


def seed_save(page, save: str) -> None:
    """Put ``save`` in localStorage before the page's own scripts run (first load only)."""
    page.add_init_script(script="""if (!sessionStorage.getItem('seeded')) {
      sessionStorage.setItem('seeded', '1');
      localStorage.clear();
      localStorage.setItem('spades.save.v1', %s);
    }""" % json.dumps(save))


def show_hand(page, text: str) -> None:
    """Paste ``text`` into the hand viewer's form and press Show, as a reader would; wait
    until the viewer shows it or says why not. (The page's ready/error markers are
    cleared first, so the wait is for this text.)"""
    page.evaluate("() => { delete document.body.dataset.ready; delete document.body.dataset.error; }")
    if not page.is_visible("#source"):
        page.click("#loader summary")
    page.fill("#source", text)
    page.click("#show")
    page.wait_for_selector("body[data-ready='1'], body[data-error]", timeout=60_000)


def card_words(card: str) -> str:
    """A card's name in English (en.json)."""
    return EN["card.name"].format(rank=EN[f"rank.{card[:-1]}"], suit=EN[f"suit.{card[-1]}"])


def shown(kind: str, value) -> str:
    """A reason's parameter of ``kind`` as the English catalogue shows it."""
    if kind == "card":
        return card_words(value)
    if kind == "cards":
        return ", ".join(card_words(c) for c in value) or EN["coach.noCards"]
    if kind == "suit":
        return EN[f"suit.{value}"]
    if kind == "suits":
        return ", ".join(EN[f"suit.{s}"] for s in value)
    if kind == "seat":
        return EN[f"seat.{value}"]
    if kind == "bid":
        return EN["bid.nil"] if value == 0 else str(value)
    return f"{value:,}" if isinstance(value, int) else f"{value:,.3f}".rstrip("0").rstrip(".")


def sentence(reason: dict) -> str:
    """A computer player's reason {code, params} in English, written out here from en.json's
    ``reason.<code>`` with each parameter shown by its kind (spades.ai.explain.CODES): the
    oracle for what the page says, independent of the page's code."""
    from spades.ai.explain import CODES, STRUCTURED_KINDS

    kinds = CODES[reason["code"]]
    params = {k: shown(kinds[k], v) for k, v in reason["params"].items() if kinds[k] not in STRUCTURED_KINDS}
    return EN[f"reason.{reason['code']}"].format(**params)


def bridge_save_at(predicate, seed: int = 11, rules: str | None = None) -> str:
    """A session save (as the page keeps it) of an Easy match (with ``rules``, default 1.0.0) at
    the first position where ``predicate(state)`` holds, played in Python (bid 3, first legal card)."""
    from spades import bridge

    bridge.new_match({"seed": seed, "partner": "easy", "opponents": "easy", **({"rules": rules} if rules else {})})
    for _ in range(100_000):
        st = bridge.state()
        if predicate(st):
            return bridge.call("save")["save"]
        if st["phase"] == "over":
            raise AssertionError("the match ended before the wanted position")
        if st["to_act"] != 0:
            bridge.run_bots({})
        elif st["phase"] == "bid":
            bridge.bid({"n": 3 if 3 in st["legal_bids"] else st["legal_bids"][0]})
        else:
            bridge.play({"card": st["legal_cards"][0]})
    raise AssertionError("position not reached")
# Records what the page asks the engine (window.__asked: message names, in order), a dedicated
# engine Worker or the shared engine through its port.
ASK_SPY = """
(() => {
  window.__asked = [];
  for (const proto of [Worker.prototype, MessagePort.prototype]) {
    const post = proto.postMessage;
    proto.postMessage = function (msg, ...rest) {
      if (msg && typeof msg.fn === "string") window.__asked.push(msg.fn);
      return post.call(this, msg, ...rest);
    };
  }
})();
"""

# Counts pointer-made events and records every text the live region shows, with where
# focus was at that moment.
SPY = """
window.__pointer = [];
window.__live = [];
for (const type of ['mousedown', 'mouseup', 'pointerdown', 'pointerup', 'click', 'dblclick', 'contextmenu']) {
  window.addEventListener(type, (e) => {
    if (!e.isTrusted) return;
    const fromPointer = type !== 'click' || e.detail > 0 || (e.pointerType !== undefined && e.pointerType !== '');
    if (fromPointer) window.__pointer.push(type + ' ' + (e.pointerType || '') + ' ' + e.detail);
  }, true);
}
function describeFocus() {
  const a = document.activeElement;
  if (!a || a === document.body) return 'body';
  if (a.id === 'hand') return 'hand';
  if (a.dataset && a.dataset.card) return 'card:' + a.dataset.card;
  if (a.dataset && a.dataset.bid) return 'bid:' + a.dataset.bid;
  return a.tagName.toLowerCase() + (a.dataset && a.dataset.action ? ':' + a.dataset.action : '');
}
document.addEventListener('DOMContentLoaded', () => {
  const live = document.getElementById('live');
  new MutationObserver(() => {
    if (live.textContent) window.__live.push({text: live.textContent, focus: describeFocus()});
  }).observe(live, {childList: true, characterData: true, subtree: true});
});
window.__describeFocus = describeFocus;
"""


# Time (ms, in the page) from terminating the workers to the alert on screen.
KILL_AND_TIME = """
() => new Promise((resolve) => {
  const t0 = performance.now();
  for (const w of window.__workers) w.terminate();
  const look = () => {
    const alert = document.querySelector("[role='alert']");
    if (document.body.dataset.phase === "error" && alert && alert.textContent) resolve(performance.now() - t0);
    else requestAnimationFrame(look);
  };
  look();
})
"""


def copy_test_pages(folder: Path) -> None:
    """Copy the test-only pages (TEST_PAGES) into ``folder``."""
    for page in TEST_PAGES.iterdir():
        shutil.copyfile(page, folder / page.name)


def add_test_pages(root: Path) -> None:
    """Put the test-only pages into a copy of dist/ at ``root`` (under TEST_FILES) and
    list them in its manifests, so its service worker caches them for offline runs."""
    import build_site

    folder = root / TEST_FILES
    folder.mkdir(exist_ok=True)
    copy_test_pages(folder)
    info = json.loads((root / "build.json").read_text())
    build_site.write_manifests(root, info["wheel"], info["micropip"], info["pyodide"], stdlib=info["stdlib"],
                               engine=info["engine"])


#: The human may bid: the first bid of a first visit is usable (the engine answered).
BID_USABLE_JS = "() => document.body.dataset.phase === 'bid' && !!document.querySelector(\"#bid-panel:not([hidden]) button[data-bid]:enabled\")"


def first_visit_paths(context, site_url: str, query: str = "?speed=0") -> list[str]:
    """The files (paths relative to the site) a first visit of the game fetches, page and
    engine worker, until its first bid is usable, in a ``context`` with nothing stored.
    The service worker's precaching, which starts once the table is up, is not counted.
    The page runs the dedicated engine worker, whose requests the context sees (a shared
    one's it does not; both fetch the same files)."""
    from engine_probe import DEDICATED_ENGINE

    seen: list[str] = []
    done = False

    def on_request(request):
        parts = urlsplit(request.url)
        if done or request.service_worker is not None or not request.url.startswith(site_url):
            return
        seen.append(parts.path[len(urlsplit(site_url).path):] or "index.html")

    context.on("request", on_request)
    page = context.new_page()
    page.add_init_script(script=DEDICATED_ENGINE)
    try:
        page.goto(site_url + "index.html" + query)
        page.wait_for_function(BID_USABLE_JS, timeout=BOOT_MS)
        done = True
    finally:
        context.remove_listener("request", on_request)
        page.close()
    return sorted(set(seen))
