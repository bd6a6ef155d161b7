"""Hand notation (spades.notation): format/parse round trips, derivation of the fourth
hand, partial hands, malformed text (``bad_notation``) and rule violations
(``illegal_history`` carrying the rule's own message)."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spades import IllegalAction, Match
from spades.notation import HandText, NotationError, format_hand, parse, replay

LETTERS = "SWNE"
RANKS = "23456789TJQKA"


def ex(n: int) -> int:
    return max(3, n * settings.default.max_examples // 100)


def record_from(seed, policy, which, rp):
    """A completed hand of a random match (the ``which``-th one that exists, from 0)."""
    m = Match(seed=seed)
    rp.play_random(m, random.Random(policy), max_hands=which + 1,
                   bid_style=("uniform", "realistic", "nil_heavy")[policy % 3])
    return m.hands_played[min(which, len(m.hands_played) - 1)]


def lines_of(text):
    out = {}
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if sep:
            out[key.strip()] = value.strip()
    return out


@settings(max_examples=ex(200))
@given(seed=st.integers(0, 2**64 - 1), policy=st.integers(0, 2**32 - 1), which=st.integers(0, 3))
def test_format_then_parse_gives_back_the_hand(random_player, seed, policy, which):
    record = record_from(seed, policy, which, random_player)
    text = format_hand(record)
    fields = lines_of(text)
    # the text itself, checked field by field
    assert fields["Dealer"] == LETTERS[record.dealer]
    for seat in range(4):
        assert set(fields[LETTERS[seat]].split()) == set(record.deal[seat])
    order = [(record.dealer + 1 + i) % 4 for i in range(4)]
    assert fields["Bids"].split() == ["nil" if record.bids[s] == 0 else str(record.bids[s]) for s in order]
    groups = [g.split() for g in fields["Play"].split("/")]
    assert groups == [list(t.cards) for t in record.tricks]
    before = tuple(s.score_before for s in record.scores)
    bags = tuple(s.bags_before for s in record.scores)
    assert ("Score" in fields) == (before != (0, 0)) and ("Bags" in fields) == (bags != (0, 0))
    # parsing it back
    spec = parse(text)
    assert spec.dealer == record.dealer
    assert [set(h) for h in spec.deal] == [set(h) for h in record.deal]
    assert spec.bids == tuple(record.bids[s] for s in order)
    assert spec.plays == tuple(c for t in record.tricks for c in t.cards)
    assert spec.scores == before and spec.bags == bags
    again = replay(spec).hands_played[0]
    assert again.tricks == record.tricks and again.bids == record.bids and again.dealer == record.dealer
    assert [s.to_dict() for s in again.scores] == [s.to_dict() for s in record.scores]
    assert format_hand(again) == text
    # any one seat may be left out: its 13 cards are the ones left
    for seat in range(4):
        short = "\n".join(line for line in text.splitlines() if not line.startswith(LETTERS[seat] + ":"))
        derived = parse(short)
        assert [set(h) for h in derived.deal] == [set(h) for h in spec.deal]
        assert derived.plays == spec.plays and derived.bids == spec.bids


@settings(max_examples=ex(150))
@given(seed=st.integers(0, 2**64 - 1), policy=st.integers(0, 2**32 - 1), cut=st.integers(0, 55),
       slashes=st.booleans())
def test_partial_hands_replay_to_the_same_position(random_player, seed, policy, cut, slashes):
    record = record_from(seed, policy, 0, random_player)
    order = [(record.dealer + 1 + i) % 4 for i in range(4)]
    bids = [record.bids[s] for s in order][:cut]
    plays = [c for t in record.tricks for c in t.cards][:max(0, cut - 4)]
    lines = [f"Dealer: {LETTERS[record.dealer]}"]
    lines += [f"{LETTERS[s]}: {' '.join(record.deal[s])}" for s in range(4)]
    if bids:
        lines.append("Bids: " + " ".join(str(b) for b in bids))
    if plays:
        sep = " / " if slashes else " "
        lines.append("Play: " + sep.join(" ".join(plays[i:i + 4]) for i in range(0, len(plays), 4)))
    spec = parse("\n".join(lines))
    assert spec.bids == tuple(bids) and spec.plays == tuple(plays)
    m = replay(spec)
    direct = Match(seed=0, dealer=record.dealer, deal=[list(h) for h in record.deal])
    for a in bids + plays:
        direct.act(a)
    assert m.actions == direct.actions == bids + plays
    assert m.to_act == direct.to_act and m.phase == direct.phase
    assert [m.view(s) for s in range(4)] == [direct.view(s) for s in range(4)]
    assert m.hands_played == ()


def _deal_text(dealer="E"):
    """A fixed, readable deal: S holds all spades, W hearts, N clubs, E diamonds."""
    suits = {"S": "S", "W": "H", "N": "C", "E": "D"}
    return [f"Dealer: {dealer}"] + [f"{seat}: " + " ".join(r + suit for r in reversed(RANKS))
                                   for seat, suit in suits.items()]


def test_a_written_hand_with_comments_and_lenient_cards():
    text = "\n".join(["Spades hand", "# a comment line", "Dealer: e", "Score: 120 -40", "Bags: 3 0",
                      "s: as ks qs js 10s 9s 8s 7s 6s 5s 4s 3s 2s   # all spades",
                      "W: " + " ".join(r + "H" for r in RANKS),
                      "N: " + " ".join(r + "C" for r in RANKS),
                      "Bids: 13 nil 0 1",
                      "Play: AS 2H 2C 2D | KS 3H 3C 3D"])
    spec = parse(text)
    assert spec.dealer == 3 and spec.scores == (120, -40) and spec.bags == (3, 0)
    assert set(spec.deal[3]) == {r + "D" for r in RANKS}  # East derived
    assert spec.bids == (13, 0, 0, 1) and spec.plays == ("AS", "2H", "2C", "2D", "KS", "3H", "3C", "3D")
    m = replay(spec)
    assert m.tricks_won == (2, 0, 0, 0) and m.scores == (120, -40) and m.spades_broken


MALFORMED_IDS = ['empty', 'no-dealer', 'dealer-X', 'dealer-SW', 'dealer-blank', 'two-hands',
                 'unknown-field', 'no-colon', 'bid-word', 'bid-negative', 'five-bids',
                 'play-before-bids', 'bad-card', 'score-one-number', 'score-words',
                 'score-ends-match', 'bags-10', 'card-twice', 'twelve-cards', 'three-hands-repeat',
                 'fourteen-cards', 'two-seats-only']


@pytest.mark.parametrize("text", [
    "",                                                     # nothing at all
    "\n".join(_deal_text()[1:]),                            # no dealer
    "\n".join(["Dealer: X"] + _deal_text()[1:]),            # not a seat
    "\n".join(["Dealer: SW"] + _deal_text()[1:]),
    "\n".join(["Dealer:"] + _deal_text()[1:]),
    "\n".join(_deal_text()[:3]),                            # only two hands
    "\n".join(_deal_text() + ["Colour: red"]),              # unknown field
    "\n".join(_deal_text() + ["Bids 3 3 3 3"]),             # no colon
    "\n".join(_deal_text() + ["Bids: 3 3 seven 3"]),        # not a bid
    "\n".join(_deal_text() + ["Bids: 3 3 -1 3"]),
    "\n".join(_deal_text() + ["Bids: 3 3 3 3 3"]),          # five bids
    "\n".join(_deal_text() + ["Bids: 3 3", "Play: 2H"]),    # play before all bids
    "\n".join(_deal_text() + ["Play: 1X"]),                 # not a card
    "\n".join(_deal_text() + ["Score: 1"]),                 # one number
    "\n".join(_deal_text() + ["Score: a b"]),
    "\n".join(_deal_text() + ["Score: 600 0"]),             # the match would be over
    "\n".join(_deal_text() + ["Bags: 10 0"]),               # bags are 0-9
    "\n".join(_deal_text()).replace("2D", "2C", 1),         # a card twice, one missing
    "\n".join(_deal_text()).replace(" 2D", "", 1),          # twelve cards
    "\n".join(_deal_text()[:4]).replace(" 2C", " AS", 1),   # three hands with a repeat
    "\n".join(_deal_text()[:2]) + " 2D\n" + "\n".join(_deal_text()[2:4]),  # 14 cards for S
    "S: AS\nW: KS",
    "\n".join(_deal_text() + ["Bids: 3 3 ² 3"]),           # a digit, but not an ASCII one
    "\n".join(_deal_text() + ["Bids: 3 3 ٣ 3"]),
    "\n".join(_deal_text() + ["Score: --1 0"]),
    "\n".join(_deal_text() + ["Score: +5 5"]),
    "\n".join(_deal_text() + ["Score: 1_000 1_000"]),
    "\n".join(_deal_text() + ["Score: " + "9" * 5000 + " 0"]),
    "\n".join(_deal_text() + ["Score: 100001 100001"]),     # tied, but beyond any real match
    "\n".join(_deal_text() + ["Bids: 3 3 " + "9" * 5000 + " 3"]),
], ids=MALFORMED_IDS + ["bid-superscript", "bid-arabic-digit", "score-double-minus", "score-plus",
                        "score-underscore", "score-5000-digits", "score-beyond-limit", "bid-5000-digits"])
def test_malformed_notation_is_bad_notation(text):
    with pytest.raises(NotationError) as info:
        parse(text)
    assert info.value.code == "bad_notation" and info.value.message


def test_refusals_quote_only_an_excerpt_and_long_text_is_refused_unread():
    with pytest.raises(NotationError) as info:
        parse("Dealer: S\n" + "x" * 15_000)
    assert info.value.code == "bad_notation" and len(info.value.message) < 200
    with pytest.raises(NotationError) as info:
        parse("# " + "y" * 30_000)
    assert info.value.code == "too_large" and "y" not in info.value.message


def test_a_hand_from_notation_is_a_custom_position():
    match = replay(parse("\n".join(_deal_text())))
    assert match.custom and match.phase == "bid"


@pytest.mark.parametrize("value", [None, 5, b"Dealer: S", ["Dealer: S"]])
def test_non_text_is_bad_notation(value):
    with pytest.raises(NotationError) as info:
        parse(value)
    assert info.value.code == "bad_notation"


def test_more_than_52_cards_is_bad_notation(random_player):
    record = record_from(3, 3, 0, random_player)
    text = format_hand(record).rstrip("\n") + " / 2C"
    with pytest.raises(NotationError) as info:
        parse(text)
    assert info.value.code == "bad_notation"


def _rule_message(dealer, deal, actions, bad):
    m = Match(seed=0, dealer=dealer, deal=deal)
    for a in actions:
        m.act(a)
    with pytest.raises(IllegalAction) as info:
        m.act(bad)
    return info.value


def _suits_deal():
    return [[r + s for r in RANKS] for s in "SHCD"]   # S spades, W hearts, N clubs, E diamonds


def _mixed_deal():
    """A fixed shuffled deal (every seat has several suits, so following suit and the
    spade-lead rule can both be broken)."""
    deck = [r + s for s in "CDHS" for r in RANKS]
    rnd = random.Random(8)
    rnd.shuffle(deck)
    return [sorted(deck[i::4]) for i in range(4)]


@pytest.mark.parametrize("case", ["renege", "spade_lead", "not_held", "bad_bid"])
def test_rule_violation_is_illegal_history_with_the_rules_message(case):
    deal = _mixed_deal()
    dealer = 3
    m = Match(seed=0, dealer=dealer, deal=deal)
    bids = [3, 3, 3, 3]
    for b in bids:
        m.bid(b)
    plays = []
    bad = None
    if case == "bad_bid":
        bids, bad = [3, 3, 3], 14
    else:
        # play lowest legal cards until the wanted mistake is possible, then make it
        for _ in range(52):
            seat = m.to_act
            hand, legal = m.hand(seat), m.legal_cards()
            trick = m.trick
            if (case == "renege" and trick and set(hand) - set(legal)) or (case == "spade_lead" and trick is None and set(hand) - set(legal)):
                bad = sorted(set(hand) - set(legal))[0]
            elif case == "not_held" and trick:
                bad = m.hand((seat + 1) % 4)[0]
            if bad:
                break
            card = min(legal, key=lambda c: RANKS.index(c[0]))
            m.play(card)
            plays.append(card)
        assert bad, "the deal offers no such mistake"
    expected = _rule_message(dealer, deal, bids + plays, bad)
    lines = [f"Dealer: {LETTERS[dealer]}"] + [f"{LETTERS[s]}: {' '.join(deal[s])}" for s in range(4)]
    if case == "bad_bid":
        lines.append("Bids: 3 3 3 14")
    else:
        lines += ["Bids: 3 3 3 3", "Play: " + " ".join(plays + [bad])]
    with pytest.raises(NotationError) as info:
        parse("\n".join(lines))
    assert info.value.code == "illegal_history"
    assert expected.message in info.value.message
    assert {"renege": "must_follow_suit", "spade_lead": "spades_not_broken", "not_held": "not_in_hand",
            "bad_bid": "bad_bid"}[case] == expected.code


def test_leading_a_spade_from_an_all_spade_hand_is_allowed():
    """The exception in the rules: a leader holding only spades may lead one before they are broken."""
    text = "\n".join(_deal_text("E") + ["Bids: 1 1 1 1", "Play: 2S 2H 2C 2D"])
    m = replay(parse(text))
    assert m.tricks[0].winner == 0 and m.spades_broken


def test_replay_checks_a_hand_text_object():
    spec = HandText(3, tuple(tuple(h) for h in _suits_deal()), (0, 0), (0, 0), (1, 1, 1, 1), ("2H",))
    with pytest.raises(NotationError) as info:
        replay(spec)  # West does not lead: South, left of East, does
    assert info.value.code == "illegal_history" and "not in your hand" in info.value.message
