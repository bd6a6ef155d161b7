"""The trick search: exact double-dummy search over any reachable position of a hand (every card
visible).

Two values per legal card of the seat to act:

* the **trick value** — further tricks each team takes (the trick in progress included) when both
  teams
  maximise their own tricks. Fail-soft null-window tests ("does team 0 take at least t more
  tricks?",
  answered with the bound proved) driven MTD-f style from the previous card's value; a transposition
  table
  at trick starts keyed by the remaining cards with ranks made relative and shared by relevance
  (partition
  search, :mod:`spades.solver.table`), storing lower and upper bounds; sure-trick cut-offs both
  ways; move
  ordering (:mod:`spades.solver.moves`); touching cards, and cards below all a sibling's bound rests
  on in their suit
  (:func:`~spades.solver.table.low_alike`), searched once; the lead that last decided an alike trick
  start
  (same bucket, same owner of each suit's top card) tried first, and within a trick the card that
  last cut
  off after the same cards at an alike trick start where the first card in order did not.
* the **score value** — the hand-score margin (acting team's points for the hand minus the other
  team's,
  by :func:`spades.scoring.score_team` with the real bids, nils and starting bags) when both teams
  maximise their own margin. Where the margin is a non-falling function of team 0's tricks (no nil
  bid, no
  bag penalty in reach) it is read off the trick value; otherwise it is searched for itself
  (:mod:`spades.solver.margin`), bounded by the deadline like the trick value.

Standard library only (runs unchanged in Pyodide). One :class:`Solver` can be reused for
many positions of one hand (the tables carry over), which is what the review does.
"""

from __future__ import annotations

from ..cards import CARD_NAMES, SUIT_BITS, SUIT_MASKS
from ..legal import legal_mask, trick_winner
from .margin import MarginSearch, MatchValue, hand_margin
from .moves import follow_moves, lead_moves
from .position import CardValue, NotFinished, Position
from .quick import spade_tricks_why, sure_tricks_why, team_spade_tricks
from .state import CHECK_MASK
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

__all__ = ["MatchValue", "Solver", "hand_margin", "share_estimate", "solve", "solve_position"]

HONOURS = ((12, 4), (11, 3), (10, 2), (9, 1))  # rank, points: ace 4, king 3, queen 2, jack 1


def share_estimate(h: list[int]) -> float:
    """Team 0's rough share of the tricks still to play, from high-card points (spades weigh
    more, with length): the search's first guess, so its first null-window tests land near the
    value (a test far from it is cheap, one near it is not)."""
    pts = [1.0, 1.0]
    for seat in range(4):
        hand = h[seat]
        for suit in range(4):
            bits = hand >> 13 * suit & SUIT_BITS
            p: float = sum(v for r, v in HONOURS if bits >> r & 1)
            if suit == 3:
                n = bits.bit_count()
                p = 1.5 * p + n + 2 * max(0, n - 3)
            pts[seat & 1] += p
    return pts[0] / (pts[0] + pts[1])


NO_TRICKS_BOUND = 14  # above any count of further tricks: a minimising node's start
ROOT_KEY = -1  # the replies key of a searched position's own trick (trick starts number from 1)


