"""Hand evaluation for bidding: expected tricks, nil suitability and the team-aware bid.

Pure functions over a 13-card hand mask (see :mod:`spades.cards`).
"""
from __future__ import annotations

from ..cards import ACE, JACK, KING, QUEEN, SIDE_SUITS, SPADES, SUIT_BITS, SUIT_SIZE
from ..rules import MAX_BID, NIL

TEAM_BID_CAP = 12    # a team bidding more than this between its two players trims the second bid
TABLE_BID_CAP = 14   # with more than this bid round the table, a bid above two drops by one


def suit_ranks(hand: int, suit: int) -> list[int]:
    """Ranks (0 = two … 12 = ace) of ``hand``'s cards in ``suit``, highest first."""
    bits = (hand >> (SUIT_SIZE * suit)) & SUIT_BITS
    return [r for r in range(ACE, -1, -1) if bits >> r & 1]


def side_suit_tricks(ranks: list[int]) -> float:
    """Expected tricks from the high cards of one non-trump suit (ranks highest first)."""
    n = len(ranks)
    have = set(ranks)
    t = 0.0
    if ACE in have:
        t += 1.0 if n <= 5 else 0.75 if n == 6 else 0.5
    if KING in have:
        if n == 1:
            t += 0.15
        elif n <= 4:
            t += 0.85 if ACE in have else 0.65
        elif n == 5:
            t += 0.5
        else:
            t += 0.25
    if QUEEN in have and 3 <= n <= 4:
        t += 0.5 if (ACE in have or KING in have) else 0.25
    return t


def spade_tricks(ranks: list[int]) -> tuple[float, int]:
    """Expected tricks from spades (honours and length), and how many spades those use."""
    n = len(ranks)
    have = set(ranks)
    t = 0.0
    used = 0
    if ACE in have:
        t += 1.0
        used += 1
    if KING in have:
        t += 0.95 if n >= 2 else 0.5
        used += 1
    if QUEEN in have:
        t += 0.85 if n >= 3 else 0.35
        used += 1
    if JACK in have and n >= 4:
        t += 0.5
        used += 1
    long_extra = max(0, n - 4)
    low_spare = max(0, n - used)
    length = min(long_extra, low_spare) * 0.85
    t += length
    used += min(long_extra, low_spare)
    return t, used


def estimate_tricks(hand: int) -> float:
    """Expected tricks of a 13-card hand: side aces and guarded kings, spade honours and length, ruffs."""
    spades = suit_ranks(hand, SPADES)
    total, used = spade_tricks(spades)
    spare = len(spades) - used
    ruff = 0.0
    for s in SIDE_SUITS:
        r = suit_ranks(hand, s)
        total += side_suit_tricks(r)
        ruff += 1.6 if not r else 0.8 if len(r) == 1 else 0.3 if len(r) == 2 else 0.0
    total += min(float(spare), ruff) * 0.7
    return total


def nil_ok(hand: int) -> bool:
    """Whether the hand suits a nil bid: no high or long spades, no aces, low cards in every suit."""
    spades = suit_ranks(hand, SPADES)
    if len(spades) > 3 or (spades and spades[0] >= QUEEN):   # no AS, KS, QS; at most three spades
        return False
    if spades and spades[0] >= JACK and len(spades) >= 2:   # JS only as a bare card
        return False
    danger = 0.0
    for s in SIDE_SUITS:
        r = suit_ranks(hand, s)
        if not r:
            continue
        if ACE in r:
            return False
        low = sorted(r)
        # each card must be covered by enough lower cards to duck under others' plays
        for i, rank in enumerate(low):
            exposure = rank - 3 * i
            if exposure > 6:
                danger += 1.0 if exposure > 8 else 0.5
    return danger <= 1.0 and estimate_tricks(hand) <= 2.0


def team_bid(hand: int, partner_bid: int | None, opponents_bids: list[int], *, allow_nil: bool = True) -> int:
    """Normal's bid: the rounded estimate, adjusted for the partner's bid and the total on the table."""
    est = estimate_tricks(hand)
    if allow_nil and partner_bid != NIL and nil_ok(hand):
        return NIL
    bid = int(est + 0.35)
    if partner_bid == NIL:
        bid = int(est + 0.8)            # cover the nil: we will play high anyway
    elif partner_bid is not None:
        over = bid + partner_bid - TEAM_BID_CAP
        if over > 0:                     # the team would bid nearly everything: trim ours
            bid -= over
    table = sum(opponents_bids) + (partner_bid or 0) + bid
    if table > TABLE_BID_CAP and bid > 2:
        bid -= 1
    return max(1, min(MAX_BID, bid))
