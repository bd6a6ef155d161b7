"""The double-dummy solver against independent oracles.

* a plain brute-force minimax (``tests/oracles.py``: every card, no pruning, no tables), on random
  positions with at most 4 tricks left: both the trick value and the score value;
* the ``endplay`` package (bridge DDS, spades as trump) on deals where spades are already
  broken — there Spades and bridge trick-taking coincide. Skipped with a reason when
  endplay cannot be imported: 240 positions with 5 and 9 tricks left by default (300, and 60 full
  deals, under ``SPADES_SLOW_TESTS=1``); ``tools/check_solver_endplay.py`` runs the larger counts.
"""
from __future__ import annotations

import dataclasses
import random

import pytest
from helpers import loop_count
from oracles import (
    broken_position,
    brute_values,
    endplay_tricks,
    match_margin,
    random_match,
    score_margin,
)

import spades
from spades.cards import CARD_INDEX, mask_of
from spades.solver import (
    CardValue,
    MatchValue,
    NotFinished,
    Position,
    Solver,
    SolverError,
    solve,
    solve_position,
)

BRUTE_POSITIONS = 50
# tricks left → positions checked (loop_count: default run, thorough run); a position with 9 tricks
# left costs about ten times one with 5; full deals (13 tricks left, 1–60 s of CPU each in pure
# Python) are the slow test below and tools/check_solver_endplay.py --full
ENDPLAY_POSITIONS = {9: loop_count(50, 110), 5: 190}
ENDPLAY_FULL_DEALS = 60


# -- agreement with brute force -----------------------------------------------------------

def test_agrees_with_brute_force_on_small_positions():
    rnd = random.Random(12)
    checked = 0
    for i in range(BRUTE_POSITIONS):
        m = random_match(rnd, rnd.choice((1, 2, 3, 4)), extra=rnd.randrange(4))
        pos = Position.from_match(m)
        got = solve(m)
        want = brute_values(pos)
        assert set(got) == set(want) == set(m.legal_cards())
        left = len(m.hand(m.to_act))
        for card, (tricks, margin) in want.items():
            assert got[card].tricks == (tricks, left - tricks), (i, card)
            assert got[card].margin == margin, (i, card)
        checked += 1
    assert checked == BRUTE_POSITIONS


def test_match_value_agrees_with_brute_force_on_small_positions():
    # bags at -9 points each and no penalty, and 600 for the team the hand's real points make
    # the winner (scores near the target, so the bonus often decides)
    rnd = random.Random(21)
    bonus_seen = 0
    for i in range(30):
        m = random_match(rnd, rnd.choice((2, 3, 4)), extra=rnd.randrange(4))
        pos = Position.from_match(m)
        scores = (rnd.choice((0, 440, 480)), rnd.choice((0, 450, 490)))
        value = MatchValue(-9, scores, 600)
        got = Solver(pos.bids, pos.bags, value).values(pos)
        want = brute_values(pos, lambda wn, pos=pos, scores=scores: match_margin(pos.bids, wn, pos.bags, -9, scores, 600))
        for card, (tricks, margin) in want.items():
            v = got[CARD_INDEX[card]]
            assert v.tricks[0] == tricks and v.margin == margin, (i, card, v, margin)
            bonus_seen += abs(margin) >= 300
    assert bonus_seen


def test_a_node_limit_stops_the_search_at_the_same_count_every_time():
    rnd = random.Random(5)
    m = random_match(rnd, 7)
    pos = Position.from_match(m)
    full = Solver(pos.bids, pos.bags)
    values = full.values(pos)
    counts = []
    for _ in range(2):
        s = Solver(pos.bids, pos.bags)
        s.node_limit = full.nodes // 2
        with pytest.raises(NotFinished):
            s.values(pos)
        counts.append(s.nodes)
    assert counts[0] == counts[1] < full.nodes
    s = Solver(pos.bids, pos.bags)
    s.node_limit = full.nodes
    assert s.values(pos) == values                       # enough nodes: the same answer


def test_whole_position_values_are_the_best_card_values():
    rnd = random.Random(8)
    for _ in range(30):
        m = random_match(rnd, rnd.choice((2, 3, 4)), extra=rnd.randrange(4))
        pos = Position.from_match(m)
        cards = solve_position(pos).values()
        pick = max if pos.to_act % 2 == 0 else min
        sign = 1 if pos.to_act % 2 == 0 else -1
        assert Solver(pos.bids, pos.bags).tricks(pos) == pick(v.tricks[0] for v in cards)
        assert Solver(pos.bids, pos.bags).margin(pos) == pick(sign * v.margin for v in cards)


