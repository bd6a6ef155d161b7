"""Move generation and ordering for both searches: a seat's legal cards, one per run of touching
cards, in the order most likely to cut the search off early.

Orders found by measuring nodes over whole first-lead solves (``tools/bench_solver.py lead``);
they change only the search's speed, never a value. Tables of plain ints in bounded memos;
standard library only.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence

from ..cards import SPADE_MASK, SUIT_BITS, SUIT_MASKS
from .memo import Memo

DISCARD_LENGTH = 3  # a discard's order: its rank plus this many per card of its suit in the hand


def _run_tops(key: int) -> tuple[int, ...]:
    """Ranks (high first) of the top card of each run of a suit's hand bits touching through its
    live bits (key: live << 13 | hand).

    Two cards of one hand with no other live card of the suit between them win and lose the
    same tricks, so only one of them is searched.
    """
    hand_bits, live_bits = key & SUIT_BITS, key >> 13
    out = []
    prev_ours = False
    for r in range(12, -1, -1):
        if live_bits >> r & 1:
            ours = bool(hand_bits >> r & 1)
            if ours and not prev_ours:
                out.append(r)
            prev_ours = ours
    return tuple(out)


_RUN_TOPS = Memo(_run_tops)


def _all_ranks(hand_bits: int) -> tuple[int, ...]:
    """Every rank of ``hand_bits``, high first (equivalent cards not merged)."""
    return tuple(r for r in range(12, -1, -1) if hand_bits >> r & 1)


def lead_moves(
    h: list[int], seat: int, live: int, broken: bool, equiv: bool, order: bool
) -> list[int]:
    """Cards ``seat`` may lead, most promising first: the second-best card of a suit whose next card
    is ours too and whose top an opponent holds (forcing the top out), then winners cashed; then
    by suit: a suit partner ruffs, low cards to partner's winner, the rest high first; a suit an
    opponent ruffs last."""
    hand = h[seat]
    suits = 4 if broken or not hand & ~SPADE_MASK else 3
    keys: list[int] = []
    mate, opp1, opp2 = h[seat ^ 2], h[(seat + 1) & 3], h[(seat + 3) & 3]
    for s in range(suits):
        shift = 13 * s
        hs = hand >> shift & SUIT_BITS
        if not hs:
            continue
        ls = live >> shift & SUIT_BITS
        ranks = _RUN_TOPS[ls << 13 | hs] if equiv else _all_ranks(hs)
        if not order:
            keys.extend(shift + r for r in ranks)
            continue
        top = ls.bit_length() - 1
        base = 20 if mate >> shift >> top & 1 else 40  # low to partner's winner, or just low
        ruffed = 0
        if s < 3:
            suit = SUIT_MASKS[s]
            if (not opp1 & suit and opp1 & SPADE_MASK) or (not opp2 & suit and opp2 & SPADE_MASK):
                ruffed = 60  # an opponent ruffs it
            elif not mate & suit and mate & SPADE_MASK:
                base = 10  # partner ruffs it
        second, force = -1, False  # our second-best card with the third-best forces out their top
        if not (hs | mate >> shift) >> top & 1:
            rest = ls ^ 1 << top
            second = rest.bit_length() - 1
            third = (rest ^ 1 << second).bit_length() - 1 if second >= 0 else -1
            force = third >= 0 and bool(hs >> second & 1) and bool(hs >> third & 1)
        for r in ranks:
            rank = (
                2
                if r == top
                else 1
                if force and r == second
                else base + (12 - r if base == 40 else r)
            )
            keys.append(rank + ruffed << 6 | (shift + r))
    if not order:
        return keys
    keys.sort()
    return [k & 63 for k in keys]


def follow_moves(
    h: list[int], seat: int, trick: list[int], at: int, live: int, equiv: bool, order: bool
) -> Sequence[int]:
    """Cards ``seat`` may play to ``trick`` (``at`` = index of its winning card), in a promising
    order."""
    hand = h[seat]
    w = trick[at]
    led = trick[0] // 13
    shift = 13 * led
    hs = hand >> shift & SUIT_BITS
    n = len(trick)
    partner_wins = (at - n) & 3 == 2
    if hs:
        if not order or (partner_wins and (n == 3 or _holds(h[(seat + 1) & 3], w))):
            split = 0  # partner holds the trick: lowest first
        else:  # the lowest card that beats first (second hand too)
            split = w % 13 + 1 if w // 13 == led else 0
            if split and n < 3:
                after = h[(seat + 1) & 3] >> shift & SUIT_BITS
                if after.bit_length() > split and hs >> after.bit_length():
                    split = after.bit_length()  # beat the next hand's best too
        return _FOLLOWS[
            split << 29 | equiv << 28 | led << 26 | (live >> shift & SUIT_BITS) << 13 | hs
        ]
    # void in the suit led: discards first (partner holds the trick, or a second hand's partner
    # has the suit's card that beats the lead and the third hand's) or the lowest spade that beats
    # first, then discards, then low spades; spades low first, discards low cards of short suits
    # first
    e = equiv << 28
    k = _LOW_FIRST
    side = (
        k[e | (live & SUIT_BITS) << 13 | hand & SUIT_BITS]
        + k[e | 1 << 26 | (live >> 13 & SUIT_BITS) << 13 | hand >> 13 & SUIT_BITS]
        + k[e | 2 << 26 | (live >> 26 & SUIT_BITS) << 13 | hand >> 26 & SUIT_BITS]
    )
    sp = k[e | 3 << 26 | live >> 39 << 13 | hand >> 39]
    if not order:
        return side + sp
    lens = (
        DISCARD_LENGTH * (hand & SUIT_BITS).bit_count(),
        DISCARD_LENGTH * (hand >> 13 & SUIT_BITS).bit_count(),
        DISCARD_LENGTH * (hand >> 26 & SUIT_BITS).bit_count(),
    )
    side = sorted(side, key=lambda c: c % 13 + lens[c // 13])
    if (partner_wins and (n == 3 or _holds(h[(seat + 1) & 3], w))) or (
        n == 1 and _mate_beats(h, seat, w)
    ):
        side += sp
        return side
    i = bisect_left(sp, w + 1) if w >= 39 else 0
    return [*sp[i:], *side, *sp[:i]]


def _low_first(key: int) -> tuple[int, ...]:
    """One suit's searched cards, low first; key = equiv, suit, live and hand bits."""
    s = key >> 26 & 3
    hand, live = key & SUIT_BITS, key >> 13 & SUIT_BITS
    ranks = _RUN_TOPS[live << 13 | hand] if key >> 28 else _all_ranks(hand)
    return tuple(13 * s + r for r in reversed(ranks))


