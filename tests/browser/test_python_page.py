"""python.html: a page with only Pyodide installs the published wheel with micropip
and plays through the Python API."""
from __future__ import annotations

import json
import urllib.request

import pytest

from spades import Match

pytestmark = pytest.mark.browser


def expected_trick_winner(seed: int = 1) -> int:
    m = Match(seed=seed)
    for _ in range(4):
        m.bid(3)
    for _ in range(4):
        m.play(m.legal_cards()[0])
    return m.tricks[-1].winner


def test_python_page_installs_wheel_and_plays(first_visit_page, site_url, screenshot_dir):
    page = first_visit_page  # a page that never starts the game's engine: no snapshot to seed
    page.goto(site_url + "python.html")
    page.wait_for_selector("body[data-ready='1'], body[data-error]", timeout=120_000)
    assert page.get_attribute("body", "data-error") is None, page.inner_text("#status")
    latest = json.load(urllib.request.urlopen(site_url + "wheels/latest.json", timeout=10))
    assert latest["wheel"] in page.inner_text("#status")
    snippet = page.inner_text("#snippet")
    assert snippet == f'import micropip; await micropip.install("{site_url}wheels/{latest["wheel"]}")'

    page.click("#run")
    page.wait_for_selector("body[data-ran]", timeout=60_000)
    out = page.inner_text("#output")
    assert page.get_attribute("body", "data-ran") == "ok", out
    assert f"Trick winner: seat {expected_trick_winner()}" in out
    assert "Bids: (3, 3, 3, 3)" in out
    page.screenshot(path=str(screenshot_dir / "python-page.png"), full_page=True)

    # an edited program runs too, and a Python error is shown, not thrown
    page.fill("#code", "from spades import Match\nMatch(seed=2).play('AS')\n")
    page.click("#run")
    page.wait_for_selector("body[data-ran]", timeout=60_000)
    assert page.get_attribute("body", "data-ran") == "error"
    assert "IllegalAction" in page.inner_text("#output")
    assert page.console_errors == []
    assert page.foreign_requests == []