def test_trick_value_with_each_technique_switched_off_agrees():
    rnd = random.Random(5)
    for _ in range(10):
        m = random_match(rnd, 5, extra=rnd.randrange(4))
        pos = Position.from_match(m)
        full = solve_position(pos)
        for switch in ("use_tt", "use_quick", "use_order", "use_equiv", "use_by_tricks", "use_partition", "use_low"):
            s = Solver(pos.bids, pos.bags)
            setattr(s, switch, False)
            assert solve_position(pos, solver=s) == full, switch


def test_low_cards_shown_alike_by_relevance_change_no_value():
    # use_low skips a card lying below every card of its suit that a searched sibling's bound
    # rests on: checked deeper than the switch test above, trick and score values (nils too)
    rnd = random.Random(71)
    skipped = 0
    for _ in range(8):
        m = random_match(rnd, rnd.choice((7, 8)), extra=rnd.randrange(4), bids=(0, 2, 3, 4))
        pos = Position.from_match(m)
        plain, low = Solver(pos.bids, pos.bags), Solver(pos.bids, pos.bags)
        plain.use_low = False
        assert solve_position(pos, solver=low) == solve_position(pos, solver=plain)
        skipped += low.nodes < plain.nodes
    assert skipped >= 5            # the skip does happen on most of these positions


@pytest.mark.parametrize("bids, bags, seed", [((0, 2, 3, 4), None, 33), ((1, 2, 3), (8, 9), 39), ((1, 2, 3), (8, 9), 111)])
def test_one_solver_reused_backwards_through_a_hand_agrees_with_fresh_exact_tables(bids, bags, seed):
    # the review's way: one solver, positions from the end of the hand back, tables shared by
    # relevance; the reference solves each position alone with exact-position tables only.
    # Nils, or (no nil, near ten bags) margin tests handed to the trick search
    rnd = random.Random(seed)
    for _ in range(2):
        m = random_match(rnd, 13, bids=bids)
        positions = []
        while m.phase == "play" and len(positions) < 52:
            pos = Position.from_match(m)
            positions.append(pos if bags is None else dataclasses.replace(pos, bags=bags))
            m.play(rnd.choice(m.legal_cards()))
        shared = Solver(positions[0].bids, positions[0].bags)
        for pos in reversed(positions[-24:]):          # the last six tricks, end first
            fresh = Solver(pos.bids, pos.bags)
            fresh.use_partition = False
            assert solve_position(pos, solver=shared) == solve_position(pos, solver=fresh)


def test_points_pass_given_the_tricks_pass_agrees_with_a_fresh_solve():
    # the review's way: tricks first, then points with the tricks already known (not searched
    # again); a nil bid makes the margin a search of its own
    rnd = random.Random(44)
    for _ in range(12):
        m = random_match(rnd, rnd.choice((3, 4, 5)), extra=rnd.randrange(4), bids=(0, 3, 3, 4))
        pos = Position.from_match(m)
        solver = Solver(pos.bids, pos.bags)
        tricks = solver.values(pos, score=False)
        assert all(v.margin is None for v in tricks.values())
        both = solver.values(pos, score=True, known=tricks)
        assert both == Solver(pos.bids, pos.bags).values(pos, score=True)
        assert {c: v.tricks for c, v in both.items()} == {c: v.tricks for c, v in tricks.items()}


def test_score_value_follows_tricks_only_without_nils_and_without_a_falling_bag_penalty():
    m = random_match(random.Random(21), 13)
    pos = Position.from_match(m)
    plain = Position(pos.hands, (), pos.leader, False, (3, 3, 3, 3), bags=(0, 0))
    f = Solver(plain.bids, plain.bags).margin_by_tricks(plain)
    assert f == [score_margin((3, 3, 3, 3), (t, 13 - t, 0, 0), (0, 0)) for t in range(14)]
    with_nil = Position(pos.hands, (), pos.leader, False, (0, 3, 3, 3))
    assert Solver(with_nil.bids).margin_by_tricks(with_nil) is None
    # team 0 on 9 bags: its first overtrick costs a 100-point penalty, so tricks and margin part
    bagged = Position(pos.hands, (), pos.leader, False, (3, 3, 3, 3), bags=(9, 0))
    assert Solver(bagged.bids, bagged.bags).margin_by_tricks(bagged) is None


class _CountingSolver(Solver):
    """A solver that counts the margin tests it hands to the trick search."""

    handed = 0

    def _by_tricks(self, v: int) -> bool | None:
        answer = super()._by_tricks(v)
        self.handed += answer is not None
        return answer


