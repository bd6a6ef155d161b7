"""Independent oracles for the double-dummy solver's tests and benchmarks.

* :func:`brute_values` — a plain brute-force minimax (every card, no pruning; identical trick starts reused), by
  the hand's points or :func:`match_margin` (a computer player's match value);
* :func:`endplay_tricks` — the ``endplay`` package (bridge DDS, spades as trump), which
  agrees with Spades trick-taking once spades are broken;
* :func:`random_match` — positions reached by random legal play.

Shared by ``tests/test_solver.py``, ``tests/test_analysis.py`` and ``tools/check_solver_endplay.py``
(test modules do not import each other).
"""
from __future__ import annotations

import random

import spades
from spades.cards import CARD_NAMES
from spades.legal import legal_mask, trick_winner
from spades.scoring import match_winner, score_team
from spades.solver import Position


def score_margin(bids, won, bags) -> int:
    """Team 0's hand points minus team 1's, straight from the rules' scoring function."""
    a = score_team(0, (bids[0], bids[2]), (won[0], won[2]), 0, bags[0]).delta
    b = score_team(1, (bids[1], bids[3]), (won[1], won[3]), 0, bags[1]).delta
    return a - b


def match_margin(bids, won, bags, bag_value: int, scores, win_bonus: int) -> int:
    """Team 0's valued margin as a computer player counts it (spades.solver.MatchValue), straight
    from the scoring function's breakdown: each bag ``bag_value`` points and no penalty, and
    ``win_bonus`` for the team whose real points end the match."""
    real, valued = [], []
    for team in (0, 1):
        ts = score_team(team, (bids[team], bids[team + 2]), (won[team], won[team + 2]), 0, bags[team])
        real.append(scores[team] + ts.delta)
        valued.append(ts.delta - ts.penalty_points - ts.bags + ts.bags * bag_value)
    margin = valued[0] - valued[1]
    winner = match_winner((real[0], real[1]))
    if winner is not None:
        margin += win_bonus if winner == 0 else -win_bonus
    return margin


def brute(hands, trick, leader, broken, won, value, memo=None):
    """Minimax over every legal card; ``value(won)`` scores the end; team 0 maximises.

    No pruning and no bounds: a trick start reached again by another order of the same cards
    (the same hands, leader, broken spades and tricks won) reuses that identical state's value
    (``memo``, one per call from outside), which keeps the oracle exact and makes it fast
    enough for four-card hands."""
    if memo is None:
        memo = {}
    key = None
    if not trick:
        key = (tuple(hands), leader, broken, tuple(won))
        if key in memo:
            return memo[key]
    seat = (leader + len(trick)) % 4
    if not hands[seat]:
        return value(won)
    legal = legal_mask(hands[seat], trick[0] // 13 if trick else None, broken)
    results = []
    for c in range(52):
        if not legal >> c & 1:
            continue
        h = list(hands)
        h[seat] ^= 1 << c
        t = trick + [c]
        if len(t) == 4:
            w = (leader + trick_winner(t)) % 4
            new_won = list(won)
            new_won[w] += 1
            results.append(brute(h, [], w, broken or c >= 39, new_won, value, memo))
        else:
            results.append(brute(h, t, leader, broken or c >= 39, won, value, memo))
    best = max(results) if seat % 2 == 0 else min(results)
    if key is not None:
        memo[key] = best
    return best


def brute_values(pos: Position, score=None) -> dict[str, tuple[int, int]]:
    """Each legal card → (team 0's further tricks, acting team's margin), by brute force;
    ``score(won)``: team 0's margin for the final tricks per seat (default: the hand's points)."""
    seat = pos.to_act
    legal = legal_mask(pos.hands[seat], pos.trick[0] // 13 if pos.trick else None, pos.broken)
    out = {}
    for c in range(52):
        if legal >> c & 1:
            h = list(pos.hands)
            h[seat] ^= 1 << c
            trick = list(pos.trick) + [c]
            start = sum(pos.won[0::2])
            args = (h, trick, pos.leader, pos.broken or c >= 39)
            if len(trick) == 4:
                w = (pos.leader + trick_winner(trick)) % 4
                won = list(pos.won)
                won[w] += 1
                args = (h, [], w, pos.broken or c >= 39)
            else:
                won = list(pos.won)
            tricks = brute(*args, won, lambda wn: wn[0] + wn[2]) - start
            margin = brute(*args, won, score or (lambda wn: score_margin(pos.bids, wn, pos.bags)))
            out[CARD_NAMES[c]] = (tricks, margin if seat % 2 == 0 else -margin)
    return out


def random_match(rnd: random.Random, tricks_left: int, extra: int = 0, bids=(0, 1, 2, 3, 4, 5)) -> spades.Match:
    """A match part-way through a hand, reached by random legal play."""
    m = spades.Match(seed=rnd.getrandbits(32), bags=(rnd.randrange(10), rnd.randrange(10)))
    for _ in range(4):
        m.bid(rnd.choice(bids))
    for _ in range((13 - tricks_left) * 4 + extra):
        m.play(rnd.choice(m.legal_cards()))
    return m


def broken_position(rnd: random.Random, tricks_left: int) -> Position:
    """A random position with ``tricks_left`` tricks to go where spades are broken (drawn again
    until they are; on a full deal they are declared broken), so that bridge DDS agrees."""
    while True:
        m = random_match(rnd, tricks_left, extra=rnd.randrange(4) if tricks_left < 13 else 0)
        pos = Position.from_match(m)
        if pos.broken:
            return pos
        if tricks_left == 13:
            return Position(pos.hands, pos.trick, pos.leader, True, pos.bids, pos.won, pos.bags)


def _pbn(pos: Position) -> str:
    """The remaining hands (with the trick's cards back in them) as a PBN deal, North first."""
    hands = list(pos.hands)
    for i, c in enumerate(pos.trick):
        hands[(pos.leader + i) % 4] |= 1 << c
    out = []
    for seat in (2, 3, 0, 1):                       # N E S W
        suits = []
        for suit in (3, 2, 1, 0):                   # S H D C
            suits.append("".join("23456789TJQKA"[r] for r in range(12, -1, -1) if hands[seat] >> (suit * 13 + r) & 1))
        out.append(".".join(suits))
    return "N:" + " ".join(out)


def endplay_tricks(pos: Position) -> dict[str, int]:
    """DDS trick counts for each legal card: further tricks (current one included) for the acting team."""
    from endplay.dds import solve_board
    from endplay.types import Deal, Denom, Player

    deal = Deal(_pbn(pos))
    deal.trump = Denom.spades
    deal.first = (Player.south, Player.west, Player.north, Player.east)[pos.leader]
    for c in pos.trick:
        deal.play(CARD_NAMES[c][1] + CARD_NAMES[c][0])
    return {"23456789TJQKA"[card.rank.value.bit_length() - 3] + card.suit.name[0].upper(): tricks
            for card, tricks in solve_board(deal)}
