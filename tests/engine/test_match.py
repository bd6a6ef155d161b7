"""The match state machine: phases, turns, refusals, history, undo, match end."""
import json

import pytest
from helpers import play_out, suit_deal

from spades import IllegalAction, Match, MatchStart
from spades.scoring import score_team
from spades.start import SCORE_LIMIT


def test_a_new_match_is_bidding_left_of_a_drawn_dealer():
    m = Match(seed=3)
    assert m.phase == "bid" and m.dealer in range(4) and m.to_act == (m.dealer + 1) % 4
    assert m.legal_bids() == list(range(14)) and m.legal_cards() == []
    assert m.scores == (0, 0) and m.bags == (0, 0) and m.winner is None and m.hand_number == 1
    assert sorted(c for s in range(4) for c in m.hand(s)) == sorted(m.dealt(0) + m.dealt(1) + m.dealt(2) + m.dealt(3))


def test_same_seed_same_dealer_and_deal():
    a, b = Match(seed="lesson-1"), Match(seed="lesson-1")
    assert a.dealer == b.dealer and all(a.hand(s) == b.hand(s) for s in range(4))
    assert a.hand(0) != Match(seed="lesson-2").hand(0)


ALL_CODES = {"not_your_turn", "wrong_phase", "match_over", "not_in_hand", "must_follow_suit",
             "spades_not_broken", "bad_bid", "bad_card", "nothing_to_undo"}


@pytest.mark.parametrize("action, code", [
    (lambda m: m.play("AS"), "wrong_phase"),
    (lambda m: m.bid(14), "bad_bid"),
    (lambda m: m.bid(-1), "bad_bid"),
    (lambda m: m.bid("3"), "bad_bid"),
    (lambda m: m.bid(True), "bad_bid"),
    (lambda m: m.bid(3, seat=(m.to_act + 1) % 4), "not_your_turn"),
    (lambda m: m.undo(), "nothing_to_undo"),
])
def test_refusals_in_bidding_leave_the_match_unchanged(action, code):
    m = Match(seed=5)
    before = m.to_json()
    with pytest.raises(IllegalAction) as exc:
        action(m)
    assert exc.value.code == code and exc.value.code in ALL_CODES and exc.value.message
    assert m.to_json() == before


def test_refusals_in_play():
    m = Match(seed=5)
    for _ in range(4):
        m.bid(2)
    before = m.to_json()
    not_mine = next(c for c in m.hand((m.to_act + 1) % 4))
    for card, code in [(not_mine, "not_in_hand"), ("XX", "bad_card"), (None, "bad_card"), ("as", "bad_card")]:
        with pytest.raises(IllegalAction) as exc:
            m.play(card)
        assert exc.value.code == code
    with pytest.raises(IllegalAction) as exc:
        m.bid(3)
    assert exc.value.code == "wrong_phase"
    with pytest.raises(IllegalAction) as exc:
        m.play(m.legal_cards()[0], seat=(m.to_act + 2) % 4)
    assert exc.value.code == "not_your_turn"
    assert m.to_json() == before


def test_a_full_hand_is_recorded_and_scored():
    m = Match(seed=8)
    for b in (3, 4, 0, 2):
        m.bid(b)
    dealer, deal = m.dealer, [m.hand(s) for s in range(4)]
    play_out(m)
    (record,) = m.hands_played
    assert record.dealer == dealer and [list(h) for h in record.deal] == deal
    assert len(record.tricks) == 13 and len(record.trick_winners) == 13
    won = [record.trick_winners.count(s) for s in range(4)]
    for team in (0, 1):
        bids = (record.bids[team], record.bids[team + 2])
        expected = score_team(team, bids, (won[team], won[team + 2]))
        assert record.scores[team] == expected
    assert record.score_delta == (record.scores[0].delta, record.scores[1].delta)
    assert m.scores == record.score_delta
    # next hand: dealt by the player to the left, bidding again
    assert m.phase == "bid" and m.dealer == (dealer + 1) % 4 and m.hand_number == 2
    assert m.bids == (None, None, None, None) and m.tricks_won == (0, 0, 0, 0)


