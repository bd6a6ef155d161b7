"""Arena: pit two bot levels against each other over duplicate deals and report statistics.

``python -m spades arena A B --matches N --seed S [--json] [--jobs 2]``

Duplicate deals: ``--matches N`` is the total number of matches played. They come
from ``ceil(N / 2)`` match seeds, and every seed is played twice — once with team A
in seats 0 and 2, once with team A in seats 1 and 3 — so both orientations see the
very same sequence of deals and first dealer (``Match(seed=…)``). An odd N is rounded
up to the next even number. Matches are capped at ``--max-hands`` hands (default 60);
a capped match goes to the team ahead (a tie is a draw) and is reported.

Baselines: a level written ``LEVEL@COMMIT`` (``hard@5104c58``) is that level as of an older
commit, loaded from git history beside today's package (:mod:`spades.cli.baseline`); it
decides from its own engine's view of the same match, fed the same actions.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import statistics
import time
from dataclasses import dataclass, field

from ..ai import REGISTRY, bot
from ..match import Match
from ..rules import Rules
from .baseline import Shadow, split_level

MAX_HANDS = 60
SEED_STRIDE = 1_000_003  # match seeds of one arena seed: a prime apart, so runs never share deals


@dataclass
class SideStats:
    """Totals for one side (A or B) over a set of matches."""

    wins: int = 0
    hands: int = 0
    points: int = 0
    contracts: int = 0
    contracts_made: int = 0
    nil_bids: int = 0
    nils_made: int = 0
    blind_bids: int = 0
    blinds_made: int = 0
    bags: int = 0

    def add(self, other: SideStats) -> None:
        """Accumulate ``other`` into this."""
        for k in self.__dataclass_fields__:
            setattr(self, k, getattr(self, k) + getattr(other, k))


@dataclass
class MatchResult:
    """One match of the arena."""

    seed: int
    orientation: int  # 0: A sits in seats 0 and 2; 1: A sits in seats 1 and 3
    first_deal: str  # digest of the first hand's deal (duplicate check)
    winner: str | None  # "A", "B" or None (a capped draw)
    capped: bool
    hands: int
    scores: tuple[int, int]  # (A, B)
    sides: dict[str, SideStats] = field(default_factory=dict)
    times: dict[str, list[float]] = field(default_factory=dict)  # level → decision CPU seconds


def play_match(
    level_a: str,
    level_b: str,
    seed: int,
    orientation: int,
    max_hands: int = MAX_HANDS,
    rules: str = "1.0.0",
) -> MatchResult:
    """Play one match; team A is ``level_a`` in seats (0, 2) if ``orientation`` is 0, else (1, 3).

    ``rules`` are the house rules as text (:meth:`spades.Rules.parse`; a preset name).
    """
    a_team = orientation
    levels = [level_a if s % 2 == a_team else level_b for s in range(4)]
    bots = [
        None if split_level(lv)[1] else bot(lv, seed=seed * 4 + s) for s, lv in enumerate(levels)
    ]
    m = Match(seed=seed, rules=Rules.parse(rules))
    deal = [m.dealt(s) for s in range(4)]
    first = hashlib.sha256(repr(deal + [m.dealer]).encode()).hexdigest()[:16]
    old = Shadow(levels, seed, deal, m.dealer) if None in bots else None
    times: dict[str, list[float]] = {level_a: [], level_b: []}
    while m.phase != "over" and len(m.hands_played) < max_hands:
        seat = m.to_act
        assert seat is not None, "a seat acts until the match is over"
        t0 = time.process_time()
        b = bots[seat]
        if b is not None:
            action = b.choose(m.view(seat))
        else:
            assert old is not None, "a seat without today's bot has an old commit's"
            old_action = old.choose(seat)
            assert old_action is not None, "that seat is an old commit's bot"
            action = old_action
        times[levels[seat]].append(time.process_time() - t0)
        m.act(action, seat=seat)
        if old is not None:
            old.act(action, seat)
    sides = {"A": SideStats(), "B": SideStats()}
    for rec in m.hands_played:
        for team in (0, 1):
            st = sides["A" if team == a_team else "B"]
            ts = rec.scores[team]
            st.hands += 1
            st.points += ts.delta
            if ts.contract > 0:
                st.contracts += 1
                st.contracts_made += ts.made
            st.nil_bids += len(ts.nils)
            st.nils_made += sum(n.made for n in ts.nils)
            st.blind_bids += sum(n.blind for n in ts.nils)
            st.blinds_made += sum(n.blind and n.made for n in ts.nils)
            st.bags += ts.bags
    sa, sb = m.scores[a_team], m.scores[1 - a_team]
    capped = m.phase != "over"
    if m.winner is not None:
        winner: str | None = "A" if m.winner == a_team else "B"
    else:
        winner = "A" if sa > sb else "B" if sb > sa else None
    if winner:
        sides[winner].wins += 1
    return MatchResult(
        seed, orientation, first, winner, capped, len(m.hands_played), (sa, sb), sides, times
    )


def _task(args: tuple[str, str, int, int, int, str]) -> MatchResult:
    """One match of the arena (a picklable task for the worker pool)."""
    return play_match(*args)


Z95 = 1.96  # the normal quantile of a two-sided 95 % interval


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """95% Wilson score interval for a proportion ``wins / n``."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


