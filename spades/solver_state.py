"""The double-dummy searches' state: one position of a hand, played and unplayed in place, with
the node count, the deadline and the switches that both searches (:mod:`spades.solver`,
:mod:`spades.solver_score`) share. Standard library only.
"""
from __future__ import annotations

import time

from .cards import SUIT_BITS, SUIT_MASKS
from .position import NotFinished, Position
from .rules import trick_winner
from .solver_moves import follow_moves, lead_moves
from .solver_tt import run_bottom

CHECK_MASK = 2047           # look at the clock every 2048 nodes


class SearchState:
    """A position being searched: four hands (card masks), the trick so far, its leader, spades
    broken, tricks won per seat and the live cards (held or on the table)."""

    h: list[int]
    trick: list[int]
    leader: int
    broken: bool
    won: list[int]
    live: int

    def __init__(self) -> None:
        self.nodes = 0
        self.deadline: float | None = None
        self.clock = time.perf_counter     # the deadline's clock (benchmarks use CPU time)
        # switches for measuring each technique
        self.use_tt = self.use_quick = self.use_order = self.use_equiv = self.use_by_tricks = self.use_partition = \
            self.use_low = True

    def _load(self, pos: Position) -> None:
        self.h = list(pos.hands)
        self.trick = list(pos.trick)
        self.leader = pos.leader
        self.broken = pos.broken
        self.won = list(pos.won)
        self.live = pos.hands[0] | pos.hands[1] | pos.hands[2] | pos.hands[3] | sum(1 << c for c in pos.trick)

    def _tick(self) -> None:
        self.nodes += 1
        if not self.nodes & CHECK_MASK and self.deadline is not None and self.clock() > self.deadline:
            raise NotFinished

    def _moves(self, seat: int) -> list[int]:
        """Legal cards of ``seat`` (one per run of touching cards), in a promising order."""
        trick = self.trick
        if trick:
            return follow_moves(self.h, seat, trick, trick_winner(trick), self.live, self.use_equiv, self.use_order)
        return lead_moves(self.h, seat, self.live, self.broken, self.use_equiv, self.use_order)

    def _play(self, c: int) -> tuple | None:
        """Play card ``c`` for the seat to act; returns what :meth:`_unplay` needs when it ends a trick."""
        trick = self.trick
        seat = (self.leader + len(trick)) % 4
        self.h[seat] ^= 1 << c
        trick.append(c)
        broken = self.broken
        if c >= 39:
            self.broken = True
        if len(trick) < 4:
            return None
        winner = (self.leader + trick_winner(trick)) % 4
        self.won[winner] += 1
        done = (broken, self.leader, tuple(trick), winner)
        self.live &= ~sum(1 << x for x in trick)
        self.trick = []
        self.leader = winner
        return done

    def _unplay(self, c: int, done: tuple | None, broken: bool) -> None:
        if done is not None:
            _, leader, cards, winner = done
            self.won[winner] -= 1
            self.leader = leader
            self.trick = list(cards)
            for x in cards:
                self.live |= 1 << x
        self.broken = broken
        self.trick.pop()
        seat = (self.leader + len(self.trick)) % 4
        self.h[seat] |= 1 << c

    def _run_rel(self, c: int, seat: int) -> int:
        """The bottom of ``c``'s run of touching cards: the lines of the run's other cards (not
        searched, the same by swapping) rest on it where ``c``'s line rests on ``c``."""
        sh = c - c % 13
        return 1 << (sh + run_bottom(self.h[seat] >> sh & SUIT_BITS, self.live >> sh & SUIT_BITS, c - sh))

    def _run_top(self, c: int, hand: int) -> int:
        """The highest card of ``hand`` reached from ``c`` through live cards of the suit, all ours."""
        suit = SUIT_MASKS[c // 13]
        while True:
            above = self.live & suit & ~((2 << c) - 1)
            nxt = above & -above
            if not nxt & hand:
                return c
            c = nxt.bit_length() - 1
