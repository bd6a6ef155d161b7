"""The worked lesson in docs/embedding.md: its link opens three puzzles in the viewer, and a
reader answers them on the table itself (the cards are buttons: by keyboard alone, or by
tapping on a phone), with the table, the question and every value in view. The verdicts are
checked against the Python solver on the same positions (a card is right when its value equals
the best). A bid puzzle is answered with bid buttons (only the bids the hand's rules allowed),
a puzzle whose analysis cannot finish says so and lets the reader go on, and no position's
analysis is asked for twice."""
from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit
import pytest

from spades.notation import parse, replay
from spades.match import Match
from spades.solver import solve

import driver
from driver import EN, sentence

DOC = Path(__file__).resolve().parents[2] / "docs" / "embedding.md"
BIDS = 4


def lesson_link() -> str:
    links = re.findall(r"^(viewer\.html\?quiz=[^\s]+)$", DOC.read_text(encoding="utf-8"), flags=re.M)
    assert len(links) == 1, links
    return links[0]


def verdicts() -> list[tuple[int, int, list[str], set[str], str]]:
    """For each puzzle step: the seat to act, its legal cards, the best ones (Python solver), the card played."""
    query = parse_qs(urlsplit(lesson_link()).query)
    m = replay(parse(query["hand"][0]))
    rec = m.hands_played[0]
    cards = [c for t in rec.tricks for _, c in t.plays]
    out = []
    for step in (int(s) for s in query["quiz"][0].split(",")):
        k = step - BIDS
        r = Match(seed=0, dealer=rec.dealer, deal=[list(h) for h in rec.deal])
        for i in range(4):
            r.bid(rec.bids[(rec.dealer + 1 + i) % 4])
        for c in cards[:k]:
            r.play(c)
        values = solve(r)
        best = max(v.margin for v in values.values())
        out.append((step, r.to_act, sorted(values), {c for c, v in values.items() if v.margin == best}, cards[k]))
    return out


def card_name(card: str) -> str:
    return EN["card.name"].format(rank=EN[f"rank.{card[0]}"], suit=EN[f"suit.{card[1]}"])


#: The rectangles (viewport coordinates) of what the reader must see, and the viewport's height.
LAYOUT_JS = """(seat) => {
  const rect = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const hand = document.querySelector(`.seat[data-seat="${seat}"] .hand`);
  return {
    height: innerHeight, width: innerWidth,
    hand: rect(hand), quiz: rect(document.querySelector('#quiz')),
    cards: [...hand.querySelectorAll('[data-card]')].map(rect),
    values: [...hand.querySelectorAll('.card-value')].map(rect),
  };
}"""


def assert_in_view(box, layout) -> None:
    left, top, right, bottom = box
    assert left >= 0 and right <= layout["width"] and top >= 0 and bottom <= layout["height"], (box, layout)


def assert_readable(page, seat: int, values: int) -> dict:
    """The question, the seat's cards and their ``values`` badges are all in view, and no
    two badges overlap (each card's numbers can be read)."""
    layout = page.evaluate(LAYOUT_JS, seat)
    assert_in_view(layout["quiz"], layout)
    for box in layout["cards"] + layout["values"]:
        assert_in_view(box, layout)
    assert len(layout["values"]) == values
    boxes = layout["values"]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
            assert apart, (a, b)
    return layout


def test_the_lesson_link_is_three_puzzles_each_with_a_wrong_answer():
    puzzles = verdicts()
    assert [p[0] for p in puzzles] == [36, 40, 47]
    assert all(p[3] and set(p[2]) - p[3] for p in puzzles)


def open_lesson(page, site_url: str, width: int, height: int) -> None:
    page.set_viewport_size({"width": width, "height": height})
    page.goto(site_url + lesson_link())
    page.wait_for_selector("body[data-ready='1']", timeout=120_000)


def wait_for_puzzle(page, step: int, seat: int) -> list[str]:
    """The puzzle at ``step`` is asked: the seat's legal cards are buttons on the table. Returns their cards."""
    page.wait_for_selector(f'.seat[data-seat="{seat}"] button.quiz-card', timeout=60_000)
    assert page.evaluate("() => document.body.dataset.step") == str(step)
    # the next card is hidden: no value and no "played" mark yet, the forward buttons are off
    assert page.locator(".card-value").count() == 0
    assert page.is_disabled("#next")
    assert page.locator("#quiz-choices button").count() == 0        # no text buttons: the cards are the answers
    return page.eval_on_selector_all(f'.seat[data-seat="{seat}"] button.quiz-card', "bs => bs.map((b) => b.dataset.choice)")


