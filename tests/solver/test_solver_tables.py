"""The solver's table key and a void hand's move order, each against a plain restatement.

* the owners code of a trick start (:func:`spades.solver.table.signature`) cut by a stored depths'
  mask: two positions of one bucket share an entry exactly when the owners of each suit's top
  ``depth`` live cards agree (the partition search's promise);
* the score table's key for the tricks won per seat (:meth:`spades.solver.Solver._won_key`):
  equal keys end on equal margins however the further tricks fall, and a team without a nil
  bid is keyed by its total;
* a hand void in the suit led: its cards (one per run of touching cards) in the documented
  order — discards first when partner holds the trick (or, for the second hand, when partner
  holds the suit's card above the lead and the third hand's), else the spades that beat first,
  then discards, then the lower spades; discards go low cards of short suits first;
* hand-made positions: a second hand following suit beats the lead first; a lead forces out the
  top card with the next two, then cashes winners, then leads high into the opponents' suits.
"""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import spades.solver.memo
import spades.solver.moves
import spades.solver.quick
import spades.solver.table
from spades.cards import CARD_NAMES
from spades.legal import trick_winner
from spades.solver import Position, Solver, hand_margin
from spades.solver.memo import MEMO_SIZE, Memo
from spades.solver.moves import follow_moves, lead_moves
from spades.solver.table import signature, top_mask


def _deal(rnd: random.Random, per_hand: int) -> list[int]:
    cards = rnd.sample(range(52), 4 * per_hand)
    return [sum(1 << c for c in cards[i::4]) for i in range(4)]


def _owners_from_top(h: list[int], suit: int) -> list[int]:
    """The seat holding each live card of ``suit``, highest first (the restatement)."""
    return [s for c in range(13 * suit + 12, 13 * suit - 1, -1) for s in range(4) if h[s] >> c & 1]


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2 ** 32), st.integers(2, 13), st.lists(st.integers(0, 13), min_size=4, max_size=4))
def test_a_masked_owners_code_keeps_exactly_the_top_cards_owners(seed, per_hand, depths):
    rnd = random.Random(seed)
    h = _deal(rnd, per_hand)
    g = list(h)
    for _ in range(rnd.randrange(1, 4)):        # swap cards of one suit between two hands: same bucket
        a, b = rnd.sample(range(4), 2)
        suit = rnd.randrange(4)
        ca = [c for c in range(13 * suit, 13 * suit + 13) if g[a] >> c & 1]
        cb = [c for c in range(13 * suit, 13 * suit + 13) if g[b] >> c & 1]
        if ca and cb:
            x, y = rnd.choice(ca), rnd.choice(cb)
            g[a] ^= 1 << x | 1 << y
            g[b] ^= 1 << x | 1 << y
    bucket_h, code_h, ns = signature(h, 1, True)
    bucket_g, code_g, ns_g = signature(g, 1, True)
    assert (bucket_h, ns) == (bucket_g, ns_g)
    mask = top_mask(ns, tuple(depths))
    same_top = all(_owners_from_top(h, s)[:d] == _owners_from_top(g, s)[:d] for s, d in enumerate(depths))
    assert (code_h & mask == code_g & mask) == same_top
    assert (code_h == code_g) == (h == g)


