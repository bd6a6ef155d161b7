"""Hand review in the page: the viewer's Analyse switch against the Python solver (oracle),
values written on cards and spoken with the card names, a running review stopped while the
reader keeps stepping."""
from __future__ import annotations

import json
import random
from urllib.parse import quote

import pytest
from pathlib import Path

from spades.bridge import CHANGES
from spades.match import Match
from spades.save import from_dict
from spades.notation import format_hand
from spades.solver import solve

import driver

EN_RANKS = dict(zip("23456789TJQKA", "two three four five six seven eight nine ten jack queen king ace".split()))
EN_SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
AXE_FILE = Path(__file__).resolve().parents[2] / "site" / "node_modules" / "axe-core" / "axe.min.js"
BIDS = 4                     # viewer steps: 0 the deal, 1–4 the bids, then one a card


def played_hand(seed: int) -> Match:
    """A match whose first hand was played out with random legal bids (1–4) and cards."""
    rnd = random.Random(seed)
    m = Match(seed=seed)
    for _ in range(4):
        m.bid(rnd.choice([b for b in m.legal_bids() if 1 <= b <= 4]))
    while not m.hands_played:
        m.play(rnd.choice(m.legal_cards()))
    return m


def before_card(m: Match, k: int) -> Match:
    """The first hand of ``m`` replayed up to (not including) its card ``k``."""
    rec = m.hands_played[0]
    r = Match(seed=0, dealer=rec.dealer, deal=[list(h) for h in rec.deal])
    for i in range(4):
        r.bid(rec.bids[(rec.dealer + 1 + i) % 4])
    for card in [c for t in rec.tricks for _, c in t.plays][:k]:
        r.play(card)
    return r


def english_name(card: str) -> str:
    """The card's name as the English page speaks it (written out here, not read from the page)."""
    return f"{EN_RANKS[card[0]]} of {EN_SUITS[card[1]]}"


def card_values(page, seat: int) -> dict[str, tuple[int, int]]:
    """The values the page wrote under the cards of ``seat``: card → (tricks, margin)."""
    return page.evaluate("""(seat) => Object.fromEntries([...document.querySelectorAll(
        `.seat[data-seat="${seat}"] .hand li`)].filter((li) => li.querySelector('.card-value')).map((li) => [
        li.querySelector('[data-card]').dataset.card,
        [Number(li.querySelector('.card-value').dataset.tricks), Number(li.querySelector('.card-value').dataset.margin)]]))""",
                         seat)


def open_viewer(page, site_url: str, text: str, step: int, extra: str = "analyse=1") -> None:
    page.goto(f"{site_url}viewer.html?{extra}&hand={quote(text)}#step={step}")
    page.wait_for_selector("body[data-ready='1']", timeout=120_000)


@pytest.mark.parametrize("k", [40, 45, 49])
def test_analyse_shows_the_solver_values_on_the_cards(page, site_url, k):
    m = played_hand(21)
    text = format_hand(m.hands_played[0])
    here = before_card(m, k)
    expected = solve(here)
    team = here.to_act & 1
    open_viewer(page, site_url, text, BIDS + k)
    page.wait_for_selector(f'.seat[data-seat="{here.to_act}"] .card-value', timeout=60_000)
    assert card_values(page, here.to_act) == {c: [v.tricks[team], v.margin] for c, v in expected.items()}
    played = [c for t in m.hands_played[0].tricks for _, c in t.plays][k]
    best = max(v.margin for v in expected.values())
    costly = page.locator(f'.seat[data-seat="{here.to_act}"] [data-card="{played}"]')
    assert ("costly-card" in costly.get_attribute("class")) == (expected[played].margin < best)
    # the value is spoken with the card's name
    label = costly.get_attribute("aria-label")
    v = expected[played]
    assert label.startswith(f"{english_name(played)}: {v.tricks[team]} tricks")
    driver.assert_clean(page)


