"""A bounded fuzzer of bridge messages: real messages, mutated, junk and oversized.

Every reply must be JSON: ``{"ok": true, "result": …}`` or ``{"ok": false, "error": …}``
with a known code other than ``internal`` and a message of at most 200 characters that
quotes no long run of the input. The messages come from a fixed seed and their number is
bounded (a ``new_match`` without a seed still deals a random match, so the tallies vary a
little between runs); it prints tried / refused by code / accepted / crashed / slowest
(``pytest -s``).
"""
from __future__ import annotations

import json
import random
import time
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spades import bridge

SEED = 20261130
MESSAGES = 3000
MARK = "Q"                  # long junk is made of this letter, so an echo can be found
ECHO_LIMIT = 41             # a run this long of MARK in a message is an echo of the input
FNS = sorted(bridge.HANDLERS)


@pytest.fixture(autouse=True)
def fresh_registry():
    """Each test starts and ends with no session (the registry is one dict, emptied in place)."""
    bridge.SESSIONS.clear()
    yield
    bridge.SESSIONS.clear()


def _junk(rnd: random.Random, depth: int = 0):
    """A hostile argument value."""
    kind = rnd.randrange(16)
    if kind == 0:
        return MARK * rnd.choice((41, 500, 20_000))
    if kind == 1:
        return rnd.choice((True, False, None))
    if kind == 2:
        return rnd.choice((1.5, -0.0, 1e308, 2 ** 63, -(10 ** 40), 10 ** 4000, -1, 0, 99))
    if kind == 3:
        return rnd.choice(("²", "--1", " 1", "1.5", "٣", "\u0000", "\ud800", "AS\n", "1e9", "0x10", "-0"))
    if kind == 4:
        return "9" * rnd.choice((21, 5000))
    if kind == 5 and depth < 3:
        return [_junk(rnd, depth + 1) for _ in range(rnd.randrange(4))]
    if kind == 6 and depth < 3:
        return {rnd.choice(("n", "card", "save", MARK * 50)): _junk(rnd, depth + 1)}
    if kind == 7:
        return rnd.choice(("AS", "2C", "TD", "QH", "easy", "normal", "hard", "crocodile"))
    if kind == 8:
        return rnd.randrange(-3, 20)
    if kind == 9:
        return "Dealer: " + rnd.choice(("S", "X", MARK * 300)) + "\nS: " + MARK * rnd.choice((2, 100))
    if kind == 10:
        return "[" * rnd.choice((5, 50, 5000)) + "]" * rnd.randrange(3)
    return rnd.choice(("", "{", "null", "{}", "[]", '{"format":"spades-session","version":1}'))


def _real_messages(rnd: random.Random) -> list[dict]:
    """Messages a page would send now, from the current state."""
    out: list[dict] = [{"fn": "hello", "args": {}}, {"fn": "save", "args": {}}, {"fn": "run_bots"}]
    try:
        state = bridge.state()
    except bridge.BadRequest:
        return out + [{"fn": "new_match", "args": {"seed": rnd.randrange(10 ** 6), "partner": "easy",
                                                   "opponents": "easy"}}]
    if state["phase"] == "bid":
        out.append({"fn": "bid", "args": {"n": rnd.choice(state["legal_bids"] or [3])}})
    for card in state["legal_cards"][:2] + state["hand"][:1]:
        out += [{"fn": "play", "args": {"card": card}}, {"fn": "why_not", "args": {"card": card}}]
    out += [{"fn": "hint", "args": {"level": "easy"}}, {"fn": "undo", "args": {}},
            {"fn": "hand", "args": {"number": len(state["sheet"]) or 1}},
            {"fn": "export", "args": {}}, {"fn": "bot_step", "args": {}}]
    return out


def _mutate_text(rnd: random.Random, text: str) -> str:
    """Character-level damage: cut, flip, insert brackets or quotes, duplicate a slice."""
    if not text:
        return "{"
    i = rnd.randrange(len(text))
    kind = rnd.randrange(6)
    if kind == 0:
        return text[:i]
    if kind == 1:
        return text[:i] + chr(rnd.randrange(32, 0x2FF)) + text[i + 1:]
    if kind == 2:
        return text[:i] + rnd.choice(("[" * 200, "{", '"', "\\", "]]]", "1e999", "-")) + text[i:]
    if kind == 3:
        j = min(len(text), i + rnd.randrange(1, 40))
        return text[:j] + text[i:j] * rnd.randrange(1, 4) + text[j:]
    if kind == 4:
        return text.replace(rnd.choice(("0", "1", "true", "null", '"S"', ",")), rnd.choice(("1.0", "true", "-1", "[]", "")), 1)
    return text[:i] + text[i + 1:]


