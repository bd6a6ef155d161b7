"""Keyboard-only play and screen-reader announcements.

* A whole hand (bid, 13 cards, Continue on the score sheet) is played with
  page.keyboard only; an init script counts every pointer-made event (mousedown,
  pointerdown, and clicks that came from a pointer: a click from Enter/Space has
  detail 0 and no pointerType) and the test asserts there were none. The number of
  keys pressed is printed and written to tests/browser/screenshots/keyboard-report.json.
* After the player's own move, focus comes back to the hand / bids by itself when it
  is their turn again (no key needed), and the focused control shows a visible ring.
* The polite live region announces the trick's winner while focus stays on the hand.
* Dialogs open from the keyboard, keep Tab inside, close with Escape and give focus
  back to the control that opened them.
"""
from __future__ import annotations

import json
import re

import pytest

from driver import BOOT_MS, EN, QUERY, SPY, assert_clean, new_match

pytestmark = pytest.mark.browser
# the trick-winner announcement (announce.trick for a seat, announce.youTrick for the player)
WINNER = re.compile("(?:" + "|".join(
    [re.escape(EN["announce.trick"]).replace(re.escape("{name}"), "(?:West|Partner|East)"),
     re.escape(EN["announce.youTrick"])]) + ")")

class Keys:
    def __init__(self, page):
        self.page = page
        self.count = 0
        self.log: list[str] = []

    def press(self, key):
        self.page.keyboard.press(key)
        self.count += 1
        self.log.append(key)

    def focus(self):
        return self.page.evaluate("() => window.__describeFocus()")


def focus_ring(page):
    return page.evaluate("""() => {
      const s = getComputedStyle(document.activeElement);
      return {style: s.outlineStyle, width: parseFloat(s.outlineWidth), color: s.outlineColor};
    }""")


def test_full_hand_by_keyboard_only(page, site_url, screenshot_dir):
    page.add_init_script(script=SPY)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(site_url + QUERY.format(seed=11))
    # our turn to bid
    page.wait_for_selector("#bid-panel:not([hidden]) button[data-bid='3']:enabled", timeout=BOOT_MS)
    keys = Keys(page)

    # from the top of the page, Tab to the bids (one tab stop for all fourteen)
    for _ in range(30):
        keys.press("Tab")
        if keys.focus().startswith("bid:"):
            break
    else:
        raise AssertionError(f"Tab never reached the bids: {keys.log}")
    tabs_to_bids = keys.count
    ring = focus_ring(page)
    assert ring["style"] == "solid" and ring["width"] >= 2, ring
    assert page.locator("#bid-grid button[data-bid][tabindex='0']").count() == 1
    start = keys.focus()
    keys.press("ArrowRight")
    assert keys.focus() != start
    keys.press("Home")
    assert keys.focus() == "bid:0"  # nil is first, reached only on purpose
    keys.press("3")  # a digit jumps to that bid
    assert keys.focus() == "bid:3"
    keys.press("Enter")

    plays = 0
    trick_seen = False
    for _ in range(20):
        # focus comes back to a playable card by itself on our turn (or to Continue at the end)
        state = page.wait_for_function("""() => {
          const dlg = document.querySelector('#sheet-dialog');
          if (dlg.open) return 'sheet';
          const a = document.activeElement;
          if (a && a.matches('#hand button[data-card]:enabled')) return 'card';
          return null;
        }""", timeout=30_000).json_value()
        if state == "sheet":
            break
        assert page.locator("#hand button[data-card][tabindex='0']").count() == 1
        ring = focus_ring(page)
        assert ring["style"] == "solid" and ring["width"] >= 2, ring
        enabled = page.locator("#hand button[data-card]:enabled").count()
        if plays == 2 and enabled >= 2:
            keys.press("End")  # move through the hand with the arrows / Home / End
            keys.press("Home")
            keys.press("ArrowRight")
        card = keys.focus().split(":", 1)[1]
        keys.press("Enter" if plays % 2 == 0 else " ")
        plays += 1
        page.wait_for_function("(c) => !document.querySelector(`#hand button[data-card='${c}']`)", arg=card)
        if not trick_seen:
            trick_seen = page.evaluate("(re) => window.__live.some(e => new RegExp(re).test(e.text))", WINNER.pattern)
    else:
        raise AssertionError("the hand did not end")
    assert plays == 13
    # the score sheet opens with Continue focused; Enter continues
    assert keys.focus() == "button:continue"
    page.screenshot(path=str(screenshot_dir / "keyboard-sheet.png"))
    keys.press("Enter")
    page.wait_for_function("() => !document.querySelector('#sheet-dialog').open")
    # the next hand starts; focus waits on the hand or goes to the bids
    page.wait_for_function("() => ['hand', 'body'].includes(window.__describeFocus()) || "
                           "window.__describeFocus().startsWith('bid:') || window.__describeFocus().startsWith('card:')")

    pointer = page.evaluate("() => window.__pointer")
    assert pointer == [], pointer

    # the live region said who won each trick, and focus stayed in the hand meanwhile
    live = page.evaluate("() => window.__live")
    winners = [e for e in live if WINNER.search(e["text"])]
    assert trick_seen and winners, live[:20]
    # (the last trick of the hand opens the score sheet, which takes focus on purpose)
    during_play = [e for e in winners if EN["announce.hand"].split("{n}")[0] not in e["text"]]
    assert during_play
    bad = [(e["focus"], e["text"][-80:]) for e in during_play if not (e["focus"] == "hand" or e["focus"].startswith("card:"))]
    assert not bad, bad
    assert any(EN["announce.youBid"].format(bid="3") in e["text"] for e in live)
    assert any(EN["announce.hand"].split("{n}")[0] + "1" in e["text"] for e in live)

    report = {
        "keys_for_one_full_hand": keys.count,
        "tabs_from_page_top_to_bids": tabs_to_bids,
        "cards_played": plays,
        "keys": keys.log,
        "pointer_events": len(pointer),
        "note": "bid (Tab to the bids, a digit, Enter), 13 cards (Enter or Space each; focus returns "
                "to the hand by itself), Continue (Enter); includes 5 keys spent showing arrow/Home/End moves",
    }
    (screenshot_dir / "keyboard-report.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"\nkeys pressed for one full hand by keyboard: {keys.count} "
          f"({tabs_to_bids} Tabs to reach the bids, then {keys.count - tabs_to_bids})")
    assert_clean(page)


