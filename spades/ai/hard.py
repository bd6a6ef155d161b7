"""Hard: card tracking plus a sampled search over the hidden cards.

For each decision Hard samples deals of the unseen cards consistent with what
its seat knows (hand sizes, shown voids, forced spade leads; bids bias where
the high cards sit), plays every candidate card out to the end of the hand with
a cheap Normal-like rollout policy on card masks (:mod:`spades.ai.playout`), and
scores each result with both teams' contracts, nils, bags (each at its long-run
share of the penalty) and the match score. In the last tricks every sampled deal
is solved exactly instead (:mod:`spades.ai.exact`); bids are simulated too
(:mod:`spades.ai.hardbid`).
The work is a fixed count of deals and play-outs, never a clock: a decision
depends on the position and the seed only, on any machine and under any load.
"""

from __future__ import annotations

import random
from typing import Any

from ..cards import (
    ACE_OF_SPADES,
    CARD_NAMES,
    FIRST_SPADE,
    QUEEN,
    RANK_OF,
    SPADE_MASK,
    SUIT_MASKS,
    SUIT_OF,
)
from ..legal import NIL, legal_mask, trick_winner
from ..scoring import team_need
from ..view import SeatView
from .base import Bot
from .estimate import ROUND, clamp_bid, estimate_parts, explain_team_bid, nil_ok
from .exact import ExactBudget, ExactResult, exact_values, standing_nils
from .explain import Explanation, Reason, reason, shown
from .hardbid import BID_SAMPLES, simulate_bid
from .house import house_scoring
from .normal import explain_card
from .playout import hand_value, rollout
from .sampling import fitted_deals, sample_hands
from .tracker import Tracker, track

ROLLOUTS = 15000  # card plays simulated per decision (split over candidates and samples)
#: Points of credit for Normal's choice per sample. Two stricter tests were tried on the
#: play-outs' cards (``tools/bench_solver.py pair --levels hard,hard@6be38ad --left
#: 13,12,11,10,9,8,7,6 --hands 200 --seed 21``: each card judged by the real deal's double-dummy
#: values where the two differ; points lost a hand, the trial's minus today's): a credit of 8,
#: −0.05 ± 7.2; a card other than Normal's also beating it by a standard error of the
#: differences, −2.0 ± 8.1 (tricks −0.09 ± 0.17 and −0.09 ± 0.18). No measurable gain: 4 stays.
PRIOR = 4.0
MIN_SAMPLES = 16
MAX_SAMPLES = 200
#: Hard's exact play (:mod:`spades.ai.exact`): from this many tricks left, up to this many deals
#: each solved exactly within this many solver nodes (at least this many deals, or the play-outs
#: decide). Five tricks, not six: with six left the deals cost the solver about 20,000 nodes
#: (Hard's 95th-percentile decision in Pyodide took 359–448 ms, over the 300 ms aim), 29 % of
#: those positions ran out of nodes anyway, and at positions with six left, judged by the real
#: deal's double-dummy values (``tools/bench_solver.py pair --left 6``), the play-outs' cards
#: lost as much as the exact ones (three runs of 1,200 positions: −0.2, +0.4 ± 0.8 and
#: −0.2 ± 0.7 points a position).
EXACT = ExactBudget(tricks=5, deals=16, min_deals=8, nodes=30000)
DESPERATE_SCORE = 400  # the opponents are this close to the target …
DESPERATE_GAP = 120  # … and this far ahead: only a gamble (a loose nil) can save the match
NIL_MARGIN = 20  # points above the floor a failed nil must leave before Hard risks one
NIL_RISK = 1.6  # at most this many expected tricks for a desperate nil
PERCENT = 100


def candidates(legal: int, t: Tracker) -> list[int]:
    """Legal cards with equivalent ones merged (touching in rank once played cards are removed)."""
    out = []
    unseen = t.unseen
    for s in range(4):
        x = legal & SUIT_MASKS[s]
        prev = -1
        while x:
            low = x & -x
            c = low.bit_length() - 1
            x ^= low
            if prev >= 0 and not unseen & (((1 << c) - 1) & ~((2 << prev) - 1)):
                prev = c  # nothing unseen between prev and c: same value, keep the lowest
                continue
            out.append(c)
            prev = c
    return out


def search_card(view: SeatView, rng: random.Random, budget: int = ROLLOUTS) -> int:
    """Hard's card for ``view`` by sampled play-outs, as a card number (see
    :func:`explain_search`)."""
    return explain_search(view, rng, budget)[0]


