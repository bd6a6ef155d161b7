"""Save fuzzer: thousands of mutants of real saves (24,000 under SPADES_SLOW_TESTS=1), each refused with BadSave or loaded faithfully.

Seeded and bounded (no hypothesis shrinking: one long deterministic loop over small saves
of one or two hands, so it stays fast). A mutant is made by one of the mutators below
(byte flips, truncations, splices, field swaps, type changes, float/bool for whole numbers,
huge numbers, deep nesting, deleted and added keys, reordered lists); half of the
tree mutants are given to :func:`spades.save.from_dict` as data, the rest as text to
:func:`spades.save.loads`. Every outcome must be :class:`~spades.BadSave` with a documented
code, or a match whose own save is exactly the mutant (nothing ignored, nothing repaired).
Any other exception is a crash. Run ``python tests/engine/test_save_fuzz.py`` for the counts of a full run.
"""
from __future__ import annotations

import copy
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))   # spades, when run as a script
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))   # tests/helpers.py

from helpers import loop_count

from spades import BadSave, Match
from spades.ai.normal import NormalBot
from spades.cards import CARD_INDEX
from spades.save import MAX_TEXT, from_dict, loads

#: Mutants of a full run: ``SPADES_SLOW_TESTS=1``, or ``python tests/engine/test_save_fuzz.py``.
FULL_MUTANTS = 24_000
#: Mutants the test tries.
MUTANTS = loop_count(10_000, FULL_MUTANTS)
SEED = 20_261_130
CODES = {"not_json", "too_large", "too_deep", "wrong_format", "wrong_version", "malformed", "bad_deal",
         "illegal_history", "inconsistent"}
#: Replaced after ``json.dumps`` by raw JSON text that Python cannot build as a value cheaply.
SENTINEL = "@@raw@@"
RAW_VALUES = ["9" * 5000, "-1" + "0" * 5000, "1e400", "-1e400", "1e-400", "-0", "0.0", "1E2", "123456789012345678901234567890",
              "[" * 9 + "]" * 9, "[" * 5000 + "]" * 5000, '{"a":' * 300 + "1" + "}" * 300, "[" * 100_000 + "]" * 100_000,
              '"' + "a" * MAX_TEXT + '"']
OTHER_VALUES = [None, True, False, 0, 1, -1, 1.0, 2.5, -0.0, "", "x", "AS", "0" * 16, [], {}, [None] * 4,
                10**100, -10**100, 2**64, 2**63 - 1, [0, 0], ["AS"] * 13]


def _play(m: Match, actions: int) -> Match:
    bot = NormalBot(1)
    for _ in range(actions):
        if m.phase == "over":
            break
        m.act(bot.choose(m.view(m.to_act)))
    return m


def _over_in_one_hand() -> Match:
    """A custom start near the target whose first hand ends the match."""
    for seed in range(200):
        m = _play(Match(seed=seed, scores=(495, 300), bags=(9, 0)), 56)
        if m.phase == "over":
            return m
    raise AssertionError("no seed ends the match in one hand")


def base_saves() -> list[Match]:
    """Small real saves: every phase and shape a save has, in one or two hands."""
    deal = [list(Match(seed=99).dealt(s)) for s in range(4)]
    return [
        Match(seed=1),                                   # fresh, nothing done
        _play(Match(seed=2), 3),                         # mid bidding
        _play(Match(seed=3), 4 + 21),                    # mid play
        _play(Match(seed=4), 56),                        # the next hand's start
        _play(Match(seed=5, dealer=2), 56 + 4 + 30),     # mid play of hand 2, chosen dealer
        _play(Match(seed="custom", deal=deal, dealer=1, scores=(120, -40), bags=(3, 8)), 40),
        _over_in_one_hand(),
    ]


# -- mutators: each takes the text, the parsed tree and a random generator; returns a payload -------

def _paths(node: Any, path: tuple = ()) -> list[tuple]:
    """Every path (tuple of keys / indexes) to a node in the tree, the root excluded."""
    out = []
    stack = [(node, path)]
    while stack:
        cur, p = stack.pop()
        items = cur.items() if isinstance(cur, dict) else enumerate(cur) if isinstance(cur, list) else ()
        for k, v in items:
            out.append(p + (k,))
            stack.append((v, p + (k,)))
    return out


