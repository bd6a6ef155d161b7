"""Dealing the unseen cards consistently with what a seat knows, for Hard's searches.

A seat sees its own hand and what has been played; the other 39 (or fewer) cards are dealt
to the other seats with their hand sizes and shown voids respected, the high cards leaning
towards players who bid high and away from a nil bidder. Hard's card search, its bid
simulation (:mod:`spades.ai.hardbid`) and its exact endings (:mod:`spades.ai.endgame`) all
sample here; the module sits below them, so none of them imports another to sample.
"""

from __future__ import annotations

import random

from ..cards import FIRST_SPADE, JACK, KING, RANK_OF, SUIT_OF, numbers_of
from ..legal import NIL
from .tracker import Tracker


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
