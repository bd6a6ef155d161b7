"""Saves: valid ones round-trip; fuzzed and hand-broken ones are refused with BadSave.

A refused save must raise :class:`spades.BadSave` with one of the documented codes and
never any other exception type. A damaged save that is still accepted must describe
exactly the match it loads to (no silently ignored or repaired data).
"""
from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spades import BadSave, Match
from spades.save import MAX_TEXT, from_dict, loads

CODES = {"not_json", "too_large", "too_deep", "wrong_format", "wrong_version", "malformed", "bad_deal",
         "illegal_history", "inconsistent"}
RANKS = "23456789TJQKA"


def ex(n: int) -> int:
    return max(3, n * settings.default.max_examples // 100)


def _load(payload):
    """Load ``payload`` (text, bytes or a dict); return the match or the BadSave.

    Any other exception escapes and fails the test."""
    try:
        return from_dict(payload) if isinstance(payload, dict) else loads(payload)
    except BadSave as exc:
        assert exc.code in CODES, exc.code
        assert isinstance(exc.message, str) and exc.message
        return exc


def refused(payload, *codes):
    got = _load(payload)
    assert isinstance(got, BadSave), "the broken save was accepted"
    if codes:
        assert got.code in codes, (got.code, got.message)
    return got


def _find(predicate, make, tries=400):
    for i in range(tries):
        m = make(i)
        if predicate(m):
            return m
    raise AssertionError("no match with the wanted shape found")


@pytest.fixture(scope="module")
def saves(random_player):
    """Matches at various points, keyed by name (each has at least the shape its name says)."""
    rp = random_player

    def make(i, actions=None, hands=None, style="realistic"):
        m = Match(seed=1000 + i)
        rp.play_random(m, random.Random(i), max_actions=actions, max_hands=hands, bid_style=style)
        return m

    out = {
        "fresh": Match(seed=11),
        "mid_bid": _find(lambda m: m.phase == "bid" and m.hand_number >= 2 and any(b is not None for b in m.bids),
                         lambda i: make(i, actions=56 + 2)),
        "mid_play": _find(lambda m: m.phase == "play" and m.hand_number >= 2 and len(m.hands_played) >= 1,
                          lambda i: make(i, actions=56 * 2 + 23)),
        "boundary": _find(lambda m: m.phase == "bid" and len(m.hands_played) >= 2 and all(b is None for b in m.bids),
                          lambda i: make(i, hands=2)),
        "over": _find(lambda m: m.phase == "over" and len(m.hands_played) >= 2, lambda i: make(i)),
    }
    deck = [r + s for s in "CDHS" for r in RANKS]
    random.Random(5).shuffle(deck)
    dealt = Match(seed=77, deal=[deck[i::4] for i in range(4)], dealer=2, scores=(310, -120), bags=(7, 9))
    rp.play_random(dealt, random.Random(9), max_actions=56 + 30, bid_style="realistic")
    assert dealt.phase != "over"
    out["custom"] = dealt
    return out


NAMES = ("fresh", "mid_bid", "mid_play", "boundary", "over", "custom")


# -- valid saves round-trip ----------------------------------------------------------------------

def _same(a, b):
    assert a == b
    assert a.to_json() == b.to_json()
    assert a.hands_played == b.hands_played and a.actions == b.actions
    assert [a.view(s) for s in range(4)] == [b.view(s) for s in range(4)]
    assert (a.phase, a.to_act, a.scores, a.bags, a.winner, a.dealer) == \
           (b.phase, b.to_act, b.scores, b.bags, b.winner, b.dealer)


@pytest.mark.parametrize("name", NAMES)
def test_saves_round_trip(saves, name):
    m = saves[name]
    text = m.to_json()
    _same(Match.from_json(text), m)
    _same(loads(text.encode("utf-8")), m)
    data = json.loads(text)
    assert data["format"] == "spades-match" and data["version"] == 1 and data["variant"] == "1.0.0"
    assert data["state"] == {"phase": m.phase, "to_act": m.to_act, "scores": list(m.scores),
                             "bags": list(m.bags), "winner": m.winner}


def test_long_match_round_trips_at_every_hand(random_player):
    """A long match (realistic bids, played to its end) is saved and restored after every
    hand and at other points along the way."""
    def make(i):
        m = Match(seed=500 + i)
        random_player.play_random(m, random.Random(i), bid_style="realistic",
                                  play_style=("low", "high", "uniform")[i % 3])
        return m

    m = _find(lambda m: m.phase == "over" and len(m.hands_played) >= 8, make)
    actions = m.actions
    replay = Match.from_json(m.to_json())
    replay.undo(len(actions))  # back to the start of the same match
    assert replay.actions == [] and replay.hand_number == 1
    for i, action in enumerate(actions, start=1):
        replay.act(action)
        if i % 56 == 0 or i % 97 == 0:
            _same(Match.from_json(replay.to_json()), replay)
    _same(replay, m)
    _same(Match.from_json(m.to_json()), m)
    assert m.winner in (0, 1)


def test_custom_start_round_trips(random_player):
    """Match(deal=…, dealer=…, scores=…, bags=…) round-trips at its start, mid-hand, at the next deal and at the end."""
    deck = [r + s for s in "SHDC" for r in RANKS]
    random.Random(42).shuffle(deck)
    deal = [sorted(deck[i::4]) for i in range(4)]
    m = Match(seed="custom", deal=deal, dealer=3, scores=(455, 120), bags=(8, 2))
    start = json.loads(m.to_json())["start"]
    assert start["dealer"] == 3 and start["scores"] == [455, 120] and start["bags"] == [8, 2]
    assert [set(h) for h in start["deal"]] == [set(h) for h in deal]
    _same(Match.from_json(m.to_json()), m)
    rnd = random.Random(1)
    for step in (17, 56 - 17, 56, 200):
        random_player.play_random(m, rnd, max_actions=step, bid_style="realistic")
        _same(Match.from_json(m.to_json()), m)
    assert [set(h) for h in m.hands_played[0].deal] == [set(h) for h in deal]
    assert m.hands_played[0].dealer == 3
    assert [t.score_before for t in m.hands_played[0].scores] == [455, 120]


# -- fuzzing --------------------------------------------------------------------------------------

@settings(max_examples=ex(300))
@given(name=st.sampled_from(NAMES), at=st.floats(0, 1, exclude_max=True), as_bytes=st.booleans())
def test_truncated_saves_are_refused(saves, name, at, as_bytes):
    text = saves[name].to_json()
    cut = text[:int(at * len(text))]
    refused(cut.encode() if as_bytes else cut, "not_json")


def _strict(a, b) -> bool:
    """Equality that also compares types (True is not 1, 1.0 is not 1)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_strict(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_strict(x, y) for x, y in zip(a, b))
    return a == b


def _accepted_means_faithful(mutated_text, got):
    """A damaged save that loads must describe exactly the match it gave."""
    assert isinstance(got, Match)
    assert _strict(json.loads(got.to_json()), json.loads(mutated_text))


@settings(max_examples=ex(500))
@given(name=st.sampled_from(NAMES), flips=st.lists(st.tuples(st.floats(0, 1, exclude_max=True),
                                                             st.integers(1, 255)), min_size=1, max_size=3))
def test_byte_flips_are_refused_or_faithful(saves, name, flips):
    raw = bytearray(saves[name].to_json().encode())
    for at, xor in flips:
        raw[int(at * len(raw))] ^= xor
    got = _load(bytes(raw))
    if isinstance(got, Match):
        _accepted_means_faithful(raw.decode(), got)


@settings(max_examples=ex(300))
@given(name=st.sampled_from(NAMES), data=st.data())
def test_card_changes_are_refused_or_faithful(saves, name, data):
    """Replace one card name anywhere in the save by another card: refused, or the
    replacement was itself a legal history (then the save loads to exactly that)."""
    text = saves[name].to_json()
    cards = [i for i in range(len(text) - 3) if text[i] == '"' and text[i + 3] == '"'
             and text[i + 1] in RANKS and text[i + 2] in "CDHS"]
    i = data.draw(st.sampled_from(cards))
    new = data.draw(st.sampled_from([r + s for r in RANKS for s in "CDHS" if r + s != text[i + 1:i + 3]]))
    mutated = text[:i + 1] + new + text[i + 3:]
    got = _load(mutated)
    if isinstance(got, Match):
        _accepted_means_faithful(mutated, got)


json_values = st.recursive(
    st.none() | st.integers(-10**6, 10**6) | st.text(max_size=6)
    | st.sampled_from(["AS", "2C", "bid", "play", "over", "0000000000000000"]),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=12)


def _paths(node, path=()):
    yield path
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, path + (i,))


@settings(max_examples=ex(500))
@given(name=st.sampled_from(NAMES), data=st.data(), how=st.sampled_from(["replace", "delete", "add"]))
def test_structural_damage_is_refused_or_faithful(saves, name, data, how):
    """Replace, delete or add a value anywhere in the save's JSON tree (no bools or floats:
    those have their own tests below)."""
    tree = json.loads(saves[name].to_json())
    paths = list(_paths(tree))[1:]
    path = data.draw(st.sampled_from(paths))
    parent = tree
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    if how == "replace":
        value = data.draw(json_values)
        parent[key] = value
    elif how == "delete":
        del parent[key]
    else:
        value = data.draw(json_values)
        if isinstance(parent, dict):
            parent[data.draw(st.text(min_size=1, max_size=6))] = value
        else:
            parent.insert(key, value)
    text = json.dumps(tree)
    got = _load(text)
    assert isinstance(_load(copy.deepcopy(tree)), type(got))
    if isinstance(got, Match):
        _accepted_means_faithful(text, got)


# -- hand-broken saves -----------------------------------------------------------------------------

def _seat_of_plays(record):
    return [seat for t in record.tricks for seat, _ in t.plays]


def _renege(m):
    """(hand index, play index, card) making a follower play off-suit while holding the led suit."""
    for h, record in enumerate(m.hands_played):
        remaining = [set(x) for x in record.deal]
        k = 0
        for trick in record.tricks:
            led = trick.plays[0][1][1]
            for pos, (seat, card) in enumerate(trick.plays):
                if pos and card[1] == led:
                    off = sorted(c for c in remaining[seat] if c[1] != led)
                    if off:
                        return h, k, off[0]
                remaining[seat].discard(card)
                k += 1
    raise AssertionError("no renege opportunity")


def _early_spade_lead(m):
    """(hand index, play index, spade) leading a spade before spades are broken from a mixed hand."""
    for h, record in enumerate(m.hands_played):
        remaining = [set(x) for x in record.deal]
        broken = False
        k = 0
        for trick in record.tricks:
            leader = trick.leader
            spades = sorted(c for c in remaining[leader] if c[1] == "S")
            if not broken and spades and any(c[1] != "S" for c in remaining[leader]):
                return h, k, spades[0]
            for seat, card in trick.plays:
                remaining[seat].discard(card)
                broken = broken or card[1] == "S"
                k += 1
    raise AssertionError("no early spade lead possible")


def _set(path, value):
    def edit(d, m):
        node = d
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    return edit


def _swap_plays_of_two_seats(d, m):
    record = m.hands_played[0]
    seats = _seat_of_plays(record)
    j = next(j for j in range(5, 52) if seats[j] != seats[4])
    plays = d["hands"][0]["plays"]
    plays[4], plays[j] = plays[j], plays[4]


def _tamper_deal(d, m):
    deal = d["hands"][0]["deal"]
    deal[0][0], deal[1][0] = deal[1][0], deal[0][0]


def _duplicate_card(d, m):
    deal = d["hands"][-1]["deal"]
    deal[0][0] = deal[1][0]


def _renege_edit(d, m):
    h, k, card = _renege(m)
    d["hands"][h]["plays"][k] = card


def _spade_lead_edit(d, m):
    h, k, card = _early_spade_lead(m)
    d["hands"][h]["plays"][k] = card


def _append_after_end(d, m):
    d["hands"].append(copy.deepcopy(d["hands"][-1]))


def _drop_next_hand(d, m):
    d["hands"].pop()


def _shift_bid_order(d, m):
    bids = d["hands"][-1]["bids"]
    first = (d["hands"][-1]["dealer"] + 1) % 4
    bids[first], bids[(first + 1) % 4] = None, bids[first]


def _case(name, base, edit, *codes, marks=()):
    return pytest.param(base, edit, codes, id=name, marks=marks)


BROKEN = [
    _case("format-missing", "mid_play", lambda d, m: d.pop("format"), "wrong_format"),
    _case("format-other", "mid_play", _set(("format",), "spades-session"), "wrong_format"),
    _case("version-2", "mid_play", _set(("version",), 2), "wrong_version"),
    _case("version-string", "mid_play", _set(("version",), "1"), "wrong_version"),
    _case("version-missing", "mid_play", lambda d, m: d.pop("version"), "wrong_version"),
    _case("variant-other", "mid_play", _set(("variant",), "1.0.1"), "wrong_version"),
    _case("variant-missing", "mid_play", lambda d, m: d.pop("variant"), "wrong_version"),
    _case("extra-top-key", "mid_play", _set(("comment",), "hi"), "malformed"),
    _case("extra-start-key", "mid_play", _set(("start", "seed"), 1), "malformed"),
    _case("extra-state-key", "mid_play", _set(("state", "trick"), None), "malformed"),
    _case("extra-hand-key", "mid_play", _set(("hands", 0, "note"), ""), "malformed"),
    _case("missing-state", "mid_play", lambda d, m: d.pop("state"), "malformed"),
    _case("missing-start-bags", "mid_play", lambda d, m: d["start"].pop("bags"), "malformed"),
    _case("missing-hand-plays", "mid_play", lambda d, m: d["hands"][0].pop("plays"), "malformed"),
    _case("no-hands", "fresh", _set(("hands",), []), "malformed"),
    _case("hands-not-list", "fresh", _set(("hands",), {"0": 1}), "malformed"),
    _case("hand-not-object", "mid_play", _set(("hands", 0), [1, 2]), "malformed"),
    _case("rng-upper", "mid_play", lambda d, m: d["start"].__setitem__("rng", d["start"]["rng"].upper()
                                                                          .replace("0", "A")), "malformed"),
    _case("rng-short", "mid_play", lambda d, m: d["start"].__setitem__("rng", d["start"]["rng"][1:]), "malformed"),
    _case("rng-int", "mid_play", _set(("start", "rng"), 5), "malformed"),
    _case("rng-changed", "mid_play", lambda d, m: d["start"].__setitem__(
        "rng", format(int(d["start"]["rng"], 16) ^ 1, "016x")), "bad_deal"),
    _case("start-scores-end-match", "fresh", _set(("start", "scores"), [600, 0]), "malformed"),
    _case("start-scores-strings", "fresh", _set(("start", "scores"), ["0", "0"]), "malformed"),
    _case("start-scores-bool", "fresh", _set(("start", "scores"), [False, 0]), "malformed"),
    _case("start-bags-10", "fresh", _set(("start", "bags"), [10, 0]), "malformed"),
    _case("start-bags-bool", "fresh", _set(("start", "bags"), [True, 0]), "malformed"),
    _case("start-dealer-4", "fresh", _set(("start", "dealer"), 4), "malformed"),
    _case("start-dealer-bool", "custom", _set(("start", "dealer"), True), "malformed"),
    _case("start-dealer-string", "custom", _set(("start", "dealer"), "2"), "malformed"),
    _case("start-deal-duplicate", "custom", lambda d, m: d["start"]["deal"][0].__setitem__(
        0, d["start"]["deal"][1][0]), "malformed"),
    _case("start-deal-12-cards", "custom", lambda d, m: d["start"]["deal"][0].pop(), "malformed"),
    _case("start-deal-tampered", "custom", lambda d, m: d["start"]["deal"].reverse(), "bad_deal"),
    _case("hand-deal-tampered", "mid_play", _tamper_deal, "bad_deal"),
    _case("hand-deal-duplicate", "mid_play", _duplicate_card, "bad_deal"),
    _case("hand-deal-missing-card", "mid_play", lambda d, m: d["hands"][-1]["deal"][2].pop(), "bad_deal"),
    _case("hand-deal-not-cards", "mid_play", lambda d, m: d["hands"][0]["deal"][3].__setitem__(0, "1X"), "bad_deal"),
    _case("hand-deal-null", "mid_play", _set(("hands", 0, "deal"), None), "bad_deal"),
    _case("hand-dealer-changed", "mid_play", lambda d, m: d["hands"][1].__setitem__(
        "dealer", (d["hands"][1]["dealer"] + 1) % 4), "bad_deal"),
    _case("hand-dealer-string", "mid_play", lambda d, m: d["hands"][0].__setitem__(
        "dealer", str(d["hands"][0]["dealer"])), "bad_deal"),
    _case("swap-two-plays", "mid_play", _swap_plays_of_two_seats, "illegal_history"),
    _case("renege", "over", _renege_edit, "illegal_history"),
    _case("spade-led-unbroken", "over", _spade_lead_edit, "illegal_history"),
    _case("card-not-a-card", "mid_play", lambda d, m: d["hands"][-1]["plays"].__setitem__(0, "ZZ"), "illegal_history"),
    _case("card-int", "mid_play", lambda d, m: d["hands"][-1]["plays"].__setitem__(0, 51), "illegal_history"),
    _case("bid-out-of-range", "mid_play", lambda d, m: d["hands"][-1]["bids"].__setitem__(0, 14), "illegal_history"),
    _case("bid-negative", "mid_play", lambda d, m: d["hands"][-1]["bids"].__setitem__(1, -1), "illegal_history"),
    _case("bid-string", "mid_play", lambda d, m: d["hands"][-1]["bids"].__setitem__(2, "3"), "illegal_history"),
    _case("bid-bool", "mid_play", lambda d, m: d["hands"][-1]["bids"].__setitem__(3, True), "illegal_history"),
    _case("bid-order-gap", "mid_bid", _shift_bid_order, "malformed"),
    _case("earlier-hand-three-bids", "mid_bid", lambda d, m: d["hands"][0]["bids"].__setitem__(
        d["hands"][0]["dealer"], None), "malformed"),
    _case("plays-before-bids", "mid_play", lambda d, m: d["hands"][-1]["bids"].__setitem__(
        d["hands"][-1]["dealer"], None), "malformed"),
    _case("five-bids", "mid_play", lambda d, m: d["hands"][-1]["bids"].append(3), "malformed"),
    _case("53-plays", "over", lambda d, m: d["hands"][0]["plays"].append("AS"), "malformed"),
    _case("earlier-hand-incomplete", "mid_play", lambda d, m: d["hands"][0]["plays"].pop(), "malformed"),
    _case("plays-not-list", "mid_play", _set(("hands", -1, "plays"), "AS KS"), "malformed"),
    _case("hands-after-end", "over", _append_after_end, "inconsistent"),
    _case("missing-next-hand", "boundary", _drop_next_hand, "inconsistent"),
    _case("scores-changed", "mid_play", lambda d, m: d["state"]["scores"].__setitem__(0, d["state"]["scores"][0] + 10),
          "inconsistent"),
    _case("bags-changed", "mid_play", lambda d, m: d["state"]["bags"].__setitem__(1, (d["state"]["bags"][1] + 1) % 10),
          "inconsistent"),
    _case("phase-changed", "mid_play", _set(("state", "phase"), "bid"), "inconsistent"),
    _case("to-act-changed", "mid_play", lambda d, m: d["state"].__setitem__("to_act", (d["state"]["to_act"] + 1) % 4),
          "inconsistent"),
    _case("to-act-string", "mid_play", lambda d, m: d["state"].__setitem__("to_act", str(d["state"]["to_act"])),
          "inconsistent"),
    _case("scores-strings", "mid_play", lambda d, m: d["state"].__setitem__(
        "scores", [str(v) for v in d["state"]["scores"]]), "inconsistent"),
    _case("winner-changed", "over", lambda d, m: d["state"].__setitem__("winner", 1 - d["state"]["winner"]),
          "inconsistent"),
    _case("winner-while-playing", "mid_play", _set(("state", "winner"), 0), "inconsistent"),
    _case("over-claimed", "mid_play", lambda d, m: d["state"].update(phase="over", to_act=None), "inconsistent"),
]


@pytest.mark.parametrize("base,edit,codes", BROKEN)
def test_hand_broken_saves_are_refused(saves, base, edit, codes):
    m = saves[base]
    data = json.loads(m.to_json())
    edit(data, m)
    text = json.dumps(data)
    err = refused(text, *codes)
    assert refused(data, *codes).code == err.code
    assert Match.from_json(m.to_json()) == m  # the original still loads


def test_refused_history_names_the_rule(saves):
    m = saves["over"]
    data = json.loads(m.to_json())
    _renege_edit(data, m)
    assert "must follow suit" in refused(json.dumps(data), "illegal_history").message
    data = json.loads(m.to_json())
    _spade_lead_edit(data, m)
    assert "spades can be led only after" in refused(json.dumps(data), "illegal_history").message


@pytest.mark.parametrize("payload,code", [
    ("", "not_json"), ("{", "not_json"), ("{'format': 'spades-match'}", "not_json"), ("nope", "not_json"),
    (b"\xff\xfe\x00", "not_json"), (None, "not_json"), (5, "not_json"), (["x"], "not_json"),
    ("[" * 50_000, "too_deep"), ('{"a":' * 50_000, "too_deep"), ("[" * 100_000 + "]" * 100_000, "too_deep"),
    ('{"format":"spades-match","version":' + "9" * 5000 + "}", "not_json"),
    ("[]", "wrong_format"), ("null", "wrong_format"), ("42", "wrong_format"), ('"spades-match"', "wrong_format"),
    ("NaN", "not_json"), ("{}", "wrong_format"),
    ('{"format":"spades-match"}', "wrong_version"),
    ('{"format":"spades-match","version":1,"variant":"1.0.0"}', "malformed"),
], ids=lambda v: repr(v)[:24] if not isinstance(v, str) or len(v) < 40 else f"<{len(v)} chars>")
def test_not_saves_are_refused(payload, code):
    refused(payload, code)


def test_huge_text_is_refused_early():
    refused("x" * (MAX_TEXT + 1), "too_large")
    refused('{"format":"spades-match","pad":"' + "a" * MAX_TEXT + '"}', "too_large")
    refused(b" " * (MAX_TEXT + 5), "too_large")


def test_damaged_json_is_called_damaged_json(saves):
    text = saves["mid_play"].to_json()
    for damaged in (text[:-1], text[: len(text) // 2], text.replace(":", ";", 1)):
        assert refused(damaged, "not_json").message == "Not a save: the text is not valid JSON (damaged or cut short?)."
    assert refused('{"format": "other"}', "wrong_format").message.startswith("Not a Spades match save")


def _start_edit(field, value):
    def edit(d, m):
        d["start"][field] = value
    return edit


@pytest.mark.parametrize("field,value", [
    ("dealer", 1.0), ("dealer", True), ("dealer", 4), ("dealer", -1), ("dealer", "1"),
    ("scores", [1.0, 0]), ("scores", [True, 0]), ("scores", [10**100, 10**100]), ("scores", [-10**100, -10**100]),
    ("scores", [100_001, 100_001]), ("scores", [0]), ("bags", [0.0, 0]), ("bags", [10, 0]), ("bags", [False, 0]),
    ("rng", "000000000000000G"), ("rng", 5), ("deal", [["AS"] * 13] * 4), ("deal", 1.5),
])
def test_bad_start_values_are_refused_as_malformed(saves, field, value):
    data = json.loads(saves["fresh"].to_json())
    edit = _start_edit(field, value)
    edit(data, saves["fresh"])
    refused(json.dumps(data), "malformed")
    refused(data, "malformed")


def test_custom_positions_are_marked_and_carried_through_saves(saves):
    assert not saves["fresh"].custom and not Match.from_json(saves["over"].to_json()).custom
    assert saves["custom"].custom and Match.from_json(saves["custom"].to_json()).custom
    # a self-consistent tampered start (seat 0 dealt all thirteen spades, odd totals) loads only as custom
    deck = [r + s for s in "SHDC" for r in RANKS]
    tampered = Match(seed=1, deal=[deck[0:13], deck[13:26], deck[26:39], deck[39:52]], scores=(490, -190))
    loaded = Match.from_json(tampered.to_json())
    assert loaded.custom and loaded.hand(0) == sorted(deck[:13], key=deck.index) == [c + "S" for c in "23456789TJQKA"]
    assert Match(seed=1, scores=(0, 0), bags=(0, 1)).custom and not Match(seed=1, dealer=2).custom


# -- wrong types that compare equal to the right ones ---------------------------------------------


def _bool_dealer(d, m):
    hand = next(h for h in d["hands"] if h["dealer"] in (0, 1))
    hand["dealer"] = bool(hand["dealer"])


@pytest.mark.parametrize("base,edit", [
    pytest.param("mid_play", _set(("version",), True), id="version-true"),
    pytest.param("mid_play", _set(("version",), 1.0), id="version-float"),
    pytest.param("mid_play", lambda d, m: d["state"].__setitem__("to_act", float(d["state"]["to_act"])),
                 id="to_act-float"),
    pytest.param("mid_play", lambda d, m: d["state"].__setitem__("scores", [float(v) for v in d["state"]["scores"]]),
                 id="scores-float"),
    pytest.param("fresh", _set(("state", "bags"), [False, False]), id="bags-bool"),
    pytest.param("over", _bool_dealer, id="hand-dealer-bool"),
    pytest.param("fresh", _set(("state", "winner"), False), id="winner-false"),
    pytest.param("over", lambda d, m: d["state"].__setitem__("winner", float(d["state"]["winner"])),
                 id="winner-float"),
])
def test_bool_or_float_for_an_int_is_refused(saves, base, edit):
    m = saves[base]
    data = json.loads(m.to_json())
    edit(data, m)
    assert not _strict(data, json.loads(m.to_json()))
    refused(json.dumps(data))


def test_a_save_with_a_blind_nil_under_rules_without_one_is_refused():
    """A 1.0.0 save (``blind_nil`` off) that holds a blind bid is refused by the replay (issue 30, case 5)."""
    m = Match(seed=5)
    m.bid(3)
    data = json.loads(m.to_json())
    bids = data["hands"][0]["bids"]
    seat = next(s for s, b in enumerate(bids) if b is not None)
    bids[seat] = "blind"
    refused(json.dumps(data), "illegal_history")