def run(
    level_a: str,
    level_b: str,
    matches: int,
    seed: int,
    jobs: int = 1,
    max_hands: int = MAX_HANDS,
    rules: str = "1.0.0",
) -> tuple[dict, list[MatchResult]]:
    """Play the arena under house ``rules`` (text) and return (report dictionary, per-match
    results)."""
    parsed = Rules.parse(rules)
    rules = parsed.to_text()
    for lv in (level_a, level_b):
        name, commit = split_level(lv)
        if name not in REGISTRY:
            raise ValueError(
                f"unknown bot level {lv!r}; choose one of {', '.join(REGISTRY)} (or LEVEL@COMMIT)"
            )
        if commit and not parsed.default:
            raise ValueError(f"{lv}: an old commit's bots play the standard rules (1.0.0) only")
    seeds = (max(1, matches) + 1) // 2
    tasks = [
        (level_a, level_b, seed * SEED_STRIDE + i, o, max_hands, rules)
        for i in range(seeds)
        for o in (0, 1)
    ]
    if jobs > 1:
        import multiprocessing

        with multiprocessing.get_context("spawn" if _no_fork() else "fork").Pool(jobs) as pool:
            results = pool.map(_task, tasks, chunksize=1)
    else:
        results = [_task(t) for t in tasks]
    return report(level_a, level_b, seed, results) | {"rules": rules}, results


def _no_fork() -> bool:
    """Whether this system cannot fork worker processes."""
    import multiprocessing

    return "fork" not in multiprocessing.get_all_start_methods()


def _times(ts: list[float]) -> dict:
    """Decision-time figures (count, median, p95, max in ms) of one level."""
    if not ts:
        return {"decisions": 0, "median_ms": None, "p95_ms": None, "max_ms": None}
    s = sorted(ts)
    return {
        "decisions": len(s),
        "median_ms": round(statistics.median(s) * 1000, 3),
        "p95_ms": round(s[min(len(s) - 1, int(0.95 * len(s)))] * 1000, 3),
        "max_ms": round(s[-1] * 1000, 3),
    }


def points_gap(results: list[MatchResult]) -> tuple[float, float, float] | None:
    """A's points a hand minus B's over all matches, with its 95 % interval from the seeds'
    pairs (each seed's two matches share their deals, so the gap varies far less than either
    side's points: a finer measure than the win rate). ``None`` with fewer than two seeds."""
    by_seed: dict[int, list[int]] = {}
    for r in results:
        pair = by_seed.setdefault(r.seed, [0, 0])
        pair[0] += r.sides["A"].points - r.sides["B"].points
        pair[1] += r.hands
    n = len(by_seed)
    if n < 2:
        return None
    gaps = [g for g, _ in by_seed.values()]
    hands = [h for _, h in by_seed.values()]
    ratio = sum(gaps) / sum(hands)
    mean_hands = sum(hands) / n
    spread = sum((g - ratio * h) ** 2 for g, h in zip(gaps, hands)) / (n - 1)
    half = Z95 * math.sqrt(spread / n) / mean_hands
    return ratio, ratio - half, ratio + half


