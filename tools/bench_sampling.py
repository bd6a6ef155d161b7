"""How well Hard's sampled deals match the real hidden hands (a benchmark, not a test).

Positions: the first hand of matches 1…N played by ``--level`` (its bids are what the fit
reads), at the start of tricks 1, 4, 7 and 10, from the seat to lead. For each position every
sampler deals the unseen cards ``--deals`` times; a deal scores the share of the hidden cards
it puts in their real hand, and of the high ones (side aces and kings, spades from the jack
up). Prints each sampler's mean shares per trick (more is better; a uniform deal that only
respects hand sizes and voids scores about a third) and its CPU time per deal kept.

    python tools/bench_sampling.py [--matches 40] [--deals 16] [--pools 1,2,3,4] [--json]

Pool 1 is :func:`spades.ai.sampling.sample_hands` alone (hand sizes, voids, high cards leaning
towards high bids); pool k keeps ``--deals`` of k times as many by their fit to the bids
(:func:`spades.ai.sampling.fitted_deals`).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from spades import Match
from spades.ai import bot
from spades.ai.sampling import fitted_deals
from spades.ai.tracker import track
from spades.cards import FIRST_SPADE, JACK, KING, RANK_OF, mask_of

TRICKS = (1, 4, 7, 10)
HIGH = sum(
    1 << c for c in range(52) if RANK_OF[c] >= KING or (c >= FIRST_SPADE and RANK_OF[c] >= JACK)
)


def positions(level: str, matches: int) -> list[tuple[int, object, list[int]]]:
    """(trick number, the leader's view, every seat's real cards then) for each match."""
    out = []
    for seed in range(1, matches + 1):
        m = Match(seed=seed)
        players = [bot(level, seed=seed * 4 + s) for s in range(4)]
        while not m.hands_played:
            if m.phase == "play" and m.trick is None and len(m.tricks) + 1 in TRICKS:
                real = [mask_of(m.hand(s)) for s in range(4)]
                out.append((len(m.tricks) + 1, m.view(m.to_act), real))
            m.act(players[m.to_act].choose(m.view(m.to_act)))
    return out


def main() -> None:
    """Command-line entry."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=40)
    ap.add_argument("--deals", type=int, default=16)
    ap.add_argument("--pools", default="1,2,3,4")
    ap.add_argument("--level", default="normal")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    pos = positions(args.level, args.matches)
    for pool in (int(p) for p in args.pools.split(",")):
        share: dict[int, list[float]] = {n: [] for n in TRICKS}
        high: dict[int, list[float]] = {n: [] for n in TRICKS}
        spent = 0.0
        kept = 0
        for i, (n, view, real) in enumerate(pos):
            t = track(view)
            rng = random.Random(i)
            start = time.process_time()
            deals = fitted_deals(t, rng, args.deals, pool)
            spent += time.process_time() - start
            kept += len(deals)
            hidden = t.unseen
            for d in deals:
                right = sum((d[s] & real[s]).bit_count() for s in range(4) if s != t.seat)
                share[n].append(right / hidden.bit_count())
                hi = hidden & HIGH
                if hi:
                    right_hi = sum(
                        (d[s] & real[s] & HIGH).bit_count() for s in range(4) if s != t.seat
                    )
                    high[n].append(right_hi / hi.bit_count())
        row = {
            "pool": pool,
            "positions": len(pos),
            **{f"trick{n}_share": round(statistics.mean(share[n]), 4) for n in TRICKS},
            **{f"trick{n}_high": round(statistics.mean(high[n]), 4) for n in TRICKS if high[n]},
            "all_share": round(statistics.mean(x for n in TRICKS for x in share[n]), 4),
            "all_high": round(statistics.mean(x for n in TRICKS for x in high[n]), 4),
            "ms_per_deal": round(1000 * spent / max(1, kept), 3),
        }
        print(
            json.dumps(row) if args.json else "  ".join(f"{k}={v}" for k, v in row.items()),
            flush=True,
        )


if __name__ == "__main__":
    main()
