"""House rules in the browser, played like a player: the New match dialog's rules section,
the rules chip, ``?rules=`` links (a refused one falls back to 1.0.0 with a notice), the
blind-nil choice by keyboard, jokers on the table, a resumed match keeping its rules, the
score sheet and the hand viewer naming the rules.

Every test uses a fresh ``page`` (its own storage) where it changes the remembered rules
choice, so the shared ``game`` page keeps playing 1.0.0 for the other modules.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from driver import BOOT_MS, EN, QUERY, SAVE_KEY, assert_clean, bridge_save_at, open_game, open_rules, seed_save, show_hand, wait_playable
from spades import bridge

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
DE = json.loads((ROOT / "site" / "i18n" / "de.json").read_text(encoding="utf-8"))
#: A jokers deal where the player holds both jokers (checked below through the bridge).
JOKER_SEED = 3
#: Blind nil allowed at any score, and the player bids first in the first hand.
BLIND_SEED = 7
BLIND_RULES = "blind-nil,blind_nil_trail=0"


def saved(page) -> dict:
    """The session save the page keeps (a 1.0.0 match save has no ``rules``)."""
    return json.loads(page.evaluate("(key) => localStorage.getItem(key)", SAVE_KEY))


def wait_saved_rules(page, name: str) -> dict:
    page.wait_for_function(
        """([key, name]) => {
          const text = localStorage.getItem(key);
          return text && (JSON.parse(text).match.rules || {name: '1.0.0'}).name === name
            && ['bid', 'play'].includes(document.body.dataset.phase);
        }""", arg=[SAVE_KEY, name], timeout=30_000)
    return saved(page)


def test_a_jokers_match_from_the_dialog(page, site_url):
    hand = bridge.new_match({"seed": JOKER_SEED, "partner": "easy", "opponents": "easy", "rules": "jokers"})["hand"]
    assert {"BJ", "LJ"} <= set(hand)
    open_game(page, site_url, 1)
    assert page.is_hidden("[data-role='rules-chip']")  # 1.0.0: quiet
    open_rules(page)
    assert page.input_value("#rules-preset") == "1.0.0"
    page.select_option("#new-partner", "easy")
    page.select_option("#new-opponents", "easy")
    page.fill("#new-seed", str(JOKER_SEED))
    page.select_option("#rules-preset", "jokers")
    # the preset fills the options
    assert page.input_value("#rules-deck") == "jokers"
    page.click("#new-dialog button[data-action='start-match']")
    save = wait_saved_rules(page, "jokers")
    assert save["seed"] == JOKER_SEED and save["match"]["rules"]["deck"] == "jokers"
    # the player's hand holds both jokers, named and drawn as jokers
    page.wait_for_selector("#hand button[data-card='BJ']")
    assert page.get_attribute("#hand button[data-card='BJ']", "aria-label") == EN["card.BJ"]
    assert page.get_attribute("#hand button[data-card='LJ']", "aria-label") == EN["card.LJ"]
    assert page.get_attribute("#hand button[data-card='BJ']", "data-suit") == "J"
    assert page.locator("#hand button[data-card]").first.get_attribute("data-card") == "BJ"
    chip = page.locator("[data-role='rules-chip']")
    assert chip.text_content() == EN["rules.chip"].format(name=EN["rules.name.jokers"])
    assert chip.get_attribute("href").endswith("rules/en.html#house") and chip.get_attribute("target") == "_blank"
    # the score sheet names the rules in force
    page.click(".tools button[data-action='scores']")
    page.wait_for_selector("#sheet-dialog[open]")
    assert page.text_content("[data-role='sheet-rules']") == EN["rules.chip"].format(name=EN["rules.name.jokers"])
    page.keyboard.press("Escape")
    # the next New match remembers the choice
    open_rules(page)
    assert page.input_value("#rules-preset") == "jokers"
    page.keyboard.press("Escape")
    assert_clean(page)


def test_an_option_makes_a_custom_combination_and_an_impossible_one_is_refused(page, site_url):
    open_game(page, site_url, 2)
    before = saved(page)
    open_rules(page)
    page.select_option("#rules-preset", "suicide")
    assert page.is_checked("#rules-suicide")
    page.fill("#rules-target", "300")
    page.press("#rules-target", "Tab")
    page.wait_for_function("() => document.querySelector('#rules-preset').value === 'custom'")
    # suicide with a minimum team bid: the engine refuses, the dialog stays open, nothing lost
    page.select_option("#rules-min_team_bid", "2")
    error = page.locator("[data-role='rules-error']")
    error.wait_for(state="visible")
    want = EN["rules.refused"].format(reason=EN["error.rules_conflict"])
    assert error.text_content() == want and error.get_attribute("aria-live") == "assertive"
    page.click("#new-dialog button[data-action='start-match']")
    assert page.is_visible("#new-dialog[open]")
    assert error.text_content() == want
    assert page.input_value("#rules-target") == "300" and page.is_checked("#rules-suicide")
    assert saved(page) == before  # the match in play is untouched
    # put it right: the custom match starts
    page.select_option("#rules-min_team_bid", "0")
    error.wait_for(state="hidden")
    page.click("#new-dialog button[data-action='start-match']")
    save = wait_saved_rules(page, "custom")
    assert save["match"]["rules"]["target"] == 300 and save["match"]["rules"]["suicide"] is True
    chip = page.text_content("[data-role='rules-chip']")
    assert chip.startswith(EN["rules.chip"].format(name=EN["rules.name.custom"]))
    assert EN["rules.sum.target"].format(target=300) in chip
    assert_clean(page)


def test_a_bogus_rules_link_plays_standard_with_a_translated_notice(page, site_url):
    page.goto(site_url + QUERY.format(seed=4) + "&rules=bogus&lang=de")
    wait_playable(page)
    note = page.locator("#notices[role='status'] [data-notice='rules']")
    note.wait_for(state="visible")
    want = DE["rules.linkRefused"].format(reason=DE["error.unknown_preset"])
    assert want in note.text_content()
    assert saved(page)["match"].get("rules", {"name": "1.0.0"})["name"] == "1.0.0"
    assert page.locator("#hand button[data-card]").count() == 13
    assert page.is_hidden("[data-role='rules-chip']")
    assert "rules=" not in page.url  # a reload resumes this match
    note.get_by_role("button", name=DE["rules.dismiss"]).click()
    note.wait_for(state="detached")
    assert_clean(page)


def test_a_custom_rules_link_and_a_resumed_match_keep_their_rules(page, site_url):
    page.goto(site_url + QUERY.format(seed=5) + "&rules=jokers,target=300")
    wait_playable(page)
    save = wait_saved_rules(page, "custom")
    assert save["match"]["rules"]["deck"] == "jokers" and save["match"]["rules"]["target"] == 300
    chip = page.text_content("[data-role='rules-chip']")
    page.reload()
    wait_playable(page)
    page.wait_for_function("(t) => document.querySelector(\"[data-role='rules-chip']\").textContent === t", arg=chip)
    assert saved(page)["match"]["rules"] == save["match"]["rules"]
    # the sheet says when this match ends
    page.click(".tools button[data-action='scores']")
    page.wait_for_selector("#sheet-dialog[open]")
    assert page.text_content("#sheet-dialog [data-i18n='sheet.target']") == \
        EN["rules.target"].format(target=300, floor="-200")
    page.keyboard.press("Escape")
    assert_clean(page)


def jokers_save_after_one_hand(seed: int = JOKER_SEED) -> str:
    """A session save (as the page keeps it) of an Easy jokers match whose first hand is scored."""
    return bridge_save_at(lambda st: bool(st["sheet"]), seed, rules="jokers")


def test_a_resumed_jokers_match_exports_its_hand_with_its_rules(page, site_url):
    seed_save(page, jokers_save_after_one_hand())
    page.goto(site_url + "?speed=0")
    wait_playable(page)
    page.wait_for_selector("[data-role='rules-chip']:not([hidden])")
    assert page.text_content("[data-role='rules-chip']") == EN["rules.chip"].format(name=EN["rules.name.jokers"])
    page.click(".tools button[data-action='scores']")
    page.wait_for_selector("#sheet-dialog[open]")
    page.click("#sheet-dialog button[data-action='export-hand']")
    area = page.wait_for_selector("[data-role='export-text']")
    assert "Rules: jokers" in area.input_value().splitlines()
    assert "Rules%3A%20jokers" in page.get_attribute("[data-role='export-link']", "href")
    page.keyboard.press("Escape")
    assert_clean(page)


def test_blind_nil_is_chosen_by_keyboard_before_the_cards_are_shown(page, site_url):
    page.add_init_script(script="""document.addEventListener('DOMContentLoaded', () => {
      window.__said = [];
      new MutationObserver(() => { const t = document.getElementById('live').textContent; if (t) window.__said.push(t); })
        .observe(document.getElementById('live'), {childList: true, characterData: true, subtree: true});
    });""")
    page.goto(site_url + QUERY.format(seed=BLIND_SEED) + "&rules=" + BLIND_RULES)
    page.wait_for_selector("#blind-choice:not([hidden])", timeout=BOOT_MS)
    # the cards stay face down until the choice
    assert page.locator("#hand button[data-card]").count() == 0
    assert page.is_visible("[data-role='blind-note']") and page.is_hidden("#bid-grid")
    page.wait_for_function("(t) => window.__said.some((s) => s.includes(t))", arg=EN["blind.offer"])
    # keyboard only: from the top of the page Tab reaches "See my cards", then "Bid blind nil"; Enter bids it
    focused = lambda: page.evaluate("() => document.activeElement && document.activeElement.dataset.role")  # noqa: E731
    for _ in range(40):
        page.keyboard.press("Tab")
        if focused() == "blind-see":
            break
    else:
        raise AssertionError("Tab never reached the blind-nil choice")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.dataset.role") == "blind-bid"
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelectorAll('#hand button[data-card]').length === 13")
    assert page.text_content(".seat[data-seat='0'] .seat-bid") == EN["seat.bid"].format(bid=EN["bid.blindNil"])
    page.wait_for_function("(t) => window.__said.some((s) => s.includes(t))",
                           arg=EN["announce.youBid"].format(bid=EN["bid.blindNil"]))
    assert saved(page)["match"]["rules"]["blind_nil"] is True
    assert_clean(page)


def test_see_my_cards_shows_the_hand_and_the_bids(page, site_url):
    page.goto(site_url + QUERY.format(seed=BLIND_SEED) + "&rules=" + BLIND_RULES)
    page.wait_for_selector("#blind-choice:not([hidden])", timeout=BOOT_MS)
    page.focus("[data-role='blind-see']")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelectorAll('#hand button[data-card]').length === 13")
    assert page.is_hidden("#blind-choice") and page.is_visible("#bid-grid")
    assert page.evaluate("() => document.activeElement.dataset.bid") is not None
    # the look is the engine's and is saved: after a reload the cards are up and blind nil is gone
    page.wait_for_function("(key) => (JSON.parse(localStorage.getItem(key) || '{}').looked || []).length === 1",
                           arg=SAVE_KEY)
    assert saved(page)["looked"] == [0]
    page.reload()
    page.wait_for_function("() => document.querySelectorAll('#hand button[data-card]').length === 13",
                           timeout=BOOT_MS)
    assert page.is_hidden("#blind-choice") and page.is_visible("#bid-grid")
    assert page.locator("[data-role='blind-bid']:visible").count() == 0
    assert_clean(page)


#: A blind-nil deal where the player bids last (dealer: the player), so the computer players bid first.
BLIND_LAST_SEED = 6


def test_see_my_cards_while_the_computer_players_bid(page, site_url):
    """The look is taken while the computer players are still bidding (at a watchable speed),
    not dropped: when the player's turn comes the cards are up and blind nil is gone."""
    page.goto(site_url + f"?seed={BLIND_LAST_SEED}&speed=slow&partner=easy&opponents=easy&rules=" + BLIND_RULES)
    page.wait_for_selector("#blind-choice:not([hidden])", timeout=BOOT_MS)
    assert page.locator("#bid-panel button[data-bid='3']:enabled").count() == 0  # not the player's turn
    page.click("[data-role='blind-see']")
    page.wait_for_function("() => document.querySelectorAll('#hand button[data-card]').length === 13")
    page.wait_for_selector("#bid-panel:not([hidden]) button[data-bid='3']:enabled", timeout=30_000)
    assert page.is_hidden("#blind-choice")
    assert saved(page)["looked"] == [0]
    assert_clean(page)