def report(level_a: str, level_b: str, seed: int, results: list[MatchResult]) -> dict:
    """Aggregate per-match results into the arena report."""
    sides = {"A": SideStats(), "B": SideStats()}
    times: dict[str, list[float]] = {}
    for r in results:
        for k in ("A", "B"):
            sides[k].add(r.sides[k])
        for lv, ts in r.times.items():
            times.setdefault(lv, []).extend(ts)
    n = len(results)
    draws = sum(r.winner is None for r in results)
    a_wins = sides["A"].wins
    score = a_wins + 0.5 * draws
    lo, hi = wilson(score, n)
    gap = points_gap(results)

    def side(st: SideStats, level: str) -> dict:
        h = max(1, st.hands)
        return {
            "level": level,
            "match_wins": st.wins,
            "hands": st.hands,
            "points_per_hand": round(st.points / h, 2),
            "contracts_made_pct": round(100 * st.contracts_made / max(1, st.contracts), 1),
            "nil_bids": st.nil_bids,
            "nil_success_pct": round(100 * st.nils_made / st.nil_bids, 1) if st.nil_bids else None,
            "nil_bids_per_hand": round(st.nil_bids / h, 3),
            "blind_nil_bids": st.blind_bids,
            "blind_nil_success_pct": round(100 * st.blinds_made / st.blind_bids, 1)
            if st.blind_bids
            else None,
            "bags_per_hand": round(st.bags / h, 3),
        }

    return {
        "a": level_a,
        "b": level_b,
        "seed": seed,
        "matches": n,
        "seeds": len({r.seed for r in results}),
        "duplicate": "each seed is played twice, teams' seats swapped",
        "draws": draws,
        "capped": sum(r.capped for r in results),
        "a_win_rate": round(score / n, 4) if n else None,
        "a_win_rate_ci95": [round(lo, 4), round(hi, 4)],
        "a_minus_b_points_per_hand": None if gap is None else round(gap[0], 2),
        "a_minus_b_points_per_hand_ci95": None
        if gap is None
        else [round(gap[1], 2), round(gap[2], 2)],
        "sides": {"A": side(sides["A"], level_a), "B": side(sides["B"], level_b)},
        "decision_time": {lv: _times(ts) for lv, ts in times.items()},
    }


def format_report(rep: dict) -> str:
    """The report as readable text."""
    lines = [
        f"Arena: A={rep['a']} vs B={rep['b']}  rules {rep.get('rules', '1.0.0')}  seed "
        f"{rep['seed']}  {rep['matches']} matches "
        f"({rep['seeds']} seeds x 2 orientations, duplicate deals)",
        f"A wins {rep['sides']['A']['match_wins']}, B wins {rep['sides']['B']['match_wins']}, "
        f"draws {rep['draws']}, capped {rep['capped']}",
        f"A win rate {100 * rep['a_win_rate']:.1f}%  (95% Wilson "
        f"{100 * rep['a_win_rate_ci95'][0]:.1f}"
        f"–{100 * rep['a_win_rate_ci95'][1]:.1f}%)",
    ]
    if rep.get("a_minus_b_points_per_hand") is not None:
        lo, hi = rep["a_minus_b_points_per_hand_ci95"]
        lines.append(
            f"A's points a hand minus B's {rep['a_minus_b_points_per_hand']}  (95% {lo}–{hi})"
        )
    for k in ("A", "B"):
        s = rep["sides"][k]
        nil = "-" if s["nil_success_pct"] is None else f"{s['nil_success_pct']}%"
        lines.append(
            f"  {k} ({s['level']}): {s['points_per_hand']} pts/hand, contracts made "
            f"{s['contracts_made_pct']}%, nil bids {s['nil_bids']} (made {nil}), "
            f"blind nils {s['blind_nil_bids']} (made {s['blind_nil_success_pct']}), "
            f"bags/hand {s['bags_per_hand']}"
        )
    for lv, t in rep["decision_time"].items():
        lines.append(
            f"  time {lv}: median {t['median_ms']} ms, p95 {t['p95_ms']} ms, "
            f"max {t['max_ms']} ms over {t['decisions']} decisions"
        )
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    """Entry point for ``python -m spades arena …``; returns the exit status."""
    p = argparse.ArgumentParser(
        prog="python -m spades arena",
        description="Bot vs bot over duplicate deals (each seed played twice, seats swapped).",
    )
    p.add_argument(
        "a",
        help="level of team A (easy, normal, hard; LEVEL@COMMIT: that level as of an old commit)",
    )
    p.add_argument("b", help="level of team B")
    p.add_argument(
        "--matches", type=int, default=20, help="total matches (rounded up to even: N/2 seeds x 2)"
    )
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--jobs", type=int, default=1, help="worker processes")
    p.add_argument("--max-hands", type=int, default=MAX_HANDS, help="cap on hands per match")
    p.add_argument(
        "--rules",
        default="1.0.0",
        help="house rules: a preset (1.0.0, jokers, deuces, suicide, "
        "blind-nil, quick) or preset,key=value,… (see spades.Rules.parse)",
    )
    args = p.parse_args(argv)
    try:
        rep, _ = run(args.a, args.b, args.matches, args.seed, args.jobs, args.max_hands, args.rules)
    except ValueError as exc:  # an unknown level, or BadRules (a ValueError with a code)
        print(f"error: {exc}")
        return 2
    print(json.dumps(rep, indent=2) if args.json else format_report(rep))
    return 0


if __name__ == "__main__":  # pragma: no cover
    import sys

    raise SystemExit(main(sys.argv[1:]))
