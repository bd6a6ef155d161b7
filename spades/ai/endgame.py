"""Hard's endgame: in the last tricks, each sampled deal of the hidden cards is solved exactly.

With few cards left the double-dummy solver (:mod:`spades.solver`, through its public
:class:`~spades.solver.Solver` and :class:`~spades.solver.Position`) values every legal
card of a full-information deal in about the time a few play-outs take. Hard samples deals
consistent with what its seat knows (:func:`spades.ai.sampling.sample_hands`) and averages each
card's exact hand-score margin (both teams' contracts, nils and bags, by the one scoring
kernel) over a fixed number of deals: the choice depends on the position and seed only.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..scoring import team_need
from ..solver import Position, Solver
from .tracker import Tracker

#: Hard solves every sampled deal exactly once this many tricks (or fewer) are left (at four the
#: margin search with a nil in play made the median decision slower than the play-outs it replaces).
ENDGAME_TRICKS = 3
#: Deals sampled per endgame decision at Hard's full budget (each distinct deal is solved once) …
ENDGAME_SAMPLES = 32
#: … and at least this many with a smaller budget (tests): the deals scale with the budget.
ENDGAME_MIN_SAMPLES = 4


def endgame_samples(budget: int, full: int) -> int:
    """Deals to solve for a play-out ``budget`` (``full`` is Hard's default budget)."""
    return max(ENDGAME_MIN_SAMPLES, min(ENDGAME_SAMPLES, ENDGAME_SAMPLES * budget // full))


Sampler = Callable[[Tracker, random.Random], "list[int] | None"]


def is_endgame(t: Tracker) -> bool:
    """Whether the position is small enough to solve every sampled deal (standard rules only)."""
    return t.hand.bit_count() <= ENDGAME_TRICKS and min(t.bids) >= 0


def endgame_values(
    t: Tracker,
    bags: tuple[int, int],
    moves: list[int],
    rng: random.Random,
    sample: Sampler,
    samples: int = ENDGAME_SAMPLES,
) -> tuple[dict[int, float], dict[int, int], int]:
    """Each candidate card's summed margin (acting team's hand points minus the other's) over the
    sampled deals, how often our contract is made with it (trick-maximising play), and the deals
    used.

    Deals already seen are not solved again (an ending with few unseen cards has few deals);
    they still count with their weight, so the averages stay those of the sampling.
    """
    team = t.seat & 1
    solver = Solver(t.bids, bags)
    totals = dict.fromkeys(moves, 0.0)
    made = dict.fromkeys(moves, 0)
    memo: dict[tuple[int, ...], dict] = {}
    done = 0
    need = team_need(t.bids, t.won, team)
    for _ in range(samples):
        hands = sample(t, rng)
        if hands is None:
            break
        key = tuple(hands)
        values = memo.get(key)
        if values is None:
            pos = Position(key, tuple(t.trick), t.leader, t.broken, t.bids, tuple(t.won), bags)
            values = memo[key] = solver.values(pos)
        for c in moves:
            v = values[c]
            totals[c] += v.margin  # type: ignore[operator]  # asked with score: margins known
            made[c] += v.tricks[team] >= need
        done += 1
    return totals, made, done
