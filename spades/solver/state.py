"""The state both double-dummy searches share: the position being searched, played and unplayed
in place, the node count, the node limit and the deadline. Standard library only.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from ..cards import SUIT_BITS, SUIT_MASKS
from ..legal import trick_winner
from .moves import follow_moves, lead_moves
from .position import NotFinished, Position
from .table import run_bottom

CHECK_MASK = 255  # look at the node limit and the clock every 256 nodes


class SearchState:
    """A position being searched (hands, trick, leader, spades broken, tricks won, live cards),
    the node count, the node limit, the deadline and the switches for measuring each technique.

    Two bounds stop a search with :class:`NotFinished`: ``node_limit``, a count of nodes (over
    every search of this object: the computer players' budget, the same on any machine), and
    ``deadline``, a time on ``clock`` (the review's and the page's analysis budget)."""

    h: list[int]
    trick: list[int]
    leader: int
    broken: bool
    won: list[int]
    live: int

    def __init__(self) -> None:
        self.nodes = 0
        self.deadline: float | None = None
        self.node_limit: int | None = None
        self.clock = time.perf_counter  # the deadline's clock (benchmarks use CPU time)
        # switches for measuring each technique
        self.use_tt = self.use_quick = self.use_order = self.use_equiv = self.use_by_tricks = (
            self.use_partition
        ) = self.use_low = True

    def _load(self, pos: Position) -> None:
        """Make ``pos`` the position being searched."""
        self.h = list(pos.hands)
        self.trick = list(pos.trick)
        self.leader = pos.leader
        self.broken = pos.broken
        self.won = list(pos.won)
        self.live = (
            pos.hands[0]
            | pos.hands[1]
            | pos.hands[2]
            | pos.hands[3]
            | sum(1 << c for c in pos.trick)
        )

    def _tick(self) -> None:
        """Count a node; past the node limit or the deadline (looked at every :data:`CHECK_MASK`
        + 1 nodes) raise :class:`NotFinished`."""
        self.nodes += 1
        if not self.nodes & CHECK_MASK and self._past():
            raise NotFinished

    def _past(self) -> bool:
        """Whether the search has used its nodes or its time (the clock is read only with a
        deadline)."""
        if self.node_limit is not None and self.nodes > self.node_limit:
            return True
        return self.deadline is not None and self.clock() > self.deadline

    def _moves(self, seat: int) -> Sequence[int]:
        """Legal cards of ``seat`` (one per run of touching cards), in a promising order."""
        trick = self.trick
        if trick:
            return follow_moves(
                self.h, seat, trick, trick_winner(trick), self.live, self.use_equiv, self.use_order
            )
        return lead_moves(self.h, seat, self.live, self.broken, self.use_equiv, self.use_order)

    def _end_trick(self, c: int, at: int) -> tuple[int, int]:
        """Card ``c``, the fourth, ends the trick on the table (``at``: its winning card's index).

        The four cards leave the live cards, the winner takes the trick and leads the next.
        Returns what :meth:`_undo_trick` needs besides the trick and its leader: the winner and
        the four cards as a mask. Both searches (and :meth:`_play`) end every trick here.
        """
        trick = self.trick
        winner = (self.leader + at) & 3
        gone = 1 << c | 1 << trick[0] | 1 << trick[1] | 1 << trick[2]
        self.live ^= gone
        self.won[winner] += 1
        self.trick = []
        self.leader = winner
        return winner, gone

    def _undo_trick(self, leader: int, trick: list[int], winner: int, gone: int) -> None:
        """Take back :meth:`_end_trick`: ``trick`` (its first three cards) is on the table again,
        led by ``leader``."""
        self.won[winner] -= 1
        self.leader = leader
        self.trick = trick
        self.live |= gone

    def _play(self, c: int) -> tuple[int, list[int], int, int] | None:
        """Play card ``c`` for the seat to act (at the root: the searches play in place in their
        loops); returns what :meth:`_unplay` needs when it ends a trick (leader, trick, winner,
        cards)."""
        trick = self.trick
        leader = self.leader
        self.h[(leader + len(trick)) & 3] ^= 1 << c
        if c >= 39:
            self.broken = True
        if len(trick) < 3:
            trick.append(c)
            return None
        winner, gone = self._end_trick(c, trick_winner([*trick, c]))
        return leader, trick, winner, gone

    def _unplay(self, c: int, done: tuple[int, list[int], int, int] | None, broken: bool) -> None:
        """Take back :meth:`_play` of ``c`` (``done``: its answer; ``broken``: spades broken before
        it)."""
        if done is None:
            self.trick.pop()
        else:
            self._undo_trick(*done)
        self.broken = broken
        self.h[(self.leader + len(self.trick)) & 3] |= 1 << c

    def _run_rel(self, c: int, seat: int) -> int:
        """The bottom of ``c``'s run of touching cards: the lines of the run's other cards (not
        searched, the same by swapping) rest on it where ``c``'s line rests on ``c``."""
        sh = c - c % 13
        return 1 << (
            sh + run_bottom(self.h[seat] >> sh & SUIT_BITS, self.live >> sh & SUIT_BITS, c - sh)
        )

    def _run_top(self, c: int, hand: int) -> int:
        """The highest card of ``hand`` reached from ``c`` through live cards of the suit, all
        ours."""
        suit = SUIT_MASKS[c // 13]
        while True:
            above = self.live & suit & ~((2 << c) - 1)
            nxt = above & -above
            if not nxt & hand:
                return c
            c = nxt.bit_length() - 1
