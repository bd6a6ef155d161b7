"""The statistics page's charts and file picker as a player with little history sees them
(issue 32): one match's win rate is a labelled point in the middle of its chart with a guide
line, not a dot in a corner of an empty axis; the partner's bars are not drawn in the orange
hatching that means "Them" on every page; the history file picker is a button of the page's kind.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
for extra in (ROOT, ROOT / "tests"):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

from history_data import play_match  # noqa: E402

from driver import assert_clean  # noqa: E402

pytestmark = pytest.mark.browser

ADD_JS = """async (items) => {
  const { openHistory } = await import('./lib/history.js');
  const h = await openHistory();
  for (const it of items) await h.addMatch(it);
}"""


@pytest.fixture(scope="module")
def one_match():
    save, state = play_match(11, "normal", "normal", hands=None)
    return [{"saveText": save, "state": state, "date": 1_780_000_000_000}]


def open_with(page, site_url, games):
    page.goto(site_url + "stats.html?lang=en")
    page.wait_for_selector("body[data-ready='1']")
    page.evaluate(ADD_JS, games)
    page.reload()
    page.wait_for_selector("body[data-ready='1']")


def test_one_match_win_rate_is_a_point_with_its_value(page, site_url, one_match):
    open_with(page, site_url, one_match)
    got = page.evaluate("""() => {
      const svg = document.querySelector('.charts figure .chart-svg');
      const w = svg.viewBox.baseVal.width;
      const dot = svg.querySelector('circle');
      const value = svg.querySelector('.chart-value');
      return {at: Number(dot.getAttribute('cx')) / w, value: value && value.textContent,
              guide: svg.querySelectorAll('.chart-guide').length};
    }""")
    won = one_match[0]["state"]["winner"] == 0
    assert 0.4 <= got["at"] <= 0.6, got
    assert got["value"] == ("100%" if won else "0%")
    assert got["guide"] == 1
    assert_clean(page)


#: The fill colour of each bar series' pattern in the chart `index` of the page (0: win rate,
#: 1: bids, 2: bags), by the series' class.
FILLS_JS = """(index) => {
  const svg = document.querySelectorAll('.charts figure .chart-svg')[index];
  return [0, 1].map((i) => {
    const bar = svg.querySelector(`rect.series-${i}`);
    const id = bar.getAttribute('fill').match(/#([^)]+)/)[1];
    return svg.querySelector(`#${id} rect`).getAttribute('fill');
  });
}"""


def test_the_partners_bars_are_not_them_orange(page, site_url, one_match):
    open_with(page, site_url, one_match)
    you, partner = page.evaluate(FILLS_JS, 1)
    us, them = page.evaluate(FILLS_JS, 2)
    assert you == us
    assert partner not in (them, you), (partner, them)
    assert_clean(page)


def test_the_file_picker_is_styled_like_the_pages_buttons(page, site_url, one_match):
    open_with(page, site_url, one_match)
    look = page.evaluate("""() => {
      const pick = getComputedStyle(document.querySelector("input[type='file']"), '::file-selector-button');
      const button = getComputedStyle(document.querySelector('main button'));
      return {pick: [pick.borderTopLeftRadius, pick.borderTopColor], button: [button.borderTopLeftRadius, button.borderTopColor]};
    }""")
    assert look["pick"] == look["button"], look
    assert_clean(page)
