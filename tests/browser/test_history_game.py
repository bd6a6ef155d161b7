"""The game records its matches in the history (site/game/match-log.js -> lib/history.js): a
finished match and an abandoned one appear on the statistics page; the score sheet shows
the match's score as a chart with its table; two tabs finishing the same match store it
once; without IndexedDB the game plays on and says that history is not being kept.

Positions are played in Python's bridge (bid 3, first legal card) and handed to the page
as its saved match, so a test starts one card before the end of a match instead of
playing a whole match in the browser. The engine's own final state is the oracle.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from spades import bridge  # noqa: E402

from driver import EN, SHARED_QUERY, BOOT_MS, assert_clean, bridge_save_at, new_match, seed_save, wait_playable  # noqa: E402

pytestmark = pytest.mark.browser

SEED = 16  # a match of 15 hands (bid 3, first legal card): its end is reached quickly


@pytest.fixture(scope="module")
def ending():
    """(save one card before the match ends, the engine's state at its end)."""
    bridge_save_at(lambda st: st["phase"] == "over", seed=SEED)
    final = bridge.state()
    hands = len(final["sheet"])
    save = bridge_save_at(lambda st: len(st["sheet"]) == hands - 1 and st["phase"] == "play"
                          and st["to_act"] == 0 and len(st["hand"]) == 1, seed=SEED)
    return save, final


def boot(page, site_url: str) -> None:
    page.goto(site_url + SHARED_QUERY)
    wait_playable(page)


def play_last_card(page) -> None:
    page.click("#hand button[data-card]:enabled")
    page.wait_for_selector("body[data-phase='over']")


# Resolves true once the history's store holds at least `n` matches (the game's write is done).
STORED_JS = """(n) => new Promise((resolve) => {
  const req = indexedDB.open('spades-history');
  req.onupgradeneeded = () => req.transaction.abort();  // not made yet: leave its making to the game
  req.onsuccess = () => {
    const db = req.result;
    if (!db.objectStoreNames.contains('matches')) { db.close(); resolve(false); return; }
    const count = db.transaction('matches').objectStore('matches').count();
    count.onsuccess = () => { db.close(); resolve(count.result >= n); };
    count.onerror = () => { db.close(); resolve(false); };
  };
  req.onerror = () => resolve(false);
})"""


def stat(page, site_url: str, name: str, stored: int) -> int:
    """The statistics page's figure ``name``, as a number, once the game has stored ``stored``
    matches (its write is waited for in the game's page, not guessed with reloads)."""
    page.wait_for_function(STORED_JS, arg=stored, polling=200)
    page.goto(site_url + "stats.html")
    page.wait_for_selector("body[data-ready='1']")
    return int(page.get_attribute(f'[data-stat="{name}"]', "data-value"))


def test_finished_match_is_kept_with_its_score_chart(page, site_url, ending):
    save, final = ending
    seed_save(page, save)
    boot(page, site_url)
    play_last_card(page)
    # the score sheet: the match's score hand by hand, as a chart and as a table
    page.click("#over-panel button[data-action='scores']")
    figure = page.wait_for_selector("#sheet-dialog .chart")
    svg = figure.query_selector("svg[role='img']")
    assert svg.query_selector("title").text_content() == EN["stats.chart.score.title"]
    figure.query_selector("details summary").click()
    rows = [[c.text_content().strip() for c in r.query_selector_all("th, td")]
            for r in figure.query_selector_all("details tbody tr")]
    assert rows == [[f"{r['number']:,}", f"{r['teams'][0]['score_after']:,}", f"{r['teams'][1]['score_after']:,}"]
                    for r in final["sheet"]]
    refs = svg.evaluate("(s) => [...s.querySelectorAll('line.chart-ref')].map((l) => l.nextElementSibling.textContent)")
    assert refs == ["500", "-200"]  # the target and floor lines, labelled
    assert len(svg.query_selector_all("polyline")) == 2  # both teams
    assert page.get_attribute("#sheet-dialog a[data-role='stats-link']", "href") == "stats.html"
    page.click("#sheet-dialog button[data-action='close-sheet']")
    outcome = "won" if final["winner"] == 0 else "lost"
    assert stat(page, site_url, "matches", 1) == 1
    assert int(page.get_attribute(f'[data-stat="{outcome}"]', "data-value")) == 1
    assert int(page.get_attribute('[data-stat="hands"]', "data-value")) == len(final["sheet"])
    assert_clean(page)


def test_abandoned_match_is_kept_as_abandoned(page, site_url):
    save = bridge_save_at(lambda st: st["hand_number"] == 2 and st["phase"] == "play" and st["to_act"] == 0, seed=SEED)
    seed_save(page, save)
    boot(page, site_url)
    new_match(page, SEED + 1)
    # a match the player has not begun (no bid yet) is not history when it is replaced
    new_match(page, SEED + 2)
    assert stat(page, site_url, "abandoned", 1) == 1
    assert int(page.get_attribute('[data-stat="matches"]', "data-value")) == 1
    assert_clean(page)


def test_two_tabs_finishing_one_match_keep_it_once(page, site_url, ending):
    save, _ = ending
    seed_save(page, save)
    boot(page, site_url)
    other = page.context.new_page()
    other.goto(site_url + SHARED_QUERY)  # the same saved match in a second tab, which does not own it
    other.wait_for_selector("#notices [data-notice='tab']", timeout=BOOT_MS)
    play_last_card(page)  # the first tab finishes the match and records it
    other.click("#notices [data-notice='tab'] button")  # the second tab takes over the finished match
    other.wait_for_selector("body[data-phase='over']", timeout=BOOT_MS)
    other.close()
    assert stat(page, site_url, "matches", 1) == 1
    page.wait_for_timeout(1000)  # a late second write would show now
    page.reload()
    assert int(page.wait_for_selector('[data-stat="matches"]').get_attribute("data-value")) == 1


def test_without_indexeddb_the_game_plays_and_says_so(page, site_url):
    page.add_init_script(script="Object.defineProperty(window, 'indexedDB', {get: () => undefined, configurable: true});")
    page.goto(site_url + SHARED_QUERY.replace("?", "?seed=7&"))  # seed 7: East deals, you bid first
    page.wait_for_selector("body[data-phase='bid']", timeout=BOOT_MS)
    notice = page.wait_for_selector("[data-role='history-notice']:not([hidden])")
    assert notice.text_content() == EN["history.off"]
    # still playable: the player bids and the game takes it
    page.click("#bid-panel button[data-bid='3']:enabled")
    page.wait_for_function("(t) => document.querySelector('.seat-bottom .seat-bid').textContent === t",
                           arg=EN["seat.bid"].format(bid=3))
    assert_clean(page)
