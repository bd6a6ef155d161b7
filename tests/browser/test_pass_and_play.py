"""Pass-and-play: two people on one device, the privacy screen between their turns, by keyboard."""
from __future__ import annotations

from driver import BOOT_MS

QUERY = "index.html?seed=7&speed=0&partner=easy&opponents=easy&pass=partner"


def test_the_privacy_screen_hides_every_hand_and_opens_by_keyboard(page, site_url, screenshot_dir):
    page.goto(site_url + QUERY)
    page.wait_for_selector("body[data-phase='bid']", timeout=BOOT_MS)
    # South and North take turns; the first time North is to act the screen covers the table
    for _ in range(40):
        if page.is_visible("#privacy-dialog"):
            break
        bid = page.query_selector("#bid-panel:not([hidden]) button[data-bid='3']:enabled")
        if bid:
            bid.click()
        page.wait_for_timeout(100)
    page.wait_for_selector("#privacy-dialog[open]")
    south = page.evaluate("[...document.querySelectorAll('#hand button[data-card]')].map(b => b.dataset.card)")
    assert page.evaluate("getComputedStyle(document.querySelector('.hand-area')).visibility") == "hidden"
    assert "North" in page.inner_text("#privacy-dialog")
    page.screenshot(path=str(screenshot_dir / "pass-privacy.png"))
    assert page.evaluate("document.activeElement.dataset.action") == "ready"
    page.keyboard.press("Escape")  # the screen stays: only the next person's choice uncovers it
    assert page.is_visible("#privacy-dialog")
    page.keyboard.press("Enter")
    page.wait_for_selector("#privacy-dialog", state="hidden")
    page.wait_for_selector("#bid-panel button[data-bid]:enabled")
    north = page.evaluate("[...document.querySelectorAll('#hand button[data-card]')].map(b => b.dataset.card)")
    assert len(north) == 13 and not set(north) & set(south)
    assert "North" in page.inner_text(".seat[data-seat='0'] .seat-name")
