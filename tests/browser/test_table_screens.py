"""Every phase of the game page, on a 1280 x 800 desktop and a 390 x 844 touch phone: each is
shown as a player reaches it, kept as a screenshot (tests/browser/screenshots/<SPADES_SHOTS or
"table">/) and held to what a player needs there: the hand on screen, nothing wider than the
window, and on the phone every visible control at least 44 x 44 CSS px.

These screens are what the table looks like; a reviewer compares them by eye (before and after
a change: set SPADES_SHOTS to keep a set apart).
"""
from __future__ import annotations

import os

import pytest

from driver import BOOT_MS, QUERY, act, assert_clean, bridge_save_at, next_action, open_rules, seed_save, tool
from engine_probe import DEDICATED_ENGINE

pytestmark = pytest.mark.browser

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2}
DEVICES = {"desktop": DESKTOP, "phone": PHONE}
#: The smallest control a thumb hits reliably (WCAG 2.5.5, Apple and Google's guidance), CSS px.
TOUCH_PX = 44
BLIND_SEED = 7
BLIND_RULES = "blind-nil,blind_nil_trail=0"

#: The visible controls smaller than TOUCH_PX in either direction: [{what, w, h}]. A card in the
#: hand counts by the strip of it a tap can reach (the part no later card covers).
SMALL_CONTROLS_JS = """(px) => {
  const out = [];
  const sel = 'button, a[href], select, input:not([type=hidden]), summary, textarea, [tabindex="0"]';
  const open = document.querySelector('dialog[open]');
  for (const el of document.querySelectorAll(sel)) {
    if (open ? !open.contains(el) : el.closest('dialog')) continue;
    if (el.closest('[hidden], [inert]') || el.id === 'hand') continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(el).visibility === 'hidden') continue;
    if (el.closest('.sr-only')) continue;
    let w = r.width, h = r.height;
    // a box or a radio button is hit through its label as well
    const label = (el.type === 'checkbox' || el.type === 'radio') && (el.closest('label') || document.querySelector(`label[for="${el.id}"]`));
    if (label) {
      const l = label.getBoundingClientRect();
      w = Math.max(w, l.width);
      h = Math.max(h, l.height);
    }
    // a card in the hand: the part no later card covers (the next card in its row takes its
    // right side, a card of the row below its lower part)
    const slot = el.closest('#hand .slot');
    if (slot) {
      for (let s = slot.nextElementSibling; s; s = s.nextElementSibling) {
        const o = s.firstElementChild.getBoundingClientRect();
        if (o.left >= r.right || o.right <= r.left || o.top >= r.bottom || o.bottom <= r.top) continue;
        if (Math.abs(o.top - r.top) < 4) w = Math.min(w, o.left - r.left);
        else if (o.top > r.top) h = Math.min(h, o.top - r.top);
      }
    }
    if (w < px - 0.5 || h < px - 0.5) {
      const what = el.dataset.action || el.dataset.card || el.dataset.bid || el.dataset.role || el.id
        || el.tagName.toLowerCase() + ':' + (el.textContent || '').trim().slice(0, 20);
      out.push({what, w: Math.round(w), h: Math.round(h)});
    }
  }
  return out;
}"""

#: The seats' names that a visible bubble covers: [[bubble's seat, covered seat]].
BUBBLE_COVERS_JS = """() => {
  const out = [];
  for (const b of document.querySelectorAll('.seat .bubble:not([hidden])')) {
    const r = b.getBoundingClientRect();
    for (const n of document.querySelectorAll('.seat .seat-name')) {
      const seat = n.closest('.seat').dataset.seat;
      if (seat === b.dataset.bubbleSeat) continue;
      const o = n.getBoundingClientRect();
      if (o.left < r.right && o.right > r.left && o.top < r.bottom && o.bottom > r.top) out.push([b.dataset.bubbleSeat, seat]);
    }
  }
  return out;
}"""

#: What covers the bid panel's question or its line of the bids so far: a visible bubble or
#: the message line (each drawn above the panel), as [[what, covered]].
PANEL_COVERED_JS = """() => {
  const out = [];
  const over = [...document.querySelectorAll('.seat .bubble:not([hidden])'), document.querySelector('[data-role=message]')]
    .filter((el) => el && el.textContent.trim() && getComputedStyle(el).visibility !== 'hidden');
  for (const sel of ['#bid-prompt', '.bid-info']) {
    const r = document.querySelector(sel).getBoundingClientRect();
    for (const el of over) {
      const o = el.getBoundingClientRect();
      if (o.left < r.right && o.right > r.left && o.top < r.bottom && o.bottom > r.top)
        out.push([el.dataset.bubbleSeat ? 'bubble ' + el.dataset.bubbleSeat : 'message', sel]);
    }
  }
  return out;
}"""

#: Where the hand's cards are, and how tall the window is.
HAND_BOX_JS = """() => {
  const cards = [...document.querySelectorAll('#hand [data-card]')].map((c) => c.getBoundingClientRect());
  return {bottom: Math.max(0, ...cards.map((r) => r.bottom)), n: cards.length, height: innerHeight,
          width: document.documentElement.scrollWidth, inner: innerWidth};
}"""


@pytest.fixture(params=list(DEVICES))
def device(request, browser, site_url, seed_snapshot):
    from conftest import open_page

    context = browser.new_context(service_workers="block", **DEVICES[request.param])
    page, detach = open_page(context, site_url)
    seed_snapshot(page)
    page.device = request.param
    yield page
    detach()
    context.close()


def shots_dir(screenshot_dir):
    folder = screenshot_dir / os.environ.get("SPADES_SHOTS", "table")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def shoot(page, folder, name: str) -> None:
    page.screenshot(path=str(folder / f"{page.device}-{name}.png"))