def test_margin_tests_handed_to_the_trick_search_agree_with_brute_force_and_the_margin_search_alone():
    # both teams near ten bags and low bids: an overtrick's penalty and a set are in reach, so
    # margins fall as tricks rise somewhere; the margin search hands a test to the trick search
    # only where the totals scoring enough are the top of those any play reaches
    rnd = random.Random(58)
    handed = 0
    for i in range(16):
        small = i % 2 == 0
        m = random_match(rnd, rnd.choice((3, 4)) if small else 6, extra=rnd.randrange(4), bids=(1, 2, 3))
        p = Position.from_match(m)
        pos = Position(p.hands, p.trick, p.leader, p.broken, p.bids, p.won, (rnd.choice((7, 8, 9)), rnd.choice((7, 8, 9))))
        solver = _CountingSolver(pos.bids, pos.bags)
        got = solve_position(pos, solver=solver)
        handed += solver.handed
        if small:
            want = brute_values(pos)
            assert {c: (v.tricks[0], v.margin) for c, v in got.items()} == want, i
        else:
            alone = Solver(pos.bids, pos.bags)
            alone.use_by_tricks = False
            assert got == solve_position(pos, solver=alone), i
    assert handed >= 20


def test_nil_bidder_can_be_kept_off_tricks_in_a_known_ending():
    # One trick left: South (nil) holds the 2 of clubs, West leads the ace of clubs.
    hands = (mask_of(["2C"]), mask_of(["AC"]), mask_of(["3C"]), mask_of(["4C"]))
    pos = Position(hands, (), 1, True, (0, 4, 4, 4), (0, 4, 4, 4))
    values = solve_position(pos)
    assert list(values) == ["AC"]
    assert values["AC"].tricks == (0, 1)
    margin = score_margin((0, 4, 4, 4), (0, 5, 4, 4), (0, 0))
    assert values["AC"].margin == -margin


# -- refusals -------------------------------------------------------------------------------

def test_refuses_a_card_twice():
    m = random_match(random.Random(1), 13)
    pos = Position.from_match(m)
    bad = Position((pos.hands[0], pos.hands[1] | (pos.hands[0] & -pos.hands[0]), pos.hands[2], pos.hands[3]),
                   (), pos.leader, False, pos.bids)
    with pytest.raises(SolverError) as e:
        solve_position(bad)
    assert e.value.code == "card_twice"


def test_refuses_wrong_counts():
    m = random_match(random.Random(2), 13)
    pos = Position.from_match(m)
    h = pos.hands[0]
    bad = Position((h ^ (h & -h), pos.hands[1], pos.hands[2], pos.hands[3]), (), pos.leader, False, pos.bids)
    with pytest.raises(SolverError) as e:
        solve_position(bad)
    assert e.value.code == "wrong_counts"


def test_refuses_a_match_outside_play():
    m = spades.Match(seed=4)
    with pytest.raises(SolverError) as e:
        solve(m)
    assert e.value.code == "not_play_phase"


def test_refuses_a_match_played_with_house_rules():
    m = spades.Match(seed=3, rules="jokers")
    for _ in range(4):
        m.bid(3)
    with pytest.raises(SolverError) as info:
        solve(m)
    assert info.value.code == "unsupported_rules"


def test_refuses_unbroken_spades_after_a_spade_was_played():
    rnd = random.Random(3)
    m = random_match(rnd, 4)
    while not m.spades_broken:
        m = random_match(rnd, 4)
    pos = Position.from_match(m)
    bad = Position(pos.hands, pos.trick, pos.leader, False, pos.bids, pos.won, pos.bags)
    with pytest.raises(SolverError) as e:
        solve_position(bad)
    assert e.value.code == "bad_position"


# -- agreement with endplay (bridge DDS) ------------------------------------------------------

@pytest.mark.parametrize("tricks_left", sorted(ENDPLAY_POSITIONS))
def test_agrees_with_endplay_where_spades_are_broken(tricks_left):
    _agree_with_endplay(tricks_left, ENDPLAY_POSITIONS[tricks_left])


@pytest.mark.slow
def test_agrees_with_endplay_on_full_deals():
    _agree_with_endplay(13, ENDPLAY_FULL_DEALS)


def _agree_with_endplay(tricks_left: int, count: int) -> None:
    """Every legal card's further tricks equal DDS's on ``count`` random positions with spades broken."""
    pytest.importorskip("endplay", reason="endplay (bridge DDS) is not installed: pip install endplay")
    rnd = random.Random(100 + tricks_left)
    checked = 0
    while checked < count:
        pos = broken_position(rnd, tricks_left)
        ours = solve_position(pos, score=False)
        theirs = endplay_tricks(pos)
        team = pos.to_act & 1
        assert {c: v.tricks[team] for c, v in ours.items()} == theirs
        checked += 1
    assert checked == count


def test_value_type():
    v = CardValue((3, 1), -20)
    assert (v.tricks, v.margin) == ((3, 1), -20)
