"""Tutorial pages with several game embeds: each embed is a table of its own (its own saved
match and its own tab lock, keyed by its parameters or an author's ``id=``), apart from the
player's own game on the site; two tabs of one embed are still kept from overwriting each other."""
from __future__ import annotations

import html
import time
from pathlib import Path
from urllib.parse import quote

import pytest
from driver import BOOT_MS, EN, SAVE_KEY, TEST_FILES, act, assert_clean, next_action, wait_playable, frame_where
from engine_probe import DEDICATED_ENGINE

from spades import Match

pytestmark = pytest.mark.browser

TWO_GAMES = TEST_FILES + "two-games.html"
SEEDS = {"g42": 42, "g43": 43}
HUMAN_BID = "section.seat[data-seat='0'] .seat-bid"


def frames(page) -> dict:
    """The page's game frames by name, each once its table is playable."""
    out = {}
    for name in SEEDS:
        frame = page.frame(name=name)
        assert frame is not None, name
        wait_playable(frame)
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
        frame.wait_for_function("([sel, text]) => document.querySelector(sel).textContent === text",
                                arg=[HUMAN_BID, EN["seat.bid"].replace("{bid}", "3")])
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
    page.wait_for_function("(n) => Object.keys(localStorage).filter((k) => k.startsWith('spades.embed.save.v1')).length === n",
                           arg=KEPT)
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
    wait_playable(named)
    assert named.locator("#notices [data-notice='tab']").count() == 0
    assert sorted(Match(seed=42).hand(0)) == hand(named)
    assert_clean(page)


#: Whether this page holds the Web Lock named `name` (a table's tab lock: persistence.js lockName).
LOCK_HELD_JS = "(name) => navigator.locks.query().then((q) => q.held.some((l) => l.name === name))"


def test_an_embed_is_the_game_page_and_claims_its_table_while_python_starts(page, site_url):
    """embed.html is the game itself (the frame is never sent on to index.html), and it takes its
    table's tab lock while Python is still starting, so it asks for the saved match the moment
    the engine answers instead of waiting for the lock then."""
    held = []   # Python's runtime is held back: the engine cannot answer yet
    page.add_init_script(script=DEDICATED_ENGINE)   # (routes do not reach a shared worker's requests)
    page.context.route("**/pyodide/pyodide.asm.wasm", lambda route: held.append(route))
    url = site_url + "embed.html?seed=42&partner=easy&opponents=easy&speed=0"
    page.goto(url)
    lock = "spades.embed.save.v1:seed=42&partner=easy&opponents=easy.owner"
    deadline = time.monotonic() + BOOT_MS / 1000
    while not page.evaluate(LOCK_HELD_JS, lock):
        assert time.monotonic() < deadline, "the table's lock was not claimed while Python started"
        page.wait_for_timeout(50)
    assert page.get_attribute("body", "data-phase") == "loading"   # the engine has not answered
    assert page.url == url
    assert page.evaluate("document.body.classList.contains('embed')") is True
    for route in held:
        route.continue_()
    page.context.unroute("**/pyodide/pyodide.asm.wasm")
    wait_playable(page)
    assert hand(page) == sorted(Match(seed=42).hand(0))
    assert page.url == url
    assert_clean(page)


# ---------------------------------------------------------------- the one-line embed (embed.js)

LESSON_HAND = """Dealer: W
S: KS QS 7H 3H AC KC JC 8C 7C 6C 3C AD QD
W: JS 9S 7S 3S JH 2H QC KD 6D 5D 4D 3D 2D
N: AS 8S 5S AH KH QH TH 9H TC 5C 2C TD 7D
E: TS 6S 4S 2S 8H 6H 5H 4H 9C 4C JD 9D 8D
Bids: 3 1 3 1"""
SIZE_MESSAGE = "spades:size"   # lib/frame-size.js FRAME_SIZE_MESSAGE


