"""Tables of several people (pass-and-play, a hosted table): per-seat actions, views, hints,
"Why?" and undo, seats changing hands, and a guest's untrusted messages.

Everything goes through :func:`spades.bridge.handle`, as the page sends it; a guest's
message is the text the host's page hands on (``guest {seat, text}``).
"""
from __future__ import annotations

import json
import random

import pytest

from spades import bridge
from spades.bridge import guests as guest_module
from spades.bridge.protocol import GUEST_MESSAGES, REACTIONS
from spades.cards import CARD_INDEX
from tests.bridge.test_bridge import err, match, ok, send

#: South (the page's owner) and North play; West and East are computer players.
PARTNERS = [0, 2]


@pytest.fixture(autouse=True)
def no_session():
    bridge.SESSIONS.clear()
    yield
    bridge.SESSIONS.clear()


def new_table(seed: int = 8, humans=PARTNERS) -> dict:
    return ok("new_match", {"seed": seed, "partner": "easy", "opponents": "easy", "humans": humans})


def to_person(humans=PARTNERS) -> dict:
    """Computer players act until a person is to act (or the match is over)."""
    state = ok("run_bots")["state"]
    assert state["to_act"] in humans or state["phase"] == "over"
    return state


def guest(seat: int, message) -> dict:
    text = message if isinstance(message, str) else json.dumps(message)
    return ok("guest", {"seat": seat, "text": text})


def hidden_cards(state: dict) -> set[str]:
    """Every card a seat's state names that is neither its own nor played."""
    text = json.dumps(state)
    named = {c for c in CARD_INDEX if f'"{c}"' in text}
    played = {c for t in [state["trick"], state["last_trick"]] if t for _, c in t["plays"]}
    return named - set(state["hand"]) - played


# -- several people at one table -------------------------------------------------------------


def test_a_table_lists_its_people_and_each_seat_sees_only_its_own_hand():
    state = new_table()
    assert state["humans"] == PARTNERS
    south, north = ok("view", {"seat": 0}), ok("view", {"seat": 2})
    assert south["human"] == 0 and north["human"] == 2
    assert set(south["hand"]) == set(match().view(0).hand)
    assert set(north["hand"]) == set(match().view(2).hand)
    assert not set(south["hand"]) & set(north["hand"])
    assert hidden_cards(north) == set() and hidden_cards(south) == set()


def test_a_view_is_refused_for_a_computer_seat_and_needs_its_seat():
    new_table()
    assert err("view", {"seat": 1})["code"] == "bad_seat"
    assert err("view", {})["code"] == "bad_args"
    assert err("view", {"seat": "2"})["code"] == "bad_argument"


def test_the_computer_players_moves_come_back_as_the_asking_person_sees_them():
    # pass-and-play: while North holds the device, the computer players' moves must not
    # bring South's hand with them
    new_table(seed=7)
    ok("bid", {"n": 3, "seat": 0})
    stepped = ok("bot_step", {"seat": 2})
    assert stepped["state"]["human"] == 2 and set(stepped["state"]["hand"]) == set(match().view(2).hand)
    ok("bid", {"n": 3, "seat": 2})
    ran = ok("run_bots", {"seat": 2})["state"]
    assert ran["human"] == 2 and set(ran["hand"]) == set(match().view(2).hand)
    assert hidden_cards(ran) == set()
    assert ok("run_bots")["state"]["human"] == 0  # no seat named: the first person's view
    assert err("run_bots", {"seat": 1})["code"] == "bad_seat"


def test_each_person_acts_only_at_their_own_turn():
    new_table(seed=11)
    state = to_person()
    seat = state["to_act"]
    other = 2 - seat
    before = match().to_json()
    refused = err("bid", {"n": 3, "seat": other})
    assert refused["code"] == "not_your_turn" and match().to_json() == before
    assert err("bid", {"n": 3, "seat": 1})["code"] == "bad_seat"
    after = ok("bid", {"n": 3, "seat": seat})
    assert after["human"] == seat and after["bids"][seat] == 3


def test_a_whole_hand_with_two_people_reports_each_persons_view():
    new_table(seed=5)
    rnd = random.Random(5)
    hands_before = 0
    for _ in range(60):
        state = to_person()
        if len(state["sheet"]) > hands_before or state["phase"] == "over":
            break
        seat = state["to_act"]
        mine = ok("view", {"seat": seat})
        if mine["phase"] == "bid":
            ok("bid", {"n": rnd.choice(mine["legal_bids"]), "seat": seat})
        else:
            after = ok("play", {"card": rnd.choice(mine["legal_cards"]), "seat": seat})
            assert after["human"] == seat
    assert len(ok("view", {"seat": 2})["sheet"]) == 1


