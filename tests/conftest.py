"""Shared test setup: Hypothesis profiles and a random legal player for the engine.

Hypothesis profiles (choose with ``HYPOTHESIS_PROFILE=name``; default ``ci``):

``ci``        derandomized (same examples on every run), no deadline, base of 100
              examples; the property files scale their example counts from it so that
              all of them together stay well under 90 s on a 2-core machine.
``dev``       fast local runs: random examples, a quarter of the work.
``thorough``  ten times the ``ci`` work, random examples, for nightly or bug hunts.

Test files scale their example counts from ``settings.default.max_examples`` (the loaded
profile when test modules are imported) with a small ``ex()`` helper of their own, the
same rule as :func:`examples` here.

The random player (:func:`random_action`, :func:`play_random`) uses only the public
API of :class:`spades.Match`: ``phase``, ``legal_bids()``, ``legal_cards()``,
``bid()``, ``play()``. It is exposed to tests through the session fixture
``random_player`` (a namespace) because ``from conftest import …`` is ambiguous
while ``tests/browser/conftest.py`` exists.
"""
from __future__ import annotations

import os
import random
import sys
import types
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
# the shared helpers (helpers.py, oracles.py, history_data.py) beside this file, for the
# tests in the per-package folders (engine/, solver/, ai/, bridge/, cli/)
TESTS = Path(__file__).resolve().parent
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))

from helpers import SLOW_TESTS  # noqa: E402 - found through the path set just above

_COMMON = {"deadline": None, "print_blob": True,
           "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large,
                                     HealthCheck.filter_too_much]}
settings.register_profile("ci", max_examples=100, derandomize=True, **_COMMON)
settings.register_profile("dev", max_examples=25, **_COMMON)
settings.register_profile("thorough", max_examples=1000, **_COMMON)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_collection_modifyitems(config, items):
    """Tests marked ``slow`` are skipped unless this is the thorough run (``SPADES_SLOW_TESTS=1``)."""
    if SLOW_TESTS:
        return
    skip = pytest.mark.skip(reason="slow: set SPADES_SLOW_TESTS=1 for the thorough run")
    for item in items:
        if item.get_closest_marker("slow"):
            item.add_marker(skip)


def examples(ci_count: int) -> int:
    """``ci_count`` examples under the ``ci`` profile, scaled for the loaded profile."""
    return max(3, ci_count * settings.default.max_examples // 100)


# -- a random legal player through the public API -------------------------------------

BID_STYLES = ("uniform", "realistic", "nil_heavy")
PLAY_STYLES = ("uniform", "low", "high")
_RANK = {r: i for i, r in enumerate("23456789TJQKA")}


def choose_bid(rnd: random.Random, legal: list[int], style: str = "uniform") -> int:
    """A bid among ``legal``: uniform 0–13, realistic (mostly 1–5) or with many nils."""
    if style == "realistic":
        want = rnd.choice((1, 2, 2, 3, 3, 3, 4, 4, 5, 6, 0))
    elif style == "nil_heavy":
        want = rnd.choice((0, 0, 0, 2, 3, 4, 5))
    else:
        want = rnd.choice(legal)
    return want if want in legal else rnd.choice(legal)


def choose_card(rnd: random.Random, legal: list[str], style: str = "uniform") -> str:
    """A card among ``legal``: uniform, or lowest / highest rank (ties broken at random)."""
    if style == "uniform" or len(legal) == 1:
        return rnd.choice(legal)
    key = (lambda c: _RANK[c[0]]) if style == "low" else (lambda c: -_RANK[c[0]])
    best = min(key(c) for c in legal)
    return rnd.choice([c for c in legal if key(c) == best])


def random_action(match, rnd: random.Random, bid_style: str = "uniform", play_style: str = "uniform"):
    """One legal action for the seat to act (a bid or a card name)."""
    if match.phase == "bid":
        return choose_bid(rnd, match.legal_bids(), bid_style)
    return choose_card(rnd, match.legal_cards(), play_style)


def play_random(match, rnd: random.Random, *, max_actions: int | None = None,
                max_hands: int | None = None, bid_style: str = "uniform",
                play_style: str = "uniform") -> list:
    """Play random legal actions until the match ends, ``max_actions`` were taken or
    ``max_hands`` hands are complete; returns the actions taken, in order."""
    taken = []
    while match.phase != "over":
        if max_actions is not None and len(taken) >= max_actions:
            break
        if max_hands is not None and len(match.hands_played) >= max_hands:
            break
        action = random_action(match, rnd, bid_style, play_style)
        match.act(action)
        taken.append(action)
    return taken


@pytest.fixture(scope="session")
def random_player() -> types.SimpleNamespace:
    """The random legal player (session-scoped, so Hypothesis tests may use it)."""
    return types.SimpleNamespace(random_action=random_action, play_random=play_random,
                                 choose_bid=choose_bid, choose_card=choose_card,
                                 BID_STYLES=BID_STYLES, PLAY_STYLES=PLAY_STYLES,
                                 examples=examples)
