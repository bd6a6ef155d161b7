"""Shared builders for engine tests (deals made to order), the suite's one switch between
its default counts and its thorough ones, and the product's languages."""
from __future__ import annotations

import os
from pathlib import Path

from spades.cards import RANKS

#: ``SPADES_SLOW_TESTS=1``: the thorough run. The tests marked ``slow`` run, and the tests
#: that loop over many matches, deals or mutants use their full counts (:func:`loop_count`);
#: without it they use smaller counts chosen so that ``.ci/run`` stays short.
SLOW_TESTS = os.environ.get("SPADES_SLOW_TESTS") == "1"


def loop_count(default: int, thorough: int) -> int:
    """How many matches, deals or mutants a looping test covers: ``default`` in the
    default run, ``thorough`` under ``SPADES_SLOW_TESTS=1``."""
    return thorough if SLOW_TESTS else default


#: The product's languages, English first, as site/lib/i18n.js LANGUAGES lists them
#: (tests/test_rules_pages.py checks that table against this one).
LANGS = ("en", "de", "ro", "ru", "pt", "hu", "es")
#: The languages translated from English.
TRANSLATIONS = LANGS[1:]
#: Where each language's texts lie (``I18N / f"{lang}.json"``).
I18N = Path(__file__).resolve().parents[1] / "site" / "i18n"


SUIT_HANDS = {s: [r + s for r in RANKS] for s in "CDHS"}


def suit_deal(order: str = "SCDH") -> list[list[str]]:
    """Seat i holds all thirteen cards of suit ``order[i]``."""
    return [list(SUIT_HANDS[s]) for s in order]


def play_out(match, choose=lambda cards: cards[0]) -> None:
    """Play the current hand to its end, choosing a card from the legal ones."""
    hands = len(match.hands_played)
    while len(match.hands_played) == hands and match.phase == "play":
        match.play(choose(match.legal_cards()))