def hand_on_screen(page) -> None:
    box = page.evaluate(HAND_BOX_JS)
    assert box["width"] <= box["inner"], box
    if box["n"]:
        assert box["bottom"] <= box["height"], box


def small_controls(page) -> list[dict]:
    return page.evaluate(SMALL_CONTROLS_JS, TOUCH_PX)


def test_every_phase_on_screen(device, site_url, screenshot_dir):
    page = device
    folder = shots_dir(screenshot_dir)
    small = {}
    held = []
    page.add_init_script(script=DEDICATED_ENGINE)  # the runtime held: routes reach no shared worker
    page.context.route("**/pyodide/pyodide.asm.wasm", lambda route: held.append(route))
    page.goto(site_url + QUERY.format(seed=11).replace("speed=0", "speed=fast"))
    page.wait_for_selector(".seat[data-seat='2']")
    shoot(page, folder, "01-loading")
    for route in held:
        route.continue_()
    page.context.unroute("**/pyodide/pyodide.asm.wasm")
    page.wait_for_selector("#bid-panel:not([hidden]) button[data-bid='3']:enabled", timeout=BOOT_MS)
    page.wait_for_timeout(400)
    shoot(page, folder, "02-bid")
    hand_on_screen(page)
    assert page.evaluate(PANEL_COVERED_JS) == []      # the question and the bids so far can be read
    small["bid"] = small_controls(page)
    act(page, {"kind": "bid"})
    # the computer players bid, then the play: a trick with two or more cards, the player's turn
    for _ in range(60):
        action = next_action(page)
        if action["kind"] == "play" and page.locator(".trick-slot .card").count() >= 2:
            break
        act(page, action)
    page.wait_for_timeout(300)
    shoot(page, folder, "03-play")
    hand_on_screen(page)
    small["play"] = small_controls(page)
    page.click("[data-action='hint']")
    page.wait_for_selector(".hinted")
    page.wait_for_timeout(300)
    shoot(page, folder, "04-hint")
    hand_on_screen(page)
    page.click(".seat[data-seat='1'] [data-action='why']")
    page.wait_for_selector(".seat[data-seat='1'] .bubble[data-kind='why']:not([hidden])")
    page.wait_for_timeout(600)
    shoot(page, folder, "05-why")
    hand_on_screen(page)
    assert page.evaluate(BUBBLE_COVERS_JS) == []    # West's answer leaves the other seats' names in view
    act(page, next_action(page))
    page.wait_for_selector("#trick.complete", timeout=30_000)
    page.wait_for_timeout(200)
    shoot(page, folder, "06-trick-won")
    # the rest of the hand at once (the match resumed at Instant speed: the motion is shown
    # above, and drawing every card's flight in software costs the suite much time): the sheet
    page.goto(site_url + QUERY.replace("seed={seed}&", ""))
    page.wait_for_selector("body[data-phase='play']", timeout=BOOT_MS)
    for _ in range(200):
        action = next_action(page)
        if action["kind"] == "continue":
            break
        act(page, action)
    page.wait_for_timeout(300)
    shoot(page, folder, "07-sheet")
    small["sheet"] = small_controls(page)
    page.click("#sheet-dialog button[data-action='export-hand']")
    page.wait_for_selector("[data-role='export-text']")
    shoot(page, folder, "08-export")
    page.click("#sheet-dialog button[data-action='continue']")
    open_rules(page)
    shoot(page, folder, "09-new-match")
    small["new-match"] = small_controls(page)
    page.fill("#rules-target", "-5")
    page.click("#new-dialog button[data-action='start-match']")
    page.wait_for_timeout(600)
    shoot(page, folder, "10-new-match-refused")
    page.click("#new-dialog button[data-action='cancel-new']")
    tool(page, "settings")
    page.wait_for_selector("#settings-dialog[open]")
    shoot(page, folder, "11-settings")
    small["settings"] = small_controls(page)
    print(f"\n[{page.device}] controls under {TOUCH_PX}px: " +
          "; ".join(f"{k}: {len(v)} {v}" for k, v in small.items()))
    if page.device == "phone":
        assert {k: v for k, v in small.items() if v} == {}
    assert_clean(page)


def test_blind_nil_and_russian_and_end(device, site_url, screenshot_dir):
    page = device
    folder = shots_dir(screenshot_dir)
    page.goto(site_url + QUERY.format(seed=BLIND_SEED) + "&rules=" + BLIND_RULES)
    page.wait_for_selector("#blind-choice:not([hidden])", timeout=BOOT_MS)
    page.wait_for_timeout(300)
    shoot(page, folder, "12-blind-nil")
    page.click("[data-role='blind-see']")
    page.wait_for_function("() => document.querySelectorAll('#hand button[data-card]').length === 13")
    # Russian, with a hint: the longest messages
    page.evaluate("() => localStorage.clear()")
    page.goto(site_url + QUERY.format(seed=11) + "&lang=ru")
    page.wait_for_selector("#bid-panel:not([hidden]) button[data-bid='3']:enabled", timeout=BOOT_MS)
    act(page, {"kind": "bid"})
    for _ in range(60):
        action = next_action(page)
        if action["kind"] == "play":
            break
        act(page, action)
    page.click("[data-action='hint']")
    page.wait_for_selector(".hinted")
    page.wait_for_timeout(300)
    shoot(page, folder, "13-ru-hint")
    hand_on_screen(page)
    # the end of a match
    save = bridge_save_at(lambda st: st["phase"] == "over", seed=1750)
    seed_save(page, save)
    page.goto(site_url + "?speed=0")
    page.wait_for_selector("body[data-phase='over']", timeout=BOOT_MS)
    page.wait_for_timeout(300)
    shoot(page, folder, "14-over")
    assert_clean(page)
