"""What the match history (site/historyfile.js) reads from the bridge, checked on real matches.

The history packs each row of the state's ``sheet`` (bids, tricks, and per team delta,
score_after, bags, penalties, contract, made, nils) and takes the outcome from ``phase`` and
``winner``; an import rebuilds the record from ``resume`` of the save. So: the fields must
be there with these types, and resuming a save must give the very state the game had.
"""
from __future__ import annotations

import json

from history_data import play_match
from hypothesis import given, settings
from hypothesis import strategies as st

from spades import bridge

TEAM_FIELDS = {"delta", "score_after", "bags", "penalties", "contract", "made", "nils"}
INT16 = range(-32768, 32768)  # the history stores these numbers in an Int16Array


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), hands=st.integers(1, 3),
       levels=st.sampled_from([("easy", "normal"), ("normal", "easy"), ("normal", "normal")]))
def test_sheet_has_what_the_history_reads_and_resume_reproduces_it(seed, hands, levels):
    save, state = play_match(seed, *levels, hands=hands)
    assert len(state["sheet"]) == hands
    for row in state["sheet"]:
        assert sum(row["tricks"]) == 13
        assert all(b in range(14) for b in row["bids"])
        for team, score in enumerate(row["teams"]):
            assert set(score) >= TEAM_FIELDS
            assert isinstance(score["made"], bool)
            assert all(score[k] in INT16 for k in TEAM_FIELDS - {"made", "nils"})
            for nil in score["nils"]:
                assert nil["seat"] % 2 == team and isinstance(nil["made"], bool)
                assert row["bids"][nil["seat"]] == 0
    again = bridge.call("resume", {"save": save})
    assert again == state  # an imported match is stored exactly as the game stored it
    assert json.loads(save)["match"]["variant"] == bridge.hello({})["variant"]


def test_finished_match_reports_its_winner():
    _, state = play_match(21, "normal", "normal")
    assert state["phase"] == "over" and state["winner"] in (0, 1)
    final = state["sheet"][-1]["teams"]
    assert [t["score_after"] for t in final] == state["scores"]


def test_an_import_of_a_match_with_blind_bids_under_rules_without_blind_nil_is_refused():
    """The history's import replays each match through ``resume``: a 1.0.0 match holding a
    blind bid is refused there, so it is never stored (issue 30, case 5)."""
    save, _ = play_match(21, "normal", "normal", hands=1)
    data = json.loads(save)
    assert data["match"]["variant"] == "1.0.0" and "rules" not in data["match"]  # no blind nil
    data["match"]["hands"][0]["bids"][0] = "blind"
    reply = json.loads(bridge.handle(json.dumps({"fn": "resume", "args": {"save": json.dumps(data)}})))
    assert reply["ok"] is False and reply["error"]["code"] == "illegal_history", reply
