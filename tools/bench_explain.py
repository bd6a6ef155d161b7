#!/usr/bin/env python3
"""Which reasons drive the bots: how often each reason code fires, and explain = choose.

A benchmark and a long check, not a test. Plays whole matches with Hard in seats 0 and 1
and Normal partners in seats 2 and 3 (each Hard player partnered by a Normal one), asks
every bot ``explain(view)`` at every decision and counts the codes per level, and apart the
nested codes (``details``: a bid's estimate parts and adjustments, the rule whose card Hard's
search kept). With
``--check`` a twin bot (same level and seed, made separately) also runs ``choose(view)``
at every decision and any difference is counted (it must be 0). Progress is written to ``--out`` after each
match, so a run stopped early still reports the matches it finished.

    python tools/bench_explain.py --matches 200 [--check] [--jobs 2] [--seconds 3000] [--out FILE]
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from spades import Match
from spades.ai import bot

LEVELS = ("hard", "hard", "normal", "normal")   # seats 0–3: each Hard player has a Normal partner
MAX_HANDS = 60


def make(level: str, seed: int) -> Any:
    """A bot (Hard's work is a fixed count: the same every run)."""
    return bot(level, seed=seed)


def one_match(job: tuple[int, bool]) -> dict[str, Any]:
    """Play match ``seed``; the codes fired per level, decisions and explain/choose differences."""
    seed, check = job
    bots = [make(LEVELS[s], seed * 4 + s) for s in range(4)]
    twins = [make(LEVELS[s], seed * 4 + s) for s in range(4)] if check else []
    m = Match(seed=seed)
    codes: dict[str, Counter] = {"hard": Counter(), "normal": Counter()}
    details: dict[str, Counter] = {"hard": Counter(), "normal": Counter()}
    mismatches = decisions = 0
    while m.phase != "over" and len(m.hands_played) < MAX_HANDS:
        seat = m.to_act
        view = m.view(seat)
        e = bots[seat].explain(view)
        if check and twins[seat].choose(view) != e.action:
            mismatches += 1
        codes[LEVELS[seat]][e.reason.code] += 1
        for d in e.reason.params.get("details", ()):
            details[LEVELS[seat]][d["code"]] += 1
        decisions += 1
        m.act(e.action, seat=seat)
    return {"seed": seed, "codes": {k: dict(v) for k, v in codes.items()},
            "details": {k: dict(v) for k, v in details.items()}, "decisions": decisions,
            "mismatches": mismatches, "hands": len(m.hands_played)}


def main() -> None:
    """Command-line entry."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--check", action="store_true", help="also compare with a twin bot's choose()")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seconds", type=float, default=float("inf"), help="stop starting matches after this")
    ap.add_argument("--out", type=Path, default=None, help="write the running totals here after each match")
    args = ap.parse_args()
    start = time.perf_counter()
    totals: dict[str, Counter] = {"hard": Counter(), "normal": Counter()}
    nested: dict[str, Counter] = {"hard": Counter(), "normal": Counter()}
    done = decisions = mismatches = hands = 0
    jobs = [(args.seed + i, args.check) for i in range(args.matches)]
    with multiprocessing.Pool(args.jobs) as pool:
        for r in pool.imap_unordered(one_match, jobs):
            done += 1
            decisions += r["decisions"]
            mismatches += r["mismatches"]
            hands += r["hands"]
            for level, c in r["codes"].items():
                totals[level].update(c)
            for level, c in r["details"].items():
                nested[level].update(c)
            out = {"matches": done, "hands": hands, "decisions": decisions, "checked": args.check,
                   "mismatches": mismatches, "seconds": round(time.perf_counter() - start),
                   "codes": {k: dict(v.most_common()) for k, v in totals.items()},
                   "details": {k: dict(v.most_common()) for k, v in nested.items()}}
            if args.out:
                args.out.write_text(json.dumps(out, indent=1))
            if time.perf_counter() - start > args.seconds:
                pool.terminate()
                break
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
