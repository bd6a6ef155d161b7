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

from driver import (BOOT_MS, EN, GONE_JS, QUERY, SAVE_KEY, assert_clean, bridge_save_at, new_match, next_action,
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
