"""The trick search's transposition table: positions by relative rank, shared by relevance.

A trick-start position is described suit by suit: who holds each remaining card from the
top down (ranks made relative, so positions that differ only by cards already played are
one), and how many cards of the suit each hand holds. A bound found by the search rests
only on some of those cards — the ones that won a trick by rank, or that a sure-trick count
used (the search collects them as a card mask, its *relevance*). Below the lowest relevant
card of a suit only the suit lengths matter, so the table stores the bound under the
owners of each suit's top ``depth`` cards: every position that agrees on those owners and
on the lengths shares it (partition search, after Ginsberg; DDS does the same with its
"winning ranks"). Standard library only; tables of plain ints, cached.
"""

from __future__ import annotations

from ..cards import SUIT_BITS, SUIT_MASKS
from .memo import Memo


def _suit_sig(t: tuple[int, int, int, int]) -> tuple[int, int, int]:
    """Owners of a suit's cards from the top (base 4 after a leading 1), lengths (4 bits each),
    count."""
    a, b, c, d = t
    code = 1
    m = a | b | c | d
    while m:
        top = 1 << (m.bit_length() - 1)
        code = code * 4 + (0 if a & top else 1 if b & top else 2 if c & top else 3)
        m ^= top
    lens = a.bit_count() | b.bit_count() << 4 | c.bit_count() << 8 | d.bit_count() << 12
    return code, lens, (a | b | c | d).bit_count()


def _tops(live_bits: int) -> tuple[int, ...]:
    """A suit's live cards' bits from the top, after a 0 (depth 0: no card kept)."""
    out, m = [0], live_bits
    while m:
        bit = 1 << (m.bit_length() - 1)
        out.append(bit)
        m ^= bit
    return tuple(out)


#: One bucket of the table (suit lengths, leader, spades broken fixed): for each depths stored,
#: the mask that keeps those depths of an owners code, and the entries by masked code, each
#: ``[lower bound, upper bound]``.
Bucket = dict[tuple[int, ...], tuple[int, dict[int, list[int]]]]

#: One suit's holdings (four 13-bit masks) → :func:`_suit_sig`; live bits of a suit → :func:`_tops`.
_SUIT_SIGS = Memo(_suit_sig)
_TOPS = Memo(_tops)


def depth_of(live_bits: int, rel_bits: int) -> int:
    """How many of a suit's live cards lie at or above its lowest relevant card (0 if none is)."""
    if not rel_bits:
        return 0
    low = rel_bits & -rel_bits
    return (live_bits & ~(low - 1)).bit_count()


def depths_mask(live: int, depths: tuple[int, ...]) -> int:
    """The relevance (card mask) of a table entry stored with ``depths``, in a position with
    ``live``
    cards (unrolled: it runs at every table hit)."""
    t = _TOPS
    return (
        t[live & SUIT_BITS][depths[0]]
        | t[live >> 13 & SUIT_BITS][depths[1]] << 13
        | t[live >> 26 & SUIT_BITS][depths[2]] << 26
        | t[live >> 39][depths[3]] << 39
    )


def depths_of(live: int, rel: int) -> tuple[int, int, int, int]:
    """Per suit, the depth a relevance mask asks to keep fixed."""
    return (
        depth_of(live & SUIT_BITS, rel & SUIT_BITS),
        depth_of(live >> 13 & SUIT_BITS, rel >> 13 & SUIT_BITS),
        depth_of(live >> 26 & SUIT_BITS, rel >> 26 & SUIT_BITS),
        depth_of(live >> 39 & SUIT_BITS, rel >> 39 & SUIT_BITS),
    )


def _run_bottom(key: int) -> int:
    """:func:`run_bottom` (key: live bits << 17 | hand bits << 4 | rank)."""
    hand_bits, live_bits = key >> 4 & SUIT_BITS, key >> 17
    r = rank = key & 15
    below = live_bits & ((1 << rank) - 1)
    while below:
        nxt = below.bit_length() - 1
        if not hand_bits >> nxt & 1:
            break
        r = nxt
        below ^= 1 << nxt
    return r


_RUN_BOTTOM = Memo(_run_bottom)


def run_bottom(hand_bits: int, live_bits: int, rank: int) -> int:
    """The lowest rank of the run of ``hand_bits`` that touches ``rank`` from below through
    ``live_bits``."""
    return _RUN_BOTTOM[(live_bits << 13 | hand_bits) << 4 | rank]


