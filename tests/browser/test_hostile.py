"""Saves that cannot be lost and hostile input, in the browser (issue 10, cases 3-13).

Each test drives the built game like a player (clicks, typing, links, a second tab) and
asserts the one right outcome: what the player is told (the English catalogue's text),
and what is in localStorage afterwards. Saves are made by the Python engine itself
(an independent writer), then damaged or forged here.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from driver import ASK_SPY, BOOT_MS, EN, SAVE_KEY, assert_clean, next_action, seed_save, wait_playable
from spades import bridge
from spades.match import Match
from spades.session import Session

pytestmark = pytest.mark.browser

#: Each refused save is kept under "<ASIDE_PREFIX><ms>" (game/persistence.js), at most MAX_ASIDE of them.
ASIDE_PREFIX = "spades.refused.v1."
MAX_ASIDE = 5
ASIDE_JS = """(prefix) => Object.keys(localStorage).filter((k) => k.startsWith(prefix))
  .sort((a, b) => Number(a.slice(prefix.length)) - Number(b.slice(prefix.length))).map((k) => localStorage.getItem(k))"""
GAME = "?speed=0&partner=easy&opponents=easy"
PLAYABLE = "body[data-phase='bid'], body[data-phase='play']"
#: A seed whose first dealer is the player (seat 0): the three computer players bid first.
PLAYER_DEALS = 6

# localStorage refuses the match's save while window.__full is true (a full quota).
FULL_STORAGE = """
(() => {
  const setItem = Storage.prototype.setItem;
  window.__full = false;
  window.__refusedWrites = 0; // the match's writes refused while full
  Storage.prototype.setItem = function (key, value) {
    if (window.__full && key === %s) {
      window.__refusedWrites += 1;
      throw new DOMException("quota", "QuotaExceededError");
    }
    return setItem.call(this, key, value);
  };
})();
""" % json.dumps(SAVE_KEY)


# Records every text the message line shows from now on (window.__messages, in order).
MESSAGES_SPY = """() => {
  const line = document.querySelector("[data-role='message']");
  window.__messages = [];
  new MutationObserver(() => window.__messages.push(line.textContent))
    .observe(line, {childList: true, characterData: true, subtree: true});
}"""


def engine_save(seed: int) -> str:
    """A fresh match's save text, as the engine writes it."""
    reply = json.loads(bridge.handle(json.dumps({"fn": "new_match", "args": {"seed": seed}})))
    return reply["save"]


def stored(page, key: str = SAVE_KEY):
    return page.evaluate("(key) => localStorage.getItem(key)", key)


def boot(page, site_url: str, query: str = GAME) -> None:
    page.goto(site_url + query)
    wait_playable(page)


def bid_now(page) -> None:
    """Wait for the player's bid and bid 3 by clicking."""
    assert next_action(page) == {"kind": "bid"}
    page.click("#bid-panel button[data-bid='3']")
    page.wait_for_function("() => !document.querySelector(\"#bid-panel:not([hidden]) button[data-bid='3']:enabled\")")


def notice_text(page, name: str) -> str:
    return page.locator(f"#notices [data-notice='{name}'] span").inner_text()


# ---------------------------------------------------------------- case 3: links

def test_seed_link_asks_before_replacing_a_match_in_progress(page, site_url):
    boot(page, site_url, "?seed=61&" + GAME[1:])
    bid_now(page)
    before = stored(page)
    assert json.loads(before)["seed"] == 61
    page.goto(site_url + "?seed=62&" + GAME[1:])
    page.wait_for_selector("#new-dialog[open]", timeout=BOOT_MS)
    assert page.input_value("#new-seed") == "62"
    assert page.locator("#new-dialog [data-role='new-notice']").inner_text() == EN["fault.linkSeed"].replace("{seed}", "62")
    assert json.loads(stored(page))["seed"] == 61  # nothing replaced while asking
    page.click("#new-dialog [data-action='cancel-new']")
    page.wait_for_selector(PLAYABLE)
    assert json.loads(stored(page))["seed"] == 61
    # the link again, accepted this time: the link's match is dealt
    page.goto(site_url + "?seed=62&" + GAME[1:])
    page.wait_for_selector("#new-dialog[open]", timeout=BOOT_MS)
    page.click("#new-dialog [data-action='start-match']")
    page.wait_for_function("(key) => JSON.parse(localStorage.getItem(key)).seed === 62", arg=SAVE_KEY)
    assert "seed=" not in page.url  # a reload resumes, it does not deal again
    assert_clean(page)


