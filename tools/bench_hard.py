"""Hard's decision speed: card decisions per second on fixed seeded positions.

A benchmark, not a test. The positions are reproducible (matches of seeds 1…N played
by Normal to a seeded point of the first hand's play); each repeat times Hard's card
choice in every position with the full default budget (a fixed count of deals and
play-outs, so every repeat does the same work). Prints the
median decisions per second of the repeats and a digest of the cards chosen (the
same digest means the same decisions).

    python tools/bench_hard.py [--positions 24] [--repeats 5] [--json]
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from spades import Match  # noqa: E402
from spades.ai.hard import search_card  # noqa: E402
from spades.ai.normal import NormalBot  # noqa: E402



def positions(count: int) -> list:
    """Seat views where a card must be chosen among at least two candidates."""
    views = []
    seed = 1
    normal = NormalBot(0)
    while len(views) < count:
        rnd = random.Random(seed)
        m = Match(seed=seed)
        stop = 4 + rnd.randrange(40)          # after the four bids, 0–39 cards into play
        for _ in range(stop):
            m.act(normal.choose(m.view(m.to_act)))
        v = m.view(m.to_act)
        if len(v.legal_cards) >= 2:
            views.append(v)
        seed += 1
    return views


def run(views: list) -> tuple[float, str]:
    """CPU seconds (this process's, so that other load on the machine counts less) taken for one Hard decision per view, and a digest of the decisions."""
    chosen = []
    start = time.process_time()
    for i, v in enumerate(views):
        chosen.append(search_card(v, random.Random(i)))
    elapsed = time.process_time() - start
    return elapsed, hashlib.sha256(repr(chosen).encode()).hexdigest()[:12]


def main() -> None:
    """Command-line entry."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=24)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    views = positions(args.positions)
    rates, digests = [], set()
    for _ in range(args.repeats):
        elapsed, digest = run(views)
        rates.append(len(views) / elapsed)
        digests.add(digest)
    out = {"positions": len(views), "repeats": args.repeats,
           "decisions_per_s_median": round(statistics.median(rates), 2),
           "decisions_per_s_all": [round(r, 2) for r in rates], "decisions_digest": sorted(digests)}
    print(json.dumps(out) if args.json else "\n".join(f"{k}: {v}" for k, v in out.items()))


if __name__ == "__main__":
    main()