@pytest.mark.parametrize("width, height", [(1280, 900), (390, 844)])
def test_no_card_covers_a_value_when_the_hand_wraps(page, site_url, width, height):
    """The opening leader's thirteen cards wrap onto two rows in the seat's box: each value stays
    in sight below its card, no card of the next row over it."""
    m = played_hand(21)
    start = before_card(m, 0)
    leader = start.to_act
    page.set_viewport_size({"width": width, "height": height})
    open_viewer(page, site_url, format_hand(m.hands_played[0]), BIDS + 0)
    page.wait_for_selector(f'.seat[data-seat="{leader}"] .card-value', timeout=60_000)
    boxes = page.evaluate("""(seat) => {
      const rect = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
      const hand = document.querySelector(`.seat[data-seat="${seat}"] .hand`);
      return { cards: [...hand.querySelectorAll('[data-card]')].map(rect),
               values: [...hand.querySelectorAll('.card-value')].map(rect) };
    }""", leader)
    rows = {round(c[1]) for c in boxes["cards"]}
    assert len(rows) == 2, rows                            # the case in question: the hand wraps
    assert len(boxes["cards"]) == 13 and len(boxes["values"]) == len(start.legal_cards())
    for v in boxes["values"]:
        for c in boxes["cards"]:
            assert v[2] <= c[0] or c[2] <= v[0] or v[3] <= c[1] or c[3] <= v[1], (v, c)
    driver.assert_clean(page)


def test_switch_off_removes_values_and_stop_halts_a_running_review(page, site_url):
    m = played_hand(5)
    text = format_hand(m.hands_played[0])
    page.add_init_script(script=f"({HOLD_ANALYSE_JS})(1)")    # the second request waits: Stop comes mid-run
    open_viewer(page, site_url, text, BIDS + 47)
    page.wait_for_selector(".card-value", timeout=60_000)
    page.click("#analyse-stop")                          # stop the whole-hand run
    sent = page.evaluate("() => window.__analyseSent")
    assert page.evaluate("() => window.__releaseAnalyse()") == 1    # its answer comes after Stop
    page.wait_for_selector("#analyse-stop", state="hidden")   # the run has ended
    assert page.text_content("#analyse-status") == "Analysis stopped."
    assert page.evaluate("() => window.__analyseSent") == sent   # nothing sent after Stop
    page.keyboard.press("ArrowLeft")                     # the reader keeps stepping
    assert page.evaluate("() => document.body.dataset.step") == str(BIDS + 46)
    page.focus("#analyse")
    page.keyboard.press("Space")                         # the switch off: no values written
    assert page.locator(".card-value").count() == 0
    driver.assert_clean(page)


def test_review_this_hand_from_the_score_sheet_then_keep_playing(game):
    page = game
    driver.new_match(page, 31)
    driver.play_until(page, lambda p, a: a["kind"] == "continue")    # the hand is over: the sheet is open
    save_before = page.evaluate("(k) => localStorage.getItem(k)", driver.SAVE_KEY)
    page.evaluate(HOLD_ANALYSE_JS, 3)          # the fourth card's request waits: Stop comes mid-review
    page.click("#sheet-dialog button[data-action='review-hand']")
    page.wait_for_function("() => document.querySelector('.review-panel progress').value >= 3", timeout=120_000)
    heading = page.text_content(".review-panel h3")
    assert heading.startswith("Review of hand 1")
    page.click(".review-panel button[data-action='review-stop']")
    sent = page.evaluate("() => window.__analyseSent")
    assert page.evaluate("() => window.__releaseAnalyse()") == 1    # its answer comes after Stop
    page.wait_for_function("() => document.querySelector('.review-panel p[aria-live]').textContent === 'Analysis stopped.'",
                           timeout=60_000)
    assert page.evaluate("() => window.__analyseSent") == sent   # the run ended: nothing sent after Stop
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(content=AXE_FILE.read_text(encoding="utf-8"))
    assert page.evaluate(AXE_JS, AXE_TAGS) == []                   # the sheet with its review
    links = page.eval_on_selector_all(".review-list a", "as => as.map((a) => a.getAttribute('href'))")
    assert all(h.startswith("viewer.html?analyse=1&hand=") for h in links)
    # the review changed nothing: the same save, and the game goes on (Continue, then a bid)
    assert page.evaluate("(k) => localStorage.getItem(k)", driver.SAVE_KEY) == save_before
    page.keyboard.press("Escape")                                     # Escape on the after-hand sheet: Continue
    page.wait_for_function("() => !document.querySelector('#sheet-dialog').open")
    action = driver.next_action(page)
    assert action["kind"] == "bid"
    driver.act(page, action)
    driver.assert_clean(page)