def test_hint_why_not_and_why_are_for_the_asking_seat():
    new_table(seed=9)
    state = to_person()
    seat = state["to_act"]
    hint = ok("hint", {"level": "easy", "seat": seat})
    assert "bid" in hint["action"]
    assert err("hint", {"level": "easy", "seat": 2 - seat})["code"] == "not_your_turn"
    assert ok("why_not", {"card": "AS", "seat": 2 - seat})["code"] in {
        "not_your_turn",
        "wrong_phase",
    }
    assert err("why", {"seat": 2, "viewer": 0})["code"] == "bad_args"  # a person's seat
    assert err("why", {"seat": 1, "viewer": 3})["code"] == "bad_seat"
    answer = ok("why", {"seat": 1, "viewer": 2})
    assert answer["seat"] == 1


def test_undo_takes_back_only_your_own_last_move_while_no_one_else_has_moved():
    new_table(seed=14)
    rnd = random.Random(14)
    first = to_person()
    seat = first["to_act"]
    ok("bid", {"n": rnd.choice(first["legal_bids"]), "seat": seat})
    second = to_person()
    other = second["to_act"]
    if other == seat:  # both bids of the team come later: only the one person has moved
        pytest.skip("this seed gives one person two turns in a row")
    ok("bid", {"n": 2, "seat": other})
    before = match().to_json()
    assert err("undo", {"seat": seat})["code"] == "others_acted"
    assert match().to_json() == before
    state = ok("undo", {"seat": other})
    assert state["human"] == other and state["bids"][other] is None
    assert err("undo", {"seat": 1})["code"] == "bad_seat"


def test_a_seat_changes_hands_and_back_without_changing_the_match():
    new_table(seed=3)
    before = match().to_json()
    state = ok("seat", {"seat": 2, "person": False})
    assert state["humans"] == [0] and match().to_json() == before
    assert err("view", {"seat": 2})["code"] == "bad_seat"
    state = to_person(humans=[0])
    assert state["to_act"] == 0  # the computer player played North's turns
    state = ok("seat", {"seat": 2, "person": True})
    assert state["humans"] == [0, 2]
    assert err("seat", {"seat": 0, "person": False})["code"] == "bad_seat"
    assert err("seat", {"seat": 2, "person": 1})["code"] == "bad_args"
    assert err("seat", {"seat": 5, "person": True})["code"] == "bad_argument"


def test_the_people_and_their_seats_survive_save_and_resume():
    new_table(seed=6, humans=[0, 1, 3])
    ok("seat", {"seat": 3, "person": False})
    save = ok("save")["save"]
    bridge.SESSIONS.clear()
    state = ok("resume", {"save": save})
    assert state["humans"] == [0, 1]


# -- a guest's messages --------------------------------------------------------------------------


def guest_turn(seed: int = 12) -> dict:
    """A table of South and North where North (the guest) is to act."""
    new_table(seed=seed)
    rnd = random.Random(seed)
    for _ in range(60):
        state = to_person()
        if state["to_act"] == 2:
            return ok("view", {"seat": 2})
        mine = ok("view", {"seat": 0})
        if mine["phase"] == "bid":
            ok("bid", {"n": 3, "seat": 0})
        else:
            ok("play", {"card": rnd.choice(mine["legal_cards"]), "seat": 0})
    raise AssertionError("North never came to act")


