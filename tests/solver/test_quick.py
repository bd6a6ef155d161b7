"""Sure tricks (:func:`spades.solver.quick.sure_tricks_why`, :func:`spades.solver.quick.spade_tricks_why`,
:func:`spades.solver.quick.seat_spade_tricks`, :func:`spades.solver.quick.team_spade_tricks`) against
brute force.

A bound is a promise about every position that keeps the cards it rests on: the owners of
each suit's cards down to the lowest card of its mask, and every hand's suit lengths (the
partition search shares the bound with all of them). Checked on random small deals with many
spades, re-dealt below the mask, and on one hand-made position per rule.
"""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from oracles import brute

from spades.cards import CARD_INDEX, SPADE_MASK, mask_of
from spades.legal import legal_mask, trick_winner
from spades.solver.quick import (
    seat_spade_tricks,
    spade_tricks_why,
    sure_tricks_why,
    team_spade_tricks,
)


def _tricks(h: list[int], leader: int, broken: bool) -> int:
    """Team 0's tricks from a trick start, by plain minimax."""
    return brute(list(h), [], leader, broken, [0, 0, 0, 0], lambda won: won[0] + won[2])


def _redeal(rnd: random.Random, h: list[int], why: int) -> list[int]:
    """``h`` with each suit's cards below the lowest card of ``why`` in it dealt again among
    their holders (each hand keeps its suit lengths)."""
    g = list(h)
    for suit in range(4):
        cards = [c for c in range(13 * suit + 12, 13 * suit - 1, -1) if (h[0] | h[1] | h[2] | h[3]) >> c & 1]
        kept = [c for c in cards if why >> c & 1]
        free = cards[cards.index(kept[-1]) + 1:] if kept else cards
        owners = [s for c in free for s in range(4) if h[s] >> c & 1]
        rnd.shuffle(owners)
        for c, s in zip(free, owners):
            for t in range(4):
                g[t] &= ~(1 << c)
            g[s] |= 1 << c
    return g


def _check_bounds(seed: int, per_hand: int, spades: int, broken: bool, rule, redeals: int) -> None:
    """Every bound ``rule(h, leader, live, broken, target)`` gives on a random small deal holds after
    ``redeals`` re-deals of the cards below its mask."""
    rnd = random.Random(seed)
    pool = rnd.sample(range(39, 52), spades) + rnd.sample(range(39), 16)
    cards = rnd.sample(pool[:4 * per_hand + rnd.randrange(9)], 4 * per_hand)
    h = [sum(1 << c for c in cards[i::4]) for i in range(4)]
    leader = rnd.randrange(4)
    for target in range(1, per_hand + 1):
        sure = rule(h, leader, h[0] | h[1] | h[2] | h[3], broken, target)
        if sure is None:
            continue
        bound, why = sure
        for _ in range(redeals):
            value = _tricks(_redeal(rnd, h, why), leader, broken)
            assert value >= bound if bound >= target else value <= bound, (target, bound)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2 ** 32), st.integers(1, 4), st.integers(2, 11), st.booleans())
def test_a_sure_bound_holds_in_every_position_keeping_the_cards_it_rests_on(seed, per_hand, spades, broken):
    _check_bounds(seed, per_hand, spades, broken, sure_tricks_why, 2)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2 ** 32), st.integers(1, 4), st.integers(2, 11))
def test_a_sure_spade_bound_holds_in_every_position_keeping_the_cards_it_rests_on(seed, per_hand, spades):
    _check_bounds(seed, per_hand, spades, True,
                  lambda h, leader, live, _, target: spade_tricks_why(h, leader, live, target), 1)


def _hands(*names: str) -> list[int]:
    return [mask_of(n.split()) for n in names]


def _sure(h: list[int], leader: int, target: int) -> tuple[int, int] | None:
    return sure_tricks_why(h, leader, h[0] | h[1] | h[2] | h[3], True, target)


def test_the_top_two_spades_split_between_partners_win_two_unless_both_are_singletons():
    h = _hands("AS 2H 3H", "4S 4H 5H", "KS 3S 6H", "5S 7H 8H")
    assert _sure(h, 1, 2) == (2, mask_of(["AS", "KS"]))
    crash = _hands("AS 2H 3H", "4S 8H 9H", "KS 4H 5H", "5S TH JH")
    assert _sure(crash, 1, 2) == (1, mask_of(["JH", "TH"]))   # not two: West's hearts bound team 0 instead
    assert _sure(crash, 1, 1) == (1, mask_of(["AS"]))
    assert _tricks(crash, 1, True) == 1          # East leads a spade: the ace and king fall together


def test_a_team_whose_opponents_hold_no_spade_wins_a_trick_with_each_spade_of_its_longer_hand():
    h = _hands("2S 3S 4S 2H", "AH KH QH JH", "5S 3H 4H 5H", "AD KD QD JD")
    assert _sure(h, 1, 3) == (3, 0)
    assert _sure(h, 1, 4) == (3, mask_of(["AH"]))           # East cashes the ace: team 0 takes three at most


