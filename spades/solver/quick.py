"""Sure and quick tricks: bounds on the further tricks read off the cards, without search.

At a trick start the searches first ask whether the tricks a side is sure of (top spades,
top side cards it can cash, spades that must take a trick) already decide the test; DDS
calls these quick tricks. Each bound comes with the cards it rests on (its relevance, see
:mod:`spades.solver.table`). Standard library only.
"""

from __future__ import annotations

from ..cards import SPADE_MASK, SUIT_BITS, SUIT_MASKS
from .memo import Memo

SIDE_SUIT_MASKS = SUIT_MASKS[:3]  # clubs, diamonds, hearts


def spade_run(h: list[int], live: int) -> tuple[int, int, int]:
    """The seat holding the highest live spade (-1: none, or on the table), its run of top live
    spades, their mask."""
    spades = live & SPADE_MASK
    if not spades:
        return -1, 0, 0
    top = 1 << (spades.bit_length() - 1)
    holder = 0 if h[0] & top else 1 if h[1] & top else 2 if h[2] & top else 3 if h[3] & top else -1
    run = cards = 0
    while holder >= 0 and h[holder] & top:
        run += 1
        cards |= top
        spades ^= top
        top = 1 << spades.bit_length() >> 1
    return holder, run, cards


def team0_bound(side: int, sure: int, left: int) -> int:
    """Team 0's bound on its further tricks (of ``left``) when team ``side`` is sure of ``sure``
    of them: a lower bound ``sure`` for team 0's own, else the upper bound ``left - sure``."""
    return sure if side == 0 else left - sure


def sure_tricks_why(
    h: list[int], leader: int, live: int, broken: bool, target: int
) -> tuple[int, int] | None:
    """At a trick start: a bound on team 0's further tricks that decides ``value >= target`` from
    tricks a team is sure of, and the cards it rests on (``None`` if none decides).

    Spades: each spade of the longer hand if the opponents hold none; the top run of one hand;
    the top two split between partners, not both singletons (more spade rules:
    :func:`spade_tricks_why`). The leader (or partner, entered by a low lead to its winner)
    cashes top side-suit cards, as many as each opponent holding a spade follows to, plus the
    team's run (a run card that must ruff a winner leaves only winners). A count is asked
    only for the test's target, so it rests on the fewest cards that decide it: the search's
    table keeps their owners fixed when it shares the bound.
    """
    left = h[leader].bit_count()
    needs = (target, left + 1 - target)  # team 0 reaches target, team 1 keeps it below
    holder, run, run_cards = spade_run(h, live)
    if holder >= 0:
        side = holder & 1
        need = needs[side]
        rest = live & SPADE_MASK & ~run_cards
        top = 1 << rest.bit_length() >> 1
        pair = h[holder] | h[holder ^ 2]
        if not rest & ~pair:  # no opposing spade
            longer = max(
                (h[holder] & SPADE_MASK).bit_count(), (h[holder ^ 2] & SPADE_MASK).bit_count()
            )
            if longer >= need:
                return team0_bound(side, longer, left), 0
        if run >= need:
            return team0_bound(side, run, left), run_cards
        if run == 1 and need == 2 and h[holder ^ 2] & top and pair & rest & ~top and left > 1:
            return team0_bound(side, 2, left), run_cards | top
    us = leader & 1
    need = needs[us]
    mine, mate = h[leader], h[leader ^ 2]
    p1, p2 = h[(leader + 1) & 3], h[(leader + 3) & 3]
    # the tricks the leader cashes and the cards they rest on, then the same for partner;
    # both start from the team's spade run (its tricks and the cashed ones are distinct)
    got_leader = got_partner = 0
    why_leader = why_partner = 0
    if holder >= 0 and holder & 1 == us:
        got_leader = got_partner = min(run, need)
        why_leader = why_partner = run_cards
    entry = holder == leader ^ 2 and bool(mine & SPADE_MASK) and (broken or not mine & ~SPADE_MASK)
    for m in SIDE_SUIT_MASKS:
        suit = live & m
        top = 1 << suit.bit_length() >> 1
        by_leader = bool(mine & top)
        hand = mine if by_leader else mate
        cashable = 13  # tricks cashable in the suit: capped by a ruffer's length
        if p1 & SPADE_MASK:
            cashable = (p1 & m).bit_count()
        if p2 & SPADE_MASK:
            cashable = min(cashable, (p2 & m).bit_count())
        got = got_leader if by_leader else got_partner
        cards = cashed = 0
        while cashed < cashable and got < need and hand & top:
            cashed += 1
            got += 1
            cards |= top
            suit ^= top
            top = 1 << suit.bit_length() >> 1
        if by_leader:
            got_leader, why_leader = got, why_leader | cards
        else:
            got_partner, why_partner = got, why_partner | cards
            if cashed and mine & m:  # a low card of the suit to lead to partner's winner
                entry = True
    if got_leader >= need:
        return team0_bound(us, got_leader, left), why_leader
    if entry and got_partner >= need:  # partner's count only with an entry
        return team0_bound(us, got_partner, left), why_partner
    return None


