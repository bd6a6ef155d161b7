"""Hard's exact play: from the middle of the hand, every sampled deal of the hidden cards is
solved exactly.

Once few enough tricks are left (:attr:`ExactBudget.tricks`), the double-dummy solver
(:mod:`spades.solver`, through its public :class:`~spades.solver.Solver`) values every legal
card of a full-information deal in about the time a few hundred play-outs take. Hard samples
deals that fit what its seat knows (:mod:`spades.ai.sampling`), solves each one by the match
value of the hand (:class:`~spades.solver.MatchValue`: the real bids and nils, each bag at its
long-run cost, a bonus for the match the hand decides — the value its play-outs use) and
averages each candidate card's value over the deals.

The work is a count of deals and of the solver's nodes, never a clock: a decision depends on
the position and the seed only. The nodes bound the work of a hard position; when they run
out before :attr:`ExactBudget.min_deals` deals are solved, the caller decides by play-outs.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

from ..legal import NIL
from ..scoring import team_need
from ..solver import MatchValue, NotFinished, Position, Solver, hand_margin
from .playout import BAG_VALUE, WIN_BONUS
from .tracker import Tracker

#: Tricks in a hand.
HAND_TRICKS = 13


@dataclass(frozen=True, slots=True)
class ExactBudget:
    """How much exact search a level spends on a card: from how many tricks left, at most how
    many deals, at least how many for the answer to count, and the solver's nodes over all of
    them; ``score``: value each deal by its real points (the hand's margin) instead of the
    match value (faster: without a nil the trick search answers it)."""

    tricks: int
    deals: int
    min_deals: int
    nodes: int
    score: bool = False

    def applies(self, t: Tracker) -> bool:
        """Whether the position is small enough to solve sampled deals (every seat has bid)."""
        return t.hand.bit_count() <= self.tricks and min(t.bids) >= 0


@dataclass(slots=True)
class ExactResult:
    """Per candidate card over the deals solved: the summed value (acting team's margin by the
    match value), our team's further tricks, the deals where our contract was made and where
    every nil of our team held (both by the value-maximising play), and the deals and nodes."""

    totals: dict[int, float]
    tricks: dict[int, int]
    made: dict[int, int]
    nils: dict[int, int]
    done: int = 0
    nodes: int = 0
    ambiguous: int = 0  # outcomes counted as the worse of two (see outcome_table)


def match_value(scores: tuple[int, int]) -> MatchValue:
    """How Hard values a finished hand: bags at their long-run cost, the match bonus."""
    return MatchValue(int(BAG_VALUE), tuple(scores), WIN_BONUS)  # type: ignore[arg-type]


def standing_nils(t: Tracker) -> list[int]:
    """Our team's seats whose nil still stands (bid nil, no trick taken yet)."""
    team = t.seat & 1
    return [s for s in (team, team + 2) if t.bids[s] == NIL and not t.won[s]]


def outcome_table(
    t: Tracker, bags: tuple[int, int], value: MatchValue | None
) -> dict[int, tuple[bool, bool, bool]]:
    """Each margin (for the acting team) the hand can still end on → whether our contract is made,
    whether our standing nils all hold, and whether that is ambiguous (another split of the
    tricks gives the same margin with another outcome; then both answers are the worse one)."""
    team = t.seat & 1
    sign = 1 if team == 0 else -1
    bids = t.bids
    left = HAND_TRICKS - sum(t.won)
    nil_seats = standing_nils(t)
    out: dict[int, tuple[bool, bool, bool]] = {}
    for a, b, c in product(range(left + 1), repeat=3):
        d = left - a - b - c
        if d < 0:
            continue
        won = (t.won[0] + a, t.won[1] + b, t.won[2] + c, t.won[3] + d)
        m = sign * hand_margin(bids, won, bags, value)
        made = team_need(bids, won, team) <= 0
        nils = all(won[s] == 0 for s in nil_seats)
        seen = out.get(m)
        if seen is None:
            out[m] = (made, nils, False)
        elif seen[:2] != (made, nils):
            out[m] = (seen[0] and made, seen[1] and nils, True)
    return out


def exact_values(
    t: Tracker,
    scores: tuple[int, int],
    bags: tuple[int, int],
    moves: list[int],
    deals: list[list[int]],
    budget: ExactBudget,
) -> ExactResult | None:
    """Each candidate card's summed match value over ``deals`` (every seat's cards), each deal
    solved exactly, with the figures the reason gives; ``None`` if the solver's nodes ran out
    before ``budget.min_deals`` deals were solved.

    Deals are solved in turn while the nodes spent so far, spread over the deals solved, leave
    room for one more within ``budget.nodes``: a position too big for the budget is known
    after its first deal (deals of one position cost about the same), and one deal the solver
    cannot finish within the budget ends the search (it is left out). A deal met twice (an
    ending with few unseen cards has few deals) is solved once and counted each time, so the
    averages stay those of the sampling.
    """
    team = t.seat & 1
    value = None if budget.score else match_value(scores)
    solver = Solver(t.bids, bags, value)
    solver.node_limit = budget.nodes
    outcomes = outcome_table(t, bags, value)
    res = ExactResult(
        dict.fromkeys(moves, 0.0),
        dict.fromkeys(moves, 0),
        dict.fromkeys(moves, 0),
        dict.fromkeys(moves, 0),
    )
    memo: dict[tuple[int, ...], dict] = {}
    trick, won = tuple(t.trick), tuple(t.won)
    for hands in deals:
        key = tuple(hands)
        values = memo.get(key)
        if values is None:
            if solver.nodes and solver.nodes * (res.done + 1) > budget.nodes * res.done:
                break  # one more deal at the average so far would not fit
            pos = Position(key, trick, t.leader, t.broken, t.bids, won, bags)
            try:
                values = memo[key] = solver.values(pos)
            except NotFinished:
                break
        for c in moves:
            v = values[c]
            m = v.margin
            assert m is not None, "asked with score: margins known"
            res.totals[c] += m
            res.tricks[c] += v.tricks[team]
            made, nils, unsure = outcomes[m]
            res.made[c] += made
            res.nils[c] += nils
            res.ambiguous += unsure
        res.done += 1
    res.nodes = solver.nodes
    return res if res.done >= budget.min_deals else None
