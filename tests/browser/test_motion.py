"""The table's movement (site/game/motion.js): the deal travels from the dealer, each card from
its player to the trick, the winning card lifts, the trick gathers into the winner's seat; a
click during a movement finishes it at once; at Instant speed nothing moves at all; a table
waiting for the player animates nothing for ever, and only what the compositor runs alone.

Every Element.animate call is recorded (what moved, for how long). The measuring test also
prints what a player would feel, as figures only (timings are never pass/fail here): the time
from the click on a card to that card at rest in the trick, and the main thread's long tasks
(PerformanceObserver "longtask", over 50 ms) while tricks are shown. The suite's browser asks
for reduced motion (conftest.REDUCED_MOTION): these pages ask for motion (WITH_MOTION).
"""
from __future__ import annotations

import statistics

import pytest

from conftest import REDUCED_MOTION, WITH_MOTION
from driver import BOOT_MS, QUERY, act, assert_clean, new_match, next_action, tap_card

pytestmark = pytest.mark.browser

#: Records each animation (what it moves: "hand", "back", "trick:<seat>") and, with
#: window.__slow set, plays it at a twentieth of its speed; watches long tasks; notes the
#: time of each pointerdown on a card of the hand.
RECORD = """
window.__anims = [];
window.__long = [];
window.__tapped = [];
const slow = () => window.__slow === true;
const orig = Element.prototype.animate;
Element.prototype.animate = function (frames, options) {
  const a = orig.call(this, frames, options);
  const slot = this.closest('.trick-slot');
  const what = slot ? 'trick:' + slot.dataset.pos : this.closest('#hand') ? 'hand' : this.closest('.backs') ? 'back' : 'other';
  window.__anims.push({what, duration: typeof options === 'number' ? options : options.duration, anim: a});
  if (slow()) a.playbackRate = 0.05;
  return a;
};
new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__long.push([e.startTime, e.duration]); })
  .observe({type: 'longtask', buffered: true});
document.addEventListener('pointerdown', (e) => {
  const card = e.target.closest && e.target.closest('#hand button[data-card]');
  if (card) window.__tapped.push([card.dataset.card, performance.now()]);
}, true);
"""

#: Resolves, once the card just tapped is in the player's trick place with no movement left on
#: it, to the milliseconds from the tap.
AT_REST_JS = """() => new Promise((resolve) => {
  const [card, t0] = window.__tapped[window.__tapped.length - 1];
  const look = () => {
    const node = document.querySelector(`.trick-slot[data-pos='0'] .card[data-card='${card}']`);
    if (node && !node.getAnimations().some((a) => a.playState === 'running')) resolve(performance.now() - t0);
    else requestAnimationFrame(look);
  };
  look();
})"""

WHAT_JS = "() => window.__anims.map((a) => a.what)"


def to_play(page) -> dict:
    """Act (bid 3, Continue) until the player is to play a card; that action."""
    for _ in range(60):
        action = next_action(page)
        if action["kind"] == "play":
            return action
        act(page, action)
    raise AssertionError("the player never came to play")


def test_the_deal_the_flight_the_lift_and_the_gathering(page, site_url):
    page.emulate_media(reduced_motion=WITH_MOTION)
    page.add_init_script(script=RECORD)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(site_url + QUERY.format(seed=11).replace("speed=0", "speed=normal"))
    page.wait_for_selector("#bid-panel:not([hidden]) button[data-bid='3']:enabled", timeout=BOOT_MS)
    moved = page.evaluate(WHAT_JS)
    # the deal: each of the player's 13 cards and every back at the other seats travelled
    assert moved.count("hand") == 13 and moved.count("back") == 39, moved
    rests, long_tasks, trick_spans = [], [], []
    for _ in range(3):
        action = to_play(page)
        page.evaluate("() => { window.__anims = []; window.__long = []; }")
        tap_card(page, f"#hand button[data-card='{action['card']}']:enabled")
        rests.append(page.evaluate(AT_REST_JS))
        # the trick completes and is gathered before the player's next turn (or the sheet)
        next_action(page)
        moved = page.evaluate(WHAT_JS)
        assert "trick:0" in moved                       # the player's card travelled to the trick
        trick_spans.append(page.evaluate("() => performance.now()"))
        long_tasks += page.evaluate("() => window.__long")
        gathered = page.evaluate("() => window.__anims.filter((a) => a.what.startsWith('trick:') && a.duration > 300).length")
        assert gathered >= 4, moved                     # the four cards gathered (Normal: 300 ms x 1.4)
    print(f"\nclick on a card -> at rest in the trick: {[round(r) for r in rests]} ms "
          f"(median {round(statistics.median(rests))} ms, Normal speed: 300 ms flight)")
    print(f"long tasks (> 50 ms) on the main thread during three tricks: {len(long_tasks)}"
          + (f", longest {round(max(d for _, d in long_tasks))} ms" if long_tasks else ""))
    assert_clean(page)


