"""Tutorial pages with several game embeds: each embed is a table of its own (its own saved
match and its own tab lock, keyed by its parameters or an author's ``id=``), apart from the
player's own game on the site; two tabs of one embed are still kept from overwriting each other."""
from __future__ import annotations

import json

import pytest

from spades import Match
from driver import BOOT_MS, EN, SAVE_KEY, TEST_FILES, act, assert_clean, next_action

pytestmark = pytest.mark.browser

TWO_GAMES = TEST_FILES + "two-games.html"
SEEDS = {"g42": 42, "g43": 43}
PLAYABLE = "body[data-phase='bid'], body[data-phase='play']"
HUMAN_BID = "section.seat[data-seat='0'] .seat-bid"


def frames(page) -> dict:
    """The page's game frames by name, each once its table is playable."""
    out = {}
    for name in SEEDS:
        frame = page.frame(name=name)
        assert frame is not None, name
        frame.wait_for_selector(PLAYABLE, timeout=BOOT_MS)
        out[name] = frame
    return out


def hand(frame) -> list[str]:
    return sorted(frame.eval_on_selector_all("#hand button[data-card]", "bs => bs.map(b => b.dataset.card)"))


def saved_seeds(page) -> dict[str, str]:
    """Every embed save in localStorage: its key → the seed of the match it holds."""
    return page.evaluate("""() => Object.fromEntries(Object.keys(localStorage)
      .filter((k) => k.startsWith('spades.embed.save.v1'))
      .map((k) => [k, JSON.parse(localStorage.getItem(k)).seed]))""")


def test_two_embeds_on_one_page_are_two_tables(page, site_url):
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(site_url + TWO_GAMES)
    games = frames(page)
    for name, frame in games.items():
        assert hand(frame) == sorted(Match(seed=SEEDS[name]).hand(0))
        assert frame.locator("#notices [data-notice='tab']").count() == 0   # neither blocks the other
        action = next_action(frame)
        assert action["kind"] == "bid"
        act(frame, action)                                    # bid 3 in each
        frame.wait_for_function("(sel) => document.querySelector(sel).textContent === %s" % json.dumps(
            EN["seat.bid"].replace("{bid}", "3")), arg=HUMAN_BID)
    seeds = saved_seeds(page)
    # one save each, named by the frame's dealing parameters
    assert seeds == {f"spades.embed.save.v1:seed={n}&partner=easy&opponents=easy": n for n in (42, 43)}
    assert SAVE_KEY not in page.evaluate("Object.keys(localStorage)")   # the player's own game is untouched

    page.reload()
    games = frames(page)
    for name, frame in games.items():
        # each resumes its own match: its own cards, the bid made before the reload, no dialog
        assert hand(frame) == sorted(Match(seed=SEEDS[name]).hand(0))
        assert frame.text_content(HUMAN_BID) == EN["seat.bid"].replace("{bid}", "3")
        assert not frame.evaluate("document.querySelector('#new-dialog').open")
        assert frame.locator("#notices [data-notice='tab']").count() == 0
    assert_clean(page)


#: Seeds the embeds' index with KEPT old tables (their saves a placeholder), oldest first.
OLD_TABLES_JS = """(kept) => {
  const index = {};
  for (let i = 0; i < kept; i++) {
    index[`id=old-${i}`] = 1000 + i;
    localStorage.setItem(`spades.embed.save.v1:id=old-${i}`, "{}");
  }
  localStorage.setItem("spades.embed.tables.v1", JSON.stringify(index));
}"""
KEPT = 32   # persistence.js EMBED_TABLES_KEPT


def test_two_tabs_of_one_embed_are_still_locked(page, site_url):
    page.evaluate(OLD_TABLES_JS, KEPT)
    page.goto(site_url + TWO_GAMES)
    frames(page)
    page.wait_for_function("() => Object.keys(localStorage).filter((k) => k.startsWith('spades.embed.save.v1')).length === %d" % KEPT)
    # at most KEPT tables keep a save: the two least recently saved gave way to the page's two
    assert set(saved_seeds(page)) == {f"spades.embed.save.v1:id=old-{i}" for i in range(2, KEPT)} | {
        f"spades.embed.save.v1:seed={n}&partner=easy&opponents=easy" for n in (42, 43)}
    other = page.context.new_page()
    # the same table as the first frame (same dealing parameters; language and speed do not count)
    other.goto(site_url + "embed.html?seed=42&partner=easy&opponents=easy&lang=de")
    other.wait_for_selector("#notices [data-notice='tab']", timeout=BOOT_MS)
    # a table with another id is another table, even with the same seed
    named = page.context.new_page()
    named.goto(site_url + "embed.html?seed=42&partner=easy&opponents=easy&speed=0&id=lesson-2")
    named.wait_for_selector(PLAYABLE, timeout=BOOT_MS)
    assert named.locator("#notices [data-notice='tab']").count() == 0
    assert sorted(Match(seed=42).hand(0)) == hand(named)
    assert_clean(page)
