"""The table as a player sees it (issue 32): court cards with faces and their suit signs the right
way up, the face-down hand while a blind nil is weighed, what the bid panel says of the partner,
the score sheet opening at its top, the New match dialog marking a refused field, the export
box, the review on the table keeping the seats' names, the message line never pushing the
hand off screen, "Why?" at the seat it asks, the nil bid no bigger than the others, the 800 x 600
embed, and the phone's controls a thumb can hit.

Each test drives the real page (the Python engine in its worker) and measures what is drawn.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from driver import (BOOT_MS, EN, GONE_JS, QUERY, SAVE_KEY, assert_clean, bridge_save_at, new_match, next_action, open_rules,
                    open_game, play_until, seed_save)
from spades import Match

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
RU = json.loads((ROOT / "site" / "i18n" / "ru.json").read_text(encoding="utf-8"))
#: A deal whose first hand gives the player court cards of two suits.
COURT_SEED = 11

#: For every suit sign (.pip) of every card face in `root`: whether it is drawn turned round
#: (an odd number of rotate(180) on it and its groups inside the card) and where its centre is,
#: as a fraction of the card's height from the top.
PIPS_JS = """(root) => {
  const out = [];
  for (const svg of document.querySelectorAll(root + ' .card-svg:not(.back)')) {
    const box = svg.getBoundingClientRect();
    const card = svg.closest('[data-card]').dataset.card;
    for (const pip of svg.querySelectorAll('.pip')) {
      let turns = 0;
      for (let n = pip; n && n !== svg; n = n.parentNode) {
        if ((n.getAttribute('transform') || '').includes('rotate(180')) turns++;
      }
      const r = pip.getBoundingClientRect();
      out.push({card, flipped: turns % 2 === 1, at: (r.top + r.height / 2 - box.top) / box.height});
    }
  }
  return out;
}"""


def test_suit_signs_stand_upright_in_the_upper_half_of_every_card(game):
    """A printed card's upper half shows its suit signs upright and its lower half turned round:
    the court cards drew theirs the other way (a spade read as a heart at a glance)."""
    page = game
    hand = Match(seed=COURT_SEED).hand(0)
    assert {c for c in hand if c[0] in "JQK"}, hand  # the deal the test relies on
    new_match(page, COURT_SEED)
    pips = page.evaluate(PIPS_JS, "#hand")
    courts = {p["card"] for p in pips if p["card"][0] in "JQK"}
    assert courts == {c for c in hand if c[0] in "JQK"}
    wrong = [p for p in pips if abs(p["at"] - 0.5) > 0.02 and p["flipped"] != (p["at"] > 0.5)]
    assert wrong == []
    # the court cards carry a picture (a face in each half), not a letter in a frame
    assert page.locator("#hand .card-svg .court-face").count() == len(courts)
    assert_clean(page)


BLIND_SEED = 7
BLIND_RULES = "blind-nil,blind_nil_trail=0"


def test_the_face_down_hand_shows_while_a_blind_nil_is_weighed(page, site_url):
    """While the player decides on a blind nil their thirteen cards lie face down where the hand
    is (they had vanished, an italic line half cut off below an 800 px window instead)."""
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(site_url + QUERY.format(seed=BLIND_SEED) + "&rules=" + BLIND_RULES)
    page.wait_for_selector("#blind-choice:not([hidden])", timeout=BOOT_MS)
    assert page.locator("#hand button[data-card]").count() == 0
    assert page.locator("#hand .back-card").count() == 13
    assert page.get_attribute("#hand .back-card", "aria-hidden") == "true"
    boxes = page.evaluate("""() => [...document.querySelectorAll('#hand .back-card, [data-role="blind-note"]')]
      .map((e) => e.getBoundingClientRect().bottom)""")
    assert max(boxes) <= 800, boxes
    page.click("[data-role='blind-see']")
    page.wait_for_function("() => document.querySelectorAll('#hand button[data-card]').length === 13")
    assert page.locator("#hand .back-card").count() == 0
    assert_clean(page)


#: A deal whose first hand the player deals: West, Partner and East bid before the player.
PLAYER_DEALS_SEED = 6


def test_partner_bids_after_you_only_when_the_partner_does(page, site_url):
    """With the player dealing, the partner bids before them: the bid panel never says the
    partner bids after the player (it said so whenever the partner had not bid yet)."""
    page.add_init_script(script="""window.__partner = [];
      document.addEventListener('DOMContentLoaded', () => {
        const note = document.querySelector("[data-role='partner-bid']");
        new MutationObserver(() => window.__partner.push(note.textContent))
          .observe(note, {childList: true, characterData: true, subtree: true});
      });""")
    page.goto(site_url + f"?seed={PLAYER_DEALS_SEED}&speed=fast&partner=easy&opponents=easy")
    page.wait_for_selector("#bid-panel:not([hidden]) button[data-bid='3']:enabled", timeout=BOOT_MS)
    assert page.locator(".seat[data-seat='0'] .dealer-chip:not([hidden])").count() == 1
    shown = page.evaluate("() => window.__partner")
    assert EN["bid.partnerNotYet"] in shown          # while West bid, before the partner
    assert EN["bid.partnerWaiting"] not in shown
    assert page.text_content("[data-role='partner-bid']").startswith(EN["bid.partner"].split("{")[0])
    assert_clean(page)


def test_partner_bids_after_you_when_you_bid_first(game):
    page = game
    new_match(page, BLIND_SEED)          # the player bids first in this deal
    page.wait_for_selector("#bid-panel:not([hidden]) button[data-bid='3']:enabled")
    assert page.evaluate("() => [0, 1, 2, 3].map((s) => document.querySelector(`.seat[data-seat='${s}'] .seat-bid`).textContent)") \
        == [EN["seat.noBid"]] * 4
    assert page.text_content("[data-role='partner-bid']") == EN["bid.partnerWaiting"]
    assert_clean(page)


def test_the_score_sheet_opens_at_its_top_with_the_result_in_view(game):
    """After a hand the sheet opens scrolled to its top, the hand's result row and Continue both
    in view, Continue focused (the focus had scrolled the sheet to its bottom)."""
    page = game
    new_match(page, COURT_SEED)
    play_until(page, lambda p, a: a["kind"] == "continue")
    geometry = page.evaluate("""() => {
      const dlg = document.querySelector('#sheet-dialog');
      const box = dlg.getBoundingClientRect();
      const row = dlg.querySelector('.breakdown tr.result').getBoundingClientRect();
      const go = dlg.querySelector("button[data-action='continue']").getBoundingClientRect();
      return {scroll: dlg.scrollTop, top: box.top, bottom: box.bottom, row: [row.top, row.bottom],
              go: [go.top, go.bottom], focused: document.activeElement.dataset.action};
    }""")
    assert geometry["scroll"] == 0
    assert geometry["top"] <= geometry["row"][0] and geometry["row"][1] <= geometry["bottom"], geometry
    assert geometry["go"][1] <= geometry["bottom"] and geometry["go"][1] <= 800, geometry
    assert geometry["focused"] == "continue"
    page.keyboard.press("Enter")
    page.wait_for_function("() => !document.querySelector('#sheet-dialog').open")
    assert_clean(page)


#: How long the refused field may take to get the focus (two rounds of engine checks).
FOCUS_MS = 20_000
#: Where the focus is, and what the form shows: for a failure's message.
FOCUSED_JS = """() => ({focus: document.activeElement && (document.activeElement.id || document.activeElement.tagName),
  dialog: document.querySelector('#new-dialog').open, error: document.querySelector("[data-role='rules-error']").textContent,
  target: document.querySelector('#rules-target').value})"""


def wait_for_focus_on_target(page) -> None:
    """Wait until the refused target field has the focus; else fail saying where it is."""
    try:
        page.wait_for_function("() => document.activeElement && document.activeElement.id === 'rules-target'",
                               timeout=FOCUS_MS)
    except Exception as exc:  # noqa: BLE001 - Playwright's timeout: say where the focus is
        raise AssertionError(f"the focus is on {page.evaluate(FOCUSED_JS)!r}, not on the refused field") from exc


def test_a_refused_target_is_marked_on_its_field(game):
    """A target of −5: the field itself is marked invalid, with a line beside it naming the
    problem, and takes the focus (the refusal was only a general line far below it)."""
    page = game
    open_rules(page)
    page.fill("#rules-target", "-5")
    page.click("#new-dialog button[data-action='start-match']")
    page.wait_for_selector("#rules-target[aria-invalid='true']")
    # the field takes the focus once the engine has named it (rules-form.js: refuse, then focus)
    wait_for_focus_on_target(page)
    line = page.locator("#rules-invalid-target")
    assert line.is_visible() and line.text_content() == EN["rules.invalidField"]
    assert "rules-invalid-target" in page.get_attribute("#rules-target", "aria-describedby").split()
    # beside the field: in its row, right under it
    gap = page.evaluate("""() => document.querySelector('#rules-invalid-target').getBoundingClientRect().top
      - document.querySelector('#rules-target').getBoundingClientRect().bottom""")
    assert 0 <= gap <= 12, gap
    # the other number fields are not marked
    assert page.locator("#new-dialog [aria-invalid='true']").count() == 1
    page.fill("#rules-target", "300")
    page.dispatch_event("#rules-target", "change")
    page.wait_for_function("() => !document.querySelector('#rules-target').hasAttribute('aria-invalid')")
    assert page.is_hidden("#rules-invalid-target")
    assert "rules-invalid-target" not in (page.get_attribute("#rules-target", "aria-describedby") or "")
    page.click("#new-dialog button[data-action='cancel-new']")
    assert_clean(page)


def test_a_refused_start_focuses_the_field_even_when_an_option_asks_again_meanwhile(game):
    """Start is refused, and before the engine answers the field's change asks again (a
    change the browser reports late): only the newest answer counts, and that answer still
    gives the refused field the focus Start asked for."""
    page = game
    open_rules(page)
    page.fill("#rules-target", "-5")
    page.focus("#new-dialog button[data-action='start-match']")   # the change is not reported yet
    page.evaluate("""() => {
      document.querySelector('#new-form').requestSubmit();
      document.querySelector('#rules-target').dispatchEvent(new Event('change', {bubbles: true}));
    }""")
    page.wait_for_selector("#rules-target[aria-invalid='true']")
    wait_for_focus_on_target(page)
    assert page.is_visible("#new-dialog")
    assert page.locator("#new-dialog [aria-invalid='true']").count() == 1
    page.fill("#rules-target", "500")
    page.dispatch_event("#rules-target", "change")
    page.wait_for_function("() => !document.querySelector('#rules-target').hasAttribute('aria-invalid')")
    page.click("#new-dialog button[data-action='cancel-new']")
    assert_clean(page)


def press_and_hold(page, selector: str) -> None:
    """Put the mouse on the middle of ``selector`` (scrolled into view) and press it, without releasing."""
    target = page.locator(selector)
    target.scroll_into_view_if_needed()
    box = target.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()


#: How long the slow tap below holds Start down (ms): time for the engine to answer the field's change.
SLOW_TAP_MS = 800


def test_a_slow_tap_on_start_lands_though_the_fields_refusal_arrives_during_it(game):
    """The player types −5 and presses Start slowly: the press blurs the field, whose change
    asks the engine, and the refusal arrives while the button is still down. Showing it above
    Start moved the button from under the pointer, so the release landed elsewhere and Start
    was lost (the field marked, the focus left on the button). The answer now waits for the
    press: Start is pressed, refused, and the field takes the focus."""
    page = game
    open_rules(page)
    page.fill("#rules-target", "-5")
    press_and_hold(page, "#new-dialog button[data-action='start-match']")
    page.wait_for_timeout(SLOW_TAP_MS)
    page.mouse.up()
    wait_for_focus_on_target(page)
    assert page.is_visible("#new-dialog")
    assert page.text_content("[data-role='rules-error']") != ""
    page.click("#new-dialog button[data-action='cancel-new']")
    assert_clean(page)


#: How long an answer may wait behind a press held down (site/lib/press.js waits 2 s at most), with room.
HELD_PRESS_MS = 6_000


def test_a_press_held_down_holds_the_rules_answer_back_only_briefly(game):
    """A press the page never sees released (one held on the field's explanation, as a release inside
    a native popup would be) delays the engine's answer to an option's change by at most a
    moment: the refusal is shown while the button is still down."""
    page = game
    open_rules(page)
    page.fill("#rules-target", "-5")
    press_and_hold(page, ".rule-opt:has(#rules-target) small")   # the field's explanation
    page.dispatch_event("#rules-target", "change")
    page.wait_for_selector("#rules-target[aria-invalid='true']", timeout=HELD_PRESS_MS)
    assert page.is_visible("[data-role='rules-error']")
    page.mouse.up()
    page.click("#new-dialog button[data-action='cancel-new']")
    assert_clean(page)


#: The refused field's error line: whether it lies wholly inside the viewport and inside every
#: scrolling box around it (its rectangle, and each clipping box's, to say where it is when not).
ERROR_LINE_SEEN_JS = """() => {
  const line = document.querySelector('#rules-invalid-target').getBoundingClientRect();
  const boxes = [{top: 0, bottom: innerHeight, what: 'viewport'}];
  for (let el = document.querySelector('#rules-invalid-target').parentElement; el; el = el.parentElement) {
    const cs = getComputedStyle(el);
    if (/(auto|scroll|hidden)/.test(cs.overflowY) && el.scrollHeight > el.clientHeight) {
      const r = el.getBoundingClientRect();
      boxes.push({top: r.top, bottom: r.top + el.clientHeight, what: el.id || el.className || el.tagName});
    }
  }
  const outside = boxes.filter((b) => line.top < b.top || line.bottom > b.bottom);
  return {line: [Math.round(line.top), Math.round(line.bottom)], outside: outside.map((b) => [b.what, Math.round(b.top), Math.round(b.bottom)])};
}"""


def test_a_refused_field_shows_the_line_under_it_on_a_phone(game):
    """On a phone the rules are a long scrolling dialog. The player sets a target of −5, goes
    back up to the seed and presses Enter: the refused field, far below, takes the focus with
    the line under it that says what is wrong in view (focusing the field alone scrolled only
    the field in, its line staying below the dialog's edge)."""
    page = game
    page.set_viewport_size({"width": 390, "height": 844})
    open_rules(page)
    page.fill("#rules-target", "-5")
    page.dispatch_event("#rules-target", "change")
    page.wait_for_selector("#rules-target[aria-invalid='true']")
    page.focus("#new-seed")                      # scrolls the dialog back up to the seed
    page.keyboard.press("Enter")                 # submits the form: Start
    wait_for_focus_on_target(page)
    seen = page.evaluate(ERROR_LINE_SEEN_JS)
    assert seen["outside"] == [], seen
    page.click("#new-dialog button[data-action='cancel-new']")
    assert_clean(page)


#: Whether every choice of each rules <select> shows whole (its longest option's text fits the
#: control) and every control of the rules box fits inside the box; the blind-nil label's lines.
RULES_FIT_JS = """() => {
  const box = document.querySelector('[data-role="rules-box"]').getBoundingClientRect();
  const ctx = document.createElement('canvas').getContext('2d');
  const out = {cut: [], outside: [], lines: 0};
  for (const sel of document.querySelectorAll('.rules-body select')) {
    const cs = getComputedStyle(sel);
    ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    const widest = Math.max(...[...sel.options].map((o) => ctx.measureText(o.textContent).width));
    // the text's room: the box less its padding and the arrow (about 24 px)
    const room = sel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 24;
    if (widest > room) out.cut.push(sel.id);
    const r = sel.getBoundingClientRect();
    if (r.left < box.left || r.right > box.right) out.outside.push(sel.id);
  }
  const label = document.querySelector('label[for="rules-blind_nil_trail"]');
  out.lines = Math.round(label.getBoundingClientRect().height / parseFloat(getComputedStyle(label).lineHeight || 20));
  return out;
}"""


@pytest.mark.parametrize("width", [1280, 390])
def test_the_rules_options_show_whole(game, width):
    """The Deck choice reads in full ("Jokers (2♣ and 2♦ leave th" before), the phone's Preset
    and Deck dropdowns stay inside the rules box, the blind-nil label in at most two lines.
    (A phone's closed dropdown may cut a long choice; its own picker lists each in full.)"""
    page = game
    page.set_viewport_size({"width": width, "height": 800})
    open_rules(page)
    page.evaluate("() => { for (const l of document.querySelectorAll('.rules-body label')) l.style.lineHeight = '1.25'; }")
    fit = page.evaluate(RULES_FIT_JS)
    assert fit["outside"] == [], fit
    if width > 640:
        assert fit["cut"] == [], fit
    assert fit["lines"] <= 2, fit
    page.keyboard.press("Escape")
    assert_clean(page)


#: Where each card's place in the hand is: its slot, which the layout moves and a lift does not
#: (a playable or hinted card stands up inside its slot on purpose).
HAND_TOP_JS = "() => [...document.querySelectorAll('#hand .slot')].map((c) => Math.round(c.getBoundingClientRect().top))"


def test_hints_and_answers_never_move_the_hand(page, site_url):
    """In Russian at 1280 x 800, the hint and three "Why?" answers (two lines and more) leave the
    hand where it was, on screen (a two-line message had pushed the cards off the bottom)."""
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(site_url + QUERY.format(seed=COURT_SEED) + "&lang=ru")
    page.wait_for_selector("#bid-panel:not([hidden]) button[data-bid='3']:enabled", timeout=BOOT_MS)
    play_until(page, lambda p, a: a["kind"] == "play" and p.locator(".trick-slot .card").count() >= 2)
    before = page.evaluate(HAND_TOP_JS)
    page.click("[data-action='hint']")
    page.wait_for_selector(".seat[data-seat='0'] .bubble[data-kind='hint']:not([hidden])")
    for seat in (1, 2, 3):
        page.click(f".seat[data-seat='{seat}'] [data-action='why']")
        page.wait_for_selector(f".seat[data-seat='{seat}'] .bubble[data-kind='why']:not([hidden])")
    assert page.evaluate(HAND_TOP_JS) == before
    bottom = page.evaluate("() => Math.max(...[...document.querySelectorAll('#hand [data-card]')].map((c) => c.getBoundingClientRect().bottom))")
    assert bottom <= 800
    assert_clean(page)


def test_why_answers_at_its_seat_naming_the_trick(game):
    """ "Why?" is offered once the seat has acted in this hand; its answer appears at that seat,
    naming the trick it explains, and the button looks like the menu's buttons."""
    page = game
    new_match(page, BLIND_SEED)                      # the player bids first: nobody has acted yet
    page.wait_for_selector("#bid-panel:not([hidden]) button[data-bid='3']:enabled")
    assert page.locator("[data-action='why']:visible").count() == 0
    play_until(page, lambda p, a: a["kind"] == "play" and p.locator(".trick-slot[data-pos='1'] .card").count() == 1)
    assert page.locator("[data-action='why']:visible").count() == 3
    tricks = page.evaluate("() => [0, 1, 2, 3].reduce((a, s) => a + parseInt(document.querySelector(`.seat[data-seat='${s}'] .seat-tricks`).textContent), 0)")
    page.click(".seat[data-seat='1'] [data-action='why']")
    bubble = page.locator(".seat[data-seat='1'] .bubble[data-kind='why']")
    bubble.wait_for()
    text = bubble.locator(".bubble-text").text_content()
    assert text.startswith(EN["coach.whyTrick"].format(n=tricks + 1, reason="")), text
    assert page.locator(".seat[data-seat='2'] .bubble[data-kind='why']:visible").count() == 0
    # the answer is also said, with the seat's name
    page.wait_for_function("(t) => window.__live.some((e) => e.text.includes(t))", arg=text)
    # styled like the menu's buttons, not the system's grey button (the pointer moved off both)
    page.mouse.move(640, 420)
    look = page.evaluate("""() => ['.seat[data-seat="1"] [data-action="why"]', '.tools [data-action="hint"]'].map((s) => {
      const c = getComputedStyle(document.querySelector(s)); return [c.borderTopLeftRadius, c.backgroundColor, c.color]; })""")
    assert look[0] == look[1], look
    page.click(".seat[data-seat='1'] .bubble [data-role='bubble-close']")
    assert bubble.is_hidden()
    assert_clean(page)


def test_nil_is_one_bid_among_the_others(game):
    """Nil is no bigger than the other bids and has their frame (it was the widest button, gold-bordered)."""
    page = game
    new_match(page, BLIND_SEED)
    page.wait_for_selector("#bid-panel:not([hidden]) button[data-bid='3']:enabled")
    nil, one = page.evaluate("""() => ['0', '1'].map((n) => {
      const b = document.querySelector(`button[data-bid='${n}']`);
      const c = getComputedStyle(b); const r = b.getBoundingClientRect();
      return {w: r.width, h: r.height, border: c.borderTopColor + ' ' + c.borderTopWidth, bg: c.backgroundColor};
    })""")
    assert nil["w"] <= one["w"] * 1.05 and nil["h"] <= one["h"] * 1.05, (nil, one)
    assert nil["border"] == one["border"] and nil["bg"] == one["bg"], (nil, one)
    assert_clean(page)


def test_export_opens_at_its_first_line_with_a_copy_button(game):
    """The exported hand shows from its first line, nothing selected; Copy puts it on the clipboard."""
    page = game
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    new_match(page, COURT_SEED)
    play_until(page, lambda p, a: a["kind"] == "continue")
    page.click("#sheet-dialog button[data-action='export-hand']")
    area = page.wait_for_selector("[data-role='export-text']")
    state = page.evaluate("""() => { const a = document.querySelector("[data-role='export-text']");
      return {top: a.scrollTop, start: a.selectionStart, end: a.selectionEnd, focus: document.activeElement.dataset.action}; }""")
    assert state == {"top": 0, "start": state["start"], "end": state["start"], "focus": "copy-export"}, state
    page.click("#sheet-dialog button[data-action='copy-export']")
    page.wait_for_function("(t) => document.querySelector(\"[data-role='export-said']\").textContent === t",
                           arg=EN["sheet.copied"])
    assert page.evaluate("() => navigator.clipboard.readText()") == area.input_value()
    page.click("#sheet-dialog button[data-action='continue']")
    assert_clean(page)


def test_the_800_by_600_embed_keeps_the_bids_off_the_seats(page, site_url):
    """In an 800 x 600 frame the bid panel stays in the centre column, clear of the West and East
    seat boxes (it overlapped them by about 8 px)."""
    page.set_viewport_size({"width": 800, "height": 600})
    page.goto(site_url + "embed.html?seed=11&speed=0&partner=easy&opponents=easy")
    page.wait_for_selector("#bid-panel:not([hidden]) button[data-bid='3']:enabled", timeout=BOOT_MS)
    overlap = page.evaluate("""() => {
      const p = document.querySelector('#bid-panel').getBoundingClientRect();
      return [1, 3].map((s) => { const r = document.querySelector(`.seat[data-seat='${s}'] .seat-info`).getBoundingClientRect();
        return Math.max(0, Math.min(p.right, r.right) - Math.max(p.left, r.left)) * (Math.min(p.bottom, r.bottom) > Math.max(p.top, r.top) ? 1 : 0); });
    }""")
    assert overlap == [0, 0], overlap
    assert_clean(page)