def test_a_click_during_a_movement_finishes_it_at_once(page, site_url):
    """With every animation slowed twentyfold (a card's flight then lasts ~10 s), a click on
    the table ends the flight at once: the card is at rest long before it would have landed."""
    page.emulate_media(reduced_motion=WITH_MOTION)
    page.add_init_script(script=RECORD)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(site_url + QUERY.format(seed=11).replace("speed=0", "speed=slow"))
    page.wait_for_selector("#bid-panel:not([hidden]) button[data-bid='3']:enabled", timeout=BOOT_MS)
    action = to_play(page)
    page.evaluate("() => { window.__slow = true; }")
    tap_card(page, f"#hand button[data-card='{action['card']}']:enabled")
    flying = f".trick-slot[data-pos='0'] .card[data-card='{action['card']}']"
    page.wait_for_function("(sel) => { const n = document.querySelector(sel); return n && n.getAnimations().length > 0; }",
                           arg=flying)
    page.mouse.click(640, 330)                          # the felt, beside the trick
    page.wait_for_function("(sel) => !document.querySelector(sel).getAnimations().some((a) => a.playState === 'running')",
                           arg=flying, timeout=4000)
    assert_clean(page)


def test_nothing_moves_at_instant_speed(page, site_url):
    page.emulate_media(reduced_motion=WITH_MOTION)
    page.add_init_script(script=RECORD)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(site_url + QUERY.format(seed=11))         # ?speed=0
    page.wait_for_selector("#bid-panel:not([hidden]) button[data-bid='3']:enabled", timeout=BOOT_MS)
    for _ in range(2):
        act(page, to_play(page))
    assert page.evaluate(WHAT_JS) == []
    assert_clean(page)


#: The CSS animations running on the table, each with what it animates and how many times.
CSS_ANIMATIONS_JS = """() => document.getAnimations().filter((a) => a instanceof CSSAnimation).map((a) => ({
  name: a.animationName,
  props: [...new Set(a.effect.getKeyframes().flatMap((k) => Object.keys(k)))]
    .filter((p) => !['offset', 'computedOffset', 'easing', 'composite'].includes(p)).sort(),
  iterations: String(a.effect.getComputedTiming().iterations),
}))"""


def test_a_waiting_table_stops_moving(game):
    """The seat to act glows by a fading layer (opacity: no repaint) that pulses a few times
    and then stays: a table waiting for the player animates nothing for ever (a box-shadow
    pulsing without end kept a third of a core busy on a machine without a GPU)."""
    game.emulate_media(reduced_motion=WITH_MOTION)
    try:
        new_match(game, 5)
        game.wait_for_selector(".seat.to-act")
        found = game.evaluate(CSS_ANIMATIONS_JS)
    finally:
        game.emulate_media(reduced_motion=REDUCED_MOTION)
    assert {"name": "turn-glow", "props": ["opacity"], "iterations": "5"} in found
    assert [a for a in found if a["iterations"] == "Infinity"] == []
    assert [a for a in found if set(a["props"]) - {"opacity", "transform"}] == []