def _message(rnd: random.Random, save_text: str | None) -> str:
    kind = rnd.randrange(10)
    if kind == 8 and rnd.random() < 0.8:  # oversized messages are costly to build: fewer of them
        kind = 9
    real = _real_messages(rnd)
    if kind <= 2:
        return json.dumps(rnd.choice(real))
    if kind == 3:
        message = rnd.choice(real)
        args = dict(message.get("args") or {})
        args[rnd.choice(("n", "card", "number", "level", "seed", "save", "text", "partner"))] = _junk(rnd)
        return json.dumps({"fn": rnd.choice(FNS), "args": args})
    if kind == 4 and save_text:
        return json.dumps({"fn": rnd.choice(("resume", "review")),
                           "args": {"save": _mutate_text(rnd, save_text), "text": _mutate_text(rnd, save_text)}})
    if kind == 5:
        return _mutate_text(rnd, json.dumps(rnd.choice(real)))
    if kind == 6:
        return json.dumps({"fn": rnd.choice(FNS + ["__class__", "constructor", MARK * 60]), "args": _junk(rnd)})
    if kind == 7:
        return json.dumps({"fn": "new_match", "args": {"seed": _junk(rnd), "partner": "easy", "opponents": "easy"}})
    if kind == 8:
        size = rnd.choice((bridge.MAX_MESSAGE_CHARS - 100, bridge.MAX_MESSAGE_CHARS + 1, bridge.MAX_SAVE_CHARS))
        return json.dumps({"fn": "review", "args": {"text": MARK * size}})
    return rnd.choice(("", "null", "[]", "{" * 100_000, '{"fn":' * 1000, MARK * 1000, '{"fn":"hello","args":' + "[" * 10))


def _check(reply_text: str) -> str | None:
    """The error code of a well-formed reply (``None`` when it succeeded); fails on anything else."""
    reply = json.loads(reply_text)
    assert isinstance(reply, dict) and reply.get("ok") in (True, False), reply_text[:200]
    if reply["ok"] is True:
        assert set(reply) <= {"ok", "result", "save"} and isinstance(reply["result"], dict)
        return None
    error = reply["error"]
    assert set(reply) == {"ok", "error"} and set(error) == {"code", "message"}
    assert error["code"] in bridge.ERROR_CODES, error
    assert 0 < len(error["message"]) <= bridge.MAX_ERROR_CHARS, error
    assert MARK * ECHO_LIMIT not in error["message"], error
    assert "Traceback" not in error["message"] and ".py" not in error["message"], error
    return error["code"]


def test_fuzzed_messages_get_clean_coded_replies():
    rnd = random.Random(SEED)
    bridge.handle(json.dumps({"fn": "new_match", "args": {"seed": 5, "partner": "easy", "opponents": "easy"}}))
    save_text = json.loads(bridge.handle('{"fn":"save"}'))["result"]["save"]
    refused: Counter[str] = Counter()
    accepted = crashed = 0
    slowest = (0.0, "")
    for n in range(MESSAGES):
        message = _message(rnd, save_text)
        start = time.perf_counter()
        reply = bridge.handle(message)
        took = time.perf_counter() - start
        if took > slowest[0]:
            slowest = (took, message[:60])
        code = _check(reply)
        if code is None:
            accepted += 1
        elif code == "internal":
            crashed += 1
        else:
            refused[code] += 1
        if n % 200 == 0 and bridge.SESSIONS:
            save_text = bridge.SESSIONS[bridge.DEFAULT_SESSION].to_json()
    print(f"\nbridge fuzz: tried {MESSAGES}, accepted {accepted}, refused {sum(refused.values())} "
          f"{dict(refused.most_common())}, crashed {crashed}, slowest {slowest[0] * 1000:.1f} ms ({slowest[1]!r})")
    assert crashed == 0
    assert accepted + sum(refused.values()) == MESSAGES
    # the corpus reaches the refusals a hostile page can provoke, not only one kind
    assert {"bad_request", "too_deep", "too_large", "bad_seed", "not_json", "unknown_message"} <= set(refused)


# -- a property over the bridge's messages with hostile argument values (issue 30, case 8) --------


RULE_KEYS = ("target", "floor", "suicide", "blind_nil", "blind-nil-trail", "deck", "nil_points", "bag_limit",
             "min_team_bid", "ten_for_200", "spades_any_time", "nonsense")
RULE_VALUES = ("300", "--300", "-200", "--200", "1e400", "nan", "inf", "yes", "no", "none", "３００", "-0", "0x10",
               "9" * 50, "", "jokers", "1.5", " 400 ")
