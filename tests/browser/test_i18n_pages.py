"""The game page in each language: table, bid panel and score sheet come from
site/i18n/<lang>.json; <html lang> follows; both screens are axe-clean in every language
(no violation of impact serious or critical; test_a11y.py audits every screen in English);
the language can be switched in the settings at any time, is remembered after a reload,
and the browser's language is picked on a first visit.

Expected strings are read from the JSON files themselves; a language of LANGS without
its file fails.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from helpers import I18N, LANGS, TRANSLATIONS

from driver import BOOT_MS, assert_clean, axe_blocking, bridge_save_at, seed_save, wait_playable

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def strings(lang):
    path = I18N / f"{lang}.json"
    if not path.is_file():
        pytest.fail(f"site/i18n/{lang}.json is missing")
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def second_hand_save() -> str:
    """A session save after hand 1 was scored, at the player's first bid of hand 2."""
    return bridge_save_at(lambda st: len(st["sheet"]) == 1 and st["phase"] == "bid" and st["to_act"] == 0)


def check_table(page, lang, d):
    assert page.get_attribute("html", "lang") == lang
    for seat in range(4):
        assert page.text_content(f".seat[data-seat='{seat}'] .seat-name") == d[f"seat.{seat}"]
    # the nil bid is named with this language's nil word (real accessible name)
    nil = page.get_by_role("button", name=re.compile(re.escape(d["bid.nilButton"]), re.I))
    assert nil.count() >= 1
    assert nil.first.get_attribute("data-bid") == "0"
    assert d["bid.nilButton"] in page.text_content("button[data-bid='0']")
    # the other bids and the cards have names in this language too
    three = page.get_attribute("button[data-bid='3']", "aria-label")
    assert three in [v.replace("{n}", "3") for v in d["bid.aria"].values()], three
    label = page.get_attribute("#hand button[data-card]", "aria-label")
    suits = [d[f"suit.{s}"] for s in "SHDC"]
    assert any(s in label for s in suits), label
    assert page.get_attribute(".scoreboard", "aria-label") == d["scores.label"]
    assert page.text_content(".tools [data-action='settings']") == d["action.settings"]


@pytest.mark.parametrize("lang", LANGS)
def test_page_in_language(page, site_url, second_hand_save, lang, screenshot_dir):
    """The bidding screen and the score sheet in ``lang`` (?lang=): its own texts, and axe-clean."""
    d = strings(lang)
    seed_save(page, second_hand_save)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(site_url + f"?lang={lang}&speed=0")
    page.wait_for_selector("#bid-panel:not([hidden]) button[data-bid='3']:enabled", timeout=BOOT_MS)
    check_table(page, lang, d)
    assert page.text_content("[data-role='bid-prompt']") == d["bid.prompt"]
    assert page.title() == d["app.title"]
    page.screenshot(path=str(screenshot_dir / f"i18n-{lang}-bid.png"))
    assert axe_blocking(page) == [], f"bidding screen in {lang}"
    # the score sheet: title, table headers and row labels
    page.click(".tools [data-action='scores']")
    page.wait_for_selector("#sheet-dialog[open] table.history")
    assert page.text_content("#sheet-title") == d["sheet.title"]
    assert page.text_content("#sheet-dialog table.history caption") == d["sheet.history"]
    assert page.text_content("#sheet-dialog table.history thead th.corner") == d["sheet.hand"]
    row_heads = page.eval_on_selector_all("#sheet-dialog table.breakdown tbody th", "els => els.map(e => e.textContent)")
    assert d["sheet.bids"] in row_heads and d["sheet.total"] in row_heads
    team_heads = page.eval_on_selector_all("#sheet-dialog table.breakdown thead th", "els => els.map(e => e.textContent)")
    assert any(h.startswith(d["team.0"]) for h in team_heads)
    assert page.text_content("#sheet-dialog [data-action='close-sheet']") == d["action.close"]
    page.screenshot(path=str(screenshot_dir / f"i18n-{lang}-sheet.png"))
    assert axe_blocking(page) == [], f"score sheet in {lang}"
    page.keyboard.press("Escape")
    assert_clean(page)


def test_switching_language_in_settings_persists(page, site_url, second_hand_save):
    en = strings("en")
    targets = [lang for lang in TRANSLATIONS if (I18N / f"{lang}.json").is_file()]
    if not targets:
        pytest.skip("no translation delivered yet")
    seed_save(page, second_hand_save)
    page.goto(site_url + "?speed=0")
    page.wait_for_selector("#bid-panel:not([hidden]) button[data-bid='3']:enabled", timeout=BOOT_MS)
    check_table(page, "en", en)
    for lang in targets:
        d = strings(lang)
        page.click(".tools [data-action='settings']")
        page.wait_for_selector("#settings-dialog[open]")
        page.focus("#lang-select")
        page.select_option("#lang-select", lang)
        page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
        # the open dialog follows at once
        assert page.text_content("#settings-title") == d["settings.title"]
        assert page.evaluate("() => document.activeElement.id") == "lang-select"
        page.keyboard.press("Escape")
        page.wait_for_function("() => !document.querySelector('#settings-dialog').open")
        check_table(page, lang, d)
        assert page.text_content("[data-role='bid-prompt']") == d["bid.prompt"]
    # remembered after a reload (no ?lang in the address)
    last = targets[-1]
    page.reload()
    page.wait_for_selector("#bid-panel:not([hidden]) button[data-bid='3']:enabled", timeout=BOOT_MS)
    check_table(page, last, strings(last))
    assert json.loads(page.evaluate("() => localStorage.getItem('spades.settings.v1')"))["lang"] == last
    assert_clean(page)


def test_browser_language_is_picked(browser, site_url, seed_snapshot):
    strings("de")
    context = browser.new_context(locale="de-DE")
    try:
        page = context.new_page()
        seed_snapshot(page)  # the engine restores instead of a full boot
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(site_url + "?seed=3&speed=0&partner=easy&opponents=easy")
        wait_playable(page)
        assert page.get_attribute("html", "lang") == "de"
        assert page.text_content(".seat[data-seat='1'] .seat-name") == strings("de")["seat.1"]
        assert errors == []
    finally:
        context.close()