def test_a_guests_bid_and_card_are_played_for_its_seat_with_their_event():
    state = guest_turn()
    if state["phase"] == "bid":
        out = guest(2, {"t": "bid", "id": 1, "n": 4})
        assert out["event"] == {"kind": "bid", "seat": 2, "bid": 4}
        assert match().bids[2] == 4
    else:
        card = state["legal_cards"][0]
        out = guest(2, {"t": "play", "id": 1, "card": card})
        assert out["event"]["card"] == card and out["event"]["seat"] == 2
    assert out["reply"] == {"t": "reply", "id": 1, "ok": True, "result": None}
    assert out["changed"] is True


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "[]",
        '{"t": "play"}',
        '{"t": "play", "id": 1}',
        '{"t": "play", "id": 1, "card": "AS", "seat": 0}',  # another seat named: not its field
        '{"t": "bid", "id": 1, "n": 14}',
        '{"t": "bid", "id": 1, "n": true}',
        '{"t": "bid", "id": 1, "n": 3.0}',
        '{"t": "play", "id": 0, "card": "AS"}',
        '{"t": "play", "id": 1, "card": "AS "}',
        '{"t": "play", "id": 1, "card": "10S"}',
        '{"t": "new_match", "id": 1}',
        '{"t": "welcome", "id": 1}',
        '{"t": "react", "id": 1, "phrase": "you are bad"}',
        '{"t": "why", "id": 1, "seat": 4}',
        '{"t": "play", "id": 1, "card": {"x": 1}}',
        "x" * 10_000,
        '{"t": "play", "id": 1, "card": "' + "A" * 400 + '"}',
    ],
)
def test_malformed_huge_or_foreign_messages_are_refused_and_change_nothing(text):
    guest_turn()
    before = match().to_json()
    out = guest(2, text)
    assert out["reply"]["ok"] is False and out["event"] is None and out["changed"] is False
    assert out["reply"]["error"]["code"] in {"bad_message", "too_large", "too_deep", "not_json"}
    assert set(out["reply"]["error"]) == {"code"}  # a code the guest's page translates, no text
    assert match().to_json() == before


def test_a_guest_cannot_act_out_of_turn_or_illegally_and_nothing_changes():
    state = guest_turn(seed=20)
    before = match().to_json()
    if state["phase"] == "play":
        illegal = next((c for c in CARD_INDEX if c not in state["legal_cards"]), None)
        out = guest(2, {"t": "play", "id": 5, "card": illegal})
        assert out["reply"]["error"]["code"] in {
            "not_in_hand",
            "must_follow_suit",
            "spades_not_broken",
        }
    else:
        out = guest(2, {"t": "bid", "id": 5, "n": "blind"})
        assert out["reply"]["error"]["code"] in {"bid_not_allowed", "bad_bid"}
    assert out["reply"]["id"] == 5 and match().to_json() == before


def test_a_guest_at_a_seat_not_to_act_is_refused():
    new_table(seed=12)
    state = to_person()
    if state["to_act"] == 2:
        state = ok("view", {"seat": 2})
        ok("bid", {"n": 3, "seat": 2}) if state["phase"] == "bid" else None
        state = to_person()
    assert state["to_act"] == 0
    before = match().to_json()
    out = guest(2, {"t": "bid", "id": 9, "n": 3})
    assert out["reply"]["error"] == {"code": "not_your_turn"}
    out = guest(2, {"t": "undo", "id": 10})
    assert out["reply"]["ok"] is False
    assert match().to_json() == before


def test_a_guest_is_never_answered_for_another_seat():
    state = guest_turn()
    hint = guest(2, {"t": "hint", "id": 2})["reply"]
    assert hint["ok"] is True
    action = hint["result"]["action"]
    if "card" in action:
        assert action["card"] in state["hand"]
    synced = guest(2, {"t": "sync", "id": 3})["reply"]["result"]
    assert synced["human"] == 2 and synced["hand"] == state["hand"]
    why = guest(2, {"t": "why", "id": 4, "seat": 0})["reply"]
    assert why["ok"] is False and why["error"]["code"] == "bad_args"  # a person: no "Why?"


def test_the_host_page_must_name_a_persons_seat():
    guest_turn()
    assert err("guest", {"seat": 1, "text": '{"t": "sync", "id": 1}'})["code"] == "bad_seat"
    assert err("guest", {"text": '{"t": "sync", "id": 1}'})["code"] == "bad_args"


def test_a_reaction_is_one_of_the_fixed_phrases():
    guest_turn()
    for phrase in REACTIONS:
        out = guest(2, {"t": "react", "id": 7, "phrase": phrase})
        assert out["event"] == {"kind": "react", "seat": 2, "phrase": phrase}
        assert out["changed"] is False


def test_every_guest_message_has_a_check_for_each_of_its_fields():
    for row in GUEST_MESSAGES.values():
        for _, kind in row.fields:
            assert kind in guest_module.KIND_CHECKS, (row.name, kind)


def test_a_guests_refusal_is_a_known_code():
    guest_turn()
    codes = set()
    for text in ["{}", '{"t": "play", "id": 1, "card": "ZZ"}', "y" * 300]:
        codes.add(guest(2, text)["reply"]["error"]["code"])
    assert codes <= bridge.ERROR_CODES
    reply = send("guest", {"seat": 2, "text": "{}"})
    assert reply["ok"] is True
