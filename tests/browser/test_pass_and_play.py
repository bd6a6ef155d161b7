"""Pass-and-play: two people (South and North, partners) on one device, a whole hand by
keyboard alone. Between two people's turns the privacy screen covers the table: it holds
focus, Escape (even twice) does not uncover the table, Enter does. While it shows, no hand
is in the page at all: neither the cards of the person who just played nor those of the
next one are in the DOM or the accessibility tree. Each person's undo is their own: South
cannot take back a move once North has moved since. The screen and the next person's table
are axe-clean. A reload hands the device to the person to act behind the screen too.
"""
from __future__ import annotations

import re

import pytest

from driver import BOOT_MS, EN, SAVE_KEY, SPY, assert_clean, axe_blocking
from spades.session import Session

pytestmark = pytest.mark.browser

SEED = 7
QUERY = f"index.html?seed={SEED}&speed=0&partner=easy&opponents=easy&pass=partner"
#: South and North are people (real seats), West and East computer players.
PEOPLE = (0, 2)
#: A card's name as the page says it in English ("ace of spades").
CARD_NAME = re.compile(r"\b(?:two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|ace) of "
                       r"(?:spades|hearts|diamonds|clubs)\b", re.IGNORECASE)

#: What the page waits for from the person at the bottom: the privacy screen, the score
#: sheet, or focus on a bid or a card they may play (the page puts it there by itself).
STEP_JS = """() => {
  if (document.querySelector('#privacy-dialog').open) return 'privacy';
  if (document.querySelector('#sheet-dialog').open) return 'sheet';
  const a = document.activeElement;
  if (a && a.matches('#bid-panel:not([hidden]) button[data-bid]:enabled')) return 'bid';
  if (a && a.matches('#hand button[data-card]:enabled')) return 'card';
  return null;
}"""
#: Every card named by a [data-card] anywhere in the page, and the hand's screen-reader summary.
CARDS_JS = """() => ({cards: [...document.querySelectorAll('[data-card]')].map((e) => e.dataset.card),
  hand: [...document.querySelectorAll('#hand [data-card]')].map((e) => e.dataset.card),
  summary: document.querySelector('#hand-summary').textContent})"""


def first_hands() -> dict[int, list[str]]:
    """South's and North's first hands as the engine deals them (checked, not assumed)."""
    session = Session.new(SEED, partner="easy", opponents="easy", humans=PEOPLE)
    return {seat: session.state_for(seat)["hand"] for seat in PEOPLE}


#: What the table shows when a step never comes (for the failure's message).
TABLE_JS = """() => ({focus: window.__describeFocus(), phase: document.body.dataset.phase,
  open: [...document.querySelectorAll('dialog[open]')].map((d) => d.id),
  message: document.querySelector("[data-role='message']").textContent,
  hand: [...document.querySelectorAll('#hand button[data-card]')].map((b) => b.dataset.card + (b.disabled ? '' : '*')),
  bottom: document.querySelector(".seat[data-seat='0'] .seat-name").textContent})"""


def next_step(page) -> str:
    """The next thing the person at the device meets (STEP_JS), waited for."""
    try:
        return page.wait_for_function(STEP_JS, timeout=60_000).json_value()
    except Exception as exc:  # noqa: BLE001 - Playwright's timeout: say what the table shows
        raise AssertionError(f"no step came: {page.evaluate(TABLE_JS)}") from exc


def press_until(page, key: str, js: str, limit: int = 40) -> int:
    """Press ``key`` until ``js`` holds (a focus target); returns how many presses it took."""
    for n in range(1, limit + 1):
        page.keyboard.press(key)
        if page.evaluate(js):
            return n
    raise AssertionError(f"{key} never reached {js}")


