"""Tutorial authors: the embed page deals what its parameters say, and a played hand
exports as hand notation that the engine reads back to the same scores."""
from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from spades import Match
from spades.notation import parse, replay
from driver import BOOT_MS, act, assert_clean, new_match, next_action, play_until, wait_playable

pytestmark = pytest.mark.browser


def test_embed_page_with_parameters_shows_the_expected_deal(page, site_url):
    page.set_viewport_size({"width": 640, "height": 480})
    page.goto(site_url + "embed.html?seed=515&partner=easy&opponents=hard&lang=de&compact=1&speed=0")
    wait_playable(page)
    shown = page.eval_on_selector_all("#hand button[data-card]", "bs => bs.map(b => b.dataset.card)")
    assert sorted(shown) == sorted(Match(seed=515).hand(0))
    assert page.get_attribute("html", "lang") == "de"
    assert page.evaluate("document.body.classList.contains('embed') && document.body.classList.contains('compact')")
    # sized to its container: nothing wider than the frame
    assert page.evaluate("document.documentElement.scrollWidth") <= 640
    # an embedded table keeps its own save, named by its dealing parameters: the player's own match is left alone
    keys = page.evaluate("Object.keys(localStorage)")
    assert "spades.embed.save.v1:seed=515&partner=easy&opponents=hard" in keys and "spades.save.v1" not in keys
    assert_clean(page)


def test_export_a_finished_hand_as_notation(game):
    page = game
    new_match(page, 23)
    play_until(page, lambda p, a: a["kind"] == "continue")
    page.click("#sheet-dialog button[data-action='export-hand']")
    text = page.wait_for_selector("[data-role='export-text']").input_value()
    record = replay(parse(text)).hands_played[0]
    expected = Match(seed=23)
    assert record.dealer == expected.dealer
    assert [sorted(h) for h in record.deal] == [sorted(expected.hand(s)) for s in range(4)]
    totals = [int(page.text_content(f'[data-score="{t}"]')) for t in (0, 1)]
    assert totals == [record.scores[0].score_after, record.scores[1].score_after]
    link = page.get_attribute("[data-role='export-link']", "href")
    assert link.startswith("viewer.html?") and parse_qs(urlsplit(link).query)["hand"][0] == text
    act(page, next_action(page))
    assert_clean(page)
