"""Hard's exact play: in the last tricks of the hand, every sampled deal of the hidden cards is
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

from dataclasses import dataclass, replace
from itertools import product
from typing import NamedTuple

from ..legal import NIL
from ..scoring import team_need
from ..solver import MatchValue, NotFinished, Position, Solver, hand_margin
from .playout import BAG_VALUE, WIN_BONUS
from .tracker import Tracker

#: Tricks in a hand.
HAND_TRICKS = 13
#: One deal may use at most this many times its share of the nodes (the budget over the least
#: deals that count): a position too big for the budget is given up within its first deal.
DEAL_SHARE = 2
#: A budget scaled down (:meth:`ExactBudget.scaled`) keeps at least this many deals …
LEAST_DEALS = 4
#: … and this many nodes.
LEAST_NODES = 2000


@dataclass(frozen=True, slots=True)
class ExactBudget:
    """How much exact search a level spends on a card: from how many tricks left, at most how
    many deals, at least how many for the answer to count, and the solver's nodes over all of
    them; ``score``: solve each deal by its real points (the hand's margin; without a nil the
    trick search answers that, much faster) and value the end its line reaches for the match,
    instead of solving by the match value itself."""

    tricks: int
    deals: int
    min_deals: int
    nodes: int
    score: bool = False

    def scaled(self, factor: float) -> ExactBudget:
        """This budget's deals and nodes times ``factor`` (a level's smaller budget: tests), at
        least :data:`LEAST_DEALS` deals, half of them counting, and :data:`LEAST_NODES` nodes."""
        if factor >= 1:
            return self
        return replace(
            self,
            deals=max(LEAST_DEALS, round(self.deals * factor)),
            min_deals=max(LEAST_DEALS // 2, round(self.min_deals * factor)),
            nodes=max(LEAST_NODES, round(self.nodes * factor)),
        )

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
    ambiguous: int = 0  # ends counted as the worse of two or more (see outcome_table)


def match_value(scores: tuple[int, int]) -> MatchValue:
    """How Hard values a finished hand: bags at their long-run cost, the match bonus."""
    return MatchValue(int(BAG_VALUE), tuple(scores), WIN_BONUS)  # type: ignore[arg-type]


def standing_nils(t: Tracker) -> list[int]:
    """Our team's seats whose nil still stands (bid nil, no trick taken yet)."""
    team = t.seat & 1
    return [s for s in (team, team + 2) if t.bids[s] == NIL and not t.won[s]]


class Outcome(NamedTuple):
    """What a solved deal's margin tells of the hand's end, for the acting team."""

    made: bool  # our contract made
    nils: bool  # every standing nil of ours held
    unsure: bool  # another split of the tricks gives the same margin with another outcome
    worth: int  # the end's match value (the worst of the splits giving that margin)


def outcome_table(
    t: Tracker, scores: tuple[int, int], bags: tuple[int, int], score: bool
) -> dict[int, Outcome]:
    """Each margin (for the acting team) the hand can still end on, by the solver's measure
    (``score``: the hand's real points, else the match value) → its :class:`Outcome`. Where
    two splits of the further tricks give one margin with different outcomes, the outcome is
    the worse of them (so the reason's shares never flatter the card)."""
    team = t.seat & 1
    sign = 1 if team == 0 else -1
    bids = t.bids
    value = match_value(scores)
    left = HAND_TRICKS - sum(t.won)
    nil_seats = standing_nils(t)
    out: dict[int, Outcome] = {}
    for a, b, c in product(range(left + 1), repeat=3):
        d = left - a - b - c
        if d < 0:
            continue
        won = (t.won[0] + a, t.won[1] + b, t.won[2] + c, t.won[3] + d)
        worth = sign * hand_margin(bids, won, bags, value)
        m = sign * hand_margin(bids, won, bags) if score else worth
        made = team_need(bids, won, team) <= 0
        nils = all(won[s] == 0 for s in nil_seats)
        seen = out.get(m)
        if seen is None:
            out[m] = Outcome(made, nils, False, worth)
        else:
            out[m] = Outcome(
                seen.made and made,
                seen.nils and nils,
                seen.unsure or (seen.made, seen.nils) != (made, nils),
                min(seen.worth, worth),
            )
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
    before ``budget.min_deals`` deals were solved. With ``budget.score`` each deal is solved by
    the hand's real points (without a nil, the trick search answers that) and the end its best
    line reaches is valued for the match (:func:`outcome_table`).

    Deals are solved in turn while the nodes spent so far, spread over the deals solved, leave
    room for one more within ``budget.nodes``; one deal may use at most :data:`DEAL_SHARE`
    times its share, so a position too big for the budget is given up within its first deal
    (deals of one position cost about the same). A deal the solver cannot finish is left out
    and ends the search. A deal met twice (an
    ending with few unseen cards has few deals) is solved once and counted each time, so the
    averages stay those of the sampling.
    """
    team = t.seat & 1
    value = None if budget.score else match_value(scores)
    solver = Solver(t.bids, bags, value)
    outcomes = outcome_table(t, scores, bags, budget.score)
    res = ExactResult(
        dict.fromkeys(moves, 0.0),
        dict.fromkeys(moves, 0),
        dict.fromkeys(moves, 0),
        dict.fromkeys(moves, 0),
    )
    memo: dict[tuple[int, ...], dict] = {}
    trick, won = tuple(t.trick), tuple(t.won)
    deal_cap = budget.nodes * DEAL_SHARE // budget.min_deals
    for hands in deals:
        key = tuple(hands)
        values = memo.get(key)
        if values is None:
            if solver.nodes and solver.nodes * (res.done + 1) > budget.nodes * res.done:
                break  # one more deal at the average so far would not fit
            solver.node_limit = min(budget.nodes, solver.nodes + deal_cap)
            pos = Position(key, trick, t.leader, t.broken, t.bids, won, bags)
            try:
                values = memo[key] = solver.values(pos)
            except NotFinished:
                break
        for c in moves:
            v = values[c]
            m = v.margin
            assert m is not None, "asked with score: margins known"
            end = outcomes[m]
            res.totals[c] += end.worth
            res.tricks[c] += v.tricks[team]
            res.made[c] += end.made
            res.nils[c] += end.nils
            res.ambiguous += end.unsure
        res.done += 1
    res.nodes = solver.nodes
    return res if res.done >= budget.min_deals else None