def test_bad_seed_link_is_refused_with_its_reason(page, site_url):
    page.goto(site_url + "?seed=%C2%B2&" + GAME[1:])
    page.wait_for_selector("#new-dialog[open]", timeout=BOOT_MS)
    assert page.locator("#new-dialog [data-role='new-notice']").inner_text() == EN["error.bad_seed"]
    assert stored(page) is None
    assert_clean(page)


# ---------------------------------------------------------------- case 4: two tabs

def test_second_tab_says_so_and_can_take_over(page, site_url):
    first = page
    boot(first, site_url, "?seed=71&" + GAME[1:])
    bid_now(first)
    waiting = next_action(first)
    saved = stored(first)
    second = first.context.new_page()  # another tab of the same browser profile
    second.goto(site_url + GAME)
    second.wait_for_selector("#notices [data-notice='tab']", timeout=BOOT_MS)
    assert notice_text(second, "tab") == EN["fault.otherTab"]
    assert stored(second) == saved  # the second tab wrote nothing
    second.click("#notices [data-notice='tab'] button")
    wait_playable(second)
    first.wait_for_selector("#notices [data-notice='tab']")
    assert notice_text(first, "tab") == EN["fault.movedAway"]
    assert first.locator("#hand button:enabled, #bid-panel button:enabled").count() == 0
    # the second tab plays on from the first tab's last move
    assert next_action(second) == waiting
    assert stored(second) == saved


# ---------------------------------------------------------------- case 5: a full storage

def test_failed_save_is_shown_retried_and_never_partial(page, site_url):
    page.add_init_script(script=FULL_STORAGE)
    boot(page, site_url, f"?seed={PLAYER_DEALS}&" + GAME[1:])
    assert next_action(page) == {"kind": "bid"}
    before = stored(page)
    page.evaluate("() => { window.__full = true; }")
    bid_now(page)
    page.wait_for_selector("#notices [data-notice='storage']")
    assert notice_text(page, "storage") == EN["fault.storageFailed"]
    assert stored(page) == before  # the previous good save, whole
    # the game's own messages go on in the message line; the notice stays
    # two retries of the write (persistence.SAVE_RETRY_MS apart), both refused
    page.wait_for_function("(n) => window.__refusedWrites >= n", arg=page.evaluate("() => window.__refusedWrites") + 2)
    assert notice_text(page, "storage") == EN["fault.storageFailed"]
    assert stored(page) == before
    page.evaluate("() => { window.__full = false; }")
    page.wait_for_selector("#notices [data-notice='storage']", state="detached")
    after = json.loads(stored(page))
    assert after["match"]["hands"][0]["bids"][0] == 3  # the retried save holds the bid
    assert_clean(page)


# ---------------------------------------------------------------- cases 6 and 13: input

@pytest.mark.parametrize("seed", ["²", "--1", "9" * 5000])
def test_bad_seed_in_dialog_refused_and_bots_keep_playing(page, site_url, seed):
    boot(page, site_url, f"?seed={PLAYER_DEALS}&speed=slow&partner=easy&opponents=easy")
    page.click(".tools button[data-action='new-match']")
    page.wait_for_selector("#new-dialog[open]")
    page.fill("#new-seed", seed)
    page.evaluate(MESSAGES_SPY)
    page.click("#new-dialog button[data-action='start-match']")
    # the refusal itself (the computer players' next messages may replace its text at once)
    page.wait_for_selector("body[data-refusal='bad_seed']", timeout=BOOT_MS)
    assert EN["error.bad_seed"] in page.evaluate("() => window.__messages")  # and the player was told why
    # the computer players' bids go on until it is the player's turn (at slow speed, and on a
    # busy machine: as long as a boot may take)
    page.wait_for_selector("#bid-panel:not([hidden]) button[data-bid='3']:enabled", timeout=BOOT_MS)
    assert json.loads(stored(page))["seed"] == PLAYER_DEALS
    assert_clean(page)