def _void_order(h: list[int], seat: int, trick: list[int], live: int) -> list[int]:
    """A void hand's searched cards in the documented order, restated with one sort."""
    hand = h[seat]
    mine = [c for c in range(52) if hand >> c & 1]
    nxt = {c: next((d for d in range(c + 1, 13 * (c // 13) + 13) if live >> d & 1), None) for c in mine}
    reps = [c for c in mine if nxt[c] is None or not hand >> nxt[c] & 1]
    at = trick_winner(trick)
    w = trick[at]
    partner_wins = (at - len(trick)) % 4 == 2
    last = h[(seat + 1) % 4]
    suit = range(13 * (w // 13), 13 * (w // 13) + 13)
    higher = any(c > w and last >> c & 1 for c in suit)   # the next hand can beat w in its suit
    holds = not higher if w >= 39 or any(last >> c & 1 for c in suit) else not last >> 39
    third = [c for c in suit if last >> c & 1]
    mate = [c for c in suit if h[(seat + 2) % 4] >> c & 1]
    mate_beats = len(trick) == 1 and third and max(mate, default=-1) > max(w, *third)
    def low(c: int) -> int:                           # a discard: low cards of short suits first
        return c % 13 + (0 if c >= 39 else 3 * sum(hand >> d & 1 for d in range(13 * (c // 13), 13 * (c // 13) + 13)))
    if (partner_wins and (len(trick) == 3 or holds)) or mate_beats:
        return sorted(reps, key=lambda c: (c >= 39, low(c)))
    floor = w + 1 if w >= 39 else 39
    return sorted(reps, key=lambda c: (0 if c >= floor else 1 if c < 39 else 2, low(c)))


def test_a_void_hands_cards_come_in_the_documented_order():
    rnd = random.Random(5)
    checked = 0
    while checked < 400:
        per_hand = rnd.randrange(3, 14)
        h = _deal(rnd, per_hand)
        leader = rnd.randrange(4)
        n = rnd.randrange(1, 4)
        trick = []
        for i in range(n):
            s = (leader + i) % 4
            cards = [c for c in range(52) if h[s] >> c & 1]
            c = rnd.choice(cards)
            h[s] ^= 1 << c
            trick.append(c)
        seat = (leader + n) % 4
        led = trick[0] // 13
        h[seat] &= ~(0x1FFF << 13 * led)            # void in the suit led
        if not h[seat]:
            continue
        live = h[0] | h[1] | h[2] | h[3] | sum(1 << c for c in trick)
        got = list(follow_moves(h, seat, trick, trick_winner(trick), live, True, True))
        assert got == _void_order(h, seat, trick, live), (h, seat, trick)
        checked += 1


def _hands(*names: str) -> list[int]:
    return [sum(1 << CARD_NAMES.index(c) for c in hand.split()) for hand in names]


def test_a_second_hand_beats_the_lead_first_and_discards_first_when_its_partner_beats_the_third_hand():
    trick = [CARD_NAMES.index("5H")]                # seat 0 led; the second hand (seat 1) to play
    h = _hands("2C", "KH 2H 3C", "QH 3H 4C", "AH 4H 5C")
    live = h[0] | h[1] | h[2] | h[3] | 1 << trick[0]
    assert CARD_NAMES[follow_moves(h, 1, trick, 0, live, True, True)[0]] == "KH"
    h = _hands("2C", "3S 4C 6D", "QH 3H 4D", "AH 4H 5C")       # void: partner's ace beats the queen
    live = h[0] | h[1] | h[2] | h[3] | 1 << trick[0]
    assert [CARD_NAMES[c] for c in follow_moves(h, 1, trick, 0, live, True, True)] == ["4C", "6D", "3S"]
    h = _hands("2C", "3S 4C 6D", "QH 3H 4D", "JH 4H 5C")       # partner's jack does not: ruff first
    live = h[0] | h[1] | h[2] | h[3] | 1 << trick[0]
    assert [CARD_NAMES[c] for c in follow_moves(h, 1, trick, 0, live, True, True)] == ["3S", "4C", "6D"]


def test_a_lead_forces_out_the_top_with_a_sequence_then_cashes_then_leads_high_into_the_opponents_suits():
    h = _hands("AC KH QH 2H 9D 3D", "AH 5D AD 2C 3H 4H", "KC 4C 5H 6H 7D 8D", "QC 3C 6D 4D 7H 8H")
    live = h[0] | h[1] | h[2] | h[3]
    assert [CARD_NAMES[c] for c in lead_moves(h, 0, live, False, True, True)] == ["KH", "AC", "9D", "3D", "2H"]


def test_a_memo_stays_within_its_size_and_still_answers():
    made = []
    memo = Memo(lambda key: made.append(key) or key * 2)
    for key in range(MEMO_SIZE + 10):
        assert memo[key] == key * 2
        assert len(memo) <= MEMO_SIZE
    assert len(memo) == 10                          # emptied once, at the limit
    assert memo[5] == 10 and made.count(5) == 2     # made again after the emptying


SOLVER_MODULES = (spades.solver.quick, spades.solver.moves, spades.solver.table)


def test_every_cache_of_the_solver_modules_stays_within_its_size_and_the_values_do_not_change(monkeypatch):
    caches = {f"{m.__name__}.{name}": v for m in SOLVER_MODULES for name, v in vars(m).items()
              if isinstance(v, dict) and name[0] == "_" and name[1] != "_"}     # private module-level tables
    assert len(caches) == 7 and all(isinstance(v, Memo) for v in caches.values()), caches.keys()
    h = _deal(random.Random(11), 8)
    pos = Position((h[0], h[1], h[2], h[3]), (), 1, True, (3, 3, 3, 3), (2, 1, 1, 1))
    want = Solver(pos.bids).values(pos, score=False)
    small = 40
    monkeypatch.setattr(spades.solver.memo, "MEMO_SIZE", small)
    for cache in caches.values():
        cache.clear()
    assert Solver(pos.bids).values(pos, score=False) == want
    assert {name: len(v) <= small for name, v in caches.items()} == dict.fromkeys(caches, True)
    assert sum(map(len, caches.values())) > 3 * small         # the search filled them (and emptied some)


def _splits(r: int):
    """Every way the further ``r`` tricks can fall among the four seats."""
    return [(a, b, c, r - a - b - c) for a in range(r + 1) for b in range(r + 1 - a) for c in range(r + 1 - a - b)]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from([0, 0, 1, 2, 3, 4, 5, 6]), min_size=4, max_size=4), st.integers(0, 9),
       st.integers(0, 9), st.integers(6, 10), st.integers(0, 2 ** 32))
def test_equal_score_table_keys_end_on_equal_margins_and_a_team_without_nil_is_keyed_by_its_total(
        bids, bags0, bags1, played, seed):
    rnd = random.Random(seed)
    bids, bags = tuple(bids), (bags0, bags1)
    solver = Solver(bids, bags)
    wons = {tuple(rnd.choice(_splits(played))) for _ in range(16)}
    for a in wons:
        for b in wons:
            if solver._won_key(a) == solver._won_key(b):
                for extra in _splits(13 - played):
                    assert (hand_margin(bids, tuple(x + e for x, e in zip(a, extra)), bags)
                            == hand_margin(bids, tuple(x + e for x, e in zip(b, extra)), bags))
            for team in (0, 1):
                mates = (team, team + 2)
                if (0 not in (bids[team], bids[team + 2]) and a[team] + a[team + 2] == b[team] + b[team + 2]
                        and all(a[s] == b[s] for s in range(4) if s not in mates)):
                    assert solver._won_key(a) == solver._won_key(b)


def test_a_nil_bidders_own_tricks_keep_apart_in_the_score_table():
    solver = Solver((0, 3, 4, 2))
    assert solver._won_key((0, 1, 2, 1)) == solver._won_key((0, 2, 2, 0))   # team 1: two tricks either way
    assert solver._won_key((0, 1, 2, 1)) != solver._won_key((1, 1, 1, 1))   # the nil is set in one of them
