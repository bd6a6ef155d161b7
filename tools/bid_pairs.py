"""Paired test of Hard's bid settings: the same hand played out from each setting's bid.

A measurement, not a test. For deal ``i`` (a match seed of ``--seed``, starting scores and
bags drawn from it) Hard's team plays Normal's, both orientations. At the first bid of
Hard's team where setting A (the ``NAME=A/B`` values of :mod:`spades.ai.hardbid` constants)
and setting B bid differently, the hand is played out twice from that bid — every other
decision by the real bots, the later bids under the same setting — and each result is valued
for Hard's team with :func:`spades.ai.playout.hand_value` (``raw``: from a 0–0 score, so
without the match bonus). Only differing bids cost play-outs, and both sides of a pair
share the deal, so a few hundred pairs tell what an arena of thousands of matches would.

    python tools/bid_pairs.py TRICK_RISK=0.5/0.25 [NIL_MIN_MAKE=0.75/0.6 …] [--deals 600]
        [--seed 308] [--jobs 2] [--json]

Prints the pairs found, B − A per pair (mean ± standard error, with and without the match
bonus) and the contracts each side made.
"""
from __future__ import annotations

import argparse
import json
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from spades import Match
from spades.ai import bot, hardbid
from spades.ai.playout import hand_value

SEED_STRIDE = 1_000_003   # match seeds of one --seed: a prime apart (as the arena's)
MAX_START = 400           # starting scores are drawn below this (steps of 10) …
MAX_BAGS = 8              # … and bags below this
SETTINGS: dict[str, tuple[float, float]] = {}


def parse_setting(text: str) -> tuple[str, tuple[float, float]]:
    """``NAME=A/B`` → (NAME, (A, B)); NAME must be a constant of :mod:`spades.ai.hardbid`."""
    name, _, values = text.partition("=")
    a, _, b = values.partition("/")
    if not hasattr(hardbid, name) or not a or not b:
        raise SystemExit(f"bad setting {text!r}: write NAME=A/B with NAME a constant of spades.ai.hardbid")
    return name, (float(a), float(b))


def _use(which: int) -> None:
    for name, values in SETTINGS.items():
        setattr(hardbid, name, values[which])


def _play_hand(m: Match, bots: list, which: int) -> list[int]:
    """Finish the current hand of ``m`` under setting ``which``; tricks won per seat."""
    _use(which)
    hand = m.hand_number
    while m.phase != "over" and m.hand_number == hand:
        s = m.to_act
        m.act(bots[s].choose(m.view(s)), seat=s)
    rec = m.hands_played[-1]
    return [sum(t.winner == q for t in rec.tricks) for q in range(4)]


def pairs_of_deal(args: tuple[int, int]) -> list[dict]:
    """The differing-bid pairs of deal ``i`` (at most one an orientation)."""
    seed, i = args
    rs = random.Random(seed * 7919 + i)
    scores = (rs.randrange(0, MAX_START, 10), rs.randrange(0, MAX_START, 10))
    bags = (rs.randrange(0, MAX_BAGS), rs.randrange(0, MAX_BAGS))
    out = []
    for team in (0, 1):
        ms = seed * SEED_STRIDE + i
        m = Match(seed=ms, scores=scores, bags=bags)
        bots = [bot("hard" if s % 2 == team else "normal", seed=ms * 4 + s) for s in range(4)]
        while m.phase == "bid":
            s = m.to_act
            v = m.view(s)
            _use(0)
            bid_a = bots[s].choose(v)
            _use(1)
            bid_b = bots[s].choose(v) if s % 2 == team else bid_a
            if bid_a != bid_b:
                row: dict = {"deal": i, "team": team, "seat": s, "a": bid_a, "b": bid_b}
                for which, b, key in ((0, bid_a, "A"), (1, bid_b, "B")):
                    mm = m.copy()
                    mm.act(b, seat=s)
                    won = _play_hand(mm, bots, which)
                    bids = list(mm.hands_played[-1].bids)
                    row[f"value_{key}"] = hand_value(bids, won, team, scores, bags)
                    row[f"raw_{key}"] = hand_value(bids, won, team, (0, 0), bags)
                    row[f"made_{key}"] = mm.hands_played[-1].scores[team].made
                out.append(row)
                break
            m.act(bid_a, seat=s)
    return out


def mean_se(xs: list[float]) -> tuple[float, float]:
    """Mean and standard error of ``xs``."""
    n = len(xs)
    if n < 2:
        return (xs[0] if xs else 0.0), 0.0
    m = sum(xs) / n
    return m, math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1) / n)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("settings", nargs="+", help="NAME=A/B, a constant of spades.ai.hardbid and its two values")
    p.add_argument("--deals", type=int, default=600)
    p.add_argument("--seed", type=int, default=308)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--json", action="store_true", help="print every pair as JSON lines")
    args = p.parse_args()
    SETTINGS.update(parse_setting(t) for t in args.settings)
    tasks = [(args.seed, i) for i in range(args.deals)]
    if args.jobs > 1:
        import multiprocessing
        with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
            rows = [r for rs in pool.imap(pairs_of_deal, tasks, chunksize=1) for r in rs]
    else:
        rows = [r for t in tasks for r in pairs_of_deal(t)]
    if args.json:
        for r in rows:
            print(json.dumps(r))
    value = mean_se([r["value_B"] - r["value_A"] for r in rows])
    raw = mean_se([r["raw_B"] - r["raw_A"] for r in rows])
    print(f"{len(rows)} differing bids over {args.deals} deals x 2 orientations, seed {args.seed}")
    print(f"B - A a pair: {value[0]:+.1f} +/- {value[1]:.1f} points (raw, no match bonus: {raw[0]:+.1f} +/- {raw[1]:.1f})")
    print(f"contracts made: A {sum(r['made_A'] for r in rows)}, B {sum(r['made_B'] for r in rows)} of {len(rows)}")


if __name__ == "__main__":
    main()
