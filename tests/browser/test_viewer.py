"""The hand viewer (site/viewer.html) shows what the engine computed.

A hand is played in Python with Easy bots, given to the viewer as JSON or as hand
notation, stepped through in the page, and the breakdown it shows at the end is
compared with the engine's own record.
"""
from __future__ import annotations

import json
from urllib.parse import quote

import pytest

from driver import EN, ROOT, assert_clean, show_hand
from spades import Match, bridge
from spades.ai import bot
from spades.notation import NotationError, format_hand, parse, replay

pytestmark = pytest.mark.browser

READY_MS = 120_000
FIELDS = ["contract", "contract_tricks", "contract_points", "overtricks", "bags", "penalty_points",
          "delta", "score_after", "bags_after"]


def play_hands(seed: int, hands: int = 1) -> Match:
    m = Match(seed=seed)
    bots = {s: bot("easy", seed + s) for s in range(4)}
    while len(m.hands_played) < hands:
        seat = m.to_act
        m.act(bots[seat].choose(m.view(seat)), seat=seat)
    return m


def camel(field: str) -> str:
    head, *rest = field.split("_")
    return "team" + head.capitalize() + "".join(p.capitalize() for p in rest)


def shown_breakdown(page) -> dict[str, list[int]]:
    out = {}
    for field in FIELDS:
        attr = "data-team-" + field.replace("_", "-")
        cells = page.locator(f"#score [{attr}]")
        assert cells.count() == 2, field
        values = {}
        for i in range(2):
            cell = cells.nth(i)
            values[int(cell.get_attribute(attr))] = int(cell.get_attribute("data-value"))
        out[field] = [values[0], values[1]]
    return out


def open_viewer(page, site_url, text: str, extra: str = ""):
    page.goto(site_url + "viewer.html?hand=" + quote(text) + extra)
    page.wait_for_selector("body[data-ready='1'], body[data-error]", timeout=READY_MS)


@pytest.mark.parametrize("seed", [3, 11])
def test_viewer_scores_match_engine(viewer, seed, screenshot_dir):
    page = viewer
    m = play_hands(seed)
    record = m.hands_played[0]
    data = record.to_dict()
    show_hand(page, json.dumps(data))
    assert page.get_attribute("body", "data-error") is None, page.inner_text("#error")
    total = int(page.get_attribute("body", "data-steps"))
    assert total == 4 + 52 + 1  # bids, cards, score

    assert page.get_attribute("body", "data-step") == "0"
    # step with the keyboard: cards leave the hands as they are played
    page.focus("#next")
    assert page.locator(".seat .hand .card").count() == 52
    for _ in range(4 + 5):
        page.keyboard.press("ArrowRight")
    assert page.get_attribute("body", "data-step") == "9"
    assert page.locator(".seat .hand .card").count() == 52 - 5
    assert page.locator("#trick .card").count() == 1  # the 2nd trick's lead
    first = data["tricks"][1]["plays"][0]
    assert page.locator(f"#trick .card[data-card='{first[1]}']").count() == 1
    assert "leads" in page.inner_text("#announce")
    page.keyboard.press("ArrowLeft")
    assert page.locator("#trick .card").count() == 4
    assert page.locator("#score").is_hidden()

    page.keyboard.press("End")
    assert page.get_attribute("body", "data-step") == str(total)
    assert page.locator(".seat .hand .card").count() == 0
    assert page.locator("#score").is_visible()
    shown = shown_breakdown(page)
    for field in FIELDS:
        assert shown[field] == [getattr(record.scores[0], field), getattr(record.scores[1], field)], field
    won = [int(page.inner_text(f"[data-won='{s}']").split()[-1]) for s in range(4)]
    assert won == [sum(1 for t in record.tricks if t.winner == s) for s in range(4)]
    assert "Hand scored" in page.inner_text("#announce")
    page.screenshot(path=str(screenshot_dir / f"viewer-{seed}.png"), full_page=True)
    assert_clean(page)