def test_the_viewer_reads_the_rules_of_a_hand(viewer):
    """A jokers hand with a blind nil, exported by the engine: the viewer names the rules, the
    jokers and the blind nil."""
    bridge.new_match({"seed": JOKER_SEED, "partner": "easy", "opponents": "easy", "rules": "jokers,blind_nil=yes,blind_nil_trail=0"})
    while not bridge.state()["sheet"]:
        st = bridge.state()
        if st["to_act"] != 0:
            bridge.run_bots({})
        elif st["phase"] == "bid":
            bridge.bid({"n": "blind" if "blind" in st["legal_bids"] else st["legal_bids"][0]})
        else:
            bridge.play({"card": st["legal_cards"][0]})
    text = bridge.export({})["text"]
    assert "Rules: " in text
    show_hand(viewer, text)
    assert viewer.text_content("#rules-line").startswith(EN["rules.chip"].format(name=EN["rules.name.custom"]))
    assert viewer.get_attribute("[data-card='BJ']", "aria-label") == EN["card.BJ"]
    viewer.click("#last")
    bids = viewer.locator("[data-bid]").all_text_contents()
    assert any(EN["bid.blindNil"] in b for b in bids)
    assert_clean(viewer)


def test_an_undone_blind_nil_leaves_the_cards_face_up_and_blind_nil_closed(page, site_url):
    """"Bid blind nil" shows the cards; Undo takes the bid back but not the look: the cards stay
    up, blind nil is no longer offered, and a reload keeps it so (issue 30, case 1)."""
    page.goto(site_url + "?speed=0&seed=1&rules=" + BLIND_RULES)
    page.wait_for_selector("#blind-choice:not([hidden])", timeout=BOOT_MS)
    assert page.locator("#hand button[data-card]").count() == 0
    page.click("[data-role='blind-bid']")
    page.wait_for_function("() => document.querySelectorAll('#hand button[data-card]').length === 13")
    page.wait_for_selector("button[data-action='undo']:enabled")
    page.click("button[data-action='undo']")
    page.wait_for_selector("#bid-panel:not([hidden]) button[data-bid='3']:enabled", timeout=30_000)
    assert page.locator("#hand button[data-card]").count() == 13
    assert page.is_hidden("#blind-choice")
    assert page.locator("[data-role='blind-bid']:visible").count() == 0
    page.wait_for_function("(key) => (JSON.parse(localStorage.getItem(key) || '{}').looked || []).length === 1",
                           arg=SAVE_KEY)
    state = saved(page)
    assert state["looked"] == [0] and state["match"]["hands"][-1]["bids"][0] is None
    page.reload()
    page.wait_for_selector("#bid-panel:not([hidden]) button[data-bid='3']:enabled", timeout=BOOT_MS)
    assert page.locator("#hand button[data-card]").count() == 13 and page.is_hidden("#blind-choice")
    assert_clean(page)


def test_review_of_a_jokers_hand_says_the_house_rules_are_not_supported(page, site_url):
    """The review cannot score jokers: it says so in the player's words, not "a value it does not
    accept" (issue 30, case 7)."""
    seed_save(page, jokers_save_after_one_hand())
    page.goto(site_url + "?speed=0")
    wait_playable(page)
    page.click(".tools button[data-action='scores']")
    page.wait_for_selector("#sheet-dialog[open]")
    page.click("#sheet-dialog button[data-action='review-hand']")
    page.wait_for_function("(t) => { const p = document.querySelector('.review-panel p[aria-live]');"
                           " return p && p.textContent === t; }", arg=EN["error.unsupported_rules"], timeout=60_000)
    page.keyboard.press("Escape")
    assert_clean(page)
