"""One match session (:mod:`spades.session`): the humans' actions, bots, undo, hint, why-not, saves.

Oracles: the engine's own refusals on a copy of the match (why_not), a stack of saves taken
before each human action (undo_mine), and a second deal that differs only in hidden cards
(state_for: what seat 0 is shown must not change).
"""
from __future__ import annotations

import ast
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spades import BadSave, IllegalAction, Match
from spades.cards import CARD_NAMES
from spades.errors import BadInput, BadRequest
from spades.newmatch import MAX_SEED_WORD, parse_seed
from spades.session import HUMAN, MAX_SAVE_CHARS, MAX_SAVE_DEPTH, Session, action_seats

ROOT = Path(__file__).resolve().parents[2]
JUNK_CARDS = ["ZZ", "as", "", "10H", 7, None, True, ["AS"], {"card": "AS"}, "A" * 500, 10 ** 30]


def ex(n: int) -> int:
    return max(3, n * settings.default.max_examples // 100)


def random_action(m: Match, rnd: random.Random) -> int | str:
    return rnd.choice(m.legal_bids()) if m.phase == "bid" else rnd.choice(m.legal_cards())


def to_humans_turn(session: Session) -> list[dict]:
    return list(session.run_bots())


def new(seed=1, level="easy", **kw) -> Session:
    return Session.new(seed, partner=level, opponents=level, **kw)


# -- seeds and levels ------------------------------------------------------------------------------

@pytest.mark.parametrize("value,expected", [
    (0, 0), (12, 12), ("12", 12), ("007", 7), ("9" * 20, int("9" * 20)), ("crocodile", "crocodile"),
    ("Game-7_b", "Game-7_b"), ("a" * MAX_SEED_WORD, "a" * MAX_SEED_WORD),
])
def test_seeds_by_our_own_rule(value, expected):
    assert parse_seed(value) == expected


@pytest.mark.parametrize("value", ["²", "--1", "-1", "9" * 5000, " 1", "1 ", "1.5", True, False, 1.5, -1,
                                   10 ** 20, "a" * (MAX_SEED_WORD + 1), "_x", "x y", "é", [1], {"a": 1}, "٣"],
                         ids=repr)
def test_bad_seeds_are_refused_with_bad_seed(value):
    with pytest.raises(BadRequest) as info:
        parse_seed(value)
    assert info.value.code == "bad_seed"
    assert len(info.value.message) <= 200


def test_no_seed_is_a_fresh_random_number():
    seeds = {parse_seed(None) for _ in range(5)} | {parse_seed("")}
    assert all(isinstance(s, int) and 0 <= s < 2 ** 32 for s in seeds) and len(seeds) > 1


@pytest.mark.parametrize("level", ["grandmaster", 3, "", "Easy", ["easy"]], ids=repr)
def test_bad_levels_are_refused(level):
    with pytest.raises(BadRequest) as info:
        Session.new(1, partner=level)
    assert info.value.code == "bad_level"


def test_a_word_seed_deals_as_the_match_does():
    assert new("crocodile").match == Match(seed="crocodile")
    assert new(123).match == Match(seed=123) and new("123").match == Match(seed=123)


# -- the humans' actions and the bots ------------------------------------------------------------------

def test_run_bots_yields_one_event_per_action_lazily():
    session = new(31, "normal")
    m = session.match
    events = session.run_bots()
    taken = len(m.actions)
    assert m.to_act == 3  # seed 31: the dealer is seat 2, so seat 3 bids first
    first = next(events)
    assert len(m.actions) == taken + 1 and first["seat"] == action_seats(m)[-1] != HUMAN
    rest = list(events)
    assert len(m.actions) == taken + 1 + len(rest) and m.to_act == HUMAN
    assert list(session.run_bots()) == []  # the human's turn: nothing to yield


def test_act_refusals_change_nothing():
    session = new(21)
    m = session.match
    to_humans_turn(session)
    before = m.to_json()
    for action, code in ((14, "bad_bid"), (-1, "bad_bid"), ("AS", "wrong_phase"), (True, "bad_bid"),
                         (10 ** 30, "bad_bid")):
        with pytest.raises(IllegalAction) as info:
            session.act(action)
        assert info.value.code == code and len(info.value.message) <= 200
        assert m.to_json() == before
    event = session.act(3)
    assert event == {"kind": "bid", "seat": HUMAN, "bid": 3}
    with pytest.raises(IllegalAction) as info:
        session.act(2)
    assert info.value.code == "not_your_turn"
    with pytest.raises(BadRequest) as info:
        session_at_human = new(21)
        to_humans_turn(session_at_human)
        session_at_human.bot_step()
    assert info.value.code == "not_bot_turn"


def test_two_human_seats_and_the_partner_bot_levels():
    session = Session.new(9, humans=(0, 2), partner="easy", opponents="normal")
    assert set(session.bots) == {1, 3} and {b.level for b in session.bots.values()} == {"normal"}
    m = session.match
    rnd = random.Random(9)
    for _ in range(40):
        to_humans_turn(session)
        assert m.to_act in (0, 2)
        seat = m.to_act
        state = session.state_for(seat)
        assert set(state["hand"]) == set(m.hand(seat)) and state["human"] == seat
        assert session.act(random_action(m, rnd))["seat"] == seat
    solo = Session.new(9, partner="easy", opponents="normal")
    assert solo.bots[2].level == "easy" and solo.bots[1].level == solo.bots[3].level == "normal"
    with pytest.raises(BadRequest):
        Session(Match(seed=1), humans=(0, 0))


# -- undo_mine ------------------------------------------------------------------------------------

def test_undo_at_match_start_is_refused_and_changes_nothing():
    session = new(2)
    to_humans_turn(session)
    before = session.match.to_json()
    with pytest.raises(IllegalAction) as info:
        session.undo_mine()
    assert info.value.code == "nothing_to_undo" and session.match.to_json() == before


def test_undo_at_a_hand_boundary_takes_back_the_last_card_of_the_previous_hand():
    session = new(44)
    m = session.match
    rnd = random.Random(44)
    snapshots = []
    while True:
        to_humans_turn(session)
        if m.hands_played:
            break
        snapshots.append(m.to_json())
        session.act(random_action(m, rnd))
    assert m.hand_number == 2 and not m.tricks
    actions_before = len(m.actions)
    taken = session.undo_mine()
    assert m.to_json() == snapshots[-1] and m.hand_number == 1 and not m.hands_played
    assert len(m.actions) == actions_before - taken and taken >= 1
    assert m.to_act == HUMAN and len(m.tricks) == 12


def test_undo_after_the_match_is_over_is_refused():
    session = new(2)
    m = session.match
    rnd = random.Random(2)
    while m.phase != "over":
        to_humans_turn(session)
        if m.phase != "over":
            session.act(random_action(m, rnd))
    before = m.to_json()
    with pytest.raises(IllegalAction) as info:
        session.undo_mine()
    assert info.value.code == "match_over" and m.to_json() == before


@settings(max_examples=ex(40))
@given(seed=st.integers(0, 10 ** 6), moves=st.lists(st.sampled_from(["act", "act", "act", "undo"]), max_size=80))
def test_undo_mine_returns_to_the_position_before_each_human_action(seed, moves):
    """Invariant: a stack of saves taken before each human action; undo pops exactly one."""
    session = new(seed)
    m = session.match
    rnd = random.Random(seed)
    stack: list[str] = []
    for move in moves:
        to_humans_turn(session)
        if m.phase == "over":
            break
        if move == "undo":
            before = m.to_json()
            if not stack:
                with pytest.raises(IllegalAction):
                    session.undo_mine()
                assert m.to_json() == before
            else:
                session.undo_mine()
                assert m.to_json() == stack.pop()
                assert m.to_act == HUMAN
        else:
            stack.append(m.to_json())
            session.act(random_action(m, rnd))
    replay, seats = Match(seed=seed), []
    for action in m.actions:  # oracle: who was to act before each action, by replay
        seats.append(replay.to_act)
        replay.act(action)
    assert action_seats(m) == seats


# -- hint and why_not -----------------------------------------------------------------------------

def test_hint_is_deterministic_for_a_position_and_seeded_by_it():
    a, b = new(5), new(5)
    to_humans_turn(a)
    to_humans_turn(b)
    before = a.match.to_json()
    assert a.hint("normal") == b.hint("normal") and a.hint_seed() == b.hint_seed()
    assert a.match.to_json() == before
    seeds = {a.hint_seed()}
    rnd = random.Random(5)
    for _ in range(12):
        action = a.hint("easy")
        assert action in (a.match.legal_bids() if a.match.phase == "bid" else a.match.legal_cards())
        a.act(random_action(a.match, rnd))
        to_humans_turn(a)
        seeds.add(a.hint_seed())
    assert len(seeds) == 13  # a new position, a new seed


def _play_code(session: Session, card) -> str | None:
    """The code the human's ``play`` gives on a copy of the session (``None`` if the card is played)."""
    copy = Session.from_json(session.to_json())
    try:
        copy.play(card)
    except IllegalAction as exc:
        return exc.code
    return None


@settings(max_examples=ex(40))
@given(seed=st.integers(0, 10 ** 6), steps=st.integers(0, 60), pick=st.integers(0, 10 ** 6))
def test_why_not_is_the_code_play_would_give_and_changes_nothing(seed, steps, pick):
    session = new(seed)
    m = session.match
    rnd = random.Random(pick)
    for _ in range(steps):
        to_humans_turn(session)
        if m.phase == "over":
            break
        session.act(random_action(m, rnd))
    if steps % 3:
        to_humans_turn(session)  # usually the human's turn; sometimes a bot's
    before = session.to_json()
    cards = rnd.sample(CARD_NAMES, 6) + m.hand(HUMAN)[:3] + [rnd.choice(JUNK_CARDS)]
    for card in cards:
        assert session.why_not(card) == _play_code(session, card), card
    assert session.to_json() == before


def test_why_not_names_each_rule():
    codes = set()
    for seed in range(30):
        session = new(seed)
        m = session.match
        rnd = random.Random(seed)
        while m.phase != "over" and len(m.hands_played) < 1:
            to_humans_turn(session)
            for card in CARD_NAMES:
                codes.add(session.why_not(card))
            session.act(random_action(m, rnd))
        if codes >= {None, "wrong_phase", "not_in_hand", "must_follow_suit", "spades_not_broken"}:
            break
    assert codes >= {None, "wrong_phase", "not_in_hand", "must_follow_suit", "spades_not_broken"}


# -- what the page shows ----------------------------------------------------------------------------------

def _same_suit_swaps(m: Match, rnd: random.Random) -> list[list[str]]:
    """The current deal with unplayed hidden cards exchanged between seats 1–3 within a suit.

    Every seat keeps its suit lengths and its played cards, so the same actions stay legal and
    the public record is identical; only what seat 0 cannot see differs.
    """
    deal = [list(m.dealt(s)) for s in range(4)]
    held = {s: set(m.hand(s)) for s in (1, 2, 3)}
    for _ in range(30):
        a, b = rnd.sample((1, 2, 3), 2)
        suit = rnd.choice("CDHS")
        ca = [c for c in held[a] if c[1] == suit]
        cb = [c for c in held[b] if c[1] == suit]
        if ca and cb:
            x, y = rnd.choice(ca), rnd.choice(cb)
            held[a] ^= {x, y}
            held[b] ^= {x, y}
            deal[a][deal[a].index(x)], deal[b][deal[b].index(y)] = y, x
    return deal


@settings(max_examples=ex(60))
@given(seed=st.integers(0, 10 ** 6), steps=st.integers(0, 55), pick=st.integers(0, 10 ** 6))
def test_state_for_never_depends_on_hidden_cards(seed, steps, pick):
    rnd = random.Random(pick)
    first = Match(seed=seed)
    for _ in range(steps):  # 55 actions at most: still inside the first hand
        first.act(random_action(first, rnd))
    other_deal = _same_suit_swaps(first, rnd)
    a = Session(Match(seed=seed, deal=[first.dealt(s) for s in range(4)]), seed=seed)
    b = Session(Match(seed=seed, deal=other_deal), seed=seed)
    for action in first.actions:
        a.match.act(action)
        b.match.act(action)
    assert a.state_for(HUMAN) == b.state_for(HUMAN)
    hidden = set().union(*(a.match.hand(s) for s in (1, 2, 3)))
    assert not hidden & set(json.dumps(a.state_for(HUMAN)).replace('"', " ").split())


def test_state_marks_a_custom_position():
    session = new(3)
    assert session.state_for(HUMAN)["custom"] is False
    custom = Session(Match(seed=3, deal=[Match(seed=4).dealt(s) for s in range(4)]), seed=3)
    assert custom.state_for(HUMAN)["custom"] is True
    assert Session.from_json(custom.to_json()).state_for(HUMAN)["custom"] is True


# -- saves --------------------------------------------------------------------------------------------

def test_save_round_trip_keeps_levels_seats_and_seed():
    session = Session.new("crocodile", partner="hard", opponents="easy", humans=(0, 2))
    to_humans_turn(session)
    session.act(4)
    again = Session.from_json(session.to_json())
    assert again.match == session.match and again.humans == (0, 2) and again.seed == "crocodile"
    assert (again.partner, again.opponents) == ("hard", "easy")
    assert again.to_json() == session.to_json()
    assert again.state_for(2) == session.state_for(2)


def test_a_save_without_seats_is_seat_zero():
    data = json.loads(new(8).to_json())
    del data["humans"]
    assert Session.from_json(json.dumps(data)).humans == (HUMAN,)


def _refused(text):
    with pytest.raises((BadSave, BadInput)) as info:
        Session.from_json(text)
    assert len(info.value.message) <= 200
    return info.value.code


def test_bad_saves_are_refused_whole_with_codes():
    data = json.loads(new(8).to_json())

    def changed(**kw):
        return json.dumps({**data, **kw})

    assert _refused("[" * 100_000) == "too_deep"
    assert _refused('{"a":' * (MAX_SAVE_DEPTH + 1) + "1" + "}" * (MAX_SAVE_DEPTH + 1)) == "too_deep"
    assert _refused(" " * (MAX_SAVE_CHARS + 1)) == "too_large"
    assert _refused("{nope") == "not_json"
    assert _refused(None) == "not_json"
    assert _refused(changed(format="spades-match")) == "wrong_format"
    assert _refused(changed(version=2)) == "wrong_version"
    assert _refused(changed(partner="godlike")) == "malformed"
    assert _refused(changed(humans=[5])) == "malformed"
    assert _refused(changed(humans=[True])) == "malformed"
    assert _refused(changed(humans=[])) == "malformed"
    assert _refused(changed(seed=1.5)) == "malformed"
    assert _refused(changed(seed="x" * 1000)) == "malformed"
    assert _refused(changed(match=None)) == "malformed"
    float_dealer = {**data["match"], "start": {**data["match"]["start"], "dealer": 1.0}}
    with pytest.raises(BadSave) as info:
        Match.from_json(json.dumps(float_dealer))  # the match save's own refusal is the session's
    assert _refused(changed(match=float_dealer)) == info.value.code


def test_session_imports_neither_bridge_nor_cli():
    tree = ast.parse((ROOT / "spades" / "session.py").read_text())
    names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    names |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert not {n for n in names if n.split(".")[-1] in ("bridge", "cli")}


# -- blind nil: the cards stay face down until the human looks ----------------------------

BLIND_ALWAYS = "blind-nil,blind_nil_trail=0"


def _blind_table(seed: int = 3) -> Session:
    session = Session.new(seed, partner="easy", opponents="easy", rules=BLIND_ALWAYS)
    for _ in session.run_bots():
        pass
    return session


def test_cards_are_face_down_until_the_human_looks_and_then_blind_nil_is_closed():
    session = _blind_table()
    state = session.state_for(HUMAN)
    assert (state["cards_hidden"], state["hand"]) == (True, [])
    assert "blind" in state["legal_bids"]
    session.look()
    state = session.state_for(HUMAN)
    assert state["cards_hidden"] is False
    assert sorted(state["hand"]) == sorted(session.match.view(HUMAN).hand)
    assert "blind" not in state["legal_bids"]
    before = session.to_json()
    with pytest.raises(IllegalAction) as refused:
        session.bid("blind")
    assert refused.value.code == "blind_after_look"
    assert session.to_json() == before


def test_the_look_is_saved_and_only_for_this_hand():
    session = _blind_table()
    session.look()
    restored = Session.from_json(session.to_json())
    assert json.loads(session.to_json())["looked"] == [HUMAN]
    assert restored.state_for(HUMAN)["cards_hidden"] is False
    assert "blind" not in restored.state_for(HUMAN)["legal_bids"]
    # the next hand deals face down again
    m = restored.match
    hand = m.hand_number
    while m.hand_number == hand:
        if restored.human_to_act is None:
            restored.bot_step()
        elif m.phase == "bid":
            restored.bid(3)
        else:
            restored.play(m.legal_cards()[0])
    assert (m.phase, m.bids[HUMAN]) == ("bid", None)
    assert restored.state_for(HUMAN)["cards_hidden"] is True
    assert json.loads(restored.to_json())["looked"] == []


def test_a_standard_table_never_hides_the_cards_and_older_saves_load_without_a_look():
    session = Session.new(3, partner="easy", opponents="easy")
    assert session.state_for(HUMAN)["cards_hidden"] is False
    data = json.loads(_blind_table().to_json())
    del data["looked"]
    assert Session.from_json(json.dumps(data)).state_for(HUMAN)["cards_hidden"] is True


@pytest.mark.parametrize("looked", [[1], [0, 0.5], "0", [True], {"0": 1}])
def test_a_save_with_a_bad_look_is_refused_whole(looked):
    data = json.loads(_blind_table().to_json())
    data["looked"] = looked
    with pytest.raises(BadSave) as refused:
        Session.from_json(json.dumps(data))
    assert refused.value.code == "malformed"


def test_an_undone_blind_nil_counts_as_having_looked():
    """Bidding blind nil shows the cards; taking it back must not hide them again and offer
    a blind nil made knowing the hand (issue 30, case 1). The save carries the look."""
    session = _blind_table()
    assert "blind" in session.state_for(HUMAN)["legal_bids"]
    session.bid("blind")
    assert session.state_for(HUMAN)["cards_hidden"] is False
    session.undo_mine()
    state = session.state_for(HUMAN)
    assert session.match.bids[HUMAN] is None
    assert state["cards_hidden"] is False and "blind" not in state["legal_bids"]
    assert sorted(state["hand"]) == sorted(session.match.view(HUMAN).hand)
    with pytest.raises(IllegalAction) as refused:
        session.bid("blind")
    assert refused.value.code == "blind_after_look"
    restored = Session.from_json(session.to_json())
    assert json.loads(session.to_json())["looked"] == [HUMAN]
    assert restored.state_for(HUMAN)["cards_hidden"] is False
    with pytest.raises(IllegalAction) as refused:
        restored.bid("blind")
    assert refused.value.code == "blind_after_look"


@pytest.mark.parametrize("version", [True, 1.0])
def test_a_session_save_version_is_a_whole_number(version):
    """``"version": true`` or ``1.0`` is refused like the match part refuses it (issue 30, case 8)."""
    data = json.loads(Session.new(3, partner="easy", opponents="easy").to_json())
    data["version"] = version
    with pytest.raises(BadSave) as refused:
        Session.from_json(json.dumps(data))
    assert refused.value.code == "wrong_version"