def all_spades_hand(m, bids):
    """Seat 0 holds every spade (and so wins all 13 tricks); bid and play the hand."""
    for seat_bid in bids:
        m.bid(seat_bid)
    play_out(m)


def test_bag_penalty_through_the_match():
    m = Match(seed=1, dealer=3, deal=suit_deal("SCDH"), bags=(5, 0))
    all_spades_hand(m, (1, 1, 3, 1))           # team 0 bid 4, takes 13: 9 bags → 14 → penalty
    s = m.hands_played[0].scores[0]
    assert (s.contract, s.bags, s.penalties) == (4, 9, 1)
    assert m.scores[0] == 40 + 9 - 100 and m.bags[0] == 4
    assert m.scores[1] == -20 and m.bags[1] == 0


def test_nil_and_double_nil_through_the_match():
    m = Match(seed=1, dealer=3, deal=suit_deal("SCDH"))
    all_spades_hand(m, (13, 0, 0, 0))          # seat 0 bids 13; seats 1, 2, 3 nil, all made
    assert m.hands_played[0].score_delta == (130 + 100, 200)


def test_higher_score_wins_when_both_cross():
    m = Match(seed=1, dealer=3, deal=suit_deal("SCDH"), scores=(300, 480))
    all_spades_hand(m, (13, 0, 0, 0))          # +230 / +200 → 530 / 680
    assert m.phase == "over" and m.winner == 1 and m.to_act is None
    assert m.scores == (530, 680)
    with pytest.raises(IllegalAction) as exc:
        m.bid(3)
    assert exc.value.code == "match_over"


def test_equal_scores_over_the_target_play_on():
    m = Match(seed=1, dealer=3, deal=suit_deal("SCDH"), scores=(370, 400))
    all_spades_hand(m, (13, 0, 0, 0))          # 600 / 600: another hand
    assert m.scores == (600, 600) and m.phase == "bid" and m.winner is None


def test_falling_to_the_floor_ends_the_match():
    m = Match(seed=1, dealer=3, deal=suit_deal("SCDH"), scores=(0, -100))
    all_spades_hand(m, (1, 6, 1, 6))           # team 1 bid 12, took nothing: −120
    assert m.scores[1] == -220 and m.winner == 0


def test_undo_takes_back_actions_across_a_trick_and_redo_matches():
    m = Match(seed=21)
    for b in (2, 3, 4, 1):
        m.bid(b)
    for _ in range(6):
        m.play(m.legal_cards()[-1])
    snapshot = m.to_json()
    actions = m.actions
    m.undo(3)
    assert m.actions == actions[:-3] and len(m.tricks) == 0
    for a in actions[-3:]:
        m.act(a)
    assert m.to_json() == snapshot
    m.undo(10)
    assert m.phase == "bid" and m.actions == actions[:-10]
    with pytest.raises(IllegalAction):
        m.undo(99)


def test_view_holds_only_what_the_seat_may_know():
    m = Match(seed=2)
    for b in (3, 3, 3, 3):
        m.bid(b)
    m.play(m.legal_cards()[0])
    seat = m.to_act
    v = m.view(seat)
    assert list(v.hand) == m.hand(seat) and v.legal_cards == tuple(m.legal_cards())
    other = m.view((seat + 1) % 4)
    assert other.legal_cards == () and other.hand != v.hand
    text = json.dumps(v.to_dict())
    hidden = set(m.hand((seat + 1) % 4) + m.hand((seat + 2) % 4) + m.hand((seat + 3) % 4))
    assert not any(f'"{c}"' in text for c in hidden)
    assert v.played == m.trick.plays
    assert not any(isinstance(getattr(v, f), Match) for f in v.__dataclass_fields__)