def _get(tree: Any, path: tuple) -> Any:
    for k in path:
        tree = tree[k]
    return tree


def _set(tree: Any, path: tuple, value: Any) -> None:
    _get(tree, path[:-1])[path[-1]] = value


def _random_path(tree: Any, rnd: random.Random, want: Callable[[Any], bool] = lambda v: True) -> tuple | None:
    paths = [p for p in _paths(tree) if want(_get(tree, p))]
    return rnd.choice(paths) if paths else None


def byte_flip(text, tree, rnd):
    raw = bytearray(text.encode())
    for _ in range(rnd.randint(1, 3)):
        raw[rnd.randrange(len(raw))] ^= 1 << rnd.randrange(8)
    return bytes(raw)


def char_change(text, tree, rnd):
    i = rnd.randrange(len(text))
    return text[:i] + rnd.choice('0123456789-.,:[]{}"ntfeE SCHDAKQJT\\') + text[i + 1:]


def truncate(text, tree, rnd):
    return text[:rnd.randrange(len(text))]


def splice(text, tree, rnd):
    a, b = sorted(rnd.randrange(len(text)) for _ in range(2))
    at = rnd.randrange(len(text))
    return text[:at] + text[a:b] + text[at:]


def swap_fields(text, tree, rnd):
    paths = _paths(tree)
    p, q = rnd.choice(paths), rnd.choice(paths)
    if p[:len(q)] == q or q[:len(p)] == p:      # one inside the other: copy instead of swapping
        _set(tree, p, copy.deepcopy(_get(tree, q)))
    else:
        a, b = _get(tree, p), _get(tree, q)
        _set(tree, p, b)
        _set(tree, q, a)
    return tree


def change_type(text, tree, rnd):
    _set(tree, rnd.choice(_paths(tree)), copy.deepcopy(rnd.choice(OTHER_VALUES)))
    return tree


def float_or_bool_for_int(text, tree, rnd):
    path = _random_path(tree, rnd, lambda v: type(v) is int)
    if path is None:
        return tree
    value = _get(tree, path)
    _set(tree, path, rnd.choice([float(value), bool(value), str(value), value + 0.5]))
    return tree


def retype_everywhere(text, tree, rnd):
    """Every whole number under one key name becomes a float or a bool (a consistent forgery)."""
    key = rnd.choice(["dealer", "to_act", "winner", "scores", "bags", "bids", "version"])
    kind = rnd.choice([float, bool])
    for path in _paths(tree):
        if key in path:
            value = _get(tree, path)
            if type(value) is int:
                _set(tree, path, kind(value))
    return tree


def several(text, tree, rnd):
    """Two or three tree mutations at once."""
    for _ in range(rnd.randint(2, 3)):
        tree = rnd.choice(TREE_MUTATORS)(text, tree, rnd)
    return tree


def nudge_number(text, tree, rnd):
    path = _random_path(tree, rnd, lambda v: type(v) is int)
    if path is None:
        return tree
    _set(tree, path, _get(tree, path) + rnd.choice([-1, 1, -10, 10, 100, 2**64]))
    return tree


def raw_value(text, tree, rnd):
    """A huge number, an odd number form or deep nesting, written straight into the text."""
    _set(tree, rnd.choice(_paths(tree)), SENTINEL)
    return json.dumps(tree, separators=(",", ":")).replace(f'"{SENTINEL}"', rnd.choice(RAW_VALUES), 1)


def delete_or_add_key(text, tree, rnd):
    path = _random_path(tree, rnd, lambda v: isinstance(v, dict))
    target = tree if path is None or rnd.random() < 0.3 else _get(tree, path)
    if target and rnd.random() < 0.5:
        del target[rnd.choice(list(target))]
    else:
        target[rnd.choice(["extra", "dealer", "hands", "custom", "seed"])] = copy.deepcopy(rnd.choice(OTHER_VALUES))
    return tree