_LOW_FIRST = Memo(_low_first)
LOW_KEY = (1 << 29) - 1  # the bits of a _LOW_FIRST key (a _FOLLOWS key adds the split above them)


def _follow_order(key: int) -> tuple[int, ...]:
    """A hand following suit: its searched cards from rank ``split`` up, then those below, each part
    low first; key = split above the suit's :data:`_LOW_FIRST` key."""
    low = _LOW_FIRST[key & LOW_KEY]
    i = bisect_left(low, 13 * (key >> 26 & 3) + (key >> 29))
    return low[i:] + low[:i]


_FOLLOWS = Memo(_follow_order)


def _mate_beats(h: list[int], seat: int, w: int) -> bool:
    """For a second hand void in the suit of lead ``w``: the third hand follows suit and the fourth
    (partner) holds a card of the suit above it and above ``w`` (ruffing ahead of it wastes a
    spade)."""
    shift = w - w % 13
    third = h[(seat + 1) & 3] >> shift & SUIT_BITS
    return bool(third) and (h[(seat + 2) & 3] >> shift & SUIT_BITS).bit_length() > max(
        third.bit_length(), w % 13 + 1
    )


def _holds(last: int, w: int) -> bool:
    """Does card ``w`` hold the trick against every card of the last hand ``last``?"""
    if w >= 39:
        return not last & SPADE_MASK & ~((2 << w) - 1)
    led = SUIT_MASKS[w // 13]
    if last & led:
        return not last & led & ~((2 << w) - 1)
    return not last & SPADE_MASK
