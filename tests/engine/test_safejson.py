"""Bounded JSON parsing (:mod:`spades.safejson`): size and depth checked before parsing."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spades.errors import BadInput, SpadesError
from spades.safejson import EXCERPT_CHARS, depth, excerpt, loads

LIMITS = {"max_chars": 1_000_000, "max_depth": 64}


def ex(n: int) -> int:
    return max(3, n * settings.default.max_examples // 100)


def refused(text, **limits) -> BadInput:
    with pytest.raises(BadInput) as info:
        loads(text, **(limits or LIMITS))
    assert isinstance(info.value, SpadesError) and isinstance(info.value, ValueError)
    assert len(info.value.message) <= 200
    return info.value


@pytest.mark.parametrize("opener,closer", [("[", "]"), ('{"a":', "}")])
def test_100000_deep_input_is_refused_without_recursion(opener, closer):
    text = opener * 100_000 + "1" + closer * 100_000
    assert refused(text).code == "too_deep"


def test_deep_unclosed_input_is_refused_as_too_deep():
    assert refused("[" * 100_000).code == "too_deep"


def test_depth_at_the_limit_is_accepted_and_one_more_refused():
    assert loads("[" * 64 + "]" * 64, **LIMITS) == json.loads("[" * 64 + "]" * 64)
    assert refused("[" * 65 + "]" * 65).code == "too_deep"


def test_brackets_inside_strings_do_not_count():
    text = json.dumps({"a": "[" * 1000, "b": ["]]]{{{", 'x\\"[[[']})
    assert depth(text) == 2
    assert loads(text, max_chars=10_000, max_depth=2) == json.loads(text)


def test_size_limit_is_checked_first_and_not_echoed():
    text = '"' + "x" * 5000 + '"'
    error = refused(text, max_chars=1000, max_depth=5)
    assert error.code == "too_large"
    assert "xxxxx" not in error.message
    assert loads(text, max_chars=len(text), max_depth=5) == "x" * 5000


@pytest.mark.parametrize("text", ["", "{", "[1,]", "{'a': 1}", "tru", '"unterminated', "NaN",
                                  "[Infinity]", "-Infinity", "1" * 5000, '{"a" 1}'])
def test_not_json_is_refused_with_its_code(text):
    error = refused(text)
    assert error.code == "not_json"
    assert text[:20] not in error.message or len(text) < 4


@pytest.mark.parametrize("value", [None, 12, b"[]", ["[]"]])
def test_a_non_string_is_refused_as_not_json(value):
    assert refused(value).code == "not_json"


def test_depth_counts_objects_and_arrays_together():
    assert depth('{"a":[{"b":[[]]}]}') == 5
    assert depth("1") == 0
    assert depth("]]][[") == 0   # counted from the start: such text is not JSON anyway
    assert depth("[]]][[[[") == 2


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
                    max_leaves=20))
@settings(max_examples=ex(200))
def test_any_json_within_the_limits_round_trips(value):
    text = json.dumps(value)
    assert loads(text, max_chars=len(text), max_depth=depth(text)) == value


@given(st.text(max_size=200))
@settings(max_examples=ex(300))
def test_any_text_is_parsed_or_refused_with_a_code(text):
    try:
        loads(text, max_chars=100, max_depth=3)
    except BadInput as exc:
        assert exc.code in {"too_large", "too_deep", "not_json"}


@pytest.mark.parametrize("value,expected", [
    ("short", "'short'"), (None, "null"), (True, "true"), (12, "12"), (1.5, "1.5"),
    ({"a": 1}, "an object"), ([1, 2], "a list"), (10 ** 5000, "a very large number"),
    (-(10 ** 5000), "a very large number"),
], ids=lambda v: type(v).__name__)
def test_excerpt_describes_values_briefly(value, expected):
    assert excerpt(value) == expected


def test_excerpt_cuts_long_text():
    text = excerpt("y" * 10_000)
    assert len(text) == EXCERPT_CHARS and text.endswith("…") and text.startswith("'yyy")
