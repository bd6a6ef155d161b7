"""House rules, option by option, by worked examples (the tables of README "House rules").

Each table is worked out by hand from the definitions on the rules pages, like RULES.md's.
"""
from __future__ import annotations

import json
import random

import pytest

import spades
from spades import BLIND_NIL, BadSave, IllegalAction, Match, Rules, bridge
from spades.ai import bot
from spades.cards import ALL_CARD_INDEX, DECKS
from spades.legal import ranked_winner
from spades.notation import format_hand, parse
from spades.scoring import score_team

# -- scoring ---------------------------------------------------------------------------------------

SCORING = [
    # rules, bids (nil = 0), tricks, blind, bags before, hand score, bags after
    (Rules(nil_points=50), (0, 4), (0, 5), (False, False), 0, 50 + 40 + 1, 1),
    (Rules(nil_points=50), (0, 3), (2, 3), (False, False), 0, -50 + 30 + 2, 2),
    (Rules(blind_nil=True), (0, 4), (0, 4), (True, False), 0, 200 + 40, 0),
    (Rules(blind_nil=True), (0, 4), (1, 4), (True, False), 0, -200 + 40 + 1, 1),
    (Rules(blind_nil=True), (0, 0), (0, 2), (True, False), 0, 200 - 100 + 2, 2),
    (Rules(ten_for_200=True), (6, 4), (6, 5), (False, False), 0, 200 + 1, 1),
    (Rules(ten_for_200=True), (6, 4), (5, 4), (False, False), 0, -200, 0),
    (Rules(ten_for_200=True), (7, 6), (7, 6), (False, False), 0, 200, 0),
    (Rules(ten_for_200=True), (5, 4), (5, 5), (False, False), 0, 90 + 1, 1),
    (Rules(bag_limit=5), (3, 2), (4, 3), (False, False), 3, 50 + 2 - 50, 0),
    (Rules(bag_limit=5), (2, 0), (9, 4), (False, False), 4, 20 - 100 + 11 - 150, 0),  # 15 bags: three penalties
    (Rules(bag_limit=0), (2, 0), (13, 0), (False, False), 9, 20 + 100 + 11, 20),
    (Rules(), (5, 0), (8, 0), (False, False), 8, 50 + 100 + 3 - 100, 1),
]


@pytest.mark.parametrize("rules,bids,tricks,blind,before,delta,after", SCORING)
def test_scoring_worked_examples(rules, bids, tricks, blind, before, delta, after):
    s = score_team(0, bids, tricks, 0, before, rules, blind)
    assert (s.delta, s.bags_after) == (delta, after)
    assert [n.blind for n in s.nils] == [b for b, bid in zip(blind, bids) if bid == 0]


@pytest.mark.parametrize("rules,scores,winner", [
    (Rules(target=250), (250, 100), 0),
    (Rules(target=250), (249, 100), None),
    (Rules(floor=None), (-900, 100), None),
    (Rules(floor=-100), (-100, 0), 1),
    (Rules(), (-200, 0), 1),
])
def test_end_of_match_examples(rules, scores, winner):
    assert spades.match_winner(scores, rules.target, rules.floor) == winner


# -- cards -----------------------------------------------------------------------------------------

def idx(*names: str) -> list[int]:
    return [ALL_CARD_INDEX[n] for n in names]


@pytest.mark.parametrize("deck,trick,at", [
    ("jokers", ("AS", "LJ", "BJ", "KS"), 2),
    ("jokers", ("AH", "LJ", "2S", "KH"), 1),
    ("jokers", ("KH", "AH", "3H", "QH"), 1),
    ("deuces", ("AS", "2S", "KS", "3S"), 1),
    ("deuces", ("2S", "AS", "3S", "2D"), 3),
    ("deuces", ("2D", "KD", "3S", "AD"), 0),     # 2♦ led is a spade lead; K♦ and A♦ are discards
    ("deuces", ("KD", "AD", "3D", "2D"), 3),     # 2♦ on a diamond lead is a trump
    ("deuces", ("LJ", "2D", "BJ", "AS"), 2),
])
def test_trick_winner_examples(deck, trick, at):
    d = DECKS[deck]
    assert ranked_winner(idx(*trick), d.suit_of, d.power) == at


