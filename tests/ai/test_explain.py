"""Reasons: every bot's explained action is its choice, every code is registered and translated."""
from __future__ import annotations

import json
import re
from typing import Any

import pytest
from helpers import I18N, LANGS, loop_count
from hypothesis import given, settings
from hypothesis import strategies as st

from spades import Match
from spades.ai import bot
from spades.ai.estimate import estimate_parts, estimate_tricks
from spades.ai.explain import CODES, KINDS, STRUCTURED_KINDS, param_kinds, text_params
from spades.ai.hard import HardBot, candidates, explain_hard_bid
from spades.ai.normal import NormalBot
from spades.ai.tracker import track
from spades.cards import CARD_INDEX, CARD_NAMES, SUITS
from spades.legal import legal_mask
from tests.ai.test_ai import deal_with, position

PLACEHOLDER = re.compile(r"\{(\w+)\}")
MATCHES = loop_count(20, 50)     # whole matches (Easy, Normal) or first hands (Hard, small budget), every decision compared
HARD_HANDS = loop_count(2, 3)    # Hard at its full budget: the first hand of this many matches (see report)
MAX_HANDS = 60


def check_value(kind: str, value: Any, told: bool = False) -> None:
    """``value`` is of parameter ``kind`` (see spades.ai.explain); ``told``: as another seat hears it
    (``told_to``: details and the search's table may have lost their parts about hidden cards)."""
    if kind == "card":
        assert value in CARD_INDEX, value
    elif kind == "cards":
        assert isinstance(value, list) and all(c in CARD_INDEX for c in value), value
    elif kind == "suit":
        assert value in SUITS, value
    elif kind == "suits":
        assert isinstance(value, list) and value and all(s in SUITS for s in value), value
    elif kind == "seat":
        assert value in (0, 1, 2, 3), value
    elif kind == "count":
        assert isinstance(value, int) and not isinstance(value, bool) and value >= 0, value
    elif kind == "bid":
        assert isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 13, value
    elif kind in ("tricks", "points"):
        assert isinstance(value, (int, float)) and not isinstance(value, bool), value
    elif kind == "percent":
        assert isinstance(value, int) and 0 <= value <= 100, value
    elif kind == "details":
        assert isinstance(value, list) and (told or value), value
        for d in value:
            check_reason(d, told)
    elif kind == "candidates":
        assert isinstance(value, list) and (told or len(value) >= 2), value
        for row in value:
            assert set(row) == {"card", "value", "make"}, row
            check_value("card", row["card"])
            check_value("points", row["value"])
            check_value("percent", row["make"])
    else:  # pragma: no cover - a kind missing here fails the registry test below
        raise AssertionError(f"unknown kind {kind}")


def check_reason(r: dict[str, Any], told: bool = False) -> str:
    """``r`` (``{code, params}``) uses a registered code with exactly its parameters; returns the code."""
    assert set(r) == {"code", "params"}, r
    code, params = r["code"], r["params"]
    assert code in CODES, f"unregistered reason code {code!r}"
    assert set(params) == set(CODES[code]), f"{code}: params {sorted(params)}, registry {sorted(CODES[code])}"
    for name, kind in CODES[code].items():
        check_value(kind, params[name], told)
    return code


def play_explained(levels: list[str], seed: int, max_hands: int, budget: int | None = None) -> list[str]:
    """Play a match; at every decision the explained action must equal a twin bot's ``choose``.

    The twin is a separately made bot of the same level and seed, so the comparison runs the
    decision twice from scratch. Returns the codes of every decision.
    """
    def make(s: int) -> Any:
        b = bot(levels[s], seed=seed * 4 + s)
        if isinstance(b, HardBot) and budget:
            b.budget = budget
            b.bid_samples = 4
        return b

    bots, twins = [make(s) for s in range(4)], [make(s) for s in range(4)]
    m = Match(seed=seed)
    codes = []
    while m.phase != "over" and len(m.hands_played) < max_hands:
        seat = m.to_act
        view = m.view(seat)
        explained = bots[seat].explain(view)
        assert explained.action == twins[seat].choose(view), (seed, len(m.actions))
        if view.phase == "bid":
            assert explained.action in view.legal_bids
        else:
            assert explained.action in view.legal_cards
        r = explained.reason.to_dict()
        assert json.loads(json.dumps(r)) == r
        codes.append(check_reason(r))
        if isinstance(explained.action, str):
            assert r["params"].get("card", explained.action) == explained.action
        m.act(explained.action, seat=seat)
    return codes


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_explained_action_is_the_choice_in_every_decision_of_whole_matches(level: str) -> None:
    codes = [c for seed in range(MATCHES) for c in play_explained([level] * 4, seed, MAX_HANDS)]
    assert len(codes) > MATCHES * 52                     # at least one full hand per match
    if level == "normal":
        assert {"bid.tricks", "bid.nil", "play.partner_winning", "lead.boss", "play.win_last"} <= set(codes)


