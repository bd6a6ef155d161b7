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