def test_the_defenders_sure_tricks_bound_the_leaders_team_from_above():
    h = _hands("2S 2H 3H", "AS KS 2D", "4H 5H 6H", "3D 4D 5D")
    assert _sure(h, 0, 2) == (1, mask_of(["AS", "KS"]))     # East's two spades: team 0 takes one at most
    assert _sure(h, 0, 1) is None


def test_partner_cashes_its_winners_after_a_low_lead_to_one_of_them():
    h = _hands("2H 2D 3D 4D", "3H 5D 6D 7D", "AH KH AC KC", "4H 5H 2C 3C")
    assert _sure(h, 0, 4) == (4, mask_of(["AH", "KH", "AC", "KC"]))
    no_entry = _hands("2S 2D 3D 4D", "3H 5D 6D 7D", "AH KH AC KC", "4H 5H 2C 3C")
    assert _sure(no_entry, 0, 2) is None
    assert _tricks(h, 0, True) == 4


def test_the_leader_cashes_its_winners_besides_partners_top_spades():
    h = _hands("AH KH 2D 3D", "3H 4H 4D 5D", "AS KS 2C 3C", "5H 6H 4C 5S")
    assert _sure(h, 0, 2) == (2, mask_of(["AS", "KS"]))      # the run alone rests on fewer cards
    assert _sure(h, 0, 4) == (4, mask_of(["AH", "KH", "AS", "KS"]))


def _spade_sure(h: list[int], leader: int, target: int) -> tuple[int, int] | None:
    return spade_tricks_why(h, leader, h[0] | h[1] | h[2] | h[3], target)


def test_when_the_leaders_need_every_trick_a_spade_sitting_after_the_higher_ones_takes_one():
    h = _hands("AS 2H 3H", "KS 2S 4H", "QS 5H 6H", "7H 8H 9H")
    assert _sure(h, 0, 3) is None
    assert _spade_sure(h, 0, 3) == (2, mask_of(["AS", "KS"]))    # East ducks the ace, then the king wins
    assert _spade_sure(h, 0, 2) is None                         # only when team 0 needs all three
    assert _tricks(h, 0, True) == 1
    bare = _hands("AS 2H 3H", "KS 3D 4H", "QS 5H 6H", "7H 8H 9H")
    assert _spade_sure(bare, 0, 3) is None                      # a bare king cannot duck
    after = _hands("AS 7S KD", "TS 3H QD", "JS 9S AC", "QS 5S 2D")
    assert _spade_sure(after, 1, 3) is None                     # West's queen sits before the ace
    assert _tricks(after, 1, True) == 3
    leading = _hands("6S 2H 5D", "AS QS TS", "JS 9S 5S", "8S TH 6H")
    assert _spade_sure(leading, 2, 1) is None                   # South must lead: its spades are drawn
    assert _tricks(leading, 2, True) == 0


def test_a_hands_spades_take_as_many_tricks_as_they_outnumber_the_higher_ones_of_the_other_side():
    h = _hands("AS 2H 3H 4H", "5H 6H 7H 8H", "2S 9H TH JH", "KS QS JS 2D")
    assert _spade_sure(h, 0, 3) == (2, mask_of(["AS", "KS", "QS", "JS"]))   # West's three against one: two
    assert _spade_sure(h, 0, 4) == (3, mask_of(["AS", "KS", "QS"]))         # one already with the queen
    assert _spade_sure(h, 0, 2) is None
    assert _tricks(h, 0, True) == 1


def _fewest_own(h: list[int], trick: list[int], leader: int, broken: bool, seats: tuple[int, ...]) -> int:
    """The fewest further tricks ``seats`` (one seat, or a team) can end up taking, over every
    legal play (the trick on the table included)."""
    to_act = (leader + len(trick)) % 4
    if not h[to_act]:
        return 0
    legal = legal_mask(h[to_act], trick[0] // 13 if trick else None, broken)
    best = 13
    for c in range(52):
        if legal >> c & 1:
            g = list(h)
            g[to_act] ^= 1 << c
            t = trick + [c]
            if len(t) == 4:
                w = (leader + trick_winner(t)) % 4
                best = min(best, (w in seats) + _fewest_own(g, [], w, broken or c >= 39, seats))
            else:
                best = min(best, _fewest_own(g, t, leader, broken or c >= 39, seats))
    return best


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2 ** 32), st.integers(1, 3), st.integers(3, 11))
def test_each_seat_takes_its_sure_spade_tricks_itself_in_every_position_keeping_their_cards(seed, per_hand, spades):
    rnd = random.Random(seed)
    pool = rnd.sample(range(39, 52), spades) + rnd.sample(range(39), 12)
    cards = rnd.sample(pool[:4 * per_hand + rnd.randrange(5)], 4 * per_hand)
    h = [sum(1 << c for c in cards[i::4]) for i in range(4)]
    least, why = seat_spade_tricks(h, h[0] | h[1] | h[2] | h[3])
    g = _redeal(rnd, h, why)
    leader = rnd.randrange(4)
    for seat in range(4):
        assert _fewest_own(g, [], leader, True, (seat,)) >= least[seat]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2 ** 32), st.integers(1, 3), st.integers(3, 11), st.integers(0, 3))