def test_hostile_address_values_reach_no_prototype(page, site_url):
    boot(page, site_url, "?seed=81&speed=__proto__&lang=constructor&partner=toString&opponents=__proto__")
    assert page.evaluate("() => document.documentElement.lang") == "en"
    # the levels fell back to the default (not "toString" / "__proto__")
    levels = json.loads(stored(page))
    assert (levels["partner"], levels["opponents"]) == ("normal", "normal")
    bid_now(page)
    assert_clean(page)  # no request for i18n/constructor.json, no page error


def test_double_click_on_a_bid_sends_one_bid(page, site_url):
    page.add_init_script(script=ASK_SPY)
    boot(page, site_url, f"?seed={PLAYER_DEALS}&" + GAME[1:])
    assert next_action(page) == {"kind": "bid"}
    page.dblclick("#bid-panel button[data-bid='4']")
    # the bid is taken once the engine's reply is saved (the panel may still show until then)
    page.wait_for_function("""(key) => {
      const save = JSON.parse(localStorage.getItem(key) || "null");
      return Boolean(save) && save.match.hands[0].bids[0] === 4;
    }""", arg=SAVE_KEY, timeout=30_000)
    next_action(page)
    assert page.evaluate("() => window.__asked.filter((fn) => fn === 'bid').length") == 1
    assert json.loads(stored(page))["match"]["hands"][0]["bids"][0] == 4
    assert page.locator("[data-role='message']").get_attribute("data-kind") != "error"
    assert_clean(page)


# ---------------------------------------------------------------- cases 7-12: saves

def deep(n: int) -> str:
    return "[" * n + "]" * n


def with_start(field: str, value) -> str:
    save = json.loads(engine_save(91))
    save["match"]["start"][field] = value
    return json.dumps(save)


REFUSED_SAVES = [
    ("damaged JSON", lambda: engine_save(91)[:-40], "not_json"),
    ("float dealer", lambda: with_start("dealer", 1.0), "malformed"),
    ("100,000-deep nesting", lambda: deep(100_000), "too_deep"),
    ("450,000-character string", lambda: json.dumps({"format": "x" * 450_000}), "too_large"),
    ("absurd scores", lambda: with_start("scores", [10**100, 10**100]), "malformed"),
    ("tampered scores", lambda: with_start("scores", [490, -190]), "inconsistent"),
]


@pytest.mark.parametrize(("name", "make", "code"), REFUSED_SAVES, ids=[r[0] for r in REFUSED_SAVES])
def test_refused_save_is_explained_and_kept_aside(page, site_url, name, make, code):
    text = make()
    seed_save(page, text)
    page.goto(site_url + GAME)
    page.wait_for_selector("#new-dialog[open]", timeout=BOOT_MS)
    reason = EN["save.failed"].replace("{reason}", EN[f"save.{code}"]) + " " + EN["save.offer"]
    assert page.locator("#new-dialog [data-role='new-notice']").inner_text() == reason
    assert page.evaluate(ASIDE_JS, ASIDE_PREFIX) == [text]  # kept aside, whole
    assert stored(page) is None
    assert notice_text(page, "aside") == EN["fault.keptAside"]["one"].format(n=1, max=MAX_ASIDE)
    assert "Pyodide" not in page.inner_text("body")
    assert_clean(page)


def test_refused_save_can_be_downloaded(page, site_url):
    text = engine_save(92)[:-10]
    seed_save(page, text)
    page.goto(site_url + GAME)
    page.wait_for_selector("#new-dialog[open]", timeout=BOOT_MS)
    page.click("#new-dialog [data-action='cancel-new']")
    with page.expect_download() as info:
        page.click("#notices [data-notice='aside'] button")
    assert Path(info.value.path()).read_text(encoding="utf-8") == text
    assert re.fullmatch(r"spades-refused-save-\d{4}-\d{2}-\d{2}-\d{2}-\d{2}-\d{2}\.json", info.value.suggested_filename)


