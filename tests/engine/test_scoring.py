"""Every worked example of the rules page (site/rules/en.html), each as its own test."""
import pytest

from spades.scoring import match_winner, score_team

# (bids of the two partners, tricks of each, starting bags) → (hand score, bags after).
# A team contract written as one number ("5") is split between the partners; only the sum counts.
WORKED_EXAMPLES = {
    # The rules reference prints +72 for this row, which contradicts its own rule (+10 × 7, +1 per
    # overtrick = 71) and its own bag column (1 bag = 1 point). We follow the rule: 71.
    "4+3 take 8": ((4, 3), (5, 3), 0, 71, 1),
    "4+3 take 7": ((4, 3), (4, 3), 0, 70, 0),
    "4+3 take 6": ((4, 3), (3, 3), 0, -70, 0),
    "nil made + 4 takes 5": ((0, 4), (0, 5), 0, 141, 1),
    "nil takes 2 + 3 takes 3": ((0, 3), (2, 3), 0, -68, 2),
    "nil takes 2 + 3 takes 1": ((0, 3), (2, 1), 0, -128, 2),
    "double nil, both made": ((0, 0), (0, 0), 0, 200, 0),
    "double nil, one takes 1": ((0, 0), (1, 0), 0, 1, 1),
    "5 with 8 bags, takes 8": ((3, 2), (5, 3), 8, -47, 1),
    "2 with 9 bags, takes 13": ((1, 1), (13, 0), 9, -169, 0),
}


@pytest.mark.parametrize("bids, tricks, bags_before, points, bags_after",
                         list(WORKED_EXAMPLES.values()), ids=list(WORKED_EXAMPLES))
def test_worked_example(bids, tricks, bags_before, points, bags_after):
    s = score_team(0, bids, tricks, 0, bags_before)
    assert s.delta == points
    assert s.bags_after == bags_after
    assert s.score_after == points


def test_overtrick_is_one_point_and_one_bag():
    made_exactly = score_team(0, (4, 3), (4, 3))
    one_over = score_team(0, (4, 3), (5, 3))
    assert one_over.delta - made_exactly.delta == 1 == one_over.bags


def test_nil_tricks_never_count_toward_the_partner():
    s = score_team(1, (0, 3), (2, 1), 0, 0)
    assert s.contract == 3 and s.contract_tricks == 1 and not s.made
    assert s.nils[0].seat == 1 and not s.nils[0].made and s.nil_bags == 2


def test_set_contract_earns_no_bags_from_its_own_tricks():
    s = score_team(0, (4, 3), (3, 3), 0, 5)
    assert s.bags == 0 and s.bags_after == 5


def test_two_penalties_in_one_hand():
    s = score_team(0, (1, 1), (13, 0), 100, 9)
    assert s.bags == 11 and s.penalties == 2 and s.penalty_points == -200
    assert s.score_after == 100 + 20 + 11 - 200


MATCH_END = {
    "480/300 → 520/330: team 0 wins": ((520, 330), 0),
    "490/495 → 510/530: team 1 wins": ((510, 530), 1),
    "−150/200 → −210/230: team 1 wins": ((-210, 230), 1),
    "500/500: play on": ((500, 500), None),
}


@pytest.mark.parametrize("scores, winner", list(MATCH_END.values()), ids=list(MATCH_END))
def test_match_end_example(scores, winner):
    assert match_winner(scores) == winner


@pytest.mark.parametrize("scores", [(0, 0), (499, -199), (-199, 499), (250, 250)])
def test_match_goes_on_inside_the_bounds(scores):
    assert match_winner(scores) is None


def test_floor_ends_the_match_for_the_other_team():
    assert match_winner((-200, -150)) == 1
    assert match_winner((-300, -250)) == 1
    assert match_winner((-200, -200)) is None