def test_hard_explained_action_is_the_choice_at_full_budget() -> None:
    codes = [c for seed in range(HARD_HANDS)
             for c in play_explained(["hard", "normal", "hard", "normal"], seed, max_hands=1)]
    assert len(codes) == HARD_HANDS * 56
    assert "play.search" in codes or "play.search_rule" in codes


#: The small-budget matches in chunks of this many, each a test of its own: pytest-xdist
#: spreads them over its workers (one test of all 50 was the suite's longest, about 75 s).
SMALL_BUDGET_CHUNK = 10


@pytest.mark.parametrize("first", range(0, MATCHES, SMALL_BUDGET_CHUNK))
def test_hard_explained_action_is_the_choice_in_many_matches_with_a_small_budget(first: int) -> None:
    # the same code path at the smallest budget (16 deals a decision), the first hand of MATCHES matches;
    # the full budget: HARD_HANDS above, and 50 whole matches by tools/bench_explain.py --check
    seeds = range(first, min(first + SMALL_BUDGET_CHUNK, MATCHES))
    codes = [c for seed in seeds for c in play_explained(["hard", "hard", "normal", "normal"], seed,
                                                         max_hands=1, budget=1)]
    assert {"play.search", "play.search_rule"} <= set(codes)


# -- what the reasons say -------------------------------------------------------------------------

def test_registry_kinds_are_known_and_one_per_parameter_name() -> None:
    for code, params in CODES.items():
        assert re.fullmatch(r"[a-z]+\.[a-z_]+", code), code
        assert set(params.values()) <= KINDS, code
    kinds = param_kinds()            # raises if a name had two kinds: the page renders by name
    assert kinds["card"] == kinds["keep"] == kinds["partner_card"] == "card" and kinds["make"] == "percent"
    CODES["test.bad"] = {"card": "count"}
    try:
        with pytest.raises(ValueError, match="two kinds"):
            param_kinds()
    finally:
        del CODES["test.bad"]


@pytest.mark.parametrize("lang", LANGS)
def test_catalogue_has_a_sentence_for_every_code_with_exactly_its_parameters(lang: str) -> None:
    data = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
    keys = {k for k in data if k.startswith("reason.")}
    assert keys == {f"reason.{c}" for c in CODES}
    for code in CODES:
        text = data[f"reason.{code}"]
        assert isinstance(text, str) and text.strip(), (lang, code)
        assert set(PLACEHOLDER.findall(text)) == text_params(code), (lang, code, text)


def test_structured_parameters_never_reach_a_sentence() -> None:
    for code, params in CODES.items():
        assert not any(params[p] in STRUCTURED_KINDS for p in text_params(code)), code


@settings(max_examples=300, deadline=None)
@given(st.permutations(range(52)))
def test_bid_estimate_parts_add_up_to_the_estimate(deck: list[int]) -> None:
    hand = sum(1 << c for c in deck[:13])
    parts: list = []
    total = estimate_parts(hand, parts)
    assert total == estimate_tricks(hand)
    for p in parts:
        check_reason(p)
    # each part is shown to two decimals: the sum of what is shown is the estimate within that rounding
    shown = sum(p["params"].get("tricks", 0) for p in parts)
    assert abs(shown - total) <= 0.005 * len(parts) + 1e-9
    named = [p["params"]["card"] for p in parts if "card" in p["params"]]
    assert all(hand >> CARD_INDEX[c] & 1 for c in named)       # only cards the hand holds