def one_line_page(folder: Path, site_url: str) -> None:
    """An author's page on another origin: the script and two marked elements, one with an
    attribute embed.js does not know and one with a value it refuses."""
    (folder / "lesson.html").write_text(f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A lesson</title><link rel="icon" href="data:,">
<script src="{site_url}embed.js" async></script></head>
<body style="margin:0;max-width:760px">
<h1>A lesson</h1>
<div data-spades-game data-seed="42" data-partner="easy" data-opponents="easy" data-speed="0"
     data-compact data-colour="red" data-lang="xx" data-title="Play seed 42"></div>
<div data-spades-viewer data-hand="{html.escape(LESSON_HAND)}"></div>
</body></html>""", encoding="utf-8")


def frame_height(page, index: int) -> float:
    return page.evaluate("(i) => document.querySelectorAll('iframe')[i].getBoundingClientRect().height", index)


def fits(page, game, viewer) -> None:
    """Wait until the game's frame holds its whole table and the viewer's frame is its page's height."""
    game.wait_for_function("() => document.documentElement.scrollHeight <= innerHeight")
    # the two heights live in two documents of two origins: compared from here until they agree
    deadline = time.monotonic() + 30
    while True:
        content = viewer.evaluate("() => Math.ceil(document.documentElement.getBoundingClientRect().height)")
        if abs(frame_height(page, 1) - content) < 1:
            return
        assert time.monotonic() < deadline, (frame_height(page, 1), content)
        page.wait_for_timeout(100)


def test_one_line_embed_makes_frames_sized_to_their_content(page, site_url, serve, tmp_path, screenshot_dir):
    page.set_viewport_size({"width": 1280, "height": 800})
    one_line_page(tmp_path, site_url)
    with serve(tmp_path) as author:
        page.goto(author + "lesson.html")
        page.wait_for_function("() => document.querySelectorAll('iframe').length === 2")
        srcs = page.eval_on_selector_all("iframe", "fs => fs.map((f) => [f.src, f.title])")
        # the known attributes became the pages' parameters; the unknown and the refused ones did not
        assert srcs == [
            [site_url + "embed.html?seed=42&partner=easy&opponents=easy&speed=0&compact=1", "Play seed 42"],
            [site_url + "viewer.html?hand=" + quote(LESSON_HAND, safe="").replace("%20", "+"), "Spades hand viewer"],
        ], srcs
        warnings = page.console_warnings
        assert any("unknown attribute data-colour ignored" in w for w in warnings), warnings
        assert any('data-lang="xx" is not a valid value' in w for w in warnings), warnings

        game = frame_where(page, lambda u: "/embed.html?" in u)
        wait_playable(game)
        assert hand(game) == sorted(Match(seed=42).hand(0))
        viewer = frame_where(page, lambda u: "/viewer.html?" in u)
        viewer.wait_for_selector("body[data-ready='1']", timeout=BOOT_MS)
        fits(page, game, viewer)
        page.screenshot(path=str(screenshot_dir / "embed-js-1280x800.png"), full_page=True)

        # a size message is taken only from the frame's own window, in exactly its shape
        page.evaluate("(type) => window.postMessage({type, height: 1111}, '*')", SIZE_MESSAGE)
        viewer.evaluate("""(type) => {
          parent.postMessage({type, height: '1234'}, '*');
          parent.postMessage({type, height: 1235, more: 1}, '*');
          parent.postMessage({type: 'other', height: 1236}, '*');
          parent.postMessage({type, height: 777}, '*');
        }""", SIZE_MESSAGE)
        page.wait_for_function("() => document.querySelectorAll('iframe')[1].getBoundingClientRect().height === 777")
        assert frame_height(page, 1) == 777
        # on a phone the frames follow their pages' new heights
        page.set_viewport_size({"width": 390, "height": 844})
        fits(page, game, viewer)
        page.screenshot(path=str(screenshot_dir / "embed-js-390x844.png"), full_page=True)
        assert page.console_errors == []
        assert [u for u in page.foreign_requests if not u.startswith((author, site_url))] == []
