"""``python -m spades bench``: random legal play through the public API (full hands per second),
or with ``--solver`` the double-dummy solver's times on random first leads."""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from ..match import BID, OVER, Match
from ..rules import DEFAULT
from ..solver import NotFinished, Position, Solver
from .args import RULES_HELP, rules_arg


def bench(args: argparse.Namespace, out: Callable[[str], None] = print) -> int:
    """Random legal play through the public API; prints full hands per second (median of
    repeats)."""
    rng = random.Random(args.seed)
    rules = getattr(args, "rules", DEFAULT)
    rates = []
    for _ in range(args.repeats):
        hands = 0
        start = time.perf_counter()
        while time.perf_counter() - start < args.seconds:
            m = Match(seed=rng.getrandbits(32), rules=rules)
            while m.phase != OVER and len(m.hands_played) < 50:
                if m.phase == BID:
                    m.bid(rng.choice(m.legal_bids()))
                else:
                    m.play(rng.choice(m.legal_cards()))
            hands += len(m.hands_played)
        rates.append(hands / (time.perf_counter() - start))
    result = {
        "hands_per_second": round(statistics.median(rates)),
        "repeats": [round(r) for r in rates],
        "python": sys.version.split()[0],
        "rules": rules.to_text(),
    }
    out(
        json.dumps(result)
        if args.json
        else f"{result['hands_per_second']} full hands per second (median of {args.repeats}: "
        f"{result['repeats']})"
    )
    return 0


def _percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def bench_solver(args) -> int:
    """CPU time to solve the first lead of random deals (all candidate cards): trick value, then
    score value.

    A solve past ``cap`` CPU seconds is counted as not finished, and in the median and p95 as
    slower than every finished one (so they stay honest).
    """
    rnd = random.Random(args.seed)
    cap = getattr(args, "cap", 30.0)
    times: dict[str, list[float]] = {"tricks": [], "score": []}
    unfinished = {"tricks": 0, "score": 0}
    for _ in range(args.deals):
        m = Match(seed=rnd.getrandbits(32))
        for _ in range(4):
            m.bid(rnd.choice((1, 2, 3, 3, 4, 4, 5, 0)))
        pos = Position.from_match(m)
        for kind in ("tricks", "score"):
            solver = Solver(pos.bids, pos.bags)
            solver.clock = time.process_time
            cpu = time.process_time()
            try:
                solver.values(pos, score=kind == "score", deadline=cpu + cap)
                times[kind].append(time.process_time() - cpu)  # CPU time: the machine may be shared
            except NotFinished:
                unfinished[kind] += 1

    def figure(v: list[float], q: float, past: int) -> float | str | None:
        """A percentile counting the solves past the cap as slower than all: "> cap" if it falls
        there."""
        both = v + [float("inf")] * past
        x = _percentile(both, q) if both else None
        return None if x is None else f"> {cap}" if x == float("inf") else round(x, 3)

    result: dict[str, Any] = {
        k: {
            "median_s": figure(v, 0.5, unfinished[k]),
            "p95_s": figure(v, 0.95, unfinished[k]),
            "solved": len(v),
            "not_finished": unfinished[k],
        }
        for k, v in times.items()
    }
    result["python"] = sys.version.split()[0]
    result["cap_s"] = cap
    print(
        json.dumps(result)
        if args.json
        else "\n".join(
            f"{k:6}: median {r['median_s']} s, p95 {r['p95_s']} s CPU over {r['solved']} deals"
            f" ({r['not_finished']} past {cap} s)"
            for k, r in result.items()
            if isinstance(r, dict)
        )
    )
    return 0


def add_bench(sub: Any) -> None:
    """The ``bench`` subcommand."""
    b = sub.add_parser("bench", help="random full hands per second through the public API")
    b.add_argument("--json", action="store_true")
    b.add_argument("--seconds", type=float, default=2.0)
    b.add_argument("--repeats", type=int, default=5)
    b.add_argument("--seed", type=int, default=1)
    b.add_argument("--rules", type=rules_arg, default=DEFAULT, help=RULES_HELP)
    b.add_argument(
        "--solver", action="store_true", help="double-dummy solve times instead (see spades.solver)"
    )
    b.add_argument("--deals", type=int, default=50, help="with --solver: random deals to time")
    b.add_argument(
        "--cap",
        type=float,
        default=30.0,
        help="with --solver: CPU seconds per solve, past it 'not finished'",
    )
    b.set_defaults(run=_bench_or_solver)


def _bench_or_solver(args: Any) -> int:
    """``bench``, or with ``--solver`` the solver's times."""
    return bench_solver(args) if args.solver else bench(args)