def test_decks_hold_52_cards_with_the_named_cards_out():
    names = {d: {spades.cards.ALL_CARD_NAMES[c] for c in DECKS[d].cards} for d in DECKS}
    assert all(len(v) == 52 for v in names.values())
    assert names["jokers"] - names["standard"] == {"LJ", "BJ"} and names["standard"] - names["jokers"] == {"2C", "2D"}
    assert names["deuces"] - names["standard"] == {"LJ", "BJ"} and names["standard"] - names["deuces"] == {"2C", "2H"}


def deal_with(deck: str, south: list[str], west: list[str] | None = None) -> list[list[str]]:
    """A deal of ``deck``: South's and (optionally) West's cards given, the rest dealt in order."""
    rest = [spades.cards.ALL_CARD_NAMES[c] for c in DECKS[deck].cards if spades.cards.ALL_CARD_NAMES[c] not in south + (west or [])]
    hands = [south + rest[:13 - len(south)]]
    rest = rest[13 - len(south):]
    hands.append((west or []) + rest[:13 - len(west or [])])
    rest = rest[13 - len(west or []):]
    return hands + [rest[:13], rest[13:26]]


def test_deuces_two_of_diamonds_is_a_spade_for_following_and_breaking():
    south = ["2D", "AD", "KD", "QD", "JD", "TD", "9D", "8D", "7D", "6D", "5D", "4D", "3D"]
    west = ["3S", "AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "4H", "3H"]
    m = Match(seed=1, dealer=3, deal=deal_with("deuces", south, west), rules="deuces")
    for _ in range(4):
        m.bid(3)
    assert "2D" not in m.legal_cards()                 # not broken: 2♦ is a spade, diamonds are not
    m.play("AD")
    assert set(m.legal_cards()) == set(west)           # no diamond: anything (3♠ included)
    m.play("3S")
    assert m.spades_broken


def test_deuces_a_spade_lead_must_be_followed_by_the_two_of_diamonds():
    south = ["2D", "AD", "KD", "QD", "JD", "TD", "9D", "8D", "7D", "6D", "5D", "4D", "3D"]
    m = Match(seed=1, dealer=2, deal=deal_with("deuces", south), rules=Rules(deck="deuces", spades_any_time=True))
    for _ in range(4):
        m.bid(3)
    west = m.hand(3)
    assert m.to_act == 3
    spade = next(c for c in west if c[1] == "S" or c in ("LJ", "BJ"))
    m.play(spade)
    assert m.legal_cards() == ["2D"]
    with pytest.raises(IllegalAction) as e:
        m.play("AD")
    assert e.value.code == "must_follow_suit"


def test_spades_may_be_led_any_time():
    south = ["AS", "AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "4H", "3H"]
    for any_time, allowed in ((False, False), (True, True)):
        m = Match(seed=1, dealer=3, deal=deal_with("standard", south), rules=Rules(spades_any_time=any_time))
        for _ in range(4):
            m.bid(3)
        assert ("AS" in m.legal_cards()) is allowed


# -- bidding ---------------------------------------------------------------------------------------

def test_blind_nil_is_open_only_to_a_team_trailing_by_the_threshold():
    m = Match(seed=4, dealer=3, rules="blind-nil", scores=(0, 100))
    assert m.legal_bids()[-1] == BLIND_NIL              # seat 0 trails by 100
    m.bid(2)
    assert BLIND_NIL not in m.legal_bids()              # seat 1 leads
    m.bid(3)
    m.bid(BLIND_NIL)                                    # seat 2
    assert m.blind == (False, False, True, False) and m.bids[2] == 0
    m = Match(seed=4, dealer=3, rules="blind-nil", scores=(0, 99))
    assert BLIND_NIL not in m.legal_bids()
    m = Match(seed=4, dealer=3, rules=Rules(blind_nil=True, blind_nil_trail=0))
    m.bid(BLIND_NIL)
    m.bid(1)
    assert BLIND_NIL not in m.legal_bids()              # one blind nil a team


def test_blind_nil_is_scored_at_200_and_its_tricks_are_bags():
    m = Match(seed=9, dealer=3, rules=Rules(blind_nil=True, blind_nil_trail=0))
    m.bid(BLIND_NIL)
    for b in (3, 4, 3):
        m.bid(b)
    rng = random.Random(1)
    while not m.hands_played:
        m.play(rng.choice(m.legal_cards()))
    rec = m.hands_played[0]
    nil = rec.scores[0].nils[0]
    won = [t.winner for t in rec.tricks].count(0)
    assert (nil.seat, nil.blind, nil.points) == (0, True, 200 if won == 0 else -200)
    assert rec.scores[0].nil_bags == won and rec.blind == (True, False, False, False)


def test_suicide_bids_whoever_bids_first_chooses():
    m = Match(seed=4, dealer=3, rules="suicide")
    assert m.legal_bids() == [0, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]
    m.bid(5)                                # seat 0 covers ...
    m.bid(0)                                # seat 1 takes the nil ...
    assert m.legal_bids() == [0]            # ... so seat 2 must bid nil
    with pytest.raises(IllegalAction) as e:
        m.bid(3)
    assert e.value.code == "bid_not_allowed"
    m.bid(0)
    assert m.legal_bids() == list(range(4, 14))


@pytest.mark.parametrize("partner,allowed", [
    (1, list(range(3, 14))), (4, list(range(0, 14))), (0, list(range(4, 14))), (2, list(range(2, 14))),
])
def test_minimum_team_bid_binds_the_second_partner(partner, allowed):
    m = Match(seed=4, dealer=3, rules=Rules(min_team_bid=4))
    assert m.legal_bids() == list(range(14))
    m.bid(partner)
    m.bid(3)
    assert m.legal_bids() == allowed


# -- saves, notation, bridge -----------------------------------------------------------------------

def played(rules: str, hands: int = 1, seed: int = 5) -> Match:
    m = Match(seed=seed, rules=rules)
    bots = [bot("normal", s) for s in range(4)]
    while m.phase != "over" and len(m.hands_played) < hands:
        m.act(bots[m.to_act].choose(m.view(m.to_act)))
    return m


@pytest.mark.parametrize("name", ["jokers", "deuces", "suicide", "blind-nil", "quick"])
def test_saves_carry_the_rules(name):
    m = played(name)
    data = json.loads(m.to_json())
    assert data["variant"] == name and data["rules"] == Rules.preset(name).to_dict()
    assert Match.from_json(m.to_json()) == m and Match.from_json(m.to_json()).rules == m.rules


def test_a_save_without_rules_is_1_0_0_and_unchanged():
    m = played("1.0.0")
    data = json.loads(m.to_json())
    assert "rules" not in data and data["variant"] == "1.0.0"
    assert Match.from_json(m.to_json()).rules == Rules()


@pytest.mark.parametrize("edit,code", [
    (lambda d: d.update(variant="deuces"), "inconsistent"),
    (lambda d: d["rules"].update(target=5), "malformed"),
    (lambda d: d.pop("rules"), "wrong_version"),
    (lambda d: d["rules"].update(deck="standard"), "inconsistent"),
])
def test_tampered_rules_in_a_save_are_refused(edit, code):
    data = json.loads(played("jokers").to_json())
    edit(data)
    with pytest.raises(BadSave) as e:
        Match.from_json(json.dumps(data))
    assert e.value.code == code


def test_notation_header_carries_the_rules_and_reads_back():
    m = played("jokers")
    text = format_hand(m.hands_played[0], m.rules)
    assert text.splitlines()[1] == "Rules: jokers"
    spec = parse(text)
    assert spec.rules == Rules.preset("jokers")
    from spades.notation import NotationError
    with pytest.raises(NotationError) as e:       # without its header the deal is not a 1.0.0 deal
        parse(text.replace("Rules: jokers\n", ""))
    assert e.value.code == "bad_notation"


def test_notation_reads_blind_bids():
    m = Match(seed=9, dealer=3, rules=Rules(blind_nil=True, blind_nil_trail=0))
    for b in (BLIND_NIL, 3, 4, 3):
        m.bid(b)
    rng = random.Random(2)
    while not m.hands_played:
        m.play(rng.choice(m.legal_cards()))
    text = format_hand(m.hands_played[0], m.rules)
    assert "Bids: blind 3 4 3" in text
    assert parse(text).bids == (BLIND_NIL, 3, 4, 3)


def ask(fn, **args):
    return bridge.handle(json.dumps({"fn": fn, "args": args}))


def test_bridge_new_match_with_rules_and_refusals():
    reply = json.loads(ask("new_match", seed="7", rules="deuces"))
    assert reply["ok"] and reply["result"]["rules"]["name"] == "deuces"
    reply = json.loads(ask("new_match", seed="7", rules={"deck": "jokers", "target": 300}))
    assert reply["result"]["rules"]["name"] == "custom" and reply["result"]["rules"]["target"] == 300
    before = json.loads(ask("save"))["result"]["save"]
    for rules, code in (("nope", "unknown_preset"), ({"target": 1}, "bad_option"), ([1], "bad_rules"),
                        ({"suicide": True, "min_team_bid": 3}, "rules_conflict")):
        reply = json.loads(ask("new_match", seed="7", rules=rules))
        assert reply["ok"] is False and reply["error"]["code"] == code
    assert json.loads(ask("save"))["result"]["save"] == before      # refused: the match is unchanged
    assert json.loads(ask("new_match", seed="7"))["result"]["rules"]["name"] == "1.0.0"


def test_bridge_review_reads_the_rules_of_an_export():
    json.loads(ask("new_match", seed="8", rules="jokers"))
    ask("run_bots")
    session = bridge.SESSIONS[bridge.DEFAULT_SESSION]
    while not session.match.hands_played:
        s = session.match
        session.act(bot("normal", 0).choose(s.view(s.to_act))) if s.to_act == 0 else session.bot_step()
    text = json.loads(ask("export"))["result"]["text"]
    review = json.loads(ask("review", text=text))["result"]
    assert review["rules"]["name"] == "jokers" and review["source"] == "notation"
    save = json.loads(ask("save"))["result"]["save"]
    assert json.loads(ask("review", text=save))["result"]["rules"]["name"] == "jokers"


# -- computer players ------------------------------------------------------------------------------

@pytest.mark.parametrize("level", ["easy", "normal"])
@pytest.mark.parametrize("name", ["jokers", "deuces", "suicide", "blind-nil", "quick"])
def test_bots_play_legal_whole_hands_under_every_preset(level, name):
    m = Match(seed=11, rules=name, scores=(0, 150) if name == "blind-nil" else (0, 0))
    bots = [bot(level, s) for s in range(4)]
    while len(m.hands_played) < 2 and m.phase != "over":
        view = m.view(m.to_act)
        e = bots[m.to_act].explain(view)
        assert e.action in (view.legal_bids or view.legal_cards)
        assert e.reason.code in spades.ai.CODES
        m.act(e.action)


def test_hard_plays_a_joker_hand_legally():
    m = Match(seed=12, rules="jokers")
    hard = bot("hard", 0)
    for _ in range(8):
        view = m.view(m.to_act)
        e = hard.explain(view)
        assert e.action in (view.legal_bids or view.legal_cards)
        m.act(e.action)


def test_blind_nil_decision_reads_only_the_score():
    m = Match(seed=3, dealer=3, rules=Rules(blind_nil=True), scores=(150, 420))
    e = bot("normal", 0).explain(m.view(0))
    assert (e.action, e.reason.code, e.reason.params) == (BLIND_NIL, "bid.blind_nil", {"gap": 270})
    m2 = Match(seed=4, dealer=3, rules=Rules(blind_nil=True), scores=(150, 420))
    assert bot("hard", 0).choose(m2.view(0)) == BLIND_NIL         # another hand, another level: the same
    assert bot("easy", 0).choose(m2.view(0)) != BLIND_NIL         # Easy never bids blind
    for scores in ((250, 420), (0, 350)):                          # 170 behind; or far from their target
        m3 = Match(seed=3, dealer=3, rules=Rules(blind_nil=True), scores=scores)
        assert bot("normal", 0).choose(m3.view(0)) != BLIND_NIL


def test_suicide_second_partner_follows_the_first():
    m = Match(seed=4, dealer=3, rules="suicide")
    first = bot("normal", 0).explain(m.view(0))
    m.bid(first.action)
    m.bid(bot("normal", 1).choose(m.view(1)))
    second = bot("normal", 2).explain(m.view(2))
    assert (first.action == 0) != (second.action == 0)
    assert second.action in m.legal_bids()


def test_ten_for_two_hundred_raises_a_team_bid_of_nine():
    m = Match(seed=4, dealer=3, rules=Rules(ten_for_200=True))
    m.bid(7)
    m.bid(1)
    # Seat 2's own bid would be 2 for a hand worth about two tricks: raised to 3 (7 + 3 = 10)
    from spades.ai.explain import Explanation, reason
    from spades.ai.house import adjust_bid
    e = adjust_bid(m.view(2), Explanation(2, reason("bid.tricks", bid=2, estimate=2.0, details=[])))
    assert (e.action, e.reason.code) == (3, "adj.ten_for_two_hundred")
    e = adjust_bid(m.view(2), Explanation(1, reason("bid.tricks", bid=1, estimate=1.0, details=[])))
    assert e.action == 1                                   # 8 is not one short: unchanged
