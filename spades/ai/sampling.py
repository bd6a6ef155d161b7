"""Dealing the unseen cards consistently with what a seat knows, for Hard's searches.

A seat sees its own hand and what has been played; the other 39 (or fewer) cards are dealt
to the other seats with their hand sizes and shown voids respected, the high cards leaning
towards players who bid high and away from a nil bidder (:func:`sample_hands`). Deals that
fit the bids (:func:`fitted_deals`) are then chosen from several such proposals, each kept
with a chance that follows how well every seat's whole hand (the cards it holds in the deal
and those it has played) fits its bid by the estimate the bots bid from
(:func:`spades.ai.estimate.estimate_tricks`). Hard's card search, its bid simulation
(:mod:`spades.ai.hardbid`) and its exact play (:mod:`spades.ai.exact`) all sample here; the
module sits below them, so none of them imports another to sample.
"""

from __future__ import annotations

import math
import random

from ..cards import FIRST_SPADE, JACK, KING, RANK_OF, SUIT_OF, numbers_of
from ..legal import NIL
from .estimate import NIL_MAX_ESTIMATE, ROUND, estimate_tricks
from .tracker import Tracker

#: A bid's spread around the estimate of the hand that made it, in tricks (a bot's bid is its
#: rounded estimate give or take the adjustments for its partner and the table; a person's
#: strays further): the standard deviation of the fit's Gaussian.
FIT_SPREAD = 0.7
#: Proposals drawn for every deal :func:`fitted_deals` keeps.
FIT_POOL = 3
#: Where a contract bid sits in the estimates that round to it (``int(estimate + ROUND)``).
BID_CENTRE = 0.5 - ROUND


def _weight(seat: int, card: int, bids: tuple[int, ...], won: list[int]) -> float:
    """How likely ``seat`` is to hold ``card`` judging from its bid (1 = no information)."""
    b = bids[seat]
    if b < 0:
        return 1.0
    rank = RANK_OF[card]
    high = rank >= KING or (card >= FIRST_SPADE and rank >= JACK)
    if not high:
        return 1.0
    if b == NIL and won[seat] == 0:
        return 0.15
    return 0.6 + 0.2 * min(b, 6)


def sample_hands(t: Tracker, rng: random.Random, tries: int = 30) -> list[int] | None:
    """Deal the unseen cards to the other seats consistently with hand sizes and shown voids."""
    seat = t.seat
    others = [s for s in range(4) if s != seat]
    cards = numbers_of(t.unseen)
    eligible = {}
    for c in cards:
        eligible[c] = [s for s in others if not t.voids[s] >> SUIT_OF[c] & 1]
    choices = {c: len(seats) for c, seats in eligible.items()}  # fewest possible holders first
    weights = {(s, c): _weight(s, c, t.bids, t.won) for c in cards for s in eligible[c]}
    for attempt in range(tries):
        rng.shuffle(cards)
        order = sorted(cards, key=choices.__getitem__)
        cap = {s: t.counts[s] for s in others}
        hands = [0, 0, 0, 0]
        ok = True
        for c in order:
            el = (
                [s for s in eligible[c] if cap[s] > 0]
                if attempt < tries - 1
                else [s for s in others if cap[s] > 0]
            )
            if not el:
                ok = False
                break
            if len(el) == 1:
                s = el[0]
            else:
                ws = [cap[s] * weights.get((s, c), 1.0) for s in el]
                x = rng.random() * sum(ws)
                s = el[-1]
                for s_, w in zip(el, ws):
                    x -= w
                    if x < 0:
                        s = s_
                        break
            hands[s] |= 1 << c
            cap[s] -= 1
        if ok:
            hands[seat] = t.hand
            return hands
    return None


def bid_fit(t: Tracker, hands: list[int]) -> float:
    """How well a deal fits the bids, as a likelihood up to a constant: for every other seat
    that has bid, a Gaussian in the distance between its bid and the estimate of its whole hand
    (a nil: the estimate's excess over what a nil hand may hold)."""
    log_w = 0.0
    for s in range(4):
        b = t.bids[s]
        if s == t.seat or b < 0:
            continue
        est = estimate_tricks(hands[s] | t.played_by[s])
        d = max(0.0, est - NIL_MAX_ESTIMATE) if b == NIL else est + BID_CENTRE - b
        log_w -= d * d
    return math.exp(log_w / (2 * FIT_SPREAD * FIT_SPREAD))


def fitted_deals(
    t: Tracker, rng: random.Random, count: int, pool: int = FIT_POOL
) -> list[list[int]]:
    """``count`` deals of the unseen cards (fewer if the sampler fails) chosen from ``count *
    pool`` proposals of :func:`sample_hands` by weighted sampling without replacement, each
    proposal weighted by :func:`bid_fit` (Efraimidis and Spirakis: the largest keys
    ``u ** (1 / w)``). Without a bid to fit, the first ``count`` proposals."""
    if pool <= 1 or all(b < 0 for s, b in enumerate(t.bids) if s != t.seat):
        return [h for h in (sample_hands(t, rng) for _ in range(count)) if h is not None]
    props = [h for h in (sample_hands(t, rng) for _ in range(count * pool)) if h is not None]
    keys = []
    for h in props:
        w = bid_fit(t, h)
        u = rng.random()
        keys.append(u ** (1 / w) if w > 0 else 0.0)
    kept = sorted(range(len(props)), key=lambda i: (-keys[i], i))[:count]
    return [props[i] for i in sorted(kept)]
