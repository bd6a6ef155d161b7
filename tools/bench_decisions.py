"""Decision times of a computer level over whole hands, in CPython or in Pyodide.

A benchmark, not a test. Plays the first hand of matches 1…N with the level in every seat and
times each of its decisions (bids and cards; a forced card counts as the game asks for it too;
"exact": cards by exact sampling, "fallback": cards by play-outs where exact sampling ran out of
nodes)
in CPU seconds (``time.process_time``; under Pyodide, ``tools/pyodide_node.mjs`` makes that
Node's own CPU time, so a loaded machine counts less). Prints the count, median, p95 and max
per kind of decision and over all, and a digest of the decisions (the same digest: the same
decisions, on any machine and in either Python).

    python tools/bench_decisions.py [--level hard] [--hands 12] [--json]
    node tools/pyodide_node.mjs tools/bench_decisions.py [--level hard] [--hands 12] [--json]
    python tools/bench_decisions.py --pyodide ...     (runs both, one after the other)
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from spades import Match  # noqa: E402
from spades.ai import bot  # noqa: E402
from spades.ai.tracker import track  # noqa: E402


def summary(ts: list[float]) -> dict:
    """Count, median, p95 and max of decision times, in ms."""
    if not ts:
        return {"decisions": 0}
    s = sorted(ts)
    return {
        "decisions": len(s),
        "median_ms": round(1000 * statistics.median(s), 1),
        "p95_ms": round(1000 * s[min(len(s) - 1, int(0.95 * len(s)))], 1),
        "max_ms": round(1000 * s[-1], 1),
    }


def exact_applies(player: object, view: object) -> bool:
    """Whether ``player`` would have played ``view`` by exact sampling had its nodes sufficed."""
    exact = getattr(player, "exact", None)
    return exact is not None and exact.applies(track(view))


def run(level: str, hands: int) -> dict:
    """Time every decision of the first hand of matches 1…``hands`` (``level`` in every seat)."""
    times: dict[str, list[float]] = {"bid": [], "card": [], "exact": [], "fallback": []}
    chosen = []
    for seed in range(1, hands + 1):
        m = Match(seed=seed)
        players = [bot(level, seed=seed * 4 + s) for s in range(4)]
        while not m.hands_played:
            view = m.view(m.to_act)
            start = time.process_time()
            e = players[m.to_act].explain(view)
            spent = time.process_time() - start
            times["bid" if view.phase == "bid" else "card"].append(spent)
            if e.reason.code.startswith("play.exact"):
                times["exact"].append(spent)
            elif e.reason.code.startswith("play.search") and exact_applies(players[m.to_act], view):
                times["fallback"].append(spent)
            chosen.append(e.action)
            m.act(e.action)
    everything = times["bid"] + times["card"]
    return {
        "python": sys.version.split()[0] + (" pyodide" if sys.platform == "emscripten" else ""),
        "level": level,
        "hands": hands,
        "all": summary(everything),
        **{kind: summary(ts) for kind, ts in times.items()},
        "digest": hashlib.sha256(repr(chosen).encode()).hexdigest()[:12],
    }


def main() -> None:
    """Command-line entry."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--level", default="hard")
    ap.add_argument("--hands", type=int, default=12)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--pyodide", action="store_true", help="also run it in Pyodide under Node")
    args = ap.parse_args()
    rows = [run(args.level, args.hands)]
    if args.pyodide:
        out = subprocess.run(
            [
                "node",
                str(ROOT / "tools" / "pyodide_node.mjs"),
                "tools/bench_decisions.py",
                "--level",
                args.level,
                "--hands",
                str(args.hands),
                "--json",
            ],
            cwd=ROOT,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        rows.append(json.loads(out.strip().splitlines()[-1]))
    for row in rows:
        print(json.dumps(row) if args.json else "\n".join(f"{k}: {v}" for k, v in row.items()))


if __name__ == "__main__":
    main()
