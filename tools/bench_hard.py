"""Hard's decision speed: card decisions per second on fixed seeded positions.

A benchmark, not a test. The positions are reproducible (matches of seeds 1…N played
by Normal to a seeded point of the first hand's play); each repeat times Hard's card
choice in every position with the full default budget (a fixed count of deals and
play-outs, so every repeat does the same work). Prints the
median decisions per second of the repeats and a digest of the cards chosen (the
same digest means the same decisions).

    python tools/bench_hard.py [--positions 24] [--repeats 5] [--baseline 5104c58] [--json]

``--baseline COMMIT`` also times that commit's Hard (loaded from git history beside
today's, :mod:`spades.cli.baseline`) on the same positions, each repeat alternating the two,
and prints both rates and their ratio (today / baseline: above 1 is faster today).
"""
from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from spades import Match
from spades.ai.hard import search_card
from spades.ai.normal import NormalBot
from spades.cli.baseline import NO_TIME_CAP, load


def positions(count: int, baseline: str | None = None) -> tuple[list, list]:
    """Seat views where a card must be chosen among at least two candidates (and, with a
    ``baseline`` commit, the same positions in that commit's engine)."""
    views, old_views = [], []
    seed = 1
    normal = NormalBot(0)
    old = load(baseline) if baseline else None
    while len(views) < count:
        rnd = random.Random(seed)
        m = Match(seed=seed)
        stop = 4 + rnd.randrange(40)          # after the four bids, 0–39 cards into play
        for _ in range(stop):
            m.act(normal.choose(m.view(m.to_act)))
        v = m.view(m.to_act)
        if len(v.legal_cards) >= 2:
            views.append(v)
            if old is not None:
                om = old.Match(seed=seed)
                for a in m.actions:
                    om.act(a)
                old_views.append(om.view(om.to_act))
        seed += 1
    return views, old_views


def run(views: list, search=search_card) -> tuple[float, str]:
    """CPU seconds (this process's, so that other load on the machine counts less) taken for one Hard decision per view, and a digest of the decisions."""
    chosen = []
    start = time.process_time()
    for i, v in enumerate(views):
        chosen.append(search(v, random.Random(i)))
    elapsed = time.process_time() - start
    return elapsed, hashlib.sha256(repr(chosen).encode()).hexdigest()[:12]


def main() -> None:
    """Command-line entry."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=24)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--baseline", help="also time this commit's Hard on the same positions")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    views, old_views = positions(args.positions, args.baseline)
    old_search = None
    if args.baseline:
        old_hard = importlib.import_module(f"{load(args.baseline).__name__}.ai.hard")
        old_search = lambda v, rng: old_hard.search_card(v, rng, time_cap=NO_TIME_CAP)  # noqa: E731
    rates, old_rates, digests = [], [], set()
    for _ in range(args.repeats):
        elapsed, digest = run(views)
        rates.append(len(views) / elapsed)
        digests.add(digest)
        if old_search is not None:
            elapsed, _ = run(old_views, old_search)
            old_rates.append(len(views) / elapsed)
    out = {"positions": len(views), "repeats": args.repeats,
           "decisions_per_s_median": round(statistics.median(rates), 2),
           "decisions_per_s_all": [round(r, 2) for r in rates], "decisions_digest": sorted(digests)}
    if old_rates:
        out |= {"baseline": args.baseline, "baseline_decisions_per_s_median": round(statistics.median(old_rates), 2),
                "ratio_today_over_baseline": round(statistics.median(rates) / statistics.median(old_rates), 3)}
    print(json.dumps(out) if args.json else "\n".join(f"{k}: {v}" for k, v in out.items()))


if __name__ == "__main__":
    main()
