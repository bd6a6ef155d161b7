"""The worked lesson in docs/embedding.md: its link opens three puzzles in the viewer, and a
reader answers them with the keyboard alone. The verdicts are checked against the Python
solver on the same positions (a card is right when its value equals the best)."""
from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from spades.notation import parse, replay
from spades.match import Match
from spades.solver import solve

import driver
from test_coach import sentence

DOC = Path(__file__).resolve().parents[2] / "docs" / "embedding.md"
BIDS = 4


def lesson_link() -> str:
    links = re.findall(r"^(viewer\.html\?quiz=[^\s]+)$", DOC.read_text(encoding="utf-8"), flags=re.M)
    assert len(links) == 1, links
    return links[0]


def verdicts() -> list[tuple[int, list[str], set[str], str]]:
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
        out.append((step, sorted(values), {c for c, v in values.items() if v.margin == best}, cards[k]))
    return out


def test_the_lesson_link_is_three_puzzles_each_with_a_wrong_answer():
    puzzles = verdicts()
    assert [p[0] for p in puzzles] == [36, 40, 47]
    assert all(p[2] and set(p[1]) - p[2] for p in puzzles)


def test_three_puzzles_answered_by_keyboard_alone(page, site_url):
    puzzles = verdicts()
    page.goto(site_url + lesson_link())
    page.wait_for_selector("body[data-ready='1']", timeout=120_000)
    assert page.evaluate("() => document.body.dataset.step") == "0"
    answers = []
    for n, (step, legal, best, played) in enumerate(puzzles):
        page.keyboard.press("End")                          # steps forward: the viewer stops at the puzzle
        page.wait_for_selector("#quiz-choices button", timeout=60_000)
        assert page.evaluate("() => document.body.dataset.step") == str(step)
        # the next card is hidden: no value and no "played" mark yet, the forward buttons are off
        assert page.locator(".card-value").count() == 0
        assert page.is_disabled("#next")
        choices = page.eval_on_selector_all("#quiz-choices button", "bs => bs.map((b) => b.dataset.choice)")
        assert sorted(choices) == legal
        want = sorted(best)[0] if n != 1 else sorted(set(legal) - best)[0]   # the second answered wrong
        focused = page.evaluate("() => document.activeElement.dataset.choice")
        for _ in range(choices.index(want) - choices.index(focused)):
            page.keyboard.press("Tab")
        assert page.evaluate("() => document.activeElement.dataset.choice") == want
        page.keyboard.press("Enter")
        feedback = page.text_content("#quiz-feedback")
        answers.append(page.get_attribute("#quiz-feedback", "data-verdict"))
        assert ("Right!" in feedback) == (want in best)
        assert "At the table North chose" in feedback
        assert page.locator(".card-value").count() == len(legal)      # the values are shown now
        assert page.evaluate("() => document.activeElement.id") == "quiz-continue"
        page.keyboard.press("Enter")
        assert page.evaluate("() => document.body.dataset.step") == str(step + 1)
    assert answers == ["right", "wrong", "right"]
    assert "Puzzles solved: 2 of 3" in page.text_content("#quiz-feedback")
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
    page.keyboard.press("End")                                 # stops at the puzzle
    page.wait_for_selector("#quiz-choices button", timeout=60_000)
    assert page.evaluate("() => document.body.dataset.step") == "1"
    name = ("South", "West", "North", "East")[m.to_act]
    assert page.text_content("#quiz-prompt") == f"Puzzle: what should {name} bid? Choose a bid."
    for _ in range(hard):                                      # nil first, then 1–13: Tab to Hard's bid
        page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.dataset.choice") == str(hard)
    page.keyboard.press("Enter")
    assert page.get_attribute("#quiz-feedback", "data-verdict") == "right"
    assert sentence(explained.reason.to_dict()) in page.text_content("#quiz-feedback")  # the game's wording
    page.keyboard.press("Enter")                               # Continue
    assert page.evaluate("() => document.body.dataset.step") == "2"
    driver.assert_clean(page)


#: lib/review.js QUIZ_BUDGET: the seconds a card puzzle's analysis may take.
QUIZ_BUDGET = 20
# Counts the puzzle's analyses sent (window.__quizAnalyses), gives each no time at all (as on a
# machine too slow to judge the opening lead within the limit) and holds them until
# window.__release(), so the reader can step away and back while one is on its way.
QUIZ_SPY = """(() => {
  const post = Worker.prototype.postMessage;
  let held = [];
  let holding = true;
  window.__quizAnalyses = 0;
  Worker.prototype.postMessage = function (msg, ...rest) {
    if (!(msg && msg.fn === "analyse" && msg.args && msg.args.budget === BUDGET)) return post.call(this, msg, ...rest);
    window.__quizAnalyses += 1;
    const send = () => post.call(this, { ...msg, args: { ...msg.args, budget: 0 } }, ...rest);
    if (holding) held.push(send);
    else send();
  };
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
    assert page.is_enabled("#next")
    assert page.evaluate("() => document.activeElement.id") == "quiz-continue"
    page.keyboard.press("Enter")                         # Continue: the opening lead is shown
    assert step_of(page) == str(BIDS + 1)
    page.click("#prev")                                  # back and on again: no puzzle, no new analysis
    page.wait_for_function("(s) => document.body.dataset.step === s", arg=str(BIDS))
    assert page.is_hidden("#quiz")
    page.click("#next")
    page.wait_for_function("(s) => document.body.dataset.step === s", arg=str(BIDS + 1))
    assert page.evaluate("() => window.__quizAnalyses") == 1
    driver.assert_clean(page)