# The play-outs' deals are not weighted by how well they fit the bids (the exact play's deals
# are, :func:`~spades.ai.sampling.fitted_deals`). Weighting every deal here by its
# :func:`~spades.ai.sampling.bid_fit` was tried and not taken: against Normal (``arena hard normal
# --matches 400 --seed 900``) contracts made fell from 94.1 to 92.9 %, nils made from 79.7 to
# 74.4 %, points a hand from +20.0 to +18.2 (wins 86.0 → 87.0 %). The weights spread widely (an
# effective sample of about 30 % of the deals at a position measured), so fewer deals decide.
# Their square root (a flatter weighting) on the same deals: contracts 93.2 %, nils 78.0 %,
# +18.8 points a hand, wins 88.5 % — no better for the contracts either.
def rollout_values(
    t: Tracker, view: SeatView, moves: list[int], rng: random.Random, budget: int
) -> tuple[dict[int, float], dict[int, int], int]:
    """Each candidate's summed play-out value over the sampled deals, how often our contract was
    made, the deals.

    ``budget`` simulated card plays are shared over the candidates and the deals (at least
    ``MIN_SAMPLES`` deals); each deal is used for every candidate (common random numbers).
    """
    plays_left = t.hand.bit_count() * 4 - len(t.trick)
    samples = max(MIN_SAMPLES, min(MAX_SAMPLES, budget // (len(moves) * plays_left)))
    bids = list(t.bids)
    team = t.seat % 2
    totals = dict.fromkeys(moves, 0.0)
    made = dict.fromkeys(moves, 0)
    house = None if view.rules.default else house_scoring(view)
    done = 0
    for _ in range(samples):
        hands = sample_hands(t, rng)
        if hands is None:
            break
        for c in moves:
            h = hands[:]
            h[t.seat] ^= 1 << c
            trick = t.trick + [c]
            broken = t.broken or c >= FIRST_SPADE
            if len(trick) == 4:
                # complete the trick here so the rollout starts clean
                won = t.won[:]
                leader = (t.leader + trick_winner(trick)) % 4
                won[leader] += 1
                result = rollout(h, [], leader, won, bids, broken)
            else:
                result = rollout(h, trick, t.leader, t.won, bids, broken)
            totals[c] += hand_value(bids, result, team, view.scores, view.bags, house)
            if team_need(bids, result, team) <= 0:
                made[c] += 1
        done += 1
    return totals, made, done


def explain_search(
    view: SeatView,
    rng: random.Random,
    budget: int = ROLLOUTS,
    exact: ExactBudget | None = EXACT,
) -> tuple[int, Reason]:
    """Hard's card for ``view`` by sampled deals, with the search's result as its reason.

    Once few enough tricks are left (``exact``, standard rules) every sampled deal is solved
    exactly (:mod:`spades.ai.exact`, reasons ``play.exact`` and ``play.exact_nil``); earlier,
    or when the solver's nodes run out first, each candidate is played out to the end of the
    hand on every deal (:func:`rollout_values`, ``budget`` card plays). The work is a fixed
    count, never a clock: the same view and generator give the same card. The reason gives
    each candidate's average value and how often our contract was made over the deals searched
    (counted in the same loop: no extra search).
    """
    t = track(view)
    legal = legal_mask(t.hand, SUIT_OF[t.trick[0]] if t.trick else None, t.broken)
    moves = candidates(legal, t)
    if len(moves) == 1:
        card = moves[0]
        code = "play.only_card" if legal & (legal - 1) == 0 else "play.equivalent"
        return card, Reason(code, {"card": CARD_NAMES[card]})
    rule_card, rule_reason = explain_card(t, view.scores, view.bags)
    # the candidate standing for Normal's card (equivalent cards are merged)
    fallback = max(c for c in moves if SUIT_OF[c] == SUIT_OF[rule_card] and c <= rule_card)
    if exact is not None and view.rules.default and exact.applies(t):
        deals = fitted_deals(t, rng, exact.deals)
        res = exact_values(t, view.scores, view.bags, moves, deals, exact)
        if res is not None:
            return exact_choice(t, moves, fallback, res)
    totals, made, done = rollout_values(t, view, moves, rng, budget)
    if not done:
        return rule_card, rule_reason
    table = _table(moves, totals, made, done)
    # the search must beat Normal's choice
    totals[fallback] += PRIOR * done
    # ties (and near-ties) go to Normal's choice when it is among the best, else the lowest card
    best_val = max(totals.values())
    eps = 1e-6 * done
    good = [c for c in moves if totals[c] >= best_val - eps]
    card = fallback if fallback in good else min(good, key=lambda c: (RANK_OF[c], c))
    params = _params(card, moves, table, done)
    if card == fallback:
        return card, Reason("play.search_rule", {**params, "details": [rule_reason.to_dict()]})
    return card, Reason("play.search", params)


def _table(
    moves: list[int], totals: dict[int, float], made: dict[int, int], done: int
) -> list[dict[str, Any]]:
    """The search's table for the reason: each candidate's average value and make share."""
    return [
        {
            "card": CARD_NAMES[c],
            "value": shown(totals[c] / done),
            "make": round(PERCENT * made[c] / done),
        }
        for c in moves
    ]


def _params(card: int, moves: list[int], table: list[dict[str, Any]], done: int) -> dict[str, Any]:
    """A search reason's parameters: the chosen card's figures and the table, best first."""
    row = table[moves.index(card)]
    return {
        "card": CARD_NAMES[card],
        "samples": done,
        "value": row["value"],
        "make": row["make"],
        "candidates": sorted(table, key=lambda r: -r["value"]),
    }


def exact_choice(
    t: Tracker, moves: list[int], fallback: int, res: ExactResult
) -> tuple[int, Reason]:
    """The card with the best summed exact value; ties go to more tricks for our team, then to
    Normal's card (``fallback``), then to the lowest card. Its reason says how often the card
    made our contract (and kept our nil) over the deals solved."""
    card = max(
        moves,
        key=lambda c: (res.totals[c], res.tricks[c], c == fallback, -RANK_OF[c], -c),
    )
    done = res.done
    params = {
        **_params(card, moves, _table(moves, res.totals, res.made, done), done),
        "left": t.hand.bit_count(),
    }
    if standing_nils(t):
        return card, Reason(
            "play.exact_nil", {**params, "nil": round(PERCENT * res.nils[card] / done)}
        )
    return card, Reason("play.exact", params)


def explain_hard_bid(view: SeatView) -> tuple[int, Reason]:
    """Normal's bid refined by the match score and the bag count, with its reason."""
    seat = view.seat
    team = seat % 2
    partner_bid = view.bids[(seat + 2) % 4]
    opp = [b for s, b in enumerate(view.bids) if s % 2 != team and b is not None]
    hand = view.hand_mask
    mine, theirs = view.scores[team], view.scores[1 - team]
    desperate = theirs >= DESPERATE_SCORE and theirs - mine >= DESPERATE_GAP
    bid, why = explain_team_bid(hand, partner_bid, opp)
    parts: list = []
    est = estimate_parts(hand, parts)
    if bid == 0:
        # a nil that fails could hand the opponents the match; keep it unless we can afford it
        floor = view.rules.floor
        if floor is not None and mine - view.rules.nil_points <= floor + NIL_MARGIN:
            parts.append(reason("adj.nil_unsafe", score=mine).to_dict())
            return clamp_bid(int(est + ROUND), est, parts)
        return 0, why
    if (
        desperate
        and partner_bid != NIL
        and est < NIL_RISK
        and not hand >> ACE_OF_SPADES & 1
        and nil_ok_loose(hand)
    ):
        return 0, reason("bid.nil_gamble", them=theirs, gap=theirs - mine)
    if view.bags[team] >= 7 and est - int(est) > 0.5:
        raised = max(bid, int(est) + 1)  # absorb likely overtricks into the contract
        if raised != bid:
            details = why.params["details"] + [
                reason("adj.bags", bags=view.bags[team], bid=raised).to_dict()
            ]
            return clamp_bid(raised, est, details)
    return bid, why


def hard_bid(view: SeatView) -> int:
    """Normal's bid refined by the match score and the bag count."""
    return explain_hard_bid(view)[0]


def nil_ok_loose(hand: int) -> bool:
    """A relaxed nil test for when only a gamble can save the match."""
    spades = (hand & SPADE_MASK) >> FIRST_SPADE
    return nil_ok(hand) or (
        spades.bit_count() <= 3 and spades < (1 << QUEEN)
    )  # no queen, king or ace


class HardBot(Bot):
    """Tracks cards and searches sampled deals; plays to both contracts and the match score."""

    level = "hard"
    budget = ROLLOUTS
    bid_samples = BID_SAMPLES
    exact: ExactBudget | None = EXACT

    def explain_bid(self, view: SeatView) -> Explanation:
        """The heuristic bid (:func:`explain_hard_bid`) checked against its neighbours and nil by
        simulation (:func:`spades.ai.hardbid.simulate_bid`), with every option's figures."""
        bid, why = explain_hard_bid(view)
        return Explanation(*simulate_bid(view, self.rng(view), bid, why, self.bid_samples))

    def explain_play(self, view: SeatView) -> Explanation:
        """The card with the best average play-out value over sampled deals, with the search's
        figures."""
        exact = self.exact
        if exact is not None:  # a smaller play-out budget (tests) scales the exact play with it
            exact = exact.scaled(self.budget / type(self).budget)
        card, why = explain_search(view, self.rng(view), self.budget, exact)
        return Explanation(CARD_NAMES[card], why)