def test_a_hand_passed_between_two_people_by_keyboard(page, site_url, screenshot_dir):
    dealt = first_hands()
    page.add_init_script(script=SPY)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(site_url + QUERY)
    page.wait_for_selector("#bid-panel:not([hidden]) button[data-bid='3']:enabled", timeout=BOOT_MS)
    assert sorted(page.evaluate(CARDS_JS)["hand"]) == sorted(dealt[0])  # South bids first (East deals)
    press_until(page, "Tab", "() => window.__describeFocus().startsWith('bid:')")

    screens: list[int] = []   # whom each privacy screen was for (real seats)
    seen_while_private: list[set[str]] = []
    hands_after: list[set[str]] = []
    acted = {0: 0, 2: 0}
    undo_refused = False
    me = 0
    for _ in range(200):
        step = next_step(page)
        if step == "sheet":
            break
        if step == "privacy":
            nxt = int(page.get_attribute("body", "data-privacy"))
            assert nxt != me and nxt in PEOPLE
            shown = page.evaluate(CARDS_JS)
            # no hand in the page: only the cards on the table, which everyone has seen
            assert shown["hand"] == [] and shown["summary"] == "", shown
            seen_while_private.append(set(shown["cards"]))
            assert page.evaluate("() => window.__describeFocus()") == "button:ready"
            if not screens:
                name = EN[f"viewer.seat.{nxt}"]
                assert EN["pass.title"].format(name=name) in page.inner_text("#privacy-dialog")
                tree = page.locator("body").aria_snapshot()
                assert CARD_NAME.findall(tree) == [], tree
                blocking = axe_blocking(page)
                assert blocking == [], blocking
                page.screenshot(path=str(screenshot_dir / "pass-privacy.png"))
                page.set_viewport_size({"width": 390, "height": 844})
                page.screenshot(path=str(screenshot_dir / "pass-privacy-phone.png"))
                page.set_viewport_size({"width": 1280, "height": 800})
                page.keyboard.press("Escape")
                page.keyboard.press("Escape")  # the browser closes a modal on a second Escape: it reopens
                page.wait_for_function("() => document.querySelector('#privacy-dialog').open && "
                                       "window.__describeFocus() === 'button:ready'")
                assert page.evaluate("() => getComputedStyle(document.querySelector('#table')).visibility") == "hidden"
            screens.append(nxt)
            page.keyboard.press("Enter")
            page.wait_for_function("() => !document.querySelector('#privacy-dialog').open")
            assert next_step(page) in ("bid", "card")  # focus is on the new person's turn by itself
            me = nxt
            hand = set(page.evaluate(CARDS_JS)["hand"])
            hands_after.append(hand)
            assert hand <= set(dealt[me]), (me, hand)
            assert page.inner_text(".seat[data-seat='0'] .seat-name") == EN["seat.youAt"].format(seat=EN[f"viewer.seat.{me}"])
            if len(screens) == 1:
                tree = page.locator("body").aria_snapshot()
                assert len(set(CARD_NAME.findall(tree))) >= len(hand)  # the check above can see cards
                # "Why?" is for a computer player's reasons: West (drawn right) has one, South none
                assert page.is_visible(".seat[data-seat='3'] [data-action='why']")
                assert page.is_hidden(".seat[data-seat='2'] [data-action='why']")
                blocking = axe_blocking(page)
                assert blocking == [], blocking
                page.screenshot(path=str(screenshot_dir / "pass-north.png"))
            if len(screens) == 3:
                # a reload while North holds the device: whoever holds it now, no hand shows
                # before the person to act says they are ready
                page.reload()
                page.wait_for_selector("#privacy-dialog[open]", timeout=BOOT_MS)
                assert page.get_attribute("body", "data-privacy") == str(me)
                assert page.evaluate(CARDS_JS)["hand"] == []
                page.keyboard.press("Enter")
                assert next_step(page) in ("bid", "card")
                assert set(page.evaluate(CARDS_JS)["hand"]) == hand
            if len(screens) == 2 and not undo_refused:
                # South has the device back after North's bid: South's own bid is not South's to
                # take back any more (another person moved since)
                before = page.evaluate(f"() => localStorage.getItem('{SAVE_KEY}')")
                press_until(page, "Shift+Tab", "() => window.__describeFocus() === 'button:undo'")
                page.keyboard.press("Enter")
                page.wait_for_function("(t) => document.querySelector(\"[data-role='message']\").textContent.includes(t)",
                                       arg=EN["error.others_acted"])
                assert page.evaluate(f"() => localStorage.getItem('{SAVE_KEY}')") == before
                undo_refused = True
                press_until(page, "Tab", "() => window.__describeFocus().startsWith('card:') || "
                                         "window.__describeFocus().startsWith('bid:')")
            continue
        focused = page.evaluate("() => window.__describeFocus()")
        if step == "bid":
            page.keyboard.press("3")
            assert page.evaluate("() => window.__describeFocus()") == "bid:3"
            page.keyboard.press("Enter")
            page.wait_for_function("() => !document.querySelector(\"#bid-panel:not([hidden]) button[data-bid]:enabled\")")
        else:
            card = focused.split(":", 1)[1]
            page.keyboard.press("Enter")
            page.wait_for_function("(c) => !document.querySelector(`#hand button[data-card='${c}']`)", arg=card)
        acted[me] += 1
    else:
        raise AssertionError("the hand did not end")

    assert acted == {0: 14, 2: 14}  # a bid and 13 cards each
    assert undo_refused
    # the screen came between every change of person, and only then
    assert screens[0] == 2 and all(a != b for a, b in zip(screens, screens[1:], strict=False))
    # no card the next person then held was in the page while their screen showed
    for private, hand in zip(seen_while_private, hands_after, strict=True):
        assert not private & hand, (private, hand)
    assert page.evaluate("() => window.__pointer") == []
    assert_clean(page)