def spade_tricks_why(h: list[int], leader: int, live: int, target: int) -> tuple[int, int] | None:
    """At a trick start: a bound on team 0's further tricks that decides ``value >= target`` from
    spades that must take tricks, and the cards it rests on (``None``: none decides); for
    positions :func:`sure_tricks_why` leaves open.

    * When one side needs every trick, the other side never leads. A spade of that other side
      whose higher spades all sit in the hand just before it (right-hand opponent), with spades
      enough to play low under each of them, then takes a trick: it is played when that hand
      has not played a higher one, and no one after can beat it.
    * Each of a hand's spades falls in a trick of its own, which the hand's side wins unless the
      other side plays a higher spade there, and each of their spades beats one at most: a hand's
      top ``j`` spades take ``j`` tricks less the other side's spades above the ``j``-th.
    """
    left = h[leader].bit_count()
    needs = (target, left + 1 - target)
    spades = live & SPADE_MASK
    if target == left or target == 1:
        side = 1 if target == left else 0  # the side that needs one trick
        for i in (1, 2, 3):  # not the leader: it may have to lead
            x = (leader + i) & 3
            mine = h[x] & SPADE_MASK
            if x & 1 != side or not mine:
                continue
            top = 1 << mine.bit_length() >> 1
            above = spades & ~((top << 1) - 1)
            k = above.bit_count()
            if k and not above & ~h[(x + 3) & 3] and mine.bit_count() > k:
                return team0_bound(side, 1, left), above | top
    for x in range(4):
        mine = h[x] >> 39
        need = needs[x & 1]
        if mine.bit_count() >= need > 0:  # else its spades cannot decide
            reach = _SPADES_PAST[(h[(x + 1) & 3] | h[(x + 3) & 3]) >> 39 << 13 | mine]
            if need < len(reach):
                return team0_bound(x & 1, need, left), spades & ~((1 << 39 + reach[need]) - 1)
    return None


def seat_spade_tricks(h: list[int], live: int) -> tuple[tuple[int, int, int, int], int]:
    """At a trick start: the further tricks each seat takes itself whatever is played (its top ``j``
    spades less the other hands' spades above the ``j``-th, see :func:`spade_tricks_why`), and the
    cards that rests on."""
    spades = live & SPADE_MASK
    least = [0, 0, 0, 0]
    why = 0
    for x in range(4):
        mine = h[x] >> 39
        if mine:
            reach = _SPADES_PAST[(spades >> 39 & ~mine) << 13 | mine]
            if len(reach) > 1:
                least[x] = len(reach) - 1
                why |= spades & ~((1 << 39 + reach[-1]) - 1)
    return (least[0], least[1], least[2], least[3]), why


def team_spade_tricks(h: list[int], trick: list[int], leader: int, side: int) -> int:
    """The further tricks side ``side`` takes whatever anyone plays, at any moment of a trick:
    the most any one of its hands' top spades are sure of (see :func:`spade_tricks_why`), each
    beaten at most once by the other side's spades above it, the ones on the table included."""
    theirs = (h[side ^ 1] | h[side ^ 3]) >> 39
    for i, c in enumerate(trick):
        if (leader + i) & 1 != side and c >= 39:
            theirs |= 1 << (c - 39)
    best = 0
    for x in (side, side ^ 2):
        mine = h[x] >> 39
        if mine:
            best = max(best, len(_SPADES_PAST[theirs << 13 | mine]) - 1)
    return best


def _spades_past(key: int) -> tuple[int, ...]:
    """A hand's spades against the spades it must beat (key: theirs << 13 | mine): entry ``n`` (n ≥
    1)
    is the rank down to which the hand's spades are sure of ``n`` tricks (see
    :func:`spade_tricks_why`)."""
    mine, theirs = key & SUIT_BITS, key >> 13
    out = [13]
    j = 0
    for r in range(12, -1, -1):
        if mine >> r & 1:
            j += 1
            while j - (theirs >> r).bit_count() >= len(out):
                out.append(r)
    return tuple(out)


_SPADES_PAST = Memo(_spades_past)  # see spade_tricks_why