@pytest.mark.parametrize("kwargs", [
    {"dealer": 4}, {"dealer": True}, {"dealer": 1.0}, {"dealer": -1}, {"dealer": "1"}, {"dealer": 3 + 0j},
    {"scores": (0,)}, {"scores": (600, 0)}, {"scores": (1.0, 0)}, {"scores": (True, 0)},
    {"scores": (10**100, 10**100)}, {"scores": (-10**100, -10**100)}, {"scores": (-10**5000, -10**5000)},
    {"scores": (SCORE_LIMIT + 1, SCORE_LIMIT + 1)}, {"scores": "00"},
    {"bags": (10, 0)}, {"bags": (-1, 0)}, {"bags": (0.0, 0)}, {"bags": (False, 0)},
    {"deal": [["AS"] * 13] * 4}, {"deal": [[]] * 4}, {"deal": [[1] * 13] * 4}, {"deal": "AS"},
    {"seed": 1.5}, {"seed": True}, {"seed": [1]},
], ids=lambda kw: next(iter(kw)))
def test_bad_starts_are_refused_with_a_code(kwargs):
    with pytest.raises(IllegalAction) as exc:
        Match(seed=1, **kwargs) if "seed" not in kwargs else Match(**kwargs)
    assert exc.value.code == "bad_argument" and len(exc.value.message) < 200


def test_tied_scores_within_the_limit_are_a_valid_start():
    m = Match(seed=1, scores=(SCORE_LIMIT, SCORE_LIMIT))
    assert m.scores == (SCORE_LIMIT, SCORE_LIMIT) and m.custom
    assert Match.from_json(m.to_json()) == m


@pytest.mark.parametrize("call", [
    lambda m: m.hand(5), lambda m: m.hand(-1), lambda m: m.hand(True), lambda m: m.hand(1.0),
    lambda m: m.dealt(4), lambda m: m.dealt(False), lambda m: m.view(1.0), lambda m: m.view(True),
    lambda m: m.view(3 + 0j), lambda m: m.view(10**5000), lambda m: m.bid(3, seat=1.0),
    lambda m: m.bid(3, seat=True), lambda m: m.bid(3, seat=7), lambda m: m.act(3, seat="0"),
])
def test_seats_must_be_whole_numbers_0_to_3(call):
    m = Match(seed=5)
    before = m.to_json()
    with pytest.raises(IllegalAction) as exc:
        call(m)
    assert exc.value.code == "bad_argument" and len(exc.value.message) < 200
    assert m.to_json() == before


def test_the_seat_to_act_may_name_itself():
    m = Match(seed=5)
    seat = m.to_act
    m.bid(3, seat=seat)
    assert m.bids[seat] == 3 and m.to_act == (seat + 1) % 4


def test_from_start_rebuilds_the_same_match():
    m = Match(seed=12, dealer=2)
    for b in (3, 4, 2, 3):
        m.bid(b)
    m.play(m.legal_cards()[0])
    again = Match.from_start(m.start, m.actions)
    assert again == m and again.to_json() == m.to_json() and again.start == m.start
    assert Match.from_start(MatchStart(m.start.rng, 2)) == Match(seed=12, dealer=2)
    with pytest.raises(IllegalAction) as exc:
        Match.from_start(MatchStart(m.start.rng, 2), [3, 3, 3, 3, "XX"])
    assert exc.value.code == "bad_card"
    with pytest.raises(IllegalAction) as exc:
        Match.from_start({"rng": 1})
    assert exc.value.code == "bad_argument"
    with pytest.raises(IllegalAction) as exc:
        MatchStart(2**64)
    assert exc.value.code == "bad_argument"


def test_copy_is_independent():
    m = Match(seed=9)
    m.bid(4)
    c = m.copy()
    assert c == m
    c.bid(2)
    assert c != m and m.bids.count(None) == 3


@pytest.mark.parametrize("rules", [None, "suicide", "quick"])
def test_a_blind_nil_is_refused_where_the_rules_have_none(rules):
    """1.0.0 has no blind nil: ``bid("blind")`` is refused and changes nothing (issue 30, case 5)."""
    m = Match(seed=5, rules=rules)
    before = m.actions
    with pytest.raises(IllegalAction) as refused:
        m.bid("blind")
    assert refused.value.code == "bid_not_allowed"
    assert (m.actions, m.bids, m.blind) == (before, (None,) * 4, (False,) * 4)