def test_three_puzzles_answered_on_the_table_by_keyboard_alone(page, site_url, screenshot_dir):
    puzzles = verdicts()
    open_lesson(page, site_url, 1280, 800)
    # the link opens at its first puzzle, saying how many there are
    assert page.text_content("#quiz-intro") == EN["quiz.count"]["other"].format(n=3)
    answers = []
    for n, (step, seat, legal, best, played) in enumerate(puzzles):
        if n:
            page.keyboard.press("End")                         # steps forward: the viewer stops at the puzzle
        choices = wait_for_puzzle(page, step, seat)
        assert sorted(choices) == legal
        name = ("South", "West", "North", "East")[seat]
        assert page.text_content("#quiz-prompt") == EN["quiz.promptOf"].format(i=n + 1, total=3, name=name)
        labels = page.eval_on_selector_all(f'.seat[data-seat="{seat}"] button.quiz-card', "bs => bs.map((b) => b.getAttribute('aria-label'))")
        assert labels == [card_name(c) for c in choices]      # each card button is named by its card
        assert_readable(page, seat, 0)
        page.screenshot(path=str(screenshot_dir / f"quiz-{n + 1}-ask-1280x800.png"))
        want = sorted(best)[0] if n != 1 else sorted(set(legal) - best)[0]   # the second answered wrong
        focused = page.evaluate("() => document.activeElement.dataset.choice")
        for _ in range(choices.index(want) - choices.index(focused)):
            page.keyboard.press("Tab")
        assert page.evaluate("() => document.activeElement.dataset.choice") == want
        page.keyboard.press("Enter")
        feedback = page.text_content("#quiz-feedback")
        answers.append(page.get_attribute("#quiz-feedback", "data-verdict"))
        assert ("Right!" in feedback) == (want in best)
        assert f"At the table {name} chose {card_name(played)}." in feedback
        assert "?" not in feedback
        assert_readable(page, seat, len(legal))                # every value shown, in view, none covering another
        page.screenshot(path=str(screenshot_dir / f"quiz-{n + 1}-answer-1280x800.png"))
        assert page.evaluate("() => document.activeElement.id") == "quiz-continue"
        page.keyboard.press("Enter")
        assert page.evaluate("() => document.body.dataset.step") == str(step + 1)
    assert answers == ["right", "wrong", "right"]
    assert page.text_content("#quiz-intro") == EN["quiz.result"].format(right=2, total=3)
    assert page.get_attribute("#quiz-intro", "aria-live") == "polite"      # the result is announced
    driver.assert_clean(page)


def test_puzzles_answered_by_tapping_the_cards_on_a_phone(page, site_url, screenshot_dir):
    puzzles = verdicts()
    open_lesson(page, site_url, 390, 844)
    for n, (step, seat, legal, best, played) in enumerate(puzzles):
        if n:
            page.click("#quiz-continue")                        # the card played at the table
            page.click("#last")                                 # on to the next puzzle
        wait_for_puzzle(page, step, seat)
        assert_readable(page, seat, 0)
        page.screenshot(path=str(screenshot_dir / f"quiz-{n + 1}-ask-390x844.png"))
        page.click(f'.seat[data-seat="{seat}"] button.quiz-card[data-choice="{sorted(best)[0]}"]')
        page.wait_for_selector("#quiz-feedback[data-verdict='right']")
        assert_readable(page, seat, len(legal))
        page.screenshot(path=str(screenshot_dir / f"quiz-{n + 1}-answer-390x844.png"))
    assert page.text_content("#quiz-intro") == EN["quiz.result"].format(right=3, total=3)
    driver.assert_clean(page)


def test_a_bid_puzzle_is_answered_with_the_hard_players_bid(page, site_url):
    from urllib.parse import quote

    from spades.ai import bot

    query = parse_qs(urlsplit(lesson_link()).query)
    text = query["hand"][0]
    rec = replay(parse(text)).hands_played[0]
    m = Match(seed=0, dealer=rec.dealer, deal=[list(h) for h in rec.deal])
    m.bid(rec.bids[m.to_act])                                  # the puzzle is the second bid (step 1)
    explained = bot("hard", seed=0).explain(m.view(m.to_act))
    hard = explained.action
    page.goto(f"{site_url}viewer.html?quiz=1&hand={quote(text)}")
    page.wait_for_selector("body[data-ready='1']", timeout=120_000)
    page.wait_for_selector("#quiz-choices button", timeout=60_000)   # the link opens at its puzzle
    assert page.evaluate("() => document.body.dataset.step") == "1"
    name = ("South", "West", "North", "East")[m.to_act]
    assert page.text_content("#quiz-intro") == EN["quiz.count"]["one"].format(n=1)
    assert page.text_content("#quiz-prompt") == EN["quiz.promptBidOf"].format(i=1, total=1, name=name)
    # a bid is chosen from bid buttons (the legal bids: nil and 1–13), not on the table's cards
    assert bid_choices(page) == [str(b) for b in m.legal_bids()] == [str(b) for b in range(14)]
    assert page.locator("button.quiz-card").count() == 0
    for _ in range(hard):                                      # nil first, then 1–13: Tab to Hard's bid
        page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.dataset.choice") == str(hard)
    page.keyboard.press("Enter")
    assert page.get_attribute("#quiz-feedback", "data-verdict") == "right"
    assert sentence(explained.reason.to_dict()) in page.text_content("#quiz-feedback")  # the game's wording
    page.keyboard.press("Enter")                               # Continue
    assert page.evaluate("() => document.body.dataset.step") == "2"
    driver.assert_clean(page)


