"""The game page end to end: a whole match by clicking, refusals, reload/resume, bad saves, phone layout.

Uses conftest.py's fixtures (dist/ built and served, Chromium, a page that records
console errors and requests to other origins; ``game``, the shared booted page, where
a test needs a table but not a fresh boot) and driver.py's helpers. Every test drives
the real page: the Python engine runs in the browser's worker.
"""
from __future__ import annotations

import json
import re

import pytest

from driver import (BOOT_MS, EN, GONE_JS, QUERY, act, assert_clean, new_match, next_action, open_game,
                    play_until, seed_save, table_snapshot)
from engine_probe import DEDICATED_ENGINE
from spades import bridge
from spades.session import Session

pytestmark = pytest.mark.browser

#: With the clicks of driver.act (bid 3, the first playable card), this seed's match with
#: Easy players ends after 7 hands, the shortest of seeds 1-2999.
SHORT_MATCH_SEED = 1750


def clicked_match(seed: int) -> tuple[int, list[int]]:
    """(hands, final scores) of the match the full-match test clicks through, played by
    the Python engine with the same choices: the page must end the same way."""
    session = Session.new(seed, partner="easy", opponents="easy")
    m = session.match
    while m.phase != "over":
        if session.human_to_act is None:
            session.bot_step()
        elif m.phase == "bid":
            session.bid(3)
        else:
            state = session.state_for(0)
            session.play(next(c for c in state["hand"] if c in state["legal_cards"]))
    return len(m.hands_played), list(m.scores)

CARD_NAME = re.compile(r"\b(two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|ace) of "
                       r"(spades|hearts|diamonds|clubs)\b", re.I)


def test_full_match_by_clicking(page, site_url, screenshot_dir):
    page.set_viewport_size({"width": 1280, "height": 800})
    held = []  # Python's runtime is held back: the engine cannot be ready before we look
    page.add_init_script(script=DEDICATED_ENGINE)  # (routes do not reach a shared worker's requests)
    page.context.route("**/pyodide/pyodide.asm.wasm", lambda route: held.append(route))
    page.goto(site_url + QUERY.format(seed=SHORT_MATCH_SEED))
    # the table is drawn at once, before Python has booted
    assert page.get_attribute("body", "data-phase") == "loading"
    assert page.is_visible(".seat[data-seat='2']")
    page.screenshot(path=str(screenshot_dir / "game-loading.png"))
    for route in held:
        route.continue_()
    page.context.unroute("**/pyodide/pyodide.asm.wasm")
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
    assert (hands + 1, scores) == clicked_match(SHORT_MATCH_SEED)  # the last hand goes straight to the end
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


def test_illegal_click_is_refused_with_the_engines_reason(game, screenshot_dir):
    page = game
    new_match(page, 5)

    def has_illegal(page, action):
        return action["kind"] == "play" and page.locator("#hand button[data-card]:disabled").count() > 0

    play_until(page, has_illegal)
    before = table_snapshot(page)
    card = page.get_attribute("#hand button[data-card]:disabled", "data-card")
    assert page.is_disabled(f"button[data-card='{card}']")
    # the rule that refuses it, from an independent oracle: a led suit the card does not follow
    led = table_snapshot(page)["trick"]
    reason = EN["error.must_follow_suit"] if led else EN["error.spades_not_broken"]
    page.click(f".slot[data-slot='{card}']")
    page.wait_for_function(
        "(text) => document.querySelector(\"[data-role='message']\").textContent === text", arg=reason)
    page.wait_for_function("(text) => document.querySelector('#live').textContent === text", arg=reason)
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


@pytest.mark.parametrize("junk,code", [("}junk{", "not_json"), ('{"format": "chess", "version": 1}', "wrong_format")])
def test_corrupt_save_is_reported_and_new_match_offered(page, site_url, screenshot_dir, junk, code):
    # the oracle: the engine's own refusal of the same text, in Python
    refusal = json.loads(bridge.handle(json.dumps({"fn": "resume", "args": {"save": junk}})))
    assert refusal["error"]["code"] == code
    seed_save(page, junk)
    page.goto(site_url + "?speed=0&partner=easy&opponents=easy")
    page.wait_for_selector("#new-dialog[open]", timeout=BOOT_MS)
    notice = page.text_content("[data-role='new-notice']")
    assert notice == EN["save.failed"].replace("{reason}", EN[f"save.{code}"]) + " " + EN["save.offer"]
    assert page.text_content("[data-role='message']") == notice
    # the refused save is gone: a reload would not refuse it again
    assert page.evaluate("() => localStorage.getItem('spades.save.v1')") is None
    assert "Traceback" not in page.content()
    page.screenshot(path=str(screenshot_dir / "game-bad-save.png"))
    page.click("#new-dialog button[data-action='start-match']")
    page.wait_for_selector("body[data-phase='bid'], body[data-phase='play']")
    assert page.locator("#hand button[data-card]").count() == 13
    assert_clean(page)


def test_phone_layout(game, screenshot_dir):
    page = game
    page.set_viewport_size({"width": 390, "height": 844})
    new_match(page, 11)
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
    # every card shows at least its corner index (~ a quarter of its width): along its row, and
    # above the row below it (a phone's hand of more than seven cards lies in two rows)
    # (rows by the cards' places: a playable card stands a little up from its place)
    places = page.evaluate("() => [...document.querySelectorAll('#hand .slot')].map(s => s.getBoundingClientRect().toJSON())")
    rows = sorted({round(b["y"]) for b in places})
    assert len(rows) == 2 and rows[1] - rows[0] >= 0.4 * boxes[0]["height"], rows
    for a, b in zip(places, places[1:]):
        if round(a["y"]) == round(b["y"]):
            assert b["x"] - a["x"] >= 0.3 * a["width"]
    assert_clean(page)


def test_keyboard_and_names(game):
    page = game
    new_match(page, 11)
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
    # the other seats' hands never expose a card to assistive technology: their
    # accessibility trees hold the seat's name and counts, no card and no image
    for seat, name in ((1, EN["seat.1"]), (2, EN["seat.2"]), (3, EN["seat.3"])):
        tree = page.locator(f".seat[data-seat='{seat}']").aria_snapshot()
        assert name in tree, tree
        assert not CARD_NAME.search(tree), tree
        assert "img" not in tree, tree
    # while the player's own hand does name its cards
    assert CARD_NAME.search(page.locator("#hand").aria_snapshot())
    assert_clean(page)