def reorder_list(text, tree, rnd):
    path = _random_path(tree, rnd, lambda v: isinstance(v, list) and len(v) >= 2)
    if path is None:
        return tree
    items = _get(tree, path)
    how = rnd.randrange(3)
    if how == 0:
        i, j = rnd.sample(range(len(items)), 2)
        items[i], items[j] = items[j], items[i]
    elif how == 1:
        items.pop(rnd.randrange(len(items)))
    else:
        items.insert(rnd.randrange(len(items) + 1), copy.deepcopy(rnd.choice(items)))
    return tree


TREE_MUTATORS = [swap_fields, change_type, float_or_bool_for_int, retype_everywhere, nudge_number,
                 delete_or_add_key, reorder_list]
MUTATORS = [byte_flip, char_change, truncate, splice, raw_value, several, *TREE_MUTATORS]


def _faithful(payload: Any, match: Match) -> bool:
    """Whether an accepted mutant is exactly the save the loaded match writes (types included).

    The one freedom: the order of the cards within a dealt hand means nothing (a hand is a
    set), so deals are compared in card order.
    """
    data = copy.deepcopy(payload) if isinstance(payload, dict) else json.loads(payload)
    for holder in [data["start"]] + data["hands"]:
        if holder["deal"] is not None:
            holder["deal"] = [sorted(h, key=CARD_INDEX.__getitem__) for h in holder["deal"]]
    return _strict_equal(data, json.loads(match.to_json()))


def _strict_equal(a: Any, b: Any) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(_strict_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_strict_equal(a[k], b[k]) for k in a)
    return a == b


def run_fuzz(mutants: int = MUTANTS, seed: int = SEED) -> dict[str, Any]:
    """Make and load ``mutants`` mutants; return the counts, the crashes and the slowest load."""
    rnd = random.Random(seed)
    bases = [(m.to_json(), json.loads(m.to_json())) for m in base_saves()]
    refused: Counter[str] = Counter()
    by_mutator: Counter[str] = Counter()
    accepted = unfaithful = 0
    crashes: list[str] = []
    slowest = (0.0, "")
    for i in range(mutants):
        text, tree = rnd.choice(bases)
        mutator = MUTATORS[i % len(MUTATORS)]
        by_mutator[mutator.__name__] += 1
        payload = mutator(text, copy.deepcopy(tree), rnd)
        if isinstance(payload, dict) and rnd.random() < 0.5:
            payload = json.dumps(payload)
        start = time.perf_counter()
        try:
            match = from_dict(payload) if isinstance(payload, dict) else loads(payload)
        except BadSave as exc:
            refused[exc.code] += 1
            if exc.code not in CODES or not exc.message:
                crashes.append(f"{mutator.__name__}: undocumented code {exc.code!r}")
        except Exception as exc:
            crashes.append(f"{mutator.__name__}: {type(exc).__name__}: {str(exc)[:120]}")
        else:
            accepted += 1
            if not _faithful(payload, match):
                unfaithful += 1
        elapsed = time.perf_counter() - start
        if elapsed > slowest[0]:
            slowest = (elapsed, mutator.__name__)
    return {"tried": mutants, "refused": sum(refused.values()), "refused_by_code": dict(refused.most_common()),
            "accepted": accepted, "unfaithful": unfaithful, "crashed": len(crashes), "crashes": crashes[:10],
            "slowest_ms": round(slowest[0] * 1000, 1), "slowest_mutator": slowest[1],
            "by_mutator": dict(by_mutator)}


def test_save_fuzzer_finds_no_crash_and_nothing_accepted_unfaithfully():
    report = run_fuzz()
    print("\nsave fuzzer:", json.dumps({k: v for k, v in report.items() if k != "by_mutator"}))
    assert report["crashes"] == [] and report["crashed"] == 0
    assert report["unfaithful"] == 0
    assert report["tried"] == report["refused"] + report["accepted"] == MUTANTS
    # the mutators reach the checks they aim at, not only the JSON parser
    for code in ("not_json", "too_large", "too_deep", "wrong_format", "malformed", "bad_deal", "illegal_history", "inconsistent"):
        assert report["refused_by_code"].get(code, 0) >= 50, (code, report["refused_by_code"])


if __name__ == "__main__":
    print(json.dumps(run_fuzz(FULL_MUTANTS), indent=1))