#: Holds the engine's ``analyse`` requests after the first ``after`` until ``window.__releaseAnalyse()``
#: (which sends them, puts postMessage back and returns how many it held), so a test can press
#: Stop while an analysis is still running however fast the solver is. The review then runs on
#: the page's one engine: an extra engine that booted before Stop would add a held request of
#: its own, and how many did would depend on the machine's speed.
HOLD_ANALYSE_JS = """(after) => {
  Object.defineProperty(navigator, 'hardwareConcurrency', { get: () => 1 });
  const held = [];
  let sent = 0;
  window.__analyseSent = 0;  // every analyse request posted, held ones included, also after the release
  let holding = true;
  // to a dedicated engine Worker, or to the shared engine through its port
  for (const proto of [Worker.prototype, MessagePort.prototype]) {
    const post = proto.postMessage;
    proto.postMessage = function (msg, ...rest) {
      if (msg && msg.fn === "analyse") window.__analyseSent += 1;
      if (holding && msg && msg.fn === "analyse" && ++sent > after) held.push(() => post.call(this, msg, ...rest));
      else post.call(this, msg, ...rest);
    };
  }
  window.__releaseAnalyse = () => {
    holding = false;
    for (const send of held) send();
    return held.length;
  };
}"""

AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
AXE_JS = """async (tags) => (await axe.run(document, {runOnly: {type: 'tag', values: tags},
  resultTypes: ['violations']})).violations.map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', '))"""


def test_analysed_viewer_and_puzzle_are_axe_clean(page, site_url):
    axe = AXE_FILE
    m = played_hand(21)
    text = format_hand(m.hands_played[0])
    page.add_init_script(script=f"({HOLD_ANALYSE_JS})(1)")    # the second request waits: Stop comes mid-analysis
    open_viewer(page, site_url, text, BIDS + 45, extra=f"analyse=1&quiz={BIDS + 47}")
    page.wait_for_selector(".card-value", timeout=60_000)
    page.click("#analyse-stop")
    assert page.evaluate("() => window.__releaseAnalyse()") == 1
    page.add_script_tag(content=axe.read_text(encoding="utf-8"))
    assert page.evaluate(AXE_JS, AXE_TAGS) == []                   # values on the cards
    page.keyboard.press("End")
    page.wait_for_selector("#table button.quiz-card", timeout=60_000)
    assert page.evaluate(AXE_JS, AXE_TAGS) == []                   # a puzzle asked: the cards on the table are its buttons
    driver.assert_clean(page)


SPY_SENT_JS = """() => {
  if (!window.__sentSpy) {
    window.__sentSpy = true;
    for (const proto of [Worker.prototype, MessagePort.prototype]) {   // a dedicated or the shared engine
      const post = proto.postMessage;
      proto.postMessage = function (msg, ...rest) {
        window.__sent.push(msg && msg.fn);
        return post.call(this, msg, ...rest);
      };
    }
  }
  window.__sent = [];
}"""

RV_VALUES_JS = """(seat) => Object.fromEntries([...document.querySelectorAll(
  `#review-mode [data-review-seat="${seat}"] .hand li`)].filter((li) => li.querySelector('.card-value')).map((li) => [
  li.querySelector('[data-card]').dataset.card,
  [Number(li.querySelector('.card-value').dataset.tricks), Number(li.querySelector('.card-value').dataset.margin)]]))"""


