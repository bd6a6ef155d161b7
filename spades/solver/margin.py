"""The margin search (the score value): null-window tests on the hand-score margin (used by
:class:`spades.solver.Solver`).

With a nil bid (or a bag penalty in reach) each team's points are not a rising function of
its tricks, so the margin is searched for itself. It is zero-sum between the teams (team 0
maximises it, team 1 minimises it), so the value is found by binary search over the margins
the hand can still end on, each step one null-window test ("does team 0 reach at least v?")
with a table of bounds keyed by what the tricks won per seat can still score (nils make each
seat's count matter; a team without nil counts by its total) and shared by relevance like the
trick search's, and a cut-off from the range of margins still possible (the run of top spades
counted to the hand holding it, then each seat's sure spade tricks). With no nil bid, a test whose
winning totals are the top of the ones any play can still reach is the trick search's own
null-window test and is handed to it (its table shared). Standard library only.

The margin is the hand's real points by default (the review's question). A computer player
asks with a :class:`MatchValue` instead: bags at their long-run cost and a bonus for the
match the hand decides, the value its play-outs use (:func:`spades.ai.playout.hand_value`).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..cards import SPADE_MASK
from ..legal import trick_winner
from ..scoring import match_winner, score_team
from .moves import follow_moves, lead_moves
from .quick import seat_spade_tricks, spade_run, team_spade_tricks
from .state import SearchState
from .table import (
    Bucket,
    depths_mask,
    lead_hint_key,
    lookup,
    low_alike,
    signature,
    store,
    trick_rel,
)

INFINITY = 10**6
# : RUN_LEAST[holder][run]: each seat's least further tricks when ``holder`` has a run of ``run``
# top spades
#: (holder -1: none).
RUN_LEAST = [
    tuple(tuple(run if s == holder else 0 for s in range(4)) for run in range(14))
    for holder in (0, 1, 2, 3, -1)
]
TEAM_POINTS_CACHE = 4096  # (bids, bags, team, tricks of each seat) → points: a few hundred a hand


@dataclass(frozen=True, slots=True)
class MatchValue:
    """A finished hand valued for the match rather than by its points: each bag taken counts
    ``bag_value`` points (its long-run cost: one point now and a tenth of a later penalty)
    instead of one point and this hand's penalty, and the team whose real points end the match
    (from ``scores``, the match before the hand, standard target and floor) gains
    ``win_bonus`` (the other loses it)."""

    bag_value: int
    scores: tuple[int, int] = (0, 0)
    win_bonus: int = 0


@lru_cache(maxsize=TEAM_POINTS_CACHE)
def team_points(
    bids: tuple[int, ...],
    bags: tuple[int, ...],
    team: int,
    won_a: int,
    won_b: int,
    bag_value: int | None = None,
) -> int:
    """A team's hand points when its seats take ``won_a`` and ``won_b`` tricks, by the one scoring
    function (the only call to it here; cached: the searches ask for the same few counts again and
    again); with ``bag_value``, each bag counts that many points and no penalty is taken."""
    s = score_team(team, (bids[team], bids[team + 2]), (won_a, won_b), 0, bags[team])
    if bag_value is None:
        return s.delta
    return s.delta - s.penalty_points + s.bags * (bag_value - 1)


def hand_margin(
    bids: tuple[int, ...],
    won: tuple[int, ...],
    bags: tuple[int, ...],
    value: MatchValue | None = None,
) -> int:
    """Team 0's hand points minus team 1's (``value``: valued for the match instead)."""
    bids, bags = tuple(bids), tuple(bags)  # the cache's keys
    real = team_points(bids, bags, 0, won[0], won[2]) - team_points(bids, bags, 1, won[1], won[3])
    if value is None:
        return real
    bv = value.bag_value
    margin = team_points(bids, bags, 0, won[0], won[2], bv) - team_points(
        bids, bags, 1, won[1], won[3], bv
    )
    if value.win_bonus:
        p0 = value.scores[0] + team_points(bids, bags, 0, won[0], won[2])
        p1 = value.scores[1] + team_points(bids, bags, 1, won[1], won[3])
        w = match_winner((p0, p1))
        if w is not None:
            margin += value.win_bonus if w == 0 else -value.win_bonus
    return margin


def _team_future(
    bids: tuple[int, ...],
    bags: tuple[int, ...],
    team: int,
    a: int,
    b: int,
    value: MatchValue | None,
) -> int | tuple[int, int]:
    """What a team's final tricks ``a`` and ``b`` score, as far as :func:`hand_margin` can tell
    (the score table's key is made of these)."""
    real = team_points(bids, bags, team, a, b)
    if value is None:
        return real
    return real, team_points(bids, bags, team, a, b, value.bag_value)


class MarginSearch(SearchState):
    """The score-value half of the solver (mixed into :class:`spades.solver.Solver`)."""

    bids: tuple[int, ...]
    bags: tuple[int, ...]
    value: MatchValue | None
    score_tt: dict[tuple, Bucket]
    ends: dict[tuple[int, ...], list[tuple[int, ...]]]
    won_keys: dict[
        tuple[int, ...], tuple[int, int]
    ]  # tricks won per seat → their futures (see _won_key)
    team_futures: dict[tuple, int]
    margins: dict[tuple, int]
    outcomes: dict[tuple, list[int]]
    margin_best: dict[
        tuple, int
    ]  # trick starts alike (lead_hint_key) → the lead that last decided a test
    use_low: bool
    nil_bid: bool  # someone bid nil: the margin follows each seat's tricks, not the teams'
    lines: dict[int, list[int]]  # team 0's tricks so far → its margin for each further count

    def _margin(self) -> int:
        """Team 0's margin for the tricks won so far (the hand is over)."""
        won = tuple(self.won)
        m = self.margins.get(won)
        if m is None:
            m = self.margins[won] = hand_margin(self.bids, won, self.bags, self.value)
        return m

    def _won_key(self, won: tuple[int, ...]) -> tuple[int, int]:
        """The tricks won per seat as the score table's key: per team, the points it can still end
        on
        for each split of the further tricks between its two seats (numbered as met). Trick counts
        with the same futures share table entries: a team without a nil bid is keyed by its
        total."""
        key = self.won_keys.get(won)
        if key is None:
            r = 13 - sum(won)
            ids = []
            for team in (0, 1):
                a, b = won[team], won[team + 2]
                futures = tuple(
                    _team_future(self.bids, self.bags, team, a + x, b + y, self.value)
                    for x in range(r + 1)
                    for y in range(r + 1 - x)
                )
                ids.append(self.team_futures.setdefault((team, r, futures), len(self.team_futures)))
            key = self.won_keys[won] = (ids[0], ids[1])
        return key

    def _outcomes(self, won: tuple[int, ...], least: tuple[int, ...]) -> list[int]:
        """Sorted margins the hand can still end on from ``won``, each seat taking at least
        ``least`` more."""
        key = (won, least)
        out = self.outcomes.get(key)
        if out is None:
            ends = self.ends.get(won)
            if ends is None:  # every split of the further tricks among the seats, and its margin
                r = 13 - sum(won)
                w0, w1, w2, w3 = won
                ends = self.ends[won] = [
                    (
                        a,
                        b,
                        c,
                        r - a - b - c,
                        hand_margin(
                            self.bids,
                            (w0 + a, w1 + b, w2 + c, w3 + r - a - b - c),
                            self.bags,
                            self.value,
                        ),
                    )
                    for a in range(r + 1)
                    for b in range(r + 1 - a)
                    for c in range(r + 1 - a - b)
                ]
            l0, l1, l2, l3 = least
            out = self.outcomes[key] = sorted(
                {e[4] for e in ends if e[0] >= l0 and e[1] >= l1 and e[2] >= l2 and e[3] >= l3}
            )  # the real play is one of them
        return out

    def _line(self, have: int) -> list[int]:
        """With no nil bid: team 0's margin for each count of its further tricks (0 to all
        that are left) when it has taken ``have`` so far (kept: the searches ask again and
        again)."""
        line = self.lines.get(have)
        if line is None:
            line = self.lines[have] = [
                hand_margin(self.bids, (have + t, 13 - have - t, 0, 0), self.bags, self.value)
                for t in range(14 - have)
            ]
        return line

    def _by_tricks(self, v: int) -> bool | None:
        """At a trick start with no nil bid: :meth:`_mge` answered by the trick search (its
        table shared), where the trick totals that score at least ``v`` are the top of those
        any play can still reach (each team's sure spade tricks bound them); ``None`` where they
        are not (a bag penalty or a set in reach can make fewer tricks score more).

        With no nil each team's points follow its own total, so the margin is a function of
        team 0's further tricks; over the reachable totals the test then reads "does team 0
        take at least ``a`` more tricks?" for the least such ``a``.
        """
        h, leader = self.h, self.leader
        line = self._line(self.won[0] + self.won[2])
        lo = team_spade_tricks(h, [], leader, 0)
        hi = h[leader].bit_count() - team_spade_tricks(h, [], leader, 1)
        a = hi + 1
        while a > lo and line[a - 1] >= v:
            a -= 1
        for t in range(lo, a):
            if line[t] >= v:
                return None
        spades = self.live & SPADE_MASK  # the bounds rest on the spades' owners
        if a > hi or a == lo:
            self.rel = spades
            return a == lo
        reached = self._node(a) >= a
        self.rel |= spades
        return reached

    def _node(self, target: int) -> int:
        """The trick search's null-window test (:meth:`spades.solver.Solver._node`)."""
        raise NotImplementedError

    def _mge(self, v: int) -> bool:
        """Does team 0's final hand margin reach ``v`` with best play by both teams?"""
        trick = self.trick
        return self._mnode(v, trick_winner(trick) if trick else 0)

    def _mnode(self, v: int, at: int) -> bool:
        """:meth:`_mge` with ``at`` the index of the trick's winning card so far (the hot loop,
        built like the trick search's :meth:`~spades.solver.Solver._node`: cards played and
        taken back in place, the trick's winner followed card by card).

        Like the trick search, leaves the answer's relevance in ``self.rel`` and shares table
        bounds among positions that agree on the relevant cards' owners
        (:mod:`spades.solver.table`).
        """
        self._tick()
        table = None
        trick = self.trick
        n = len(trick)
        leader = self.leader
        h = self.h
        equiv = self.use_equiv
        if n == 0:
            if not h[leader]:
                self.rel = 0
                return self._margin() >= v
            won = tuple(self.won)
            holder, run, why = spade_run(h, self.live)
            out = self._outcomes(won, RUN_LEAST[holder][run])
            if out[0] >= v or out[-1] < v:
                self.rel = why
                return out[0] >= v
            least, why = seat_spade_tricks(h, self.live)
            out = self._outcomes(won, least)
            if out[0] >= v or out[-1] < v:
                self.rel = why
                return out[0] >= v
            if self.use_by_tricks and not self.nil_bid:
                by_tricks = self._by_tricks(v)
                if by_tricks is not None:
                    return by_tricks
            live = self.live
            if self.use_tt:
                bucket, code, ns = signature(h, leader, self.broken)
                key = (bucket, self._won_key(won))
                table = self.score_tt.get(key)
                if table is None:
                    table = self.score_tt[key] = {}
                hit = lookup(table, code, v)
                if hit is not None:
                    self.rel = depths_mask(live, hit[0])
                    return hit[1] >= v
            seat = leader
            leads = lead_moves(h, seat, live, self.broken, equiv, self.use_order)
            if table is not None:
                hint = lead_hint_key(bucket, code, ns)
                first = self.margin_best.get(hint, -1)
                if first >= 0 and leads[0] != first and first in leads:
                    leads.remove(first)
                    leads.insert(0, first)
            moves: Sequence[int] = leads
        else:
            seat = (leader + n) & 3
            moves = follow_moves(h, seat, trick, at, self.live, equiv, self.use_order)
            w = trick[at]
            wsuit = w // 13
        maximiser = not seat & 1
        result = not maximiser
        broken = self.broken
        rel = 0
        low = 0  # cards shown alike to a searched one (see low_alike)
        use_low = self.use_low
        for c in moves:
            bit = 1 << c
            if low & bit:
                continue
            h[seat] ^= bit
            if c >= 39:
                self.broken = True
            if n == 0:
                nat = 0
            elif c > w if c // 13 == wsuit else c >= 39:
                nat = n
            else:
                nat = at
            if n < 3:
                trick.append(c)
                r = self._mnode(v, nat)
                trick.pop()
                got = self.rel
            else:
                winner, gone = self._end_trick(c, nat)
                r = self._mnode(v, 0)
                self._undo_trick(leader, trick, winner, gone)
                got = self.rel | trick_rel(c if nat == 3 else trick[nat], gone)
            h[seat] ^= bit
            self.broken = broken
            if equiv and got >> c & 1:
                got |= self._run_rel(c, seat)
            elif use_low:
                low |= low_alike(c, got)
            if r == maximiser:
                result = r
                rel = got
                if table is not None:
                    self.margin_best[hint] = c
                break
            rel |= got
        if table is not None:
            rel = store(
                table,
                code,
                ns,
                live,
                rel,
                self.use_partition,
                result,
                v if result else v - 1,
                -INFINITY,
                INFINITY,
            )
        self.rel = rel
        return result

    def _exact_margin(self, guess: int | None = None) -> int:
        """Team 0's final margin with best play: binary search over the margins still possible.

        With a ``guess`` (the margin the trick value's line would score, or the last card's),
        its own test and its neighbour's come first: when the guess is right, two tests settle
        the value, where the binary search takes one for each halving of the possible margins.
        """
        out = self._outcomes(tuple(self.won), (0, 0, 0, 0))
        lo, hi = 0, len(out) - 1
        if guess is not None and lo < hi:
            i = min(bisect_left(out, guess), hi)
            if self._mge(out[i]):
                if i == hi or not self._mge(out[i + 1]):
                    return out[i]
                lo = i + 1
            else:
                if i == 0 or self._mge(out[i - 1]):
                    return out[max(0, i - 1)]
                hi = i - 2
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self._mge(out[mid]):
                lo = mid
            else:
                hi = mid - 1
        return out[lo]