def bid_choices(page) -> list[str]:
    return page.eval_on_selector_all("#quiz-choices button", "bs => bs.map((b) => b.dataset.choice)")


def test_bid_puzzles_offer_only_the_bids_the_hands_rules_allowed(page, site_url):
    """Under suicide the first of two partners to bid may bid only nil or 4+, the second then
    only what the first left open: each bid puzzle's buttons are exactly those bids."""
    import random
    from urllib.parse import quote

    from spades.ai import bot
    from spades.notation import format_hand
    from spades.rules import Rules

    rules = Rules.parse("suicide")
    rnd = random.Random(3)
    m = Match(seed=3, rules=rules)
    while not m.hands_played:
        if m.phase == "bid":
            m.bid(0 if 0 in m.legal_bids() else m.legal_bids()[0])
        else:
            m.play(rnd.choice(m.legal_cards()))
    rec = m.hands_played[0]
    page.goto(f"{site_url}viewer.html?quiz=0,2&hand={quote(format_hand(rec, rules))}")
    page.wait_for_selector("body[data-ready='1']", timeout=120_000)
    for n, step in enumerate((0, 2)):                     # the first bid, then its partner's
        r = Match(seed=0, dealer=rec.dealer, deal=[list(h) for h in rec.deal], rules=rules)
        for i in range(step):
            r.bid(rec.bids[(rec.dealer + 1 + i) % 4])
        legal = r.legal_bids()
        assert legal == ([0, *range(4, 14)] if step == 0 else list(range(4, 14)))
        hard = bot("hard", seed=0).explain(r.view(r.to_act)).action
        if n:
            page.keyboard.press("End")                    # stops at the next puzzle
        page.wait_for_selector("#quiz-choices button", timeout=60_000)
        assert step_of(page) == str(step)
        assert bid_choices(page) == [str(b) for b in legal]
        labels = page.eval_on_selector_all("#quiz-choices button", "bs => bs.map((b) => b.textContent)")
        assert labels == [EN["bid.nilButton"] if b == 0 else str(b) for b in legal]   # as the game labels bids
        page.click(f'#quiz-choices button[data-choice="{hard}"]')
        assert page.get_attribute("#quiz-feedback", "data-verdict") == "right"
        page.keyboard.press("Enter")                      # Continue
        assert step_of(page) == str(step + 1)
    assert page.text_content("#quiz-intro") == EN["quiz.result"].format(right=2, total=2)
    driver.assert_clean(page)


#: lib/review.js QUIZ_BUDGET: the seconds a card puzzle's analysis may take.
QUIZ_BUDGET = 20
# Counts the puzzle's analyses sent (window.__quizAnalyses), gives each no time at all (as on a
# machine too slow to judge the opening lead within the limit) and holds them until
# window.__release(), so the reader can step away and back while one is on its way.
QUIZ_SPY = """(() => {
  let held = [];
  let holding = true;
  window.__quizAnalyses = 0;
  for (const proto of [Worker.prototype, MessagePort.prototype]) {   // a dedicated or the shared engine
    const post = proto.postMessage;
    proto.postMessage = function (msg, ...rest) {
      if (!(msg && msg.fn === "analyse" && msg.args && msg.args.budget === BUDGET)) return post.call(this, msg, ...rest);
      window.__quizAnalyses += 1;
      const send = () => post.call(this, { ...msg, args: { ...msg.args, budget: 0 } }, ...rest);
      if (holding) held.push(send);
      else send();
    };
  }
  window.__release = () => {
    holding = false;
    const n = held.length;
    held.forEach((send) => send());
    held = [];
    return n;
  };
})();""".replace("BUDGET", str(QUIZ_BUDGET))


def step_of(page) -> str:
    return page.evaluate("() => document.body.dataset.step")


