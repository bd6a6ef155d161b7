"""Each rule of a hand (site/rules/en.html: bidding, play, breaking spades), on its own, with hands built for it."""
import pytest
from helpers import suit_deal

from spades import IllegalAction, Match
from spades.cards import mask_of, parse_card
from spades.legal import legal_mask, refusal, trick_winner


def cards(*names):
    return [parse_card(n) for n in names]


def test_every_bid_from_nil_to_thirteen():
    m = Match(seed=4)
    assert m.legal_bids() == list(range(14))
    for bad in (-1, 14, True, 3.0):
        with pytest.raises(IllegalAction) as e:
            m.bid(bad)
        assert e.value.code == "bad_bid"
    m.bid(13)
    m.bid(0)
    assert m.bids[(m.dealer + 1) % 4] == 13 and m.bids[(m.dealer + 2) % 4] == 0


@pytest.mark.parametrize("plays, winner", [
    (("KH", "AH", "2H", "QH"), 1),          # highest of the suit led
    (("KH", "AD", "2H", "QC"), 0),          # off-suit aces do not win
    (("KH", "AH", "2S", "QH"), 2),          # any spade beats the suit led
    (("KH", "3S", "2S", "AH"), 1),          # the highest spade wins
    (("4S", "AS", "KD", "2S"), 1),          # spade lead: highest spade
    (("2C", "3D", "4H", "5D"), 0),          # nobody followed: the leader wins
])
def test_trick_winner(plays, winner):
    assert trick_winner(cards(*plays)) == winner


def test_follow_suit_when_able():
    hand = mask_of(["AH", "2H", "KS", "3C"])
    assert legal_mask(hand, parse_card("5H") // 13, True) == mask_of(["AH", "2H"])
    code, message = refusal(hand, parse_card("KS"), 2, True)
    assert code == "must_follow_suit" and "follow suit" in message


def test_void_may_play_anything_including_a_spade():
    hand = mask_of(["AH", "2H", "KS", "3C"])
    assert legal_mask(hand, 1, False) == hand           # diamonds led, none held
    assert refusal(hand, parse_card("KS"), 1, False) is None


def test_spades_may_not_be_led_before_broken():
    hand = mask_of(["AH", "KS", "3C"])
    assert legal_mask(hand, None, False) == mask_of(["AH", "3C"])
    assert refusal(hand, parse_card("KS"), None, False)[0] == "spades_not_broken"
    assert legal_mask(hand, None, True) == hand


def test_a_hand_of_only_spades_may_lead_one():
    hand = mask_of(["KS", "3S"])
    assert legal_mask(hand, None, False) == hand
    assert refusal(hand, parse_card("3S"), None, False) is None


def test_card_not_in_hand():
    assert refusal(mask_of(["KS"]), parse_card("AS"), None, True)[0] == "not_in_hand"


# -- the same rules through the match ------------------------------------------------------

def bid_all(m, bids=(3, 3, 3, 3)):
    for b in bids:
        m.bid(b)


def test_bidding_starts_left_of_dealer_and_that_seat_leads():
    m = Match(seed=4, dealer=1)
    assert m.to_act == 2
    order = []
    for _ in range(4):
        order.append(m.to_act)
        m.bid(2)
    assert order == [2, 3, 0, 1]
    assert m.phase == "play" and m.to_act == 2


def test_breaking_spades_by_discard_then_leading_a_spade():
    # Seat 0 holds clubs and spades; seat 1 is void in clubs and trumps the first trick.
    deal = [
        ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "2S", "3S", "4S", "5S", "6S", "7S"],
        ["2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD", "QD", "KD", "AS"],
        ["9C", "TC", "JC", "QC", "KC", "AC", "AD", "2H", "3H", "4H", "5H", "6H", "7H"],
        ["8S", "9S", "TS", "JS", "QS", "KS", "8H", "9H", "TH", "JH", "QH", "KH", "AH"],
    ]
    m = Match(seed=1, dealer=3, deal=deal)
    bid_all(m)
    with pytest.raises(IllegalAction) as exc:
        m.play("2S")
    assert exc.value.code == "spades_not_broken" and m.legal_cards() == deal[0][:7]
    m.play("2C")
    m.play("AS")            # void in clubs: trumps, and so breaks spades
    m.play("9C")
    m.play("AH")            # void in clubs too
    assert m.spades_broken and m.tricks[-1].winner == 1 and m.to_act == 1
    m.play("2D")
    m.play("AD")
    m.play("8S")            # seat 3 trumps the diamond
    m.play("2S")            # seat 0 has no diamond either
    assert m.tricks[-1].winner == 3
    m.play("9S")            # spades are broken: leading one is now allowed
    assert m.trick.plays == ((3, "9S"),)


def test_only_spades_exception_breaks_spades():
    m = Match(seed=1, dealer=3, deal=suit_deal("SCDH"))
    bid_all(m)
    assert not m.spades_broken and m.legal_cards()[0].endswith("S")
    m.play("2S")
    assert m.spades_broken


def test_winner_leads_next_and_takes_every_trick_with_all_the_trumps():
    m = Match(seed=1, dealer=2, deal=suit_deal("CSDH"))   # seat 1 holds every spade
    bid_all(m)
    assert m.to_act == 3
    m.play("2H")
    m.play("2C")
    m.play("2S")
    m.play("2D")
    assert m.tricks[-1].winner == 1 and m.to_act == 1
    while m.hands_played == ():
        m.play(m.legal_cards()[0])
    assert m.hands_played[0].trick_winners == (1,) * 13


def test_must_follow_suit_through_the_match_names_the_rule():
    deal = [
        ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "2D", "3D", "4D", "5D", "6D", "7D"],
        ["9C", "TC", "JC", "QC", "KC", "AC", "8D", "9D", "TD", "JD", "QD", "KD", "AD"],
        ["3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH", "2S"],
        ["3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS", "2H"],
    ]
    m = Match(seed=1, dealer=3, deal=deal)
    bid_all(m)
    m.play("2C")
    before = m.to_json()
    with pytest.raises(IllegalAction) as exc:
        m.play("8D")
    assert exc.value.code == "must_follow_suit" and "follow suit" in exc.value.message
    assert m.to_json() == before
    assert m.legal_cards() == ["9C", "TC", "JC", "QC", "KC", "AC"]
