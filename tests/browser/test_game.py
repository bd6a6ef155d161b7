"""The game page end to end: a whole match by clicking, refusals, reload/resume, bad saves, phone layout.

Uses conftest.py's fixtures (dist/ built and served, Chromium, a page that records
console errors and requests to other origins). Every test drives the real page:
the Python engine runs in the browser's worker.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

BOOT_MS = 120_000
ROOT = Path(__file__).resolve().parents[2]
EN = json.loads((ROOT / "site" / "i18n" / "en.json").read_text(encoding="utf-8"))
QUERY = "?seed={seed}&speed=0&partner=easy&opponents=easy"

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


def open_game(page, site_url, seed, extra=""):
    page.goto(site_url + QUERY.format(seed=seed) + extra)
    page.wait_for_selector("body[data-phase='bid'], body[data-phase='play']", timeout=BOOT_MS)


def next_action(page):
    return page.wait_for_function(NEXT_JS, timeout=30_000).json_value()


def act(page, action):
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
        page.click(sel)
        # played: gone from the hand, or (same card in the next deal) no longer playable
        page.wait_for_function(GONE_JS, arg=sel)


def table_snapshot(page):
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


def play_until(page, predicate, limit=400):
    """Act (bid 3, first playable card, Continue) until predicate(page) holds on a human turn."""
    for _ in range(limit):
        action = next_action(page)
        if predicate(page, action):
            return action
        if action["kind"] == "over":
            raise AssertionError("match ended before the wanted position")
        act(page, action)
    raise AssertionError("position not reached")


def assert_clean(page):
    assert page.console_errors == [], page.console_errors
    assert page.foreign_requests == [], page.foreign_requests


def test_full_match_by_clicking(page, site_url, screenshot_dir):
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(site_url + QUERY.format(seed=11))
    # the table is drawn at once, before Python has booted
    assert page.get_attribute("body", "data-phase") == "loading"
    assert page.is_visible(".seat[data-seat='2']")
    page.screenshot(path=str(screenshot_dir / "game-loading.png"))
    page.wait_for_selector("body[data-phase='bid']", timeout=BOOT_MS)
    assert page.get_attribute("html", "lang") == "en"
    assert page.locator("#hand button[data-card]").count() == 13
    assert page.text_content("button[data-bid='0']").lower().startswith("nil")

    shots = set()
    hands = 0
    for _ in range(3000):
        action = next_action(page)
        kind = action["kind"]
        if kind == "over":
            break
        if kind == "bid" and "bid" not in shots:
            page.screenshot(path=str(screenshot_dir / "game-bid.png"))
            shots.add("bid")
        if kind == "play" and "play" not in shots and page.locator(".trick-slot .card").count() >= 2:
            page.screenshot(path=str(screenshot_dir / "game-play.png"))
            shots.add("play")
        if kind == "continue":
            hands += 1
            if "sheet" not in shots:
                page.screenshot(path=str(screenshot_dir / "game-sheet.png"))
                shots.add("sheet")
            for team in (0, 1):
                assert re.fullmatch(r"-?\d+", page.text_content(f"[data-score='{team}']"))
        act(page, action)
    else:
        raise AssertionError("the match did not end")

    page.wait_for_selector("#over-panel:not([hidden])")
    page.screenshot(path=str(screenshot_dir / "game-over.png"))
    scores = [int(page.text_content(f"[data-score='{t}']")) for t in (0, 1)]
    assert max(scores) >= 500 or min(scores) <= -200
    assert scores[0] != scores[1]
    result = page.text_content("[data-role='over-result']")
    assert result == (EN["over.won"] if scores[0] > scores[1] else EN["over.lost"])
    assert hands >= 1
    assert page.is_visible("#over-panel button[data-action='new-match']")
    # the score sheet is viewable at the end too
    page.click("#over-panel button[data-action='scores']")
    page.wait_for_selector("#sheet-dialog[open] table.history")
    rows = page.locator("#sheet-dialog table.history tbody tr").count()
    assert rows == hands + 1  # the last hand goes straight to the end screen
    page.click("#sheet-dialog button[data-action='close-sheet']")
    # a new match starts from the end screen
    page.click("#over-panel button[data-action='new-match']")
    page.click("#new-dialog button[data-action='start-match']")
    page.wait_for_selector("body[data-phase='bid'], body[data-phase='play']")
    assert page.text_content("[data-score='0']") == "0"
    assert_clean(page)


def test_illegal_click_is_refused_with_the_engines_reason(page, site_url, screenshot_dir):
    open_game(page, site_url, 5)

    def has_illegal(page, action):
        return action["kind"] == "play" and page.locator("#hand button[data-card]:disabled").count() > 0

    play_until(page, has_illegal)
    before = table_snapshot(page)
    card = page.get_attribute("#hand button[data-card]:disabled", "data-card")
    assert page.is_disabled(f"button[data-card='{card}']")
    page.click(f".slot[data-slot='{card}']")
    reasons = {EN["error.must_follow_suit"], EN["error.spades_not_broken"]}
    page.wait_for_function(
        "(texts) => texts.includes(document.querySelector(\"[data-role='message']\").textContent)",
        arg=sorted(reasons),
    )
    page.wait_for_function(
        "(texts) => texts.includes(document.querySelector('#live').textContent)", arg=sorted(reasons)
    )
    page.screenshot(path=str(screenshot_dir / "game-refused.png"))
    assert table_snapshot(page) == before  # nothing was played
    # a legal card still plays
    act(page, next_action(page))
    assert_clean(page)


def test_reload_mid_trick_resumes_same_state(page, site_url):
    open_game(page, site_url, 8)

    def mid_trick(page, action):
        return action["kind"] == "play" and page.locator(".trick-slot .card").count() >= 1 and \
            page.locator("#hand button[data-card]").count() <= 11

    play_until(page, mid_trick)
    before = table_snapshot(page)
    assert before["trick"]
    assert "seed=" not in page.url  # a reload must resume, not deal again
    page.reload()
    page.wait_for_selector("#hand button[data-card]:enabled", timeout=BOOT_MS)
    after = table_snapshot(page)
    assert after == before
    act(page, next_action(page))  # and play goes on
    assert_clean(page)


@pytest.mark.parametrize("junk", ["}junk{", '{"format": "chess", "version": 1}'])
def test_corrupt_save_is_reported_and_new_match_offered(page, site_url, screenshot_dir, junk):
    open_game(page, site_url, 3)
    page.evaluate("(junk) => localStorage.setItem('spades.save.v1', junk)", junk)
    page.goto(site_url + "?speed=0&partner=easy&opponents=easy")
    page.wait_for_selector("#new-dialog[open]", timeout=BOOT_MS)
    notice = page.text_content("[data-role='new-notice']")
    assert notice.startswith(EN["save.failed"].split("{")[0])
    assert EN["save.wrong_format"] in notice or EN["save.not_json"] in notice
    assert page.text_content("[data-role='message']") == notice
    assert "Traceback" not in page.content()
    page.screenshot(path=str(screenshot_dir / "game-bad-save.png"))
    page.click("#new-dialog button[data-action='start-match']")
    page.wait_for_selector("body[data-phase='bid'], body[data-phase='play']")
    assert page.locator("#hand button[data-card]").count() == 13
    assert_clean(page)


def test_phone_layout(page, site_url, screenshot_dir):
    page.set_viewport_size({"width": 390, "height": 844})
    open_game(page, site_url, 11)
    page.screenshot(path=str(screenshot_dir / "phone-bid.png"))
    play_until(page, lambda p, a: a["kind"] == "play" and p.locator(".trick-slot .card").count() >= 1)
    page.screenshot(path=str(screenshot_dir / "phone-play.png"))
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390
    boxes = page.evaluate(
        "() => [...document.querySelectorAll('#hand button[data-card]')].map(b => b.getBoundingClientRect().toJSON())"
    )
    for box in boxes:
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
        assert box["height"] >= 60  # readable, not squashed
    # every card shows at least its corner index (~ a quarter of its width)
    for a, b in zip(boxes, boxes[1:]):
        assert b["x"] - a["x"] >= 0.3 * a["width"]
    assert_clean(page)


def test_keyboard_and_names(page, site_url):
    open_game(page, site_url, 11)
    play_until(page, lambda p, a: a["kind"] == "play" and p.locator("#hand button[data-card]:enabled").count() >= 2)
    labels = page.evaluate(
        "() => [...document.querySelectorAll('#hand button[data-card]')].map(b => b.getAttribute('aria-label'))"
    )
    assert all(re.fullmatch(r"(two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|ace) of "
                            r"(spades|hearts|diamonds|clubs)", label) for label in labels)
    # one tab stop in the hand
    assert page.locator("#hand button[data-card][tabindex='0']").count() == 1
    page.focus("#hand button[data-card][tabindex='0']")
    first = page.evaluate("() => document.activeElement.dataset.card")
    page.keyboard.press("End")
    last = page.evaluate("() => document.activeElement.dataset.card")
    assert last != first
    page.keyboard.press("Home")
    assert page.evaluate("() => document.activeElement.dataset.card") == first
    page.keyboard.press("ArrowRight")
    card = page.evaluate("() => document.activeElement.dataset.card")
    assert card != first
    page.keyboard.press("Enter")
    page.wait_for_function(GONE_JS, arg=f"#hand button[data-card='{card}']")
    # hidden hands never expose their cards
    hidden = page.evaluate(
        "() => [...document.querySelectorAll('.seat .backs')].every(b => b.getAttribute('aria-hidden') === 'true')"
    )
    assert hidden
    assert_clean(page)