def signature(h: list[int], leader: int, broken: bool) -> tuple[int, int, tuple[int, ...]]:
    """A trick start's table bucket (suit lengths per hand, leader, spades broken), owners code
    (the four suits' codes side by side, :data:`OWNER_BITS` each) and suit sizes."""
    h0, h1, h2, h3 = h
    g = _SUIT_SIGS
    c0, l0, n0 = g[h0 & SUIT_BITS, h1 & SUIT_BITS, h2 & SUIT_BITS, h3 & SUIT_BITS]
    c1, l1, n1 = g[
        h0 >> 13 & SUIT_BITS, h1 >> 13 & SUIT_BITS, h2 >> 13 & SUIT_BITS, h3 >> 13 & SUIT_BITS
    ]
    c2, l2, n2 = g[
        h0 >> 26 & SUIT_BITS, h1 >> 26 & SUIT_BITS, h2 >> 26 & SUIT_BITS, h3 >> 26 & SUIT_BITS
    ]
    c3, l3, n3 = g[h0 >> 39, h1 >> 39, h2 >> 39, h3 >> 39]
    bucket = ((l0 << 16 | l1) << 16 | l2) << 16 | l3 | (leader << 1 | broken) << 64
    return bucket, ((c0 << OWNER_BITS | c1) << OWNER_BITS | c2) << OWNER_BITS | c3, (n0, n1, n2, n3)


OWNER_BITS = 27  # one suit's owners code: a leading 1 and two bits a card


# : A suit's owners code with ``n`` cards cut to its top ``d`` (``d <= n``): _SUIT_TOPS[n][d] keeps
# those bits.
_SUIT_TOPS = [[(2 << 2 * d) - 1 << 2 * (n - d) for d in range(n + 1)] for n in range(14)]


def top_mask(ns: tuple[int, ...], depths: tuple[int, ...]) -> int:
    """The bits of an owners code (see :func:`signature`) that name the top ``depths`` cards' owners
    for suit sizes ``ns`` (the leading 1s kept)."""
    t = _SUIT_TOPS
    n0, n1, n2, n3 = ns
    d0, d1, d2, d3 = depths
    return (
        (t[n0][min(d0, n0)] << OWNER_BITS | t[n1][min(d1, n1)]) << OWNER_BITS | t[n2][min(d2, n2)]
    ) << OWNER_BITS | t[n3][min(d3, n3)]


def lookup(table: Bucket, code: int, target: int) -> tuple[tuple[int, ...], int] | None:
    """An entry of the bucket ``table`` matching the position that decides ``value >= target``: (its
    depths, its bound).

    The bound is the entry's lower bound if that reaches ``target``, else its upper bound
    (below ``target``): the answer is ``bound >= target``.

    The bucket holds, for each depths stored, the mask that keeps of the owners code the top
    ``depth`` cards of each suit (suit sizes are fixed within a bucket) and the entries by
    the masked code. The depths are tried most recently useful first (a hit moves its depths
    to the end of the bucket, which is read backwards): fewer probes a hit.
    """
    for depths, (m, entries) in reversed(table.items()):
        e = entries.get(code & m)
        if e is not None:
            if e[0] >= target:
                table[depths] = table.pop(depths)
                return depths, e[0]
            if e[1] < target:
                table[depths] = table.pop(depths)
                return depths, e[1]
    return None


def record(
    table: Bucket,
    code: int,
    ns: tuple[int, ...],
    depths: tuple[int, ...],
    answer: bool,
    bound: int,
    low: int,
    high: int,
) -> None:
    """Store ``bound`` as a lower bound of the value (``answer`` true) or an upper one, under the
    owners of the top ``depths`` cards (``low``, ``high``: the bounds known without search)."""
    slot = table.get(depths)
    if slot is None:
        slot = table[depths] = (top_mask(ns, depths), {})
    m, entries = slot
    e = entries.get(code & m)
    if e is None:
        e = entries[code & m] = [low, high]
    if answer:
        if bound > e[0]:
            e[0] = bound
    elif bound < e[1]:
        e[1] = bound


def store(
    table: Bucket,
    code: int,
    ns: tuple[int, ...],
    live: int,
    rel: int,
    partition: bool,
    answer: bool,
    bound: int,
    low: int,
    high: int,
) -> int:
    """Record a searched node's bound (see :func:`record`; shared by relevance, or by the exact
    position without ``partition``); returns the relevance the node leaves to its parent."""
    if partition:
        record(table, code, ns, depths_of(live, rel), answer, bound, low, high)
        return rel
    record(table, code, ns, ns, answer, bound, low, high)
    return depths_mask(live, ns)


def trick_rel(winning: int, gone: int) -> int:
    """The relevance a finished trick adds: its winning card, if it beat a card of its own suit."""
    return 1 << winning if SUIT_MASKS[winning // 13] & gone ^ 1 << winning else 0


def lead_hint_key(bucket: int, code: int, ns: tuple[int, ...]) -> tuple[int, int]:
    """The key under which the search remembers the lead that last decided a trick start: its
    bucket and the owner of each suit's top card. A coarse key (not the exact position) gives
    the hint to many more positions (fewer nodes); it only orders moves, so values never depend on
    it."""
    return bucket, code & top_mask(ns, (1, 1, 1, 1))


def low_alike(c: int, got: int) -> int:
    """Cards of ``c``'s suit that play alike to ``c`` when its bound rests on ``got``: if ``c`` is
    below the suit's cards in ``got``, all below the lowest of them (the positions differ in no
    card the bound rests on), else none. Not searched, like touching cards."""
    suit = SUIT_MASKS[c // 13]
    rs = got & suit
    if not rs:
        return suit
    lowest = rs & -rs
    return lowest - 1 & suit if 1 << c < lowest else 0
