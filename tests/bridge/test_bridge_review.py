"""The step-wise review messages: ``analyse`` (one position a message) and ``dd_table``.

Oracle: :func:`spades.solver.solve` on the same match replayed to the same card, and a
plain brute-force count for the last trick. Refusals carry codes and change nothing.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from helpers import suit_deal
from hypothesis import given, settings
from hypothesis import strategies as st

from spades import bridge
from spades.match import Match
from spades.notation import format_hand
from spades.solver import solve

BIG_BUDGET = 30


def _hand(seed: int, deal: list[list[str]] | None = None) -> Match:
    """A match whose first hand is played out with random legal actions (bids 1–4)."""
    rnd = random.Random(seed)
    m = Match(seed=seed, deal=deal)
    for _ in range(4):
        m.bid(rnd.choice([b for b in m.legal_bids() if 1 <= b <= 4]))
    while not m.hands_played:
        m.play(rnd.choice(m.legal_cards()))
    return m


def _call(fn: str, **args) -> dict:
    return json.loads(bridge.handle(json.dumps({"fn": fn, "args": args})))


def _replayed_to(m: Match, step: int) -> Match:
    rec = m.hands_played[0]
    r = Match(seed=0, dealer=rec.dealer, deal=[list(h) for h in rec.deal])
    for i in range(4):
        r.bid(rec.bids[(rec.dealer + 1 + i) % 4])
    for card in [c for t in rec.tricks for _, c in t.plays][:step]:
        r.play(card)
    return r


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10 ** 6), step=st.integers(36, 51))
def test_analyse_values_equal_the_solver_on_the_same_position(seed, step):
    m = _hand(seed)
    reply = _call("analyse", text=format_hand(m.hands_played[0]), step=step, budget=BIG_BUDGET)
    assert reply["ok"], reply
    result = reply["result"]
    here = _replayed_to(m, step)
    expected = solve(here)
    team = here.to_act & 1
    assert result["seat"] == here.to_act and result["finished"] is True
    assert result["values"] == {c: {"tricks": v.tricks[team], "margin": v.margin} for c, v in expected.items()}
    played = [c for t in m.hands_played[0].tricks for _, c in t.plays][step]
    assert result["action"] == played
    best_margin = max(v.margin for v in expected.values())
    assert result["cost_points"] == best_margin - expected[played].margin


def test_the_last_card_has_one_value_and_costs_nothing():
    m = _hand(3)
    result = _call("analyse", text=format_hand(m.hands_played[0]), step=51)["result"]
    last = m.hands_played[0].tricks[-1]
    assert list(result["values"]) == [last.plays[-1][1]]
    won_last = int(last.winner & 1 == result["seat"] & 1)
    assert result["values"][last.plays[-1][1]]["tricks"] == won_last
    assert (result["cost_tricks"], result["cost_points"]) == (0, 0)


def test_analyse_a_position_given_card_by_card():
    hands = [["AS"], ["KS"], ["2H"], ["3H"]]
    pos = {"hands": hands, "trick": [], "leader": 0, "broken": True, "bids": [1, 1, 1, 1], "won": [3, 3, 3, 3]}
    result = _call("analyse", position=pos)["result"]
    assert result == {"seat": 0, "finished": True, "values": {"AS": {"tricks": 1, "margin": result["values"]["AS"]["margin"]}}}


def test_a_position_without_score_has_trick_values_only():
    hands = [["AS", "2C"], ["KS", "3C"], ["2H", "4C"], ["3H", "5C"]]
    pos = {"hands": hands, "trick": [], "leader": 0, "broken": True, "bids": [1, 1, 1, 1], "won": [3, 3, 2, 3]}
    result = _call("analyse", position=pos, score=False)["result"]
    assert result["values"] == {"AS": {"tricks": 1, "margin": None}, "2C": {"tricks": 1, "margin": None}}


def test_a_position_past_its_budget_says_not_finished():
    m = _hand(2)
    rec = m.hands_played[0]
    pos = {"hands": [list(h) for h in rec.deal], "trick": [], "leader": (rec.dealer + 1) % 4, "broken": False,
           "bids": list(rec.bids)}
    assert _call("analyse", position=pos, budget=0)["result"] == {"seat": (rec.dealer + 1) % 4, "finished": False,
                                                                  "values": {}}


def test_a_position_analysed_in_slices_goes_on_from_the_slice_before():
    # the engine worker answers a long budget in short slices, each a message of its own: a
    # first lead that takes about a second is finished by slices of a tenth of one (with a
    # fresh solver each slice started again and never finished), with the whole solve's values
    rnd = random.Random(12)
    for _ in range(2):
        m = Match(seed=rnd.getrandbits(32))
        for _ in range(4):
            m.bid(rnd.choice([b for b in m.legal_bids() if 1 <= b <= 4]))
    pos = {"hands": [m.hand(s) for s in range(4)], "trick": [], "leader": m.to_act, "broken": False,
           "bids": list(m.bids)}
    slices = 0
    while slices < 300:
        slices += 1
        sliced = _call("analyse", position=pos, budget=0.1, score=False)["result"]
        if sliced["finished"]:
            break
    assert sliced["finished"] is True and slices > 1, slices
    assert sliced == _call("analyse", position=pos, budget=30, score=False)["result"]


def test_dd_table_agrees_with_the_solver_for_the_opening_leader():
    m = _hand(7, suit_deal("SHCD"))        # one suit a seat: quick to solve from the first lead
    rec = m.hands_played[0]
    reply = _call("dd_table", text=format_hand(rec), budget=BIG_BUDGET)["result"]
    first = _replayed_to(m, 0)
    values = solve(first, score=False)
    best0 = max(v.tricks[0] for v in values.values()) if first.to_act % 2 == 0 else min(v.tricks[0] for v in values.values())
    assert reply["leader"] == first.to_act
    assert reply["table"][first.to_act] == [best0, 13 - best0]
    assert reply["bids"] == list(rec.bids)


GOOD = format_hand(_hand(1).hands_played[0])
PARTIAL = GOOD.split(" / ")[0]
REFUSALS = [
    ({"text": GOOD, "step": 52}, "bad_step"),
    ({"text": GOOD, "step": -1}, "bad_step"),
    ({"text": GOOD, "step": "3"}, "bad_args"),
    ({"text": GOOD, "step": 3, "hand": 2}, "bad_hand"),
    ({"text": GOOD, "step": 3, "budget": 1000}, "bad_args"),
    ({"text": PARTIAL, "step": 0}, "not_complete"),
    ({"text": "Dealer: X", "step": 0}, "bad_notation"),
    ({"position": {"hands": [["AS"], ["AS"], ["2H"], ["3H"]], "trick": [], "leader": 0, "broken": True,
                   "bids": [1, 1, 1, 1], "won": [3, 3, 3, 3]}}, "card_twice"),
    ({"position": {"hands": [["AS", "AH"], ["KS"], ["2H"], ["3H"]], "trick": [], "leader": 0, "broken": True,
                   "bids": [1, 1, 1, 1], "won": [3, 3, 3, 3]}}, "wrong_counts"),
    ({"position": {"hands": [["AS"], ["KS"], ["2H"], ["3H"]], "trick": [], "leader": 0, "broken": True,
                   "bids": [1, 1, 1, 1], "won": [3, 3, 3, 2]}}, "wrong_counts"),
    ({"position": {"hands": [["AH"], ["KH"], ["2H"], ["3H"]], "trick": [], "leader": 0, "broken": False,
                   "bids": [1, 1, 1, 1], "won": [3, 3, 3, 3]}}, "bad_position"),
    ({"position": {"hands": [["ZZ"], ["KS"], ["2H"], ["3H"]], "trick": [], "leader": 0, "broken": True,
                   "bids": [1, 1, 1, 1]}}, "bad_card"),
    ({"position": "AS KS"}, "bad_args"),
]


#: The codes the review messages brought; the page translates each (error.*, like every engine code).
NEW_CODES = {"not_complete", "bad_step", "card_twice", "wrong_counts", "bad_position", "not_play_phase", "unsupported_rules"}


@pytest.mark.parametrize(("args", "code"), REFUSALS)
def test_refusals_are_coded_and_translated(args, code):
    reply = _call("analyse", **args)
    assert reply["ok"] is False and reply["error"]["code"] == code, reply
    assert code in bridge.ERROR_CODES
    catalogue = json.loads(Path("site/i18n/en.json").read_text(encoding="utf-8"))
    assert code not in NEW_CODES or f"error.{code}" in catalogue


def test_dd_table_refuses_an_unfinished_hand():
    assert _call("dd_table", text=PARTIAL)["error"]["code"] == "not_complete"


def test_bid_advice_is_the_hard_players_choice_at_that_bid():
    from spades.ai import bot
    m = _hand(4)
    rec = m.hands_played[0]
    for step in range(4):
        r = Match(seed=0, dealer=rec.dealer, deal=[list(h) for h in rec.deal])
        for i in range(step):
            r.bid(rec.bids[(rec.dealer + 1 + i) % 4])
        reply = _call("bid_advice", text=format_hand(rec), step=step)["result"]
        explained = bot("hard", seed=0).explain(r.view(r.to_act))
        assert explained.action == bot("hard", seed=0).choose(r.view(r.to_act))
        assert reply == {"seat": r.to_act, "action": rec.bids[r.to_act], "best": explained.action,
                         "level": "hard", "legal": list(range(14)), "reason": explained.reason.to_dict()}
        assert reply["reason"]["code"].startswith("bid.")


@pytest.mark.parametrize(("step", "code"), [(4, "bad_step"), (-1, "bad_step"), (None, "bad_args")])
def test_bid_advice_refusals(step, code):
    assert _call("bid_advice", text=GOOD, step=step)["error"]["code"] == code


# -- house rules: analysed exactly or refused, never scored as 1.0.0 in silence (issue 30, case 7) --

def _house_hand(rules: str, seed: int = 3) -> Match:
    """A match under ``rules`` whose first hand is played out (nil where open, else the first legal bid)."""
    rnd = random.Random(seed)
    m = Match(seed=seed, rules=rules)
    while not m.hands_played:
        if m.phase == "bid":
            m.bid(0 if 0 in m.legal_bids() else next(b for b in m.legal_bids() if b != "blind"))
        else:
            m.play(rnd.choice(m.legal_cards()))
    return m


def _blind_hand() -> Match:
    rnd = random.Random(4)
    m = Match(seed=4, rules="blind-nil,blind_nil_trail=0")
    m.bid("blind")
    while not m.hands_played:
        m.play(rnd.choice(m.legal_cards())) if m.phase == "play" else m.bid(3)
    return m


@pytest.mark.parametrize("make", [
    lambda: _house_hand("jokers"), lambda: _house_hand("deuces"), lambda: _house_hand("1.0.0,nil_points=50"),
    lambda: _house_hand("1.0.0,ten_for_200=yes"), lambda: _house_hand("1.0.0,bag_limit=0"),
    lambda: _house_hand("1.0.0,spades_any_time=yes"), _blind_hand])
@pytest.mark.parametrize("fn,args", [("analyse", {"step": 51, "budget": 1}), ("dd_table", {"budget": 1})])
def test_analysis_refuses_house_rules_it_cannot_score(make, fn, args):
    reply = _call(fn, text=make().to_json(), **args)
    assert reply["ok"] is False and reply["error"]["code"] == "unsupported_rules", reply


@pytest.mark.parametrize("rules", ["suicide", "quick", "1.0.0,min_team_bid=4", "blind-nil"])
def test_analysis_takes_house_rules_that_change_neither_play_nor_hand_score(rules):
    m = _house_hand(rules)
    reply = _call("analyse", text=m.to_json(), step=51, budget=BIG_BUDGET)
    assert reply["ok"] is True and reply["result"]["finished"] is True, reply


def test_bid_advice_offers_only_the_bids_the_rules_allowed():
    """Under suicide the first partner to bid may bid only nil or 4+, the second the other."""
    m = _house_hand("suicide")
    rec = m.hands_played[0]
    text = m.to_json()
    for step in range(4):
        seat = (rec.dealer + 1 + step) % 4
        advice = _call("bid_advice", text=text, step=step)["result"]
        assert advice["seat"] == seat
        first = step < 2                              # partners sit two apart: steps 0, 1 bid first
        assert advice["legal"] == ([0, *range(4, 14)] if first else
                                   (list(range(4, 14)) if rec.bids[seat ^ 2] == 0 else [0]))
        assert advice["best"] in advice["legal"]