def test_a_puzzle_the_engine_cannot_judge_says_so_and_lets_the_reader_go_on(page, site_url):
    """A puzzle at the opening lead whose analysis runs out of time: stepping away and back
    while it runs asks for no second analysis; when it ends unfinished the puzzle says so,
    offers Continue and Next, and is not asked again."""
    from urllib.parse import quote

    text = parse_qs(urlsplit(lesson_link()).query)["hand"][0]
    page.add_init_script(script=QUIZ_SPY)
    page.goto(f"{site_url}viewer.html?quiz={BIDS}&hand={quote(text)}#step={BIDS}")
    page.wait_for_selector("body[data-ready='1']", timeout=120_000)
    page.wait_for_function("() => window.__quizAnalyses === 1")
    assert step_of(page) == str(BIDS)
    assert page.is_disabled("#next")
    for _ in range(4):                                   # Back, then Next, four times while it runs
        page.click("#prev")
        page.wait_for_function("(s) => document.body.dataset.step === s", arg=str(BIDS - 1))
        page.click("#next")
        page.wait_for_function("(s) => document.body.dataset.step === s", arg=str(BIDS))
    assert page.evaluate("() => window.__quizAnalyses") == 1   # the same analysis awaited, none queued again
    assert page.evaluate("() => window.__release()") == 1
    page.wait_for_selector("#quiz-feedback[data-verdict='none']", timeout=60_000)
    assert page.text_content("#quiz-feedback") == f"{driver.EN['review.notFinished']} {driver.EN['quiz.goOn']}"
    assert page.locator("#quiz-choices button").count() == 0
    assert page.locator("button.quiz-card").count() == 0     # nothing to choose: no card is a button
    no_verdict = EN["quiz.noVerdict"]["one"].format(n=1)
    assert page.text_content("#quiz-intro") == no_verdict    # the lesson's result: it had no verdict
    assert page.is_enabled("#next")
    assert page.evaluate("() => document.activeElement.id") == "quiz-continue"
    page.keyboard.press("Enter")                         # Continue: the opening lead is shown
    assert step_of(page) == str(BIDS + 1)
    page.click("#prev")                                  # back and on again: no puzzle, no new analysis
    page.wait_for_function("(s) => document.body.dataset.step === s", arg=str(BIDS))
    assert page.is_hidden("#quiz-ask")                   # not asked again; the line above keeps the result
    assert page.text_content("#quiz-intro") == no_verdict
    page.click("#next")
    page.wait_for_function("(s) => document.body.dataset.step === s", arg=str(BIDS + 1))
    assert page.evaluate("() => window.__quizAnalyses") == 1
    driver.assert_clean(page)


# Counts the analyses sent, per card of the hand (every engine: the review may use several).
ANALYSE_SPY = """(() => {
  window.__analysed = {};
  for (const proto of [Worker.prototype, MessagePort.prototype]) {   // a dedicated or the shared engine
    const post = proto.postMessage;
    proto.postMessage = function (msg, ...rest) {
      if (msg && msg.fn === "analyse") window.__analysed[msg.args.step] = (window.__analysed[msg.args.step] || 0) + 1;
      return post.call(this, msg, ...rest);
    };
  }
})();"""


def test_with_analyse_on_a_puzzles_position_is_analysed_once_and_its_cards_stay_answers(page, site_url):
    """A lesson opened with Analyse on: the whole-hand review awaits the puzzle's own analysis
    instead of sending the same position again; switching Analyse off redraws the table, and
    the puzzle's cards are still its answers."""
    step, seat, legal, best, _ = verdicts()[2]
    k = step - BIDS                                       # the card the puzzle asks for
    page.add_init_script(script=ANALYSE_SPY)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(site_url + lesson_link().replace("?quiz=36,40,", "?analyse=1&quiz=") + f"#step={step}")
    page.wait_for_selector("body[data-ready='1']", timeout=120_000)
    wait_for_puzzle(page, step, seat)
    # the whole review has run (every other position asked about): the puzzle's position was
    # asked for once, by the puzzle
    page.wait_for_function("() => Object.keys(window.__analysed).length === 52", timeout=300_000)
    page.wait_for_selector("#analyse-stop", state="hidden", timeout=300_000)
    assert page.evaluate(f"() => window.__analysed[{k}]") == 1
    page.uncheck("#analyse")                              # the table is drawn again
    cards = page.eval_on_selector_all(f'.seat[data-seat="{seat}"] button.quiz-card', "bs => bs.map((b) => b.dataset.choice)")
    assert sorted(cards) == legal
    page.click(f'.seat[data-seat="{seat}"] button.quiz-card[data-choice="{sorted(best)[0]}"]')
    assert page.get_attribute("#quiz-feedback", "data-verdict") == "right"
    assert page.evaluate(f"() => window.__analysed[{k}]") == 1
    driver.assert_clean(page)
