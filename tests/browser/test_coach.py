"""The coach in the game page (site/lib/coach.js): the hint with its reason, and "Why?" on a
computer player's last bid or card, shown and said in the live region.

The oracle is the engine itself: the same session save is resumed in Python's bridge and
asked the same question (``hint``, ``why``); its reason {code, params} is written out here
from en.json's ``reason.<code>`` with each parameter shown by its kind from
spades.ai.explain.CODES, independently of the page's code.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from spades import bridge  # noqa: E402
from spades.ai.explain import CODES, STRUCTURED_KINDS  # noqa: E402

from driver import EN, SHARED_QUERY, SPY, BOOT_MS, assert_clean, bridge_save_at, card_words, seed_save, sentence, wait_playable  # noqa: E402

COACH_JS = ROOT / "site" / "lib" / "coach.js"
HINT_LEVEL = "normal"  # the game's hint asks Normal when the engine has it
PARTNER = 2


def open_at(page, site_url: str, save: str) -> None:
    """The game resumed from ``save`` (the page's own localStorage), ready for the player."""
    page.add_init_script(script=SPY)
    seed_save(page, save)
    page.goto(site_url + SHARED_QUERY)
    wait_playable(page)
    page.wait_for_selector("[data-action='hint']:enabled")


def said(page, text: str) -> None:
    """Wait until the live region has said ``text`` (alone or joined with others)."""
    page.wait_for_function("(text) => window.__live.some((e) => e.text.includes(text))", arg=text)


def partner_led_save() -> str:
    """A save where the partner has played to the trick and the human is to play."""
    return bridge_save_at(lambda st: st["phase"] == "play" and st["to_act"] == 0 and st["trick"] is not None
                          and any(seat == PARTNER for seat, _ in st["trick"]["plays"]), seed=21)


def test_kind_table_matches_the_engine_registry():
    """coach.js shows each parameter by its name's kind: the table agrees with CODES."""
    text = COACH_JS.read_text(encoding="utf-8")
    table = text[text.index("const KIND = Object.freeze({"):]
    table = table[:table.index("});")]
    page_kinds = dict(re.findall(r"(\w+): \"(\w+)\"", table))
    engine = {name: kind for params in CODES.values() for name, kind in params.items()}
    for name, kind in engine.items():
        expected = "structured" if kind in STRUCTURED_KINDS else kind
        if expected in ("count", "tricks", "points", "percent"):
            assert name not in page_kinds, f"{name} is a number, coach.js shows it as {page_kinds.get(name)}"
        else:
            assert page_kinds.get(name) == expected, name
    assert set(page_kinds) <= set(engine), sorted(set(page_kinds) - set(engine))


@pytest.mark.browser
def test_hint_shows_its_reason_and_says_it(page, site_url):
    save = partner_led_save()
    bridge.resume({"save": save})
    reply = bridge.hint({"level": HINT_LEVEL})
    expected = EN["coach.hint"].format(level=EN[f"level.{HINT_LEVEL}"], reason=sentence(reply["reason"]))
    open_at(page, site_url, save)
    page.click("[data-action='hint']")
    bubble = page.wait_for_selector(".seat[data-seat='0'] .bubble[data-kind='hint']:not([hidden])")
    assert bubble.inner_text().replace("×", "").strip() == expected   # at the player's seat
    said(page, expected)
    # the suggested card is the one the engine suggests
    assert page.get_attribute("#hand button.hinted", "data-card") == reply["action"]["card"]
    assert_clean(page)


@pytest.mark.browser
def test_why_on_the_partners_card_by_keyboard(page, site_url):
    save = partner_led_save()
    bridge.resume({"save": save})
    reply = bridge.why({"seat": PARTNER})
    partner_card = next(card for seat, card in bridge.state()["trick"]["plays"] if seat == PARTNER)
    assert reply["action"] == {"card": partner_card}
    # the answer names the trick it explains (the partner's card is in the trick on the table)
    trick = sum(bridge.state()["tricks_won"]) + 1
    shown = EN["coach.whyTrick"].format(n=trick, reason=sentence(reply["reason"]))
    expected = EN["coach.why"].format(name=EN["seat.2"], reason=shown)
    open_at(page, site_url, save)
    button = page.locator(f"[data-action='why'][data-seat='{PARTNER}']")
    assert button.get_attribute("aria-label") == EN["coach.whyLabel.2"]
    button.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("(t) => (document.querySelector(\".seat[data-seat='2'] .bubble-text\") || {}).textContent === t",
                           arg=shown)                                # at the partner's seat
    said(page, expected)
    assert_clean(page)


@pytest.mark.browser
def test_why_before_the_seat_has_acted(page, site_url):
    """At the first bid of a match no computer seat has acted yet: "Why?" is not offered, and
    offered at a seat once it has bid."""
    save = bridge_save_at(lambda st: st["phase"] == "bid" and st["to_act"] == 0 and st["hand_number"] == 1
                          and st["bids"][3] is None, seed=7)
    open_at(page, site_url, save)
    for seat in (1, 2, 3):
        assert page.is_hidden(f"[data-action='why'][data-seat='{seat}']")
    page.click("#bid-panel button[data-bid='3']")
    page.wait_for_selector("[data-action='why'][data-seat='3']:visible")
    assert_clean(page)


@pytest.mark.browser
def test_why_on_the_partners_bid_names_no_partner_card(page, site_url):
    """Issue 30, case 4: at ``?seed=1&partner=easy`` the partner bids before the human, and its
    "Why?" named its aces and kings. It says how it counted, naming none of its cards."""
    bridge.new_match({"seed": 1, "partner": "easy"})
    bridge.run_bots({})
    reply = bridge.why({"seat": PARTNER})
    partner_hand = bridge.SESSIONS[bridge.DEFAULT_SESSION].match.view(PARTNER).hand
    assert "bid" in reply["action"] and reply["reason"]["code"] == "bid.easy_count"
    reason = sentence(reply["reason"])
    page.add_init_script(script=SPY)
    page.goto(site_url + "?speed=0&seed=1&partner=easy")
    page.wait_for_selector("body[data-phase='bid'] button[data-bid]:enabled", timeout=BOOT_MS)
    page.click(f"[data-action='why'][data-seat='{PARTNER}']")
    # the answer appears at the partner's seat, and the live region says it
    page.wait_for_function("(t) => (document.querySelector(\".seat[data-seat='2'] .bubble-text\") || {}).textContent"
                           "?.includes(t)", arg=reason)
    said(page, reason)
    shown = page.text_content(".seat[data-seat='2'] .bubble-text")
    spoken = page.evaluate("() => window.__live.map((e) => e.text).join(' | ')")
    for card in partner_hand:
        assert card_words(card) not in shown
        assert card_words(card) not in spoken, card
    assert_clean(page)
