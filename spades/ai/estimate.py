"""Hand evaluation for bidding: expected tricks, nil suitability and the team-aware bid.

Pure functions over a 13-card hand mask (see :mod:`spades.cards`).
"""
from __future__ import annotations

from ..cards import SPADES


def suit_ranks(hand: int, suit: int) -> list[int]:
    """Ranks (0 = two … 12 = ace) of ``hand``'s cards in ``suit``, highest first."""
    bits = (hand >> (13 * suit)) & 0x1FFF
    return [r for r in range(12, -1, -1) if bits >> r & 1]


def side_suit_tricks(ranks: list[int]) -> float:
    """Expected tricks from the high cards of one non-trump suit (ranks highest first)."""
    n = len(ranks)
    have = set(ranks)
    t = 0.0
    if 12 in have:
        t += 1.0 if n <= 5 else 0.75 if n == 6 else 0.5
    if 11 in have:
        if n == 1:
            t += 0.15
        elif n <= 4:
            t += 0.85 if 12 in have else 0.65
        elif n == 5:
            t += 0.5
        else:
            t += 0.25
    if 10 in have and 3 <= n <= 4:
        t += 0.5 if (12 in have or 11 in have) else 0.25
    return t


def spade_tricks(ranks: list[int]) -> tuple[float, int]:
    """Expected tricks from spades (honours and length), and how many spades those use."""
    n = len(ranks)
    have = set(ranks)
    t = 0.0
    used = 0
    if 12 in have:
        t += 1.0
        used += 1
    if 11 in have:
        t += 0.95 if n >= 2 else 0.5
        used += 1
    if 10 in have:
        t += 0.85 if n >= 3 else 0.35
        used += 1
    if 9 in have and n >= 4:
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
    for s in range(3):
        r = suit_ranks(hand, s)
        total += side_suit_tricks(r)
        ruff += 1.6 if not r else 0.8 if len(r) == 1 else 0.3 if len(r) == 2 else 0.0
    total += min(float(spare), ruff) * 0.7
    return total


def nil_ok(hand: int) -> bool:
    """Whether the hand suits a nil bid: no high or long spades, no aces, low cards in every suit."""
    spades = suit_ranks(hand, SPADES)
    if len(spades) > 3 or (spades and spades[0] >= 10):   # no AS, KS, QS; at most three spades
        return False
    if spades and spades[0] >= 9 and len(spades) >= 2:   # JS only as a bare card
        return False
    danger = 0.0
    for s in range(3):
        r = suit_ranks(hand, s)
        if not r:
            continue
        if 12 in r:
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
    if allow_nil and partner_bid != 0 and nil_ok(hand):
        return 0
    bid = int(est + 0.35)
    if partner_bid == 0:
        bid = int(est + 0.8)            # cover the nil: we will play high anyway
    elif partner_bid is not None:
        over = bid + partner_bid - 12
        if over > 0:                     # the team would bid nearly everything: trim ours
            bid -= over
    table = sum(opponents_bids) + (partner_bid or 0) + bid
    if table > 14 and bid > 2:
        bid -= 1
    return max(1, min(13, bid))