@pytest.mark.parametrize("action,dialog", [
    ("settings", "#settings-dialog"),
    ("scores", "#sheet-dialog"),
    ("last-trick", "#trick-dialog"),
    ("new-match", "#new-dialog"),
])
def test_dialogs_trap_focus_and_return_it(game, action, dialog):
    page = game  # the shared page carries driver.SPY; the fixture cleared its records
    new_match(page, 7)
    page.wait_for_selector(f".tools button[data-action='{action}']:enabled")
    page.evaluate("() => { window.__pointer = []; }")  # (new_match clicked the menu)
    # reach the menu button with the keyboard, from the top of the page
    page.evaluate("""() => {
      const top = document.querySelector('.brand h1');
      top.tabIndex = -1;
      top.focus();
      top.removeAttribute('tabindex');
    }""")
    for _ in range(20):
        page.keyboard.press("Tab")
        if page.evaluate(f"() => document.activeElement.matches(\".tools [data-action='{action}']\")"):
            break
    else:
        raise AssertionError(f"Tab never reached {action}")
    page.keyboard.press("Enter")
    page.wait_for_selector(f"{dialog}[open]")
    assert page.evaluate(f"() => document.querySelector('{dialog}').contains(document.activeElement)")
    for _ in range(12):
        page.keyboard.press("Tab")
        assert page.evaluate(f"() => document.querySelector('{dialog}').contains(document.activeElement)")
    for _ in range(12):
        page.keyboard.press("Shift+Tab")
        assert page.evaluate(f"() => document.querySelector('{dialog}').contains(document.activeElement)")
    page.keyboard.press("Escape")
    page.wait_for_function(f"() => !document.querySelector('{dialog}').open")
    page.wait_for_function(f"() => document.activeElement.matches(\".tools [data-action='{action}']\")")
    assert page.evaluate("() => window.__pointer") == []
    assert_clean(page)