def test_review_mode_on_the_game_table_and_back_unchanged(game, screenshot_dir):
    """A costly decision opens on the game's own table (read only): the four hands as they were,
    the trick in progress, each legal card's solver value written on it and spoken with its name,
    the card played marked with its cost; Next/Previous decision; Escape is "Back to the game":
    the live table and the after-hand sheet return, the save is the same and no action reached the engine."""
    page = game
    driver.new_match(page, 31)
    driver.play_until(page, lambda p, a: a["kind"] == "continue")    # the hand is over: the sheet is open
    save_before = page.evaluate("(k) => localStorage.getItem(k)", driver.SAVE_KEY)
    m = from_dict(json.loads(save_before)["match"])
    played = [c for t in m.hands_played[0].tricks for _, c in t.plays]
    page.evaluate(SPY_SENT_JS)
    page.click("#sheet-dialog button[data-action='review-hand']")
    step_buttons = "#sheet-dialog .review-list button[data-action='review-step']"
    page.wait_for_function(f"() => document.querySelectorAll(\"{step_buttons}\").length >= 2", timeout=180_000)
    # the latest decision found (the review works from the end: its values are exact)
    k = max(int(s) for s in page.eval_on_selector_all(step_buttons, "bs => bs.map((b) => b.dataset.step)"))
    button = page.locator(f"{step_buttons}[data-step='{k}']")
    assert english_name(played[k]) in button.get_attribute("aria-label")
    button.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#review-mode:not([hidden])")
    assert not page.is_visible("#table") and not page.is_visible("#hand")
    assert page.evaluate("() => document.activeElement.id") == "review-mode-title"
    assert page.get_attribute("#review-mode", "data-step") == str(k)
    # the game's own seat names and dealer mark (not the viewer's North/South/DEALER), and the
    # game's menu, inert meanwhile, looks it
    names = page.eval_on_selector_all("#review-mode .rv-seat .seat-name",
                                      "hs => hs.map((h) => h.firstChild.textContent.trim())")
    assert names == [driver.EN[f"seat.{s}"] for s in (2, 1, 3, 0)]
    assert page.text_content("#review-mode .tag.dealer [aria-hidden='true']") == driver.EN["seat.dealerShort"]
    assert page.evaluate("() => document.querySelector('.topbar .tools').inert") is True
    assert float(page.evaluate("() => getComputedStyle(document.querySelector('.topbar .tools')).opacity")) < 0.6
    # the table as it was before card k: cards held, the trick in progress
    here = before_card(m, k)
    for seat in range(4):
        held = page.eval_on_selector_all(f"#review-mode [data-review-seat='{seat}'] .hand [data-card]",
                                         "cs => cs.map((c) => c.dataset.card)")
        assert sorted(held) == sorted(here.view(seat).hand)
    in_trick = page.eval_on_selector_all("#review-mode .slot [data-card]", "cs => cs.map((c) => c.dataset.card)")
    assert sorted(in_trick) == sorted(played[k - k % 4:k])
    # every legal card's value, as the solver gives it, written on the card and spoken with its name
    expected = solve(here)
    team = here.to_act & 1
    assert page.evaluate(RV_VALUES_JS, here.to_act) == {c: [v.tricks[team], v.margin] for c, v in expected.items()}
    for card in expected:
        label = page.get_attribute(f"#review-mode [data-review-seat='{here.to_act}'] [data-card='{card}']", "aria-label")
        assert label.startswith(english_name(card) + ":")
    mark = page.locator(f"#review-mode [data-review-seat='{here.to_act}'] [data-card='{played[k]}']")
    assert "costly-card" in mark.get_attribute("class")
    assert "cost" in mark.get_attribute("aria-label")
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(content=AXE_FILE.read_text(encoding="utf-8"))
    assert page.evaluate(AXE_JS, AXE_TAGS) == []                      # the review mode on the table
    page.screenshot(path=str(screenshot_dir / "review-mode.png"))
    # another decision and back again, by keyboard
    heading = page.text_content("#review-mode-title")
    move = "review-next" if page.is_enabled("#review-mode button[data-action='review-next']") else "review-prev"
    back = "review-prev" if move == "review-next" else "review-next"
    page.focus(f"#review-mode button[data-action='{move}']")
    page.keyboard.press("Enter")
    other = page.get_attribute("#review-mode", "data-step")
    assert other != str(k) and page.text_content("#review-mode-title") != heading
    page.focus(f"#review-mode button[data-action='{back}']")
    page.keyboard.press("Enter")
    assert page.get_attribute("#review-mode", "data-step") == str(k)
    # the focus stays in the review, also when the button pressed is now disabled (an end of the list)
    assert page.evaluate("() => document.activeElement.closest('#review-mode') !== null") is True
    page.keyboard.press("Escape")                                     # Back to the game
    page.wait_for_selector("#review-mode", state="hidden")
    assert page.is_visible("#table")
    page.wait_for_function("() => document.querySelector('#sheet-dialog').open")
    assert page.is_visible("#sheet-dialog button[data-action='continue']")
    assert page.evaluate("() => document.activeElement.dataset.step") == str(k)
    # nothing changed: the same save, no action sent to the engine, and the game goes on
    assert page.evaluate("(k) => localStorage.getItem(k)", driver.SAVE_KEY) == save_before
    sent = set(page.evaluate("() => window.__sent"))
    assert sent & CHANGES == set() and "analyse" in sent and "review" in sent
    page.keyboard.press("Escape")                                     # Escape on the after-hand sheet: Continue
    page.wait_for_function("() => !document.querySelector('#sheet-dialog').open")
    assert driver.next_action(page)["kind"] == "bid"
    driver.assert_clean(page)


