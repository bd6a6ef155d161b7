"""The solver against its independent oracles, at full size (a check run by hand, not a CI test).

    python tools/check_solver_endplay.py [--brute 300] [--full 30] [--nine 135] [--five 135] [--seed 1]

* brute force (``tests/oracles.py``: plain minimax, no pruning, no tables) on random
  positions with 1–4 tricks left: trick value and score value of every legal card;
* endplay (bridge DDS, spades as trump) on random positions with spades broken — where
  Spades and bridge trick-taking coincide — with 13 (full deals), 9 and 5 tricks left:
  the trick value of every legal card.

One JSON line per result, flushed at once; a disagreement prints the position (a bug to
fix). The last lines are the counts. The default tests (tests/test_solver.py) check 300
positions with 9 and 5 tricks left; full deals take 1–60 s of CPU each here, so they are
this tool's ``--full`` and the slow test (``SPADES_SLOW_TESTS=1``). Times are CPU seconds;
run it under ``nice`` on a shared machine.
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from oracles import broken_position, brute_values, endplay_tricks, random_match  # noqa: E402

from spades.solver import Position, solve_position  # noqa: E402


def emit(**row) -> None:
    print(json.dumps(row), flush=True)


def check_brute(rnd: random.Random, count: int) -> int:
    """Positions with 1–4 tricks left where every card's trick and score value equal brute force's."""
    ok = 0
    for _ in range(count):
        m = random_match(rnd, rnd.choice((1, 2, 3, 4)), extra=rnd.randrange(4))
        pos = Position.from_match(m)
        got = solve_position(pos)
        left = pos.hands[pos.to_act].bit_count()
        want = brute_values(pos)
        same = set(got) == set(want) and all(
            got[c].tricks == (t, left - t) and got[c].margin == mg for c, (t, mg) in want.items())
        ok += same
        if not same:
            emit(kind="brute_disagrees", position=repr(pos))
    emit(kind="brute", checked=count, agree=ok)
    return ok


def check_endplay(rnd: random.Random, tricks_left: int, count: int) -> int:
    """Positions with ``tricks_left`` tricks to go (spades broken) where every card's tricks equal DDS's."""
    ok = 0
    cpu = []
    for i in range(count):
        pos = broken_position(rnd, tricks_left)
        start = time.process_time()
        ours = solve_position(pos, score=False)
        cpu.append(time.process_time() - start)
        team = pos.to_act & 1
        same = {c: v.tricks[team] for c, v in ours.items()} == endplay_tricks(pos)
        ok += same
        if not same:
            emit(kind="endplay_disagrees", tricks_left=tricks_left, position=repr(pos))
        if tricks_left == 13:
            emit(kind="endplay_full_deal", deal=i, agree=same, cpu_s=round(cpu[-1], 2))
    emit(kind="endplay", tricks_left=tricks_left, checked=count, agree=ok,
         median_cpu_s=round(statistics.median(cpu), 3) if cpu else None,
         max_cpu_s=round(max(cpu), 3) if cpu else None)
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--brute", type=int, default=300)
    parser.add_argument("--full", type=int, default=30, help="full deals (13 tricks left)")
    parser.add_argument("--nine", type=int, default=135)
    parser.add_argument("--five", type=int, default=135)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rnd = random.Random(args.seed)
    brute = check_brute(rnd, args.brute)
    counts = {n: check_endplay(rnd, n, c) for n, c in ((5, args.five), (9, args.nine), (13, args.full))}
    emit(kind="summary", brute=f"{brute}/{args.brute}",
         endplay=f"{sum(counts.values())}/{args.five + args.nine + args.full}",
         endplay_by_tricks_left=dict(counts))
    sys.exit(0 if brute == args.brute and sum(counts.values()) == args.five + args.nine + args.full else 1)


if __name__ == "__main__":
    main()