def test_viewer_reads_notation_and_step_hash(page, site_url):
    m = play_hands(7)
    record = m.hands_played[0]
    open_viewer(page, site_url, format_hand(record), "#step=60")  # clamped to the end
    assert page.get_attribute("body", "data-error") is None, page.inner_text("#error")
    assert page.get_attribute("body", "data-step") == "57"
    delta = page.locator("#score [data-team-delta='1']").get_attribute("data-value")
    assert int(delta) == record.scores[1].delta
    page.click("#first")
    assert page.get_attribute("body", "data-step") == "0"
    assert "#step=0" in page.url
    page.click("#next")
    assert "bids" in page.inner_text("#announce")
    assert_clean(page)


def test_viewer_match_with_several_hands(page, site_url):
    m = play_hands(21, hands=2)
    open_viewer(page, site_url, m.to_json(), "#hand=2&step=3")
    assert page.locator("#hand-pick").is_visible()
    assert page.locator("#hand-select option").count() == 2  # a not-yet-started next hand is not listed
    assert page.input_value("#hand-select") == "1"
    assert page.get_attribute("body", "data-step") == "3"
    page.select_option("#hand-select", "0")
    page.keyboard.press("End")
    assert int(page.locator("#score [data-team-score-after='0']").get_attribute("data-value")) == \
        m.hands_played[0].scores[0].score_after
    assert_clean(page)


def test_viewer_bad_input_shows_engine_reason(viewer):
    page = viewer
    m = play_hands(5)
    text = format_hand(m.hands_played[0])
    broken = text.replace("Play: ", "Play: AS ", 1)  # a spade led before spades are broken (or not held)
    # what the page must show: the engine's refusal, read here both from the notation
    # module directly and from the bridge reply the page receives
    with pytest.raises(NotationError) as refused:
        replay(parse(broken))
    reply = json.loads(bridge.handle(json.dumps({"fn": "review", "args": {"text": broken}})))
    assert reply["error"]["code"] == refused.value.code == "illegal_history"
    show_hand(page, broken)
    assert page.get_attribute("body", "data-error") == "illegal_history"
    message = page.inner_text("#error")
    assert message.startswith(EN["viewer.error.illegal_history"])
    assert reply["error"]["message"] in message  # the engine's detail, verbatim
    assert "Traceback" not in message and "File \"" not in message
    show_hand(page, "Dealer: Q\n")
    assert page.get_attribute("body", "data-error") == "bad_notation"
    assert page.inner_text("#error").startswith(EN["viewer.error.bad_notation"])
    assert "the dealer is one of S, W, N, E" in page.inner_text("#error")
    assert_clean(page)


@pytest.mark.parametrize("lang", ["de", "es"])
def test_viewer_speaks_the_players_language(page, site_url, lang):
    d = json.loads((ROOT / "site" / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    m = play_hands(3)
    record = m.hands_played[0]
    page.goto(site_url + f"viewer.html?lang={lang}&hand=" + quote(format_hand(record)) + "#step=1")
    page.wait_for_selector("body[data-ready='1']", timeout=READY_MS)
    assert page.get_attribute("html", "lang") == lang
    assert page.inner_text("h1") == d["viewer.title"]
    first = (record.dealer + 1) % 4
    seat_name = d[f"viewer.seat.{first}"]
    bid = record.bids[first]
    said = d["viewer.say.bid"].replace("{name}", seat_name).replace("{bid}", d["bid.nil"] if bid == 0 else str(bid))
    assert page.inner_text("#announce") == said
    assert page.inner_text(f".seat[data-seat='{first}'] .seat-name").startswith(seat_name)
    assert page.get_attribute("#next", "aria-label") == d["viewer.next.label"]
    # card names in this language, from the game's own catalogue
    label = page.get_attribute(".seat[data-seat='0'] .hand .card", "aria-label")
    assert any(d[f"suit.{s}"] in label for s in "SHDC"), label
    page.keyboard.press("End")
    assert page.inner_text("#score-title") == d["viewer.score"]
    assert page.inner_text("#score tbody th") == d["viewer.row.contract"]
    assert_clean(page)