#: Every ``analyse`` message the page sends is counted, and its step kept in order (``__steps``),
#: by the engine it goes to (the page's own, shared with other pages: its port; an extra one: its
#: dedicated Worker), with the bridge's largest budget; position 0's replies are made "not
#: finished" before the page reads them (a position that never finishes in time); each reply's
#: verdict is kept (window.__judged: step → finished, the last reply of each step); two cores and 8 GB
#: reported, so a review uses two engines. The page's own engine gets its third request only
#: once an extra engine has answered one (held until then: on a busy machine the page's engine
#: could judge every position before the extra one has booted), so both do a share.
REVIEW_SPY_JS = """() => {
  Object.defineProperty(navigator, 'hardwareConcurrency', { get: () => 2 });
  Object.defineProperty(navigator, 'deviceMemory', { get: () => 8 });
  window.__workers = [];
  window.__stopped = 0;
  window.__judged = {};
  const held = [];   // the page's engine's requests waiting for an extra engine's first answer
  let extraAnswered = false;
  const watch = (channel) => {
    channel.__analysed = 0;
    channel.__steps = [];
    window.__workers.push(channel);
    channel.addEventListener('message', (e) => {
      const r = e.data && e.data.type === 'reply' && e.data.ok ? e.data.result : null;
      if (!r || typeof r.step !== 'number' || typeof r.finished !== 'boolean') return;
      if (channel !== window.__workers[0] && !extraAnswered) {
        extraAnswered = true;
        for (const send of held.splice(0)) send();
      }
      if (r.step === 0) Object.assign(r, { finished: false, values: {}, best: null, cost_tricks: null, cost_points: null });
      window.__judged[r.step] = r.finished;
    });
  };
  const Plain = Worker;
  window.Worker = class extends Plain {
    constructor(...args) {
      super(...args);
      watch(this);
    }
    terminate() { window.__stopped += 1; return super.terminate(); }
  };
  if (window.SharedWorker) {
    const Shared = SharedWorker;
    window.SharedWorker = class extends Shared {
      constructor(...args) {
        super(...args);
        watch(this.port);
      }
    };
  }
  for (const proto of [Plain.prototype, MessagePort.prototype]) {
    const post = proto.postMessage;
    proto.postMessage = function (msg, ...rest) {
      if (msg && msg.fn === 'analyse' && '__analysed' in this) {
        this.__analysed += 1;
        this.__steps.push(msg.args.step);
        msg = { ...msg, args: { ...msg.args, budget: 30 } };
        if (this === window.__workers[0] && this.__analysed > 2 && !extraAnswered) {
          const send = msg;
          held.push(() => post.call(this, send, ...rest));
          return undefined;
        }
      }
      return post.call(this, msg, ...rest);
    };
  }
}"""


