"""The browser bridge's JSON protocol, through :func:`spades.bridge.handle` only.

Each test starts without a session (the registry ``bridge.SESSIONS`` is replaced by an
empty one and restored by ``monkeypatch``). Replies are ``{"ok": true, "result": …}`` or
``{"ok": false, "error": {"code", "message"}}``; refusals carry the engine's own codes.
"""
from __future__ import annotations

import copy
import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spades import IllegalAction, Match, bridge
from spades.bridge import views
from spades.notation import parse, replay

RANKS = "23456789TJQKA"
CARD = re.compile(r"(?<![0-9A-Za-z])([2-9TJQKA][CDHS])(?![0-9A-Za-z])")


def ex(n: int) -> int:
    return max(3, n * settings.default.max_examples // 100)


@pytest.fixture(autouse=True)
def no_session():
    """Each test starts and ends with no session (the registry is one dict, emptied in place)."""
    bridge.SESSIONS.clear()
    yield
    bridge.SESSIONS.clear()


def send(fn, args=None, *, omit_args=False):
    request = {"fn": fn} if omit_args else {"fn": fn, "args": args}
    reply = json.loads(bridge.handle(json.dumps(request)))
    if reply["ok"] and fn in bridge.CHANGES:
        assert set(reply) == {"ok", "result", "save"}
    else:
        assert set(reply) in ({"ok", "result"}, {"ok", "error"})
    return reply


def ok(fn, args=None):
    reply = send(fn, args)
    assert reply["ok"] is True, reply
    return reply["result"]


def err(fn, args=None):
    reply = send(fn, args)
    assert reply["ok"] is False, reply
    error = reply["error"]
    assert set(error) == {"code", "message"}
    assert isinstance(error["code"], str) and isinstance(error["message"], str) and error["message"]
    return error


def session():
    return bridge.SESSIONS[bridge.DEFAULT_SESSION]


def match():
    return session().match


def winner_of(plays):
    led = plays[0][1][1]
    trumps = [(RANKS.index(c[0]), s) for s, c in plays if c[1] == "S"]
    if trumps:
        return max(trumps)[1]
    return max((RANKS.index(c[0]), s) for s, c in plays if c[1] == led)[1]


def human_move(state, rnd):
    if state["phase"] == "bid":
        return "bid", {"n": rnd.choice(state["legal_bids"])}
    return "play", {"card": rnd.choice(state["legal_cards"])}


def play_until(rnd, stop, *, limit=2000):
    """Alternate run_bots and random human moves until ``stop(state)``; return the state."""
    state = ok("run_bots")["state"]
    for _ in range(limit):
        if stop(state) or state["phase"] == "over":
            return state
        fn, args = human_move(state, rnd)
        ok(fn, args)
        state = ok("run_bots")["state"]
    raise AssertionError("did not reach the wanted position")


def engine_refusal(action):
    """The code and message the engine gives for ``action`` on a copy of the session's match."""
    m = match().copy()
    with pytest.raises(IllegalAction) as info:
        action(m)
    return {"code": info.value.code, "message": info.value.message}


# -- basics -----------------------------------------------------------------------------------------

def test_the_docstring_table_lists_exactly_the_messages():
    rows = re.findall(r"^``([a-z_]+)[ `{]", bridge.__doc__, flags=re.M)
    assert len(rows) == len(set(rows)) and set(rows) == set(bridge.HANDLERS)
    assert set(bridge.HANDLERS) > bridge.CHANGES


def test_sessions_are_kept_apart_by_id():
    """The registry is the bridge's only state: two ids hold two independent matches."""
    first = json.loads(bridge.handle(json.dumps({"fn": "new_match", "args": {"seed": 1}}), "a"))
    second = json.loads(bridge.handle(json.dumps({"fn": "new_match", "args": {"seed": 2}}), "b"))
    assert set(bridge.SESSIONS) == {"a", "b"}
    assert first["result"]["hand"] != second["result"]["hand"]
    assert json.loads(bridge.handle('{"fn":"save"}', "a"))["result"]["save"] == first["save"]
    assert err("save")["code"] == "no_match"  # the default session was never started


def test_a_session_ends_when_its_page_goes_and_the_registry_is_counted():
    """In the browser one engine serves every page, each under its own id: ``end_session`` forgets
    one page's match (its page has gone) and leaves the others; ``sessions`` counts them."""
    for sid, seed in (("page-1", 1), ("page-2", 2)):
        bridge.handle(json.dumps({"fn": "new_match", "args": {"seed": seed}}), sid)
    count = json.loads(bridge.handle('{"fn":"sessions"}', "page-3"))
    assert count == {"ok": True, "result": {"count": 2}}
    ended = json.loads(bridge.handle('{"fn":"end_session"}', "page-1"))
    assert ended == {"ok": True, "result": {"ended": True}}       # no save: there is no session left
    assert set(bridge.SESSIONS) == {"page-2"}
    assert json.loads(bridge.handle('{"fn":"end_session"}', "page-1"))["result"] == {"ended": False}
    assert json.loads(bridge.handle('{"fn":"save"}', "page-1"))["error"]["code"] == "no_match"
    assert json.loads(bridge.handle('{"fn":"sessions"}', "page-2"))["result"] == {"count": 1}


def test_hello_and_ping():
    hello = ok("hello")
    assert hello["variant"] == "1.0.0" and "easy" in hello["levels"] and "normal" in hello["levels"]
    assert ok("ping")["pong"] is True


def test_new_match_is_reproducible_from_its_seed():
    first = ok("new_match", {"seed": 123, "partner": "easy", "opponents": "easy"})
    again = ok("new_match", {"seed": 123, "partner": "easy", "opponents": "easy"})
    assert first == again
    as_text = ok("new_match", {"seed": "123", "partner": "easy", "opponents": "easy"})
    assert as_text == first  # a numeric string is the same seed
    assert set(first["hand"]) == set(Match(seed=123).hand(0))
    assert first["levels"] == {"partner": "easy", "opponents": "easy"} and first["seed"] == 123
    # the bots act the same way too
    a = ok("run_bots")
    ok("new_match", {"seed": 123, "partner": "easy", "opponents": "easy"})
    assert ok("run_bots") == a
    worded = ok("new_match", {"seed": "crocodile"})
    assert worded == ok("new_match", {"seed": "crocodile"})
    assert set(worded["hand"]) == set(Match(seed="crocodile").hand(0)) != set(first["hand"])


@pytest.mark.parametrize("args,code", [
    ({"seed": True}, "bad_seed"), ({"seed": 1.5}, "bad_seed"), ({"seed": [1]}, "bad_seed"),
    ({"seed": "²"}, "bad_seed"), ({"seed": "--1"}, "bad_seed"), ({"seed": "9" * 5000}, "bad_seed"),
    ({"seed": " 1"}, "bad_seed"), ({"seed": "1.5"}, "bad_seed"), ({"seed": -1}, "bad_seed"),
    ({"seed": "x" * 100_000}, "bad_seed"), ({"seed": {"a": 1}}, "bad_seed"),
    ({"seed": 1, "partner": "grandmaster"}, "bad_level"), ({"seed": 1, "opponents": 3}, "bad_level"),
])
def test_new_match_refuses_bad_arguments(args, code):
    error = err("new_match", args)
    assert error["code"] == code and len(error["message"]) <= bridge.MAX_ERROR_CHARS
    assert "9" * 41 not in error["message"] and "x" * 41 not in error["message"]
    assert bridge.SESSIONS == {}


def test_a_bad_seed_leaves_the_match_in_progress():
    ok("new_match", {"seed": 3, "partner": "easy", "opponents": "easy"})
    before = _snapshot()
    assert err("new_match", {"seed": "²"})["code"] == "bad_seed"
    assert _snapshot() == before


@pytest.mark.parametrize("fn", ["bid", "play", "bot_step", "run_bots", "hint", "undo", "save", "hand", "export"])
def test_messages_need_a_match(fn):
    assert err(fn, {})["code"] == "no_match"


# -- the human's actions and refusals -------------------------------------------------------------------

def test_bid_and_play_of_the_human():
    ok("new_match", {"seed": 8, "partner": "easy", "opponents": "easy"})
    state = ok("run_bots")["state"]
    assert state["phase"] == "bid" and state["to_act"] == 0 and state["legal_bids"] == list(range(14))
    state = ok("bid", {"n": 4})
    assert state["bids"][0] == 4 and match().bids[0] == 4
    assert (state["legal_bids"] == [] and state["to_act"] != 0) or state["phase"] == "play"
    state = play_until(random.Random(1), lambda s: s["phase"] == "play" and s["to_act"] == 0)
    assert set(state["legal_cards"]) == set(match().legal_cards()) and set(state["legal_cards"]) <= set(state["hand"])
    card = state["legal_cards"][-1]
    after = ok("play", {"card": card})
    assert card not in after["hand"] and len(after["hand"]) == len(state["hand"]) - 1
    shown = (after["trick"] or after["last_trick"])["plays"]
    assert [0, card] in shown
    assert match().actions[-1] == card


def _snapshot():
    return match().to_json(), ok("save")["save"]


def test_refusals_carry_the_engine_codes_and_change_nothing():
    rnd = random.Random(3)
    ok("new_match", {"seed": 21, "partner": "easy", "opponents": "easy"})
    ok("run_bots")
    before = _snapshot()
    cases = [("bid", {"n": 14}, lambda m: m.bid(14, seat=0)), ("bid", {"n": -1}, lambda m: m.bid(-1, seat=0)),
             ("bid", {"n": "3"}, lambda m: m.bid("3", seat=0)), ("bid", {"n": True}, lambda m: m.bid(True, seat=0)),
             ("bid", {}, lambda m: m.bid(None, seat=0)), ("play", {"card": "AS"}, lambda m: m.play("AS", seat=0))]
    for fn, args, action in cases:
        assert err(fn, args) == engine_refusal(action)
        assert _snapshot() == before
    # not the human's turn: bid, then try to act again before the bots have
    ok("bid", {"n": 2})
    assert match().to_act != 0  # after the human's bid, the next bidder or the leader (dealer's left)
    before = _snapshot()
    assert err("bid", {"n": 3})["code"] == "not_your_turn"
    assert err("play", {"card": match().hand(0)[0]})["code"] == "not_your_turn"
    assert _snapshot() == before
    # in play: a card not held, a renege, junk and a bid
    seen = set()
    for _ in range(200):
        state = play_until(rnd, lambda s: s["phase"] == "play" and s["to_act"] == 0)
        if state["phase"] == "over":
            break
        before = _snapshot()
        other = match().hand(1)[0]
        assert err("play", {"card": other}) == engine_refusal(lambda m, card=other: m.play(card, seat=0))
        assert err("play", {"card": other})["code"] == "not_in_hand"
        for junk in ("ZZ", 7, None, "as"):
            assert err("play", {"card": junk}) == engine_refusal(lambda m, card=junk: m.play(card, seat=0))
        assert err("bid", {"n": 3})["code"] == "wrong_phase"
        illegal = sorted(set(state["hand"]) - set(state["legal_cards"]))
        if illegal:
            e = err("play", {"card": illegal[0]})
            assert e == engine_refusal(lambda m, card=illegal[0]: m.play(card, seat=0))
            seen.add(e["code"])
        assert _snapshot() == before
        ok("play", {"card": rnd.choice(state["legal_cards"])})
        if seen >= {"must_follow_suit", "spades_not_broken"}:
            break
    assert "must_follow_suit" in seen


# -- what the state shows ---------------------------------------------------------------------------------

def _hidden_and_played():
    m = match()
    hidden = set().union(*(set(m.hand(s)) for s in (1, 2, 3)))
    played = {c for t in m.tricks for _, c in t.plays} | ({c for _, c in m.trick.plays} if m.trick else set())
    return hidden, played


def _check_state_secrecy(state):
    hidden, played = _hidden_and_played()
    shown = dict(state)
    if state["last_trick"] and not match().tricks:
        # between hands the last trick of the previous hand stays on show: public, and its
        # cards are in the new deal, so it is checked against the record and not scanned
        assert state["last_trick"] == match().hands_played[-1].tricks[-1].to_dict()
        del shown["last_trick"]
    text = json.dumps(shown)
    leaked = set(CARD.findall(text)) & hidden
    assert not leaked, f"hidden cards in the state: {sorted(leaked)}"
    assert set(state["hand"]) == set(match().hand(0))
    assert not (hidden & played)


def _states_through_a_match(seed, rnd, hands=2):
    """Every state the bridge returns while a human plays ``hands`` hands at random."""
    state = ok("new_match", {"seed": seed, "partner": "easy", "opponents": "easy"})
    yield state
    while state["phase"] != "over" and len(match().hands_played) < hands:
        if state["to_act"] != 0:
            state = ok("bot_step")["state"]
        else:
            fn, args = human_move(state, rnd)
            state = ok(fn, args)
        yield state


@pytest.mark.parametrize("seed", [4, 40])
def test_state_never_shows_other_seats_cards(seed):
    for state in _states_through_a_match(seed, random.Random(seed)):
        _check_state_secrecy(state)
        assert state["cards_left"][0] == len(state["hand"]) or state["phase"] == "over"


def test_changes_carry_the_save_beside_the_state_and_queries_do_not():
    reply = json.loads(bridge.handle(json.dumps({"fn": "new_match", "args": {"seed": 4}})))
    assert "save" not in reply["result"]
    assert Match.from_json(json.dumps(json.loads(reply["save"])["match"])) == match()
    assert reply["save"] == ok("save")["save"]
    assert "save" not in json.loads(bridge.handle(json.dumps({"fn": "hello", "args": {}})))
    refused = json.loads(bridge.handle(json.dumps({"fn": "bid", "args": {"n": 99}})))
    assert refused["ok"] is False and "save" not in refused


# -- computer players -------------------------------------------------------------------------------------

def test_run_bots_stops_at_the_humans_turn_and_its_events_replay():
    ok("new_match", {"seed": 31, "partner": "easy", "opponents": "normal"})
    actions = []
    rnd = random.Random(31)
    for _ in range(30):
        result = ok("run_bots")
        state = result["state"]
        assert state["to_act"] == 0 or state["phase"] == "over"
        for event in result["events"]:
            assert event["seat"] in (1, 2, 3)
            actions.append(event["bid"] if event["kind"] == "bid" else event["card"])
        if state["phase"] == "over":
            break
        fn, args = human_move(state, rnd)
        ok(fn, args)
        actions.append(args.get("n", args.get("card")))
    replayed = Match(seed=31)
    for a in actions:
        replayed.act(a)
    assert replayed == match() and replayed.to_json() == match().to_json()


def test_bot_step_events_report_tricks_and_hands():
    ok("new_match", {"seed": 77, "partner": "easy", "opponents": "easy"})
    rnd = random.Random(77)
    seen_trick = seen_hand = seen_plain = 0
    while len(match().hands_played) < 3 and match().phase != "over":
        if match().to_act == 0:
            assert err("bot_step")["code"] == "not_bot_turn"
            fn, args = human_move(ok("run_bots")["state"], rnd)
            ok(fn, args)
            continue
        seat, tricks, hands = match().to_act, len(match().tricks), len(match().hands_played)
        current = list(match().trick.plays) if match().trick else []
        result = ok("bot_step")
        event = result["event"]
        assert event["seat"] == seat and result["state"]["to_act"] == match().to_act
        if event["kind"] == "bid":
            assert set(event) == {"kind", "seat", "bid"} and match().bids[seat] == event["bid"]
            continue
        assert event["card"] not in match().hand(seat)
        if len(current) < 3:
            assert "trick" not in event and "hand" not in event
            seen_plain += 1
            continue
        plays = [list(p) for p in current] + [[seat, event["card"]]]
        assert event["trick"]["plays"] == plays
        assert event["trick"]["leader"] == plays[0][0]
        assert event["trick"]["winner"] == winner_of([tuple(p) for p in plays])
        seen_trick += 1
        if len(match().hands_played) > hands:
            record = match().hands_played[-1]
            row = event["hand"]
            assert row["number"] == record.number == hands + 1 and row["bids"] == list(record.bids)
            assert row["tricks"] == [sum(t.winner == s for t in record.tricks) for s in range(4)]
            assert sum(row["tricks"]) == 13
            assert [t["delta"] for t in row["teams"]] == list(record.score_delta)
            seen_hand += 1
        else:
            assert "hand" not in event and len(match().tricks) == tricks + 1
    assert seen_trick and seen_hand and seen_plain


# -- undo and hints -----------------------------------------------------------------------------------------

def test_undo_takes_back_the_humans_last_action_and_the_replies():
    """Within a hand and across a hand boundary alike, undo returns the state before the human's action."""
    rnd = random.Random(12)
    ok("new_match", {"seed": 12, "partner": "easy", "opponents": "easy"})
    state = ok("run_bots")["state"]
    assert err("undo")["code"] == "nothing_to_undo"  # the human has not acted yet in the match
    assert ok("run_bots")["state"] == state
    within = across = 0
    while state["phase"] != "over" and (within < 10 or across < 2):
        assert state["to_act"] == 0
        fn, args = human_move(state, rnd)
        hands = len(match().hands_played)
        ok(fn, args)
        ok("run_bots")
        if match().phase == "over":
            break
        crossed = len(match().hands_played) > hands
        undone = ok("undo")
        assert undone == state
        assert ok("run_bots")["state"] == state  # nothing for the bots to do
        ok(fn, args)
        within += not crossed
        across += crossed
        state = ok("run_bots")["state"]
    assert within >= 10 and across >= 2


def test_undo_after_the_match_is_over_is_refused():
    ok("new_match", {"seed": 2, "partner": "easy", "opponents": "easy"})
    rnd = random.Random(2)
    state = play_until(rnd, lambda s: False, limit=5000)
    assert state["phase"] == "over" and state["winner"] in (0, 1)
    assert err("undo")["code"] == "match_over"
    assert err("hint")["code"] == "match_over"
    assert err("bid", {"n": 1})["code"] == "match_over"


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_hint_returns_a_legal_action_and_changes_nothing(level):
    rnd = random.Random(5)
    ok("new_match", {"seed": 5, "partner": "easy", "opponents": "easy"})
    state = ok("run_bots")["state"]
    for _ in range(15):
        if state["phase"] == "over":
            break
        before = _snapshot()
        hint = ok("hint", {"level": level})
        assert hint["level"] == level
        if state["phase"] == "bid":
            assert set(hint["action"]) == {"bid"} and hint["action"]["bid"] in state["legal_bids"]
        else:
            assert set(hint["action"]) == {"card"} and hint["action"]["card"] in state["legal_cards"]
        assert _snapshot() == before
        fn, args = human_move(state, rnd)
        ok(fn, args)
        state = ok("run_bots")["state"]


def test_hint_refusals():
    ok("new_match", {"seed": 6, "partner": "easy", "opponents": "easy"})
    ok("run_bots")
    assert err("hint", {"level": "godlike"})["code"] == "bad_level"
    ok("bid", {"n": 3})
    assert match().to_act != 0
    assert err("hint")["code"] == "not_your_turn"


# -- save and resume ----------------------------------------------------------------------------------------

def test_save_and_resume_give_the_identical_state():
    rnd = random.Random(9)
    ok("new_match", {"seed": 9, "partner": "easy", "opponents": "normal"})
    state = play_until(rnd, lambda s: len(s["sheet"]) >= 1 and s["phase"] == "play")
    text = ok("save")["save"]
    ok("new_match", {"seed": 10})
    resumed = ok("resume", {"save": text})
    assert resumed == state
    assert session().partner == "easy" and session().opponents == "normal"
    # going on from the resumed session is the same as going on from the original
    after_one = ok("run_bots")
    ok("resume", {"save": text})
    assert ok("run_bots") == after_one


def _corruptions(text):
    data = json.loads(text)
    out = {
        "truncated": text[: len(text) // 2],
        "not-json": "hello",
        "empty": "",
        "other-format": json.dumps({**data, "format": "spades-match"}),
        "version-2": json.dumps({**data, "version": 2}),
        "match-missing": json.dumps({k: v for k, v in data.items() if k != "match"}),
        "bad-level": json.dumps({**data, "partner": "godlike"}),
        "bad-seed": json.dumps({**data, "seed": [1]}),
        "bool-seed": json.dumps({**data, "seed": True}),
        "bare-match-save": json.dumps(data["match"]),
    }
    tampered = copy.deepcopy(data)
    deal = tampered["match"]["hands"][0]["deal"]
    deal[0][0], deal[1][0] = deal[1][0], deal[0][0]
    out["tampered-deal"] = json.dumps(tampered)
    scored = copy.deepcopy(data)
    scored["match"]["state"]["scores"][0] += 100
    out["tampered-score"] = json.dumps(scored)
    return out


CORRUPTION_CODES = {
    "truncated": "not_json", "not-json": "not_json", "empty": "not_json", "other-format": "wrong_format",
    "version-2": "wrong_version", "match-missing": "malformed", "bad-level": "malformed", "bad-seed": "malformed",
    "bool-seed": "malformed", "bare-match-save": "wrong_format", "tampered-deal": "bad_deal",
    "tampered-score": "inconsistent",
}


def test_corrupt_resume_is_refused_and_the_session_untouched():
    rnd = random.Random(14)
    ok("new_match", {"seed": 14, "partner": "easy", "opponents": "easy"})
    state = play_until(rnd, lambda s: len(s["sheet"]) >= 1 and s["to_act"] == 0)
    text = ok("save")["save"]
    kept = session()
    corruptions = _corruptions(text)
    assert set(corruptions) == set(CORRUPTION_CODES)
    for name, bad in corruptions.items():
        error = err("resume", {"save": bad})
        assert error["code"] == CORRUPTION_CODES[name], (name, error)
        assert session() is kept, name
        assert bridge.state() == state, name
    for bad in (None, 5, ["x"], {"format": "spades-session"}):
        assert err("resume", {"save": bad})["code"] == "not_json"
        assert session() is kept
    assert err("resume", {})["code"] == "not_json"


# -- protocol errors ------------------------------------------------------------------------------------------

def test_unknown_messages_and_bad_requests():
    assert send("no_such_thing", {})["error"]["code"] == "unknown_message"
    assert json.loads(bridge.handle(json.dumps({"args": {}})))["error"]["code"] == "unknown_message"
    for args in ([], "x", 5, [1, 2], True):
        assert err("hello", args)["code"] == "bad_args"
    for raw in ("[1]", "5", '"hello"', "null", "not json", "", "{"):
        reply = json.loads(bridge.handle(raw))
        assert reply["ok"] is False and reply["error"]["code"] == "bad_request"
    assert send("hello", omit_args=True)["ok"] is True


@pytest.mark.parametrize("fn", [["hello"], {"a": 1}, 5, None, True])
def test_a_non_string_fn_is_an_unknown_message(fn):
    reply = json.loads(bridge.handle(json.dumps({"fn": fn, "args": {}})))
    assert reply == {"ok": False, "error": {"code": "unknown_message", "message": "Unknown message name."}}


def test_messages_are_bounded_before_parsing():
    deep = '{"fn":"hello","args":' + "[" * 100_000 + "]" * 100_000 + "}"
    assert json.loads(bridge.handle(deep))["error"]["code"] == "too_deep"
    big = json.dumps({"fn": "hello", "args": {"pad": "x" * bridge.MAX_MESSAGE_CHARS}})
    reply = json.loads(bridge.handle(big))
    assert reply["error"]["code"] == "too_large" and "xxxx" not in reply["error"]["message"]
    assert send("hello", {"pad": "x" * (bridge.MAX_MESSAGE_CHARS // 2)})["ok"] is True


def test_a_real_long_match_save_fits_the_limits_with_room():
    """A whole match played by bots and a random human, resumed through a message."""
    ok("new_match", {"seed": 97, "partner": "easy", "opponents": "easy"})
    play_until(random.Random(97), lambda s: False, limit=5000)
    text = ok("save")["save"]
    assert 4 * len(json.dumps(text)) < bridge.MAX_MESSAGE_CHARS and 4 * len(text) < bridge.MAX_SAVE_CHARS
    assert ok("resume", {"save": text})["phase"] == "over"


def test_long_input_is_never_echoed_whole():
    ok("new_match", {"seed": 3, "partner": "easy", "opponents": "easy"})
    ok("run_bots")
    for fn, args in (("bid", {"n": "7" * 3000}), ("review", {"text": "Dealer: " + "Z" * 3000}),
                     ("hint", {"level": "q" * 3000}), ("resume", {"save": "w" * 3000})):
        message = err(fn, args)["message"]
        assert len(message) <= bridge.MAX_ERROR_CHARS
        assert not any(ch * (bridge.EXCERPT_CHARS + 1) in message for ch in "7Zqw"), (fn, message)


def _no_trace(reply_text):
    assert "Traceback" not in reply_text and 'File "' not in reply_text and ".py" not in reply_text


def test_internal_errors_never_leak_a_traceback(monkeypatch):
    def broken(args, sid):
        raise RuntimeError("secret detail at /work/main/spades/match.py line 12")

    monkeypatch.setitem(bridge.HANDLERS, "hello", broken)
    text = bridge.handle(json.dumps({"fn": "hello", "args": {}}))
    reply = json.loads(text)
    assert reply == {"ok": False, "error": {"code": "internal", "message": bridge.INTERNAL_MESSAGE}}
    assert "RuntimeError" not in text and "secret" not in text
    _no_trace(text)

    def overflow(args, sid):
        raise RecursionError("deep")

    monkeypatch.setitem(bridge.HANDLERS, "hello", overflow)
    assert json.loads(bridge.handle('{"fn":"hello"}'))["error"]["code"] == "internal"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-100, 100) | st.floats(allow_nan=False) | st.text(max_size=8)
    | st.sampled_from(["AS", "2C", "easy", "normal", "{", "Dealer: S"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8)
handler_names = st.sampled_from(sorted(set(bridge.HANDLERS) - {"new_match"}) + ["nope"])


@settings(max_examples=ex(300))
@given(with_match=st.booleans(), fn=handler_names, args=st.one_of(
    json_values, st.dictionaries(st.sampled_from(["n", "card", "number", "text", "save", "level", "seed"]),
                                 json_values, max_size=2)))
def test_any_request_gets_a_clean_reply(with_match, fn, args):
    bridge.SESSIONS.clear()
    if with_match:
        ok("new_match", {"seed": 1, "partner": "easy", "opponents": "easy"})
        ok("run_bots")
        before = match().to_json()
    text = bridge.handle(json.dumps({"fn": fn, "args": args}))
    reply = json.loads(text)
    if reply["ok"] is True:
        assert isinstance(reply["result"], dict) and fn in bridge.HANDLERS
    else:
        assert reply["ok"] is False and set(reply["error"]) == {"code", "message"}
        assert reply["error"]["code"] in bridge.ERROR_CODES - {"internal"}, reply
        assert 0 < len(reply["error"]["message"]) <= bridge.MAX_ERROR_CHARS
        _no_trace(text)
    if with_match and (fn not in bridge.CHANGES or not reply["ok"]):
        assert match().to_json() == before


# -- review and export -------------------------------------------------------------------------------------------

@pytest.fixture
def played_session():
    ok("new_match", {"seed": 55, "partner": "easy", "opponents": "easy"})
    play_until(random.Random(55), lambda s: len(s["sheet"]) >= 2 and s["phase"] == "play" and s["trick"])
    return session()


def test_review_of_match_and_session_saves(played_session):
    m = played_session.match
    completed = [r.to_dict() for r in m.hands_played]
    for text, source in ((m.to_json(), "match"), (ok("save")["save"], "session")):
        result = ok("review", {"text": text})
        assert result["source"] == source
        assert result["hands"][:-1] == completed
        partial = result["hands"][-1]
        assert partial["scores"] is None and partial["number"] == m.hand_number
        assert partial["tricks"][-1]["plays"] == [list(p) for p in m.trick.plays]
        assert [set(h) for h in partial["deal"]] == [set(m.dealt(s)) for s in range(4)]


def test_review_of_a_hand_record_and_a_tampered_one(played_session):
    for number in (1, 2):
        record = ok("hand", {"number": number})
        assert record == played_session.match.hands_played[number - 1].to_dict()
        result = ok("review", {"text": json.dumps(record)})
        assert result["source"] == "hand" and len(result["hands"]) == 1
        assert {**result["hands"][0], "number": number} == record
    record = ok("hand", {"number": 2})

    def tampered(change):
        t = copy.deepcopy(record)
        change(t)
        return t

    def swap(pair, a, b):
        pair[a], pair[b] = pair[b], pair[a]

    def swap_first_cards(t):
        t["deal"][0][0], t["deal"][1][0] = t["deal"][1][0], t["deal"][0][0]

    tampers = {
        "delta": (tampered(lambda t: t["scores"][0].update(delta=t["scores"][0]["delta"] + 1)), "inconsistent"),
        "total": (tampered(lambda t: t["scores"][1].update(score_after=t["scores"][1]["score_after"] - 10)),
                  "inconsistent"),
        "winner": (tampered(lambda t: t["tricks"][0].update(winner=(t["tricks"][0]["winner"] + 1) % 4)),
                   "inconsistent"),
        # the first card of seat 0 goes to seat 1: someone then plays a card not in their hand
        "deal": (tampered(swap_first_cards), "illegal_history"),
        "order": (tampered(lambda t: swap(t["tricks"][0]["plays"], 1, 2)), "illegal_history"),
        "bid": (tampered(lambda t: t["bids"].__setitem__(0, 14)), "illegal_history"),
    }
    for name, (bad, code) in tampers.items():
        assert bad != record, name
        assert err("review", {"text": json.dumps(bad)})["code"] == code, name


def test_export_text_parses_back_to_the_same_hand(played_session):
    for number in (1, 2):
        result = ok("export", {"number": number})
        record = played_session.match.hands_played[number - 1]
        assert result["record"] == record.to_dict()
        again = replay(parse(result["text"])).hands_played[0]
        assert [s.to_dict() for s in again.scores] == [s.to_dict() for s in record.scores]
        assert again.tricks == record.tricks and again.bids == record.bids
        reviewed = ok("review", {"text": result["text"]})
        assert reviewed["source"] == "notation"
        assert reviewed["hands"][0]["scores"] == result["record"]["scores"]
    assert ok("export", {})["record"]["number"] == len(played_session.match.hands_played)


@pytest.mark.parametrize("number,code", [
    (0, "bad_hand"), (99, "bad_hand"), (-1, "bad_hand"), (10 ** 30, "bad_hand"),
    (True, "bad_args"), ("1", "bad_args"), (None, "bad_args"), (1.0, "bad_args"), ([1], "bad_args"),
])
def test_hand_and_export_refuse_bad_numbers(played_session, number, code):
    before = _snapshot()
    assert err("hand", {"number": number})["code"] == code
    assert err("export", {"number": number})["code"] == code
    assert _snapshot() == before


@pytest.mark.parametrize("text,code", [
    ("", "bad_args"), ("   ", "bad_args"), ("{", "not_json"), ("{nope}", "not_json"),
    ('{"format":"spades-match"}', "wrong_version"), ("[1, 2]", "bad_notation"),
    ("Dealer: X", "bad_notation"), ("just words", "bad_notation"),
    ("{" + "[" * 100_000, "too_deep"), ('{"a":"' + "x" * 300_000 + '"}', "too_large"),
])
def test_review_refuses_what_it_cannot_read(text, code):
    assert err("review", {"text": text})["code"] == code
    assert err("review", {"text": 5})["code"] == "bad_args"


# -- why_not -------------------------------------------------------------------------------------------------

def _expected_code(card):
    """The code ``play`` gives for ``card`` on a copy of the match (``None`` if it is played)."""
    m = match().copy()
    if m.phase != "over" and m.to_act != 0:
        return "not_your_turn"
    try:
        m.play(card, seat=0)
    except IllegalAction as exc:
        return exc.code
    return None


def test_why_not_gives_the_code_play_would_give_and_changes_nothing():
    rnd = random.Random(19)
    ok("new_match", {"seed": 19, "partner": "easy", "opponents": "easy"})
    seen = set()
    state = ok("run_bots")["state"]
    for _ in range(400):
        before = _snapshot()
        held = state["hand"]
        for card in ["AS", "ZZ", 7, None] + held[:2] + match().hand(1)[:1] + sorted(set(held) - set(state["legal_cards"]))[:1]:
            reply = ok("why_not", {"card": card})
            expected = _expected_code(card)
            assert reply == {"legal": expected is None, "code": expected}, (card, reply)
            seen.add(expected)
        assert _snapshot() == before
        if state["phase"] == "over":
            break
        fn, args = human_move(state, rnd)
        ok(fn, args)
        state = ok("run_bots")["state"]
        if seen >= {None, "wrong_phase", "bad_card", "not_in_hand", "must_follow_suit", "spades_not_broken"}:
            break
    assert seen >= {None, "wrong_phase", "bad_card", "not_in_hand", "must_follow_suit"}


def test_why_not_when_it_is_not_the_humans_turn():
    ok("new_match", {"seed": 8, "partner": "easy", "opponents": "easy"})
    ok("run_bots")
    ok("bid", {"n": 3})
    assert match().to_act != 0
    assert ok("why_not", {"card": match().hand(0)[0]}) == {"legal": False, "code": "not_your_turn"}


def test_why_not_needs_a_match():
    assert err("why_not", {"card": "AS"})["code"] == "no_match"


@pytest.mark.parametrize("humans", [[1.0], [0, 2.0], ["1"]])
def test_a_save_with_a_non_integer_human_seat_is_refused_and_changes_nothing(humans):
    bridge.handle(json.dumps({"fn": "new_match", "args": {"seed": 5}}))
    before = json.loads(bridge.handle('{"fn":"save"}'))["result"]["save"]
    damaged = {**json.loads(before), "humans": humans}
    reply = json.loads(bridge.handle(json.dumps({"fn": "resume", "args": {"save": json.dumps(damaged)}})))
    assert reply["error"]["code"] == "malformed"
    assert json.loads(bridge.handle('{"fn":"save"}'))["result"]["save"] == before


def test_rules_message_checks_and_describes_without_touching_the_match():
    """``rules`` answers what the new-match dialog needs: the name (a preset or custom), the text form,
    and the engine's coded refusal of an impossible combination; the match in play is untouched."""
    bridge.new_match({"seed": 4})
    before = bridge.call("save")["save"]
    jokers = bridge.call("rules", {"rules": {"deck": "jokers"}})
    assert jokers["rules"]["name"] == "jokers" and jokers["text"] == "jokers"
    custom = bridge.call("rules", {"rules": "jokers,target=300"})
    assert custom["rules"]["name"] == "custom" and custom["text"] == "1.0.0,deck=jokers,target=300"
    for value, code in (("bogus", "unknown_preset"), ({"suicide": True, "min_team_bid": 2}, "rules_conflict"),
                        ({"target": "x"}, "bad_option"), ([1], "bad_rules")):
        reply = json.loads(bridge.handle(json.dumps({"fn": "rules", "args": {"rules": value}})))
        assert reply["error"]["code"] == code
    assert bridge.call("save")["save"] == before


def test_review_gives_the_decks_display_order():
    """The viewer sorts cards by the engine's order: under deuces high the 2♦ heads the spades after the jokers."""
    bridge.new_match({"seed": 4, "rules": "deuces"})
    order = bridge.call("review", {"text": bridge.call("save")["save"]})["order"]
    assert order[:5] == ["BJ", "LJ", "2D", "2S", "AS"] and len(order) == 52
    assert "2H" not in order and "2C" not in order and order[-1] == "3D"


def test_a_blind_nil_hint_is_a_bid_not_a_card():
    """The hint and "Why?" replies name a blind nil as a bid (``{"bid": "blind"}``), never as a card."""
    assert views.action("blind") == {"bid": "blind"}
    assert views.action(0) == {"bid": 0} and views.action("AS") == {"card": "AS"}


def test_an_undone_blind_nil_keeps_the_cards_face_up_through_save_and_resume():
    """``bid "blind"`` then ``undo``: the cards stay face up and blind nil stays closed (issue 30, case 1)."""
    ok("new_match", {"seed": 1, "partner": "easy", "opponents": "easy", "rules": "blind-nil,blind_nil_trail=0"})
    state = ok("run_bots")["state"]
    assert state["cards_hidden"] is True and "blind" in state["legal_bids"]
    ok("bid", {"n": "blind"})
    state = ok("undo")
    assert (state["phase"], state["to_act"], state["bids"][0]) == ("bid", 0, None)
    assert state["cards_hidden"] is False and "blind" not in state["legal_bids"]
    assert sorted(state["hand"]) == sorted(match().hand(0))
    assert err("bid", {"n": "blind"})["code"] == "blind_after_look"
    saved = ok("save")["save"]
    bridge.SESSIONS.clear()
    state = ok("resume", {"save": saved})
    assert state["cards_hidden"] is False and "blind" not in state["legal_bids"]
    assert err("bid", {"n": "blind"})["code"] == "blind_after_look"


def test_a_blind_bid_is_refused_under_rules_without_blind_nil():
    """1.0.0 has no blind nil: the bid is refused, nothing changes (issue 30, case 5)."""
    ok("new_match", {"seed": 8, "partner": "easy", "opponents": "easy"})
    ok("run_bots")
    before = _snapshot()
    assert err("bid", {"n": "blind"})["code"] == "bid_not_allowed"
    assert _snapshot() == before