_hostile_scalar = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(min_value=10 ** 30), st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([1e400, -1e400, 1.0, 0.0, -0.0, 2 ** 63, 10 ** 400]),
    st.text(max_size=30), st.just(MARK * 5000), st.sampled_from(["AS", "blind", "easy", "1.0.0", "jokers"]))
_hostile = st.recursive(_hostile_scalar, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(["n", "hands", "trick", "leader", "version"]), inner,
                                                 max_size=3)), max_leaves=12)
_rules_text = st.lists(st.tuples(st.sampled_from(RULE_KEYS), st.sampled_from(RULE_VALUES)), max_size=5).map(
    lambda pairs: ",".join(["1.0.0", *(f"{k}={v}" for k, v in pairs)]))
_nested = st.integers(1, 40).map(lambda n: "[" * n + "1" + "]" * n)
#: Every message except the ones that start a long search from good input (their hostile forms are below).
_FNS = sorted(set(FNS) - {"analyse", "dd_table", "bid_advice"})
_ARG_NAMES = ("n", "card", "number", "level", "seed", "save", "text", "partner", "opponents", "rules", "hand",
              "step", "budget", "position", "humans")


def _position(leader, broken, bids, won) -> dict:
    return {"hands": [["AS"], ["KS"], ["QS"], ["JS"]], "trick": [], "leader": leader, "broken": broken,
            "bids": bids, "won": won}


@st.composite
def _hostile_message(draw) -> str:
    kind = draw(st.integers(0, 6))
    if kind == 0:      # any message, hostile values in the arguments it reads
        args = draw(st.dictionaries(st.sampled_from(_ARG_NAMES), st.one_of(_hostile, _rules_text, _nested), max_size=4))
        return json.dumps({"fn": draw(st.sampled_from(_FNS)), "args": args})
    if kind == 1:      # house rules as text: repeated keys, malformed numbers
        return json.dumps({"fn": draw(st.sampled_from(["rules", "new_match"])), "args": {"rules": draw(_rules_text)}})
    if kind == 2:      # house rules as a dictionary with hostile values
        rules = draw(st.dictionaries(st.sampled_from([k.replace("-", "_") for k in RULE_KEYS] + ["version"]), _hostile,
                                     max_size=4))
        return json.dumps({"fn": "rules", "args": {"rules": rules}})
    if kind == 3:      # a position to analyse with hostile numbers (an instant solve when valid)
        pos = _position(draw(st.one_of(st.integers(0, 3), _hostile_scalar)), draw(st.one_of(st.booleans(), _hostile_scalar)),
                        draw(st.one_of(st.just([1, 1, 1, 1]), st.lists(_hostile_scalar, max_size=5))),
                        draw(st.one_of(st.just([3, 3, 3, 3]), st.lists(_hostile_scalar, max_size=5))))
        text = json.dumps({"fn": "analyse", "args": {"position": pos, "budget": 1}})
        return text.replace("Infinity", "1e400").replace("NaN", "1e400")   # JSON spells infinity 1e400
    if kind == 4:      # a session save with a hostile version
        session = json.loads(bridge.handle(json.dumps({"fn": "save"})))
        save = session["result"]["save"] if session["ok"] else '{"format":"spades-session"}'
        data = json.loads(save)
        data["version"] = draw(_hostile)
        return json.dumps({"fn": "resume", "args": {"save": json.dumps(data)}})
    if kind == 5:      # repeated keys in the message itself, and long or deep junk
        value = json.dumps(draw(_hostile))
        return '{"fn":"rules","fn":"new_match","args":{"seed":1,"seed":' + value + '}}'
    return json.dumps({"fn": draw(st.sampled_from(["analyse", "dd_table", "bid_advice"])),
                       "args": {"text": draw(st.one_of(_hostile, _nested)), "step": draw(_hostile_scalar),
                                "hand": draw(_hostile_scalar), "budget": draw(_hostile_scalar)}})


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(messages=st.lists(_hostile_message(), min_size=1, max_size=4))
def test_hostile_argument_values_never_reach_internal(messages):
    """Huge floats, NaN and infinity, deep nesting, wrong types, repeated keys and long strings:
    every reply is a success or a coded refusal, never ``internal``."""
    bridge.SESSIONS.clear()
    bridge.handle(json.dumps({"fn": "new_match", "args": {"seed": 5, "partner": "easy", "opponents": "easy"}}))
    for message in messages:
        code = _check(bridge.handle(message))
        assert code != "internal", message[:300]
