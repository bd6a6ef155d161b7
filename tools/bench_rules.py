"""Engine speed per house-rules preset, as ratios to 1.0.0 measured in one run.

A benchmark, not a test. The loop is ``python -m spades bench``'s (random legal bids and
cards through the public API, full hands per second), run for every preset in turn, the
order rotated each repeat so that a change of machine load falls on every preset alike.
``--clock cpu`` (default) counts this process's CPU time, which a shared, loaded machine
disturbs far less than wall time (``--clock wall``). Prints per preset the median of the
repeats and its ratio to 1.0.0's median, and the load average after each repeat.

    python tools/bench_rules.py [--repeats 5] [--seconds 1.5] [--clock cpu|wall] [--json]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from spades import PRESETS, Match, Rules
from spades.match import BID, OVER

MAX_HANDS = 50  # as in `python -m spades bench`: a match of random bids may go on for long
CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}


def hands_per_second(rules: Rules, seed: int, seconds: float, clock) -> float:
    """Full random hands per second of ``clock`` under ``rules``."""
    rng = random.Random(seed)
    hands = 0
    start = clock()
    while clock() - start < seconds:
        m = Match(seed=rng.getrandbits(32), rules=rules)
        while m.phase != OVER and len(m.hands_played) < MAX_HANDS:
            if m.phase == BID:
                m.bid(rng.choice(m.legal_bids()))
            else:
                m.play(rng.choice(m.legal_cards()))
        hands += len(m.hands_played)
    return hands / (clock() - start)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=1.5)
    ap.add_argument("--clock", choices=sorted(CLOCKS), default="cpu")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    names = list(PRESETS)
    rates: dict[str, list[float]] = {name: [] for name in names}
    loads = []
    for r in range(args.repeats):
        for name in names[r % len(names):] + names[:r % len(names)]:
            rates[name].append(hands_per_second(PRESETS[name], 100 + r, args.seconds, CLOCKS[args.clock]))
        loads.append(round(os.getloadavg()[0], 2))
    base = statistics.median(rates[names[0]])
    result = {name: {"median": round(statistics.median(v)), "ratio": round(statistics.median(v) / base, 3),
                     "repeats": [round(x) for x in v]} for name, v in rates.items()}
    if args.json:
        print(json.dumps({"clock": args.clock, "presets": result, "load": loads}))
    else:
        for name, row in result.items():
            print(f"{name:10s} {row['median']:6d} hands/s  ratio {row['ratio']:.3f}  repeats {row['repeats']}")
        print(f"clock: {args.clock}; load average after each repeat: {loads}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