def test_normal_bid_lists_its_sure_and_probable_tricks() -> None:
    hand = ["AS", "KS", "7S", "AH", "9H", "5H", "QD", "8D", "4D", "JC", "8C", "5C", "3C"]
    m = position(deal_with({0: hand}), 1, [3, 4])       # partner bid 3
    e = NormalBot(0).explain(m.view(0))
    assert e.action == 3 and e.reason.code == "bid.tricks"
    parts = {(d["code"], d["params"].get("card")) for d in e.reason.params["details"]}
    assert parts == {("est.spade_honour", "AS"), ("est.spade_honour", "KS"), ("est.ace", "AH"), ("est.queen", "QD")}
    assert e.reason.params["estimate"] == 3.2          # 1 + 0.95 + 1 + 0.25
    cover = NormalBot(0).explain(position(deal_with({0: hand}), 1, [0, 4]).view(0))
    assert cover.action == 3                          # 3.2 does not round up to 4, even to cover
    assert cover.reason.params["details"][-1] == {"code": "adj.partner_nil", "params": {"bid": 3}}


def test_nil_bid_says_why() -> None:
    weak = ["2C", "3C", "5C", "7C", "2D", "4D", "6D", "3H", "5H", "8H", "2S", "4S", "9H"]
    e = NormalBot(0).explain(position(deal_with({1: weak}), 0, []).view(1))
    assert e.action == 0 and e.reason.code == "bid.nil"
    assert e.reason.params["details"] == [{"code": "nil.fits", "params": {"spades": 2, "estimate": 0.0}}]


def test_hard_refuses_a_nil_near_the_floor_and_says_so() -> None:
    weak = ["2C", "3C", "5C", "7C", "2D", "4D", "6D", "3H", "5H", "8H", "2S", "4S", "9H"]
    m = Match(seed=1, deal=deal_with({1: weak}), dealer=0, scores=(0, -150))   # seat 1 is on team 1
    bid, why = explain_hard_bid(m.view(1))
    assert bid == 1 and why.code == "bid.tricks"
    assert {"code": "adj.nil_unsafe", "params": {"score": -150}} in why.params["details"]


def test_following_low_under_partners_winner_names_the_card_kept() -> None:
    deal = deal_with({0: ["KH", "5H"], 1: ["3H"], 2: ["AH"], 3: ["4H"]}, avoid={0: "H"})
    m = position(deal, 0, [3, 3, 3, 3, "3H", "AH", "4H"])
    e = NormalBot(0).explain(m.view(0))
    assert (e.action, e.reason.code) == ("5H", "play.partner_winning_keep")
    assert e.reason.params == {"card": "5H", "partner_card": "AH", "keep": "KH"}


def test_cover_and_attack_nil_rules_are_named() -> None:
    deal = deal_with({0: ["TH", "4H"], 1: ["2H"], 2: ["9H"], 3: ["3H"]}, avoid={0: "H", 2: "H"})
    e = NormalBot(0).explain(position(deal, 0, [3, 0, 3, 3, "2H", "9H", "3H"]).view(0))
    assert (e.action, e.reason.code, e.reason.params["partner_card"]) == ("TH", "play.cover_overtake", "9H")
    deal = deal_with({0: ["TH", "4H"], 1: ["9H"], 2: ["2H"], 3: ["3H"]}, avoid={0: "H", 1: "H"})
    e = NormalBot(0).explain(position(deal, 0, [0, 3, 3, 3, "9H", "2H", "3H"]).view(0))
    assert e.action == "4H" and e.reason.to_dict() == {"code": "play.attack_leave", "params": {"card": "4H", "seat": 1}}


def test_hard_search_reason_lists_every_candidate_with_its_figures() -> None:
    deal = deal_with({0: ["AH", "4H"], 1: ["KH"], 2: ["2H"], 3: ["3H"]}, avoid={0: "H"})
    m = position(deal, 0, [7, 1, 6, 1, "KH", "2H", "3H"])
    b = HardBot(0)
    b.budget = 2000
    view = m.view(0)
    e = b.explain(view)
    assert e.action == "AH" and e.reason.code in ("play.search", "play.search_rule")
    p = e.reason.params
    t = track(view)
    moves = candidates(legal_mask(t.hand, 2, t.broken), t)
    assert sorted(r["card"] for r in p["candidates"]) == sorted(CARD_NAMES[c] for c in moves)
    row = next(r for r in p["candidates"] if r["card"] == "AH")
    assert (p["value"], p["make"]) == (row["value"], row["make"])
    assert p["samples"] >= 16
    assert [r["value"] for r in p["candidates"]] == sorted((r["value"] for r in p["candidates"]), reverse=True)
