"""spades.Rules: presets, the dictionary and text forms, validation with coded errors."""
from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spades
from spades import BadRules, Rules
from spades.rules import PRESETS

PRESET_NAMES = ["1.0.0", "jokers", "deuces", "suicide", "blind-nil", "quick"]


def test_default_is_variant_1_0_0_with_the_rules_page_values():
    r = Rules()
    assert r.name == "1.0.0" and r.default and r.to_text() == "1.0.0"
    assert (r.deck, r.target, r.floor, r.nil_points, r.bag_limit, r.bag_penalty, r.min_team_bid) == \
        ("standard", 500, -200, 100, 10, 100, 0)
    assert not (r.blind_nil or r.suicide or r.ten_for_200 or r.spades_any_time)
    assert spades.Match(seed=1).rules == r


def test_presets_are_exactly_the_issue_list_and_differ_as_named():
    assert list(PRESETS) == PRESET_NAMES
    assert Rules.preset("jokers") == Rules(deck="jokers")
    assert Rules.preset("deuces") == Rules(deck="deuces")
    assert Rules.preset("suicide") == Rules(suicide=True)
    assert Rules.preset("blind-nil") == Rules(blind_nil=True, blind_nil_trail=100)
    assert Rules.preset("quick") == Rules(target=250)
    for name in PRESET_NAMES:
        assert Rules.preset(name).name == name


@pytest.mark.parametrize("bad", ["Jokers", "", None, 3, "1.0.1"])
def test_unknown_preset_is_refused_with_a_code(bad):
    with pytest.raises(BadRules) as e:
        Rules.preset(bad)
    assert e.value.code == "unknown_preset"


@pytest.mark.parametrize("changes,code", [
    ({"deck": "tarot"}, "bad_option"), ({"target": 50}, "bad_option"), ({"target": True}, "bad_option"),
    ({"floor": 0}, "bad_option"), ({"floor": -200.0}, "bad_option"), ({"nil_points": 75}, "bad_option"),
    ({"bag_limit": 7}, "bad_option"), ({"min_team_bid": 5}, "bad_option"), ({"suicide": 1}, "bad_option"),
    ({"blind_nil_trail": -1}, "bad_option"),
    ({"suicide": True, "min_team_bid": 2}, "rules_conflict"),
])
def test_invalid_options_are_refused_with_a_code(changes, code):
    with pytest.raises(BadRules) as e:
        Rules(**changes)
    assert e.value.code == code
    with pytest.raises(BadRules) as e:
        Rules.from_dict(changes)
    assert e.value.code == code


@pytest.mark.parametrize("data,code", [
    ([], "bad_rules"), ("jokers", "bad_rules"), ({"decks": "jokers"}, "bad_rules"),
    ({"version": 2}, "bad_rules"), ({"version": True}, "bad_rules"),
])
def test_malformed_dictionaries_are_refused(data, code):
    with pytest.raises(BadRules) as e:
        Rules.from_dict(data)
    assert e.value.code == code


def test_rules_are_immutable_and_hashable():
    r = Rules.preset("jokers")
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.target = 300  # type: ignore[misc]
    assert len({Rules(), Rules(), r}) == 2


options = st.builds(
    Rules, deck=st.sampled_from(["standard", "jokers", "deuces"]), blind_nil=st.booleans(),
    blind_nil_trail=st.integers(0, 500), suicide=st.just(False), target=st.integers(100, 1000),
    floor=st.one_of(st.none(), st.integers(-1000, -100)), nil_points=st.sampled_from([100, 50]),
    bag_limit=st.sampled_from([10, 5, 0]), ten_for_200=st.booleans(), min_team_bid=st.integers(0, 4),
    spades_any_time=st.booleans())


@settings(max_examples=200)
@given(rules=st.one_of(options, options.map(lambda r: dataclasses.replace(r, suicide=True, min_team_bid=0))))
def test_dict_and_text_forms_round_trip(rules):
    d = json.loads(json.dumps(rules.to_dict()))
    assert d["version"] == 1 and d["name"] == rules.name
    assert Rules.from_dict(d) == rules
    assert Rules.parse(rules.to_text()) == rules
    assert Rules.read(rules.to_text()) == Rules.read(d) == rules


def test_text_form_combines_a_preset_with_options():
    r = Rules.parse("jokers, target=300, floor=none, ten-for-200=yes")
    assert (r.deck, r.target, r.floor, r.ten_for_200) == ("jokers", 300, None, True)
    assert r.name == "custom"
    assert r.to_text() == "1.0.0,deck=jokers,target=300,floor=none,ten_for_200=yes"
    assert Rules.parse("target=250") == Rules.preset("quick")


@pytest.mark.parametrize("text,code", [
    ("nope", "unknown_preset"), ("jokers,colour=red", "bad_rules"), ("jokers,target", "bad_rules"),
    ("target=abc", "bad_option"), ("suicide,min_team_bid=3", "rules_conflict"), ("", "bad_rules"),
    ("x" * 500, "bad_rules"),
])
def test_text_form_refusals(text, code):
    with pytest.raises(BadRules) as e:
        Rules.parse(text)
    assert e.value.code == code


def test_match_accepts_rules_in_every_form_and_refuses_bad_ones():
    for form in (Rules.preset("suicide"), "suicide", {"suicide": True}):
        assert spades.Match(seed=2, rules=form).rules == Rules(suicide=True)
    with pytest.raises(BadRules) as e:
        spades.Match(seed=2, rules="nope")
    assert e.value.code == "unknown_preset"


@pytest.mark.parametrize("text,code", [
    ("1.0.0,target=--300", "bad_option"), ("floor=--200", "bad_option"), ("target=3-00", "bad_option"),
    ("target=300,target=400", "bad_rules"), ("suicide=yes,suicide=no", "bad_rules"),
    ("blind-nil,blind-nil-trail=0,blind_nil_trail=5", "bad_rules"), ("deck=jokers,deck=jokers", "bad_rules")])
def test_malformed_numbers_and_repeated_options_are_refused(text, code):
    """A malformed number is ``bad_option``, an option given twice ``bad_rules`` — never a crash
    and never the last one silently winning (issue 30, case 8)."""
    with pytest.raises(BadRules) as refused:
        Rules.parse(text)
    assert refused.value.code == code