def cost_words(tricks: int, points: int) -> str:
    """What a decision cost, as the English page words it (written out here, plural rules included)."""
    def n(count: int, word: str) -> str:
        return f"{count} {word}" if count == 1 else f"{count} {word}s"
    parts = ([n(tricks, "trick")] if tricks else []) + ([n(points, "point")] if points else [])
    return " and ".join(parts)


def test_a_review_ends_with_one_honest_status_and_whole_sentences(page, site_url):
    from spades.solver import review as analysis

    m = played_hand(21)
    record = m.hands_played[0]
    text = format_hand(record)
    page.add_init_script(script=f"({REVIEW_SPY_JS})()")
    open_viewer(page, site_url, text, BIDS + 0)           # position 0 on screen: judged first, and again at the end
    page.wait_for_function("(t) => document.querySelector('#analyse-note').textContent === t",
                           arg=driver.EN["review.notYet"], timeout=120_000)
    page.wait_for_selector("#analyse-stop", state="hidden", timeout=300_000)   # the review has ended
    judged = {int(k): v for k, v in page.evaluate("() => window.__judged").items()}
    assert sorted(judged) == list(range(52)) and judged[0] is False
    still_open = sum(not v for v in judged.values())   # 1 (position 0) unless the machine is very busy
    form = "one" if still_open == 1 else "other"
    exact = 52 - still_open
    ended = driver.EN["review.endedOpen"][form].format(cards=f"{exact} card{'s' * (exact != 1)}", n=still_open)
    assert page.text_content("#analyse-status") == ended   # one status, with the count of what is not known
    assert page.text_content("#analyse-note") == driver.EN["review.notFinished"]
    assert driver.EN["review.done"] not in page.inner_text("body")        # said once: never "finished" beside it
    # the positions were spread over two engines, and the extra one is gone
    per_worker = page.evaluate("() => window.__workers.map((w) => w.__analysed)")
    assert len(per_worker) == 2 and min(per_worker) >= 1, per_worker
    assert sum(per_worker) == 52 + still_open, per_worker    # each once, and the open ones once more
    # from both ends: the page's engine, after the position on screen, takes the last trick, then
    # the first (each trick's last card first) and goes on forwards, the extra one takes the tricks
    # before the last backwards; each trick's positions go to one engine, and position 0 is tried
    # again by the engine that has its tables (the page's engine takes the last trick before the
    # extra one has booted: this hand's position 0 takes milliseconds, a snapshot's restore far more)
    page_steps, extra_steps = page.evaluate("() => window.__workers.map((w) => w.__steps)")
    assert page_steps[:7] == [0, 51, 50, 49, 48, 3, 2], (page_steps, extra_steps)
    assert extra_steps[:4] == [47, 46, 45, 44], (page_steps, extra_steps)
    assert page_steps.count(0) == 2 and 0 not in extra_steps, (page_steps, extra_steps)
    tricks = [{k // 4 for k in steps} for steps in (page_steps, extra_steps)]
    assert not tricks[0] & tricks[1], tricks
    assert page.evaluate("() => window.__stopped") == 1
    # a costly card in a whole sentence: "cost 1 trick and 1 point"
    for k in (35, 27):
        d = analysis.decision_at(record, k, 30)
        page.keyboard.press("Home")
        for _ in range(BIDS + k):
            page.keyboard.press("ArrowRight")
        assert page.evaluate("() => document.body.dataset.step") == str(BIDS + k)
        note = page.text_content("#analyse-note")
        assert note == (f"{english_name(d.action)} was played and cost {cost_words(d.cost_tricks, d.cost_points)}; "
                        f"best was {english_name(d.best)}.")
        assert "?" not in note
    driver.assert_clean(page)