def test_each_refused_save_is_kept_aside_not_only_the_last(page, site_url):
    """A second refusal keeps its own copy beside the first: the notice counts both and offers
    each for download (newest first, named by its time)."""
    first, second = engine_save(95)[:-10], with_start("dealer", 1.0)
    seed_save(page, first)
    page.goto(site_url + GAME)
    page.wait_for_selector("#new-dialog[open]", timeout=BOOT_MS)
    page.evaluate("([key, text]) => localStorage.setItem(key, text)", [SAVE_KEY, second])
    page.reload()
    page.wait_for_selector("#new-dialog[open]", timeout=BOOT_MS)
    assert page.evaluate(ASIDE_JS, ASIDE_PREFIX) == [first, second]
    assert notice_text(page, "aside") == EN["fault.keptAside"]["other"].format(n=2, max=MAX_ASIDE)
    page.click("#new-dialog [data-action='cancel-new']")
    buttons = page.locator("#notices [data-notice='aside'] button")
    assert buttons.count() == 2
    downloaded = []
    for i in range(2):
        with page.expect_download() as info:
            buttons.nth(i).click()
        downloaded.append(Path(info.value.path()).read_text(encoding="utf-8"))
    assert downloaded == [second, first]
    assert_clean(page)


def test_kept_aside_copies_are_bounded_oldest_dropped(page, site_url):
    """Past MAX_ASIDE refusals the oldest copy goes; a full storage drops the oldest to make room."""
    page.goto(site_url + "stats.html")  # any page of the site: the store is used directly
    kept = page.evaluate("""async (max) => {
      const { matchStore, MAX_ASIDE } = await import('./game/persistence.js');
      const store = matchStore(false);
      Object.keys(localStorage).filter((k) => k.startsWith('spades.refused')).forEach((k) => localStorage.removeItem(k));
      for (let i = 1; i <= MAX_ASIDE + 2; i++) store.keepAside(`save ${i}`, 1000);  // one moment: each still its own
      const bounded = store.asideSaves().map((c) => c.text);
      const setItem = Storage.prototype.setItem;   // now the storage is full for a new copy ...
      Storage.prototype.setItem = function (key, value) {
        if (key.startsWith('spades.refused') && Object.keys(localStorage).filter((k) => k.startsWith('spades.refused')).length >= 3)
          throw new DOMException('full', 'QuotaExceededError');
        return setItem.call(this, key, value);
      };
      const ok = store.keepAside('save 8', 2000);
      Storage.prototype.setItem = setItem;
      return { max: MAX_ASIDE, bounded, ok, after: store.asideSaves().map((c) => c.text) };
    }""", MAX_ASIDE)
    assert kept["max"] == MAX_ASIDE
    assert kept["bounded"] == [f"save {i}" for i in range(3, MAX_ASIDE + 3)]
    assert kept["ok"] is True
    assert kept["after"] == ["save 6", "save 7", "save 8"]  # the oldest made way until the new copy fitted


def test_custom_position_is_marked(page, site_url):
    session = Session(Match(seed=93, scores=(490, -190)), partner="easy", opponents="easy", seed=93)
    seed_save(page, session.to_json())
    boot(page, site_url, GAME)
    mark = page.locator("[data-role='custom-mark']")
    assert mark.is_visible()
    assert mark.inner_text() == EN["fault.custom"]
    # a fresh deal of its own seed is not custom
    page.click(".tools button[data-action='new-match']")
    page.wait_for_selector("#new-dialog[open]")
    page.click("#new-dialog button[data-action='start-match']")
    page.wait_for_function("() => document.querySelector(\"[data-role='custom-mark']\").hidden")
    assert_clean(page)


# ---------------------------------------------------------------- no raw engine text

def test_every_engine_error_code_has_a_translation():
    """The page shows the engine's refusals by code only (announcer.errorText): every code
    the bridge may send, and the page's own "stopped", has its text; save refusals too."""
    codes = set(bridge.ERROR_CODES) | {"stopped", "boot"}
    assert sorted(c for c in codes if f"error.{c}" not in EN) == []
    save_codes = {"not_json", "wrong_format", "wrong_version", "malformed", "bad_deal", "illegal_history",
                  "inconsistent", "too_large", "too_deep"}
    assert sorted(c for c in save_codes if f"save.{c}" not in EN) == []
