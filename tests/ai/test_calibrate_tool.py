"""``tools/calibrate_bids.py``: what it records as made at the table is what happened in the hand."""
from __future__ import annotations

import importlib.util
from pathlib import Path

from helpers import play_out, suit_deal

from spades import Match

TOOL = Path(__file__).resolve().parents[2] / "tools" / "calibrate_bids.py"
CONTRACT_BID = 3


def load_tool():
    """The tool as a module (tools/ is not a package)."""
    spec = importlib.util.spec_from_file_location("calibrate_bids", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def nil_hand(seed: int, deal: list[list[str]] | None = None):
    """A hand in which the first bidder bids nil and the others three, played first card first."""
    m = Match(seed=seed) if deal is None else Match(seed=seed, dealer=3, deal=deal)
    nil_seat = m.to_act
    m.bid(0)
    for _ in range(3):
        m.bid(CONTRACT_BID)
    play_out(m)
    return m.hands_played[-1], nil_seat


def test_made_at_table_reads_the_nil_and_the_contract_from_the_tricks():
    tool = load_tool()
    seen = set()
    # South (seat 0, first to bid) holds every club: West's spades win every trick and South's nil is
    # made; South holding every spade sets it; then a few shuffled deals.
    hands = [nil_hand(1, suit_deal("CSDH")), nil_hand(1, suit_deal("SCDH"))]
    hands += [nil_hand(seed) for seed in range(6)]
    for rec, nil_seat in hands:
        won = rec.trick_winners
        nil_made = nil_seat not in won
        assert tool.made_at_table(rec, nil_seat, "nil") == nil_made
        partner = (nil_seat + 2) % 4
        partner_won = sum(w == partner for w in won)
        assert tool.made_at_table(rec, partner, "contract") == (partner_won >= CONTRACT_BID)
        seen.add(nil_made)
    assert seen == {True, False}  # both outcomes occurred, so both were checked


def bid_round(deal: list[list[str]]) -> Match:
    """A hand of ``deal`` (South, seat 0, bids and leads first) with every seat bidding three."""
    m = Match(seed=1, dealer=3, deal=deal)
    for _ in range(4):
        m.bid(CONTRACT_BID)
    return m


def test_makeable_tricks_counts_the_team_asked_about_and_the_tricks_already_won():
    tool = load_tool()
    # South (team 0) holds every spade: its team takes all thirteen tricks, whoever leads.
    m = bid_round(suit_deal("SCDH"))
    assert (tool.makeable_tricks(m, 0), tool.makeable_tricks(m, 1)) == (13, 0)
    # West (team 1) holds every spade and ruffs South's club lead.
    m = bid_round(suit_deal("CSDH"))
    assert (tool.makeable_tricks(m, 0), tool.makeable_tricks(m, 1)) == (0, 13)
    # two tricks in, the tricks won so far count with those still to come
    m = bid_round(suit_deal("SCDH"))
    for _ in range(8):
        m.play(m.legal_cards()[0])
    assert m.tricks_won[0] + m.tricks_won[2] == 2
    assert (tool.makeable_tricks(m, 0), tool.makeable_tricks(m, 1)) == (13, 0)


def test_summary_splits_the_sets_into_unmakeable_and_lost_in_play():
    tool = load_tool()
    rows = [
        ("contract", 97, True, True),
        ("contract", 98, False, True),  # makeable, set: lost in play
        ("contract", 85, False, False),  # not makeable, set
        ("contract", 86, True, False),  # not makeable, made all the same
        ("contract", 92, False, None),  # beside a nil: not judged
        ("nil", 70, True, None),
    ]
    out = tool.summary(rows)
    c = out["contract"]
    assert (c["bids"], c["made_pct"], c["makeable_pct"]) == (5, 40.0, 50.0)
    assert (c["made_when_makeable_pct"], c["made_when_not_makeable_pct"]) == (50.0, 50.0)
    assert c["sets"] == {"not_makeable": 1, "lost_in_play": 1, "beside_nil": 1}
    assert c["bands"] == {
        "80-90": {"bids": 2, "made_pct": 50.0, "makeable_pct": 0.0},
        "90-95": {"bids": 1, "made_pct": 0.0, "makeable_pct": None},
        "95-100": {"bids": 2, "made_pct": 50.0, "makeable_pct": 100.0},
    }
    assert out["nil"] == {
        "bids": 1,
        "simulated_pct": 70.0,
        "made_pct": 100.0,
        "bands": {"70-80": {"bids": 1, "made_pct": 100.0}},
    }