class Solver(MarginSearch):
    """The searches and their transposition tables for positions of hands with given bids and
    bags."""

    def __init__(
        self,
        bids: tuple[int, ...],
        bags: tuple[int, ...] = (0, 0),
        value: MatchValue | None = None,
    ) -> None:
        """``value``: score values as :class:`~spades.solver.margin.MatchValue` sees them
        (``None``: the hand's real points)."""
        self.bids = tuple(bids)
        self.bags = tuple(bags)
        self.value = value
        self.trick_tt: dict[int, Bucket] = {}  # lengths, leader → depths → owners → [low, high]
        self.score_tt: dict[tuple, Bucket] = {}
        self.won_keys: dict[tuple[int, ...], tuple[int, int]] = {}
        self.team_futures: dict[tuple, int] = {}
        self.margins: dict[tuple, int] = {}
        self.outcomes: dict[tuple, list[int]] = {}
        self.ends: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
        self.margin_best: dict[tuple, int] = {}
        self.nil_bid = 0 in self.bids
        self.lines: dict[int, list[int]] = {}
        self.hint_ids: dict[
            tuple, int
        ] = {}  # trick starts alike (lead_hint_key) → a number for them, and:
        self.best: dict[int, int] = {}  # → the lead that last decided a test
        self.replies: dict[
            int, int
        ] = {}  # (with the trick so far) → the card that last cut off where the first
        # card in follow order did not
        self.rel = 0  # the last answer's relevance (see spades.solver.table)
        super().__init__()

    # -- trick value ----------------------------------------------------------------------

    def _bound(self, target: int) -> int:
        """Team 0's further tricks (the one in progress included) against ``target``, fail-soft:
        a result ``>= target`` is a lower bound of the value, one below it an upper bound."""
        trick = self.trick
        return (
            self._follow(target, trick_winner(trick), _trick_key(ROOT_KEY, trick))
            if trick
            else self._node(target)
        )

    def _node(self, target: int) -> int:
        """:meth:`_bound` at a trick start (the hot loop, with :meth:`_follow`).

        Fail-soft: the bound may pass ``target`` by more than needed (a cut-off's value, a
        sure-trick count, a table bound), so the table keeps the tighter bound and the root's
        next null-window test can jump (MTD-f). Leaves in ``self.rel`` the answer's relevance
        (see :mod:`spades.solver.table`). Table bounds, then sure tricks, the last trick played
        out directly, the lead that last decided tried first.
        """
        self.nodes += 1
        if not self.nodes & CHECK_MASK and self._past():
            raise NotFinished
        leader = self.leader
        h = self.h
        left = h[leader].bit_count()
        if target <= 0:
            self.rel = 0
            return 0
        if target > left:
            self.rel = 0
            return left
        if left == 1:
            last = [h[(leader + i) & 3].bit_length() - 1 for i in range(4)]
            i = trick_winner(last)
            self.rel = trick_rel(last[i], 1 << last[0] | 1 << last[1] | 1 << last[2] | 1 << last[3])
            return 0 if (leader + i) & 1 else 1
        live = self.live
        broken = self.broken
        table = None
        if self.use_tt:
            bucket, code, ns = signature(h, leader, broken)
            table = self.trick_tt.get(bucket)
            if table is None:
                table = self.trick_tt[bucket] = {}
            hit = lookup(table, code, target)
            if hit is not None:
                self.rel = depths_mask(live, hit[0])
                return hit[1]
        if self.use_quick:
            sure = sure_tricks_why(h, leader, live, broken, target) or spade_tricks_why(
                h, leader, live, target
            )
            if sure is not None:
                self.rel = sure[1]
                return sure[0]
        moves = lead_moves(h, leader, live, broken, self.use_equiv, self.use_order)
        hid = 0
        if table is not None:
            hint = lead_hint_key(bucket, code, ns)
            hid = self.hint_ids.setdefault(hint, len(self.hint_ids) + 1)
            first = self.best.get(hid, -1)
            if first >= 0 and moves[0] != first and first in moves:
                moves.remove(first)
                moves.insert(0, first)
        maximiser = not leader & 1
        trick = self.trick
        best = -1 if maximiser else NO_TRICKS_BOUND
        cut = -1
        rel = 0
        equiv = self.use_equiv
        low = 0  # cards shown alike to a searched one (see low_alike)
        use_low = self.use_low
        for c in moves:
            bit = 1 << c
            if low & bit:
                continue
            h[leader] ^= bit
            if c >= 39:
                self.broken = True
            trick.append(c)
            v = self._follow(target, 0, hid << 6 | c)
            trick.pop()
            got = self.rel
            h[leader] ^= bit
            self.broken = broken
            if equiv and got >> c & 1:
                got |= self._run_rel(c, leader)
            if v >= target if maximiser else v < target:
                best = v
                cut = c
                rel = got
                break
            if v > best if maximiser else v < best:
                best = v
            rel |= got
            if use_low and not got >> c & 1:  # cards alike to c: needed only when no cut-off
                low |= low_alike(c, got)
        if table is not None:
            rel = store(
                table, code, ns, live, rel, self.use_partition, best >= target, best, 0, left
            )
            if cut >= 0:
                self.best[hid] = cut
        self.rel = rel
        return best

    def _follow(self, target: int, at: int, key: int) -> int:
        """:meth:`_bound` for the second, third and fourth hands, ``at`` the index of the trick's
        winning card so far; a cut-off returns at once (nothing is stored within a trick). ``key``
        names the
        trick start (its alike class) and the trick so far, under which a cut-off card is
        remembered."""
        self.nodes += 1
        if not self.nodes & CHECK_MASK and self._past():
            raise NotFinished
        trick = self.trick
        n = len(trick)
        leader = self.leader
        h = self.h
        seat = (leader + n) & 3
        moves = follow_moves(h, seat, trick, at, self.live, self.use_equiv, self.use_order)
        first = self.replies.get(key, -1)
        if first < 0 or first not in moves:
            first = moves[0]
        elif moves[0] != first:
            moves = [first, *(c for c in moves if c != first)]
        w = trick[at]
        wsuit = w // 13
        maximiser = not seat & 1
        broken = self.broken
        best = -1 if maximiser else NO_TRICKS_BOUND
        rel = 0
        equiv = self.use_equiv
        low = 0
        use_low = self.use_low
        for c in moves:
            bit = 1 << c
            if low & bit:
                continue
            h[seat] ^= bit
            if c >= 39:
                self.broken = True
            nat = n if (c > w if c // 13 == wsuit else c >= 39) else at
            if n < 3:
                trick.append(c)
                v = self._follow(target, nat, key << 6 | c)
                trick.pop()
                got = self.rel
            else:
                winner, gone = self._end_trick(c, nat)
                v = self._node(target) if winner & 1 else self._node(target - 1) + 1
                self._undo_trick(leader, trick, winner, gone)
                won = c if nat == 3 else trick[nat]  # its relevance: see trick_rel (inline)
                got = self.rel | 1 << won if SUIT_MASKS[won // 13] & gone ^ 1 << won else self.rel
            h[seat] ^= bit
            self.broken = broken
            if equiv and got >> c & 1:
                got |= self._run_rel(c, seat)
            if maximiser:
                if v >= target:
                    self.rel = got
                    if c != first and self.use_order:
                        self.replies[key] = c
                    return v
                if v > best:
                    best = v
            else:
                if v < target:
                    self.rel = got
                    if c != first and self.use_order:
                        self.replies[key] = c
                    return v
                if v < best:
                    best = v
            rel |= got
            if use_low and not got >> c & 1:
                low |= low_alike(c, got)
        self.rel = rel
        return best

    def _exact_tricks(self, guess: int) -> int:
        """Team 0's further tricks, by null-window tests starting from ``guess`` (MTD-f: each
        fail-soft answer moves the bound it proves, possibly past the test)."""
        lo, hi = 0, self.h[(self.leader + len(self.trick)) % 4].bit_count()
        g = guess
        while lo < hi:
            t = min(max(g, lo + 1), hi)
            v = self._bound(t)
            if v >= t:
                lo, g = v, v + 1
            else:
                hi, g = v, v
        return lo

    # -- per card -------------------------------------------------------------------------

    def tricks(self, pos: Position, *, deadline: float | None = None) -> int:
        """Team 0's further tricks from ``pos`` with best play (no per-card split)."""
        pos.check()
        self._load(pos)
        self.deadline = deadline
        return self._exact_tricks(round(share_estimate(self.h) * self.h[pos.to_act].bit_count()))

    def _margins_by_tricks(self, pos: Position) -> list[int] | None:
        """Team 0's margin for each count of further team-0 tricks when nobody bid nil (each
        team's points then follow its own total), else ``None``."""
        if self.nil_bid:
            return None
        left = pos.hands[pos.to_act].bit_count()
        return self._line(pos.won[0] + pos.won[2])[: left + 1]

    def margin_by_tricks(self, pos: Position) -> list[int] | None:
        """Team 0's margin for each count of further team-0 tricks, if the margin follows the
        tricks.

        With no nil bid each team's points depend on its own trick total only, so the margin
        is a function of team 0's tricks; where that function never falls over the totals
        any play can still reach (the spades each team is sure of bound them, see
        :func:`~spades.solver.quick.team_spade_tricks`), maximising the margin is maximising
        tricks (for both teams), and the trick value's search and table answer the score
        value. ``None`` otherwise (the margin search still hands each of its tests to the trick
        search where it can, see :meth:`_by_tricks`).
        """
        if not self.use_by_tricks:
            return None
        f = self._margins_by_tricks(pos)
        if f is None:
            return None
        left = len(f) - 1
        self._load(pos)
        lo = team_spade_tricks(self.h, self.trick, self.leader, 0)  # won whatever anyone plays
        hi = left - team_spade_tricks(self.h, self.trick, self.leader, 1)
        return f if all(a <= b for a, b in zip(f[lo : hi + 1], f[lo + 1 : hi + 1])) else None

    def margin(self, pos: Position, *, deadline: float | None = None) -> int:
        """Team 0's hand margin from ``pos`` with best play (no per-card split)."""
        f = self.margin_by_tricks(pos)
        if f is not None:
            return f[self.tricks(pos, deadline=deadline)]
        pos.check()
        self._load(pos)
        self.deadline = deadline
        return self._exact_margin()

    def values(
        self,
        pos: Position,
        *,
        score: bool = True,
        deadline: float | None = None,
        known: dict[int, CardValue] | None = None,
    ) -> dict[int, CardValue]:
        """Every legal card of the seat to act (card number) → its :class:`CardValue`.

        ``deadline`` is a :func:`time.perf_counter` time; past it :class:`NotFinished` is raised.
        ``known``: this position's trick values already found (an earlier call's answer), not
        searched again (the review asks for tricks first, then for points).
        """
        pos.check()
        self._load(pos)
        self.deadline = deadline
        seat = pos.to_act
        team = seat & 1
        left = pos.hands[seat].bit_count()  # tricks still to play, the current one included
        out: dict[int, CardValue] = {}
        reps = self._moves(seat)
        guess = round(share_estimate(self.h) * left)  # the first card's; then the last card's value
        broken = self.broken
        by_tricks = self.margin_by_tricks(pos) if score else None
        # otherwise the margin search's first guess: the trick value's line scored, or the
        # last card's margin
        line = self._margins_by_tricks(pos) if score and by_tricks is None else None
        last = None
        for c in reps:
            done = self._play(c)
            now = 1 if done is not None and not done[2] & 1 else 0  # team 0 took the trick c ended
            t0 = known[c].tricks[0] if known is not None else self._exact_tricks(guess - now) + now
            guess = t0
            margin = None
            if score:
                if by_tricks is not None:
                    m0 = by_tricks[t0]
                else:
                    m0 = last = self._exact_margin(line[t0] if line is not None else last)
                margin = m0 if team == 0 else -m0
            self._unplay(c, done, broken)
            out[c] = CardValue((t0, left - t0), margin)
        legal = legal_mask(pos.hands[seat], pos.trick[0] // 13 if pos.trick else None, pos.broken)
        self._load(pos)
        for c in range(52):  # a card touching a searched one shares its value
            if legal >> c & 1 and c not in out:
                out[c] = out[self._run_top(c, pos.hands[seat])]
        return out


def solve_position(
    pos: Position,
    *,
    score: bool = True,
    deadline: float | None = None,
    solver: Solver | None = None,
) -> dict[str, CardValue]:
    """Every legal card name of the seat to act → :class:`CardValue` (see :meth:`Solver.values`)."""
    solver = solver or Solver(pos.bids, pos.bags)
    return {
        CARD_NAMES[c]: v
        for c, v in sorted(solver.values(pos, score=score, deadline=deadline).items())
    }


def solve(match, *, score: bool = True, deadline: float | None = None) -> dict[str, CardValue]:
    """For a :class:`spades.Match` in the play phase: each legal card name → ``.tricks`` and
    ``.margin``."""
    return solve_position(Position.from_match(match), score=score, deadline=deadline)


def _trick_key(start: int, trick: list[int]) -> int:
    """The replies key of a trick so far (six bits a card) after a trick start's key ``start``."""
    for c in trick:
        start = start << 6 | c
    return start