def test_a_team_takes_its_sure_spade_tricks_from_any_moment_of_a_trick_whatever_the_side_cards(seed, per_hand, spades, played):
    # the margin search's bounds on the totals any play can reach (their relevance: every spade)
    rnd = random.Random(seed)
    pool = rnd.sample(range(39, 52), spades) + rnd.sample(range(39), 12)
    cards = rnd.sample(pool[:4 * per_hand + rnd.randrange(5)], 4 * per_hand)
    h = [sum(1 << c for c in cards[i::4]) for i in range(4)]
    leader = rnd.randrange(4)
    trick: list[int] = []
    for i in range(played):
        seat = (leader + i) % 4
        legal = legal_mask(h[seat], trick[0] // 13 if trick else None, True)
        c = rnd.choice([c for c in range(52) if legal >> c & 1])
        h[seat] ^= 1 << c
        trick.append(c)
    for side in (0, 1):
        sure = team_spade_tricks(h, trick, leader, side)
        g = _redeal(rnd, h, (h[0] | h[1] | h[2] | h[3]) & SPADE_MASK)
        assert team_spade_tricks(g, trick, leader, side) == sure
        assert _fewest_own(g, trick, leader, True, (side, side + 2)) >= sure


def test_a_team_is_sure_of_its_spades_that_outnumber_the_other_sides_higher_ones_the_tables_too():
    # North's K Q 9 against West's A J and East's T: the 9 takes one of three (two above it);
    # with West's ace on the table before North, the king is beaten there and the queen wins
    h = _hands("2H 3H 4H", "AS JS 5H", "KS QS 9S", "TS 6H 7H")
    assert team_spade_tricks(h, [], 0, 0) == 1
    assert _fewest_own(h, [], 0, True, (0, 2)) == 1
    assert team_spade_tricks(h, [], 0, 1) == 1
    h[1] ^= mask_of(["AS"])                              # West led its ace: still one
    assert team_spade_tricks(h, [CARD_INDEX["AS"]], 1, 0) == 1
    assert _fewest_own(h, [CARD_INDEX["AS"]], 1, True, (0, 2)) == 1
    h = _hands("2H 3H 4H", "AS JS 5H", "9S 2C 3C", "TS 6H 7H")
    assert team_spade_tricks(h, [], 0, 0) == 0         # the 9 alone, below A, J and T
    assert _fewest_own(h, [], 0, True, (0, 2)) == 0


def test_a_seat_is_sure_of_the_spades_that_outnumber_all_other_hands_higher_ones():
    h = _hands("AS 2H 3H 4H", "KS QS JS 2D", "2S 5H 6H 7H", "3S 8H 9H TH")
    assert seat_spade_tricks(h, h[0] | h[1] | h[2] | h[3]) == ((1, 2, 0, 0), mask_of(["AS", "KS", "QS", "JS"]))
    assert _fewest_own(h, [], 0, True, (1,)) == 2


def test_a_guarded_spade_sitting_over_the_top_ones_wins_the_defence_a_trick():
    h = _hands("AS AH KH", "KS 2S 4H", "5H 6H 7H", "8H 9H TH")
    assert _spade_sure(h, 0, 3) == (2, mask_of(["AS", "KS"]))     # East plays after the ace: team 0 loses one
    assert _spade_sure(h, 2, 3) == (2, mask_of(["AS", "KS"]))     # led by the ace's partner too
    assert _tricks(h, 0, True) == 2
    deep = _hands("AS KS AH", "QS 3S 2S", "5H 6H 7H", "8H 9H TH")
    assert _spade_sure(deep, 0, 3) == (2, mask_of(["AS", "KS", "QS"]))
    assert _tricks(deep, 0, True) == 2
    short = _hands("AS KS AH", "QS 3S 4H", "5H 6H 7H", "8H 9H TH")     # the queen falls under the ace and king
    assert _sure(short, 0, 3) == (3, mask_of(["AS", "KS", "AH"]))    # the spades and the heart ace cashed
    assert _tricks(short, 0, True) == 3
    finesse = _hands("AS QS AH", "4H 5H 6H", "3S 8H 9H", "KS 2S TH")   # West plays before the ace
    assert _sure(finesse, 2, 3) is None and _spade_sure(finesse, 2, 3) is None
    assert _tricks(finesse, 2, True) == 3
