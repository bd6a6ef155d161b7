"""Solver figures (benchmarks, not tests): first-lead solve times, bot losses (agreement: check_solver_endplay.py).

    python tools/bench_solver.py lead  [--deals 50] [--cap 120] [--kinds tricks,score] [--baseline bcd75eb]
                                       [--played 4] [--nil]
    python tools/bench_solver.py techniques [--deals 50] [--cap 20] [--off partition,quick,order,equiv,low,tt]
    python tools/bench_solver.py bots  [--hands 200] [--last 13] [--budget 5]
    python tools/bench_solver.py pair  [--hands 200] [--driver normal] [--budget 3] [--levels normal,hard,hard@COMMIT]
                                       [--left 6,5]

Every line printed is one result, flushed at once (long runs can be read part-way).
Times are CPU seconds (``time.process_time``), and so are the review's budgets (``bots``, ``pair``):
the machine may be shared, and a busy neighbour must not leave more positions unjudged.
"""
from __future__ import annotations

import argparse
import importlib
import json
import random
import statistics
import sys
import time
from itertools import takewhile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from cpuclock import use_cpu_clock  # noqa: E402

import spades  # noqa: E402
from spades.ai import LEVELS, bot  # noqa: E402
from spades.cli.baseline import Shadow, load, split_level  # noqa: E402
from spades.solver import NotFinished, Position, Solver  # noqa: E402
from spades.solver.review import decision_at, iter_review  # noqa: E402


def emit(**row) -> None:
    print(json.dumps(row), flush=True)


def lead(args: argparse.Namespace) -> None:
    """First lead of random full deals, all candidate cards: trick value and score value.

    With ``--baseline COMMIT`` that commit's solver (from git history, beside today's) solves
    the same positions, the two alternating deal by deal; the summary gives both and their
    ratio (baseline / today: above 1 is faster today)."""
    old = importlib.import_module(load(args.baseline).__name__ + ".solver") if args.baseline else None
    for kind in args.kinds.split(","):
        rnd = random.Random(args.seed)
        runs: dict[str, list[float]] = {"today": [], "baseline": []}
        for i in range(args.deals):
            m = spades.Match(seed=rnd.getrandbits(32))
            for _ in range(4):
                m.bid(rnd.choice((1, 2, 3, 3, 4, 4, 5, 0)))
            for _ in range(4 * args.played):
                m.play(rnd.choice(m.legal_cards()))
            pos = Position.from_match(m)
            if args.nil and 0 not in pos.bids:
                continue
            sides = [("today", Solver, pos)]
            if old is not None:
                sides.append(("baseline", old.Solver, old.Position(pos.hands, pos.trick, pos.leader, pos.broken,
                                                                    pos.bids, pos.won, pos.bags)))
            for name, make, p in sides if i % 2 == 0 else sides[::-1]:
                spent, nodes = _timed(make, p, kind == "score", args.cap)
                runs[name].append(spent)
                emit(kind=kind, deal=i, solver=name, bids=list(pos.bids),
                     cpu_s=round(spent, 3) if spent != INF else f"> {args.cap}", nodes=nodes)
        for name, times in runs.items():
            if times:
                emit(kind=kind + "_summary", solver=name, deals=len(times), not_finished=times.count(INF),
                     **{f"{q}_cpu_s": _fmt(v, args.cap) for q, v in zip(("median", "p90", "p95", "max"), _quantiles(times))})
        if old is not None:
            a, b = statistics.median(runs["baseline"]), statistics.median(runs["today"])
            emit(kind=kind + "_ab", baseline=args.baseline, median_ratio=round(a / b, 2) if INF not in (a, b) else None,
                 deals_faster_today=sum(x > y for x, y in zip(runs["baseline"], runs["today"])))


INF = float("inf")


def _timed(make, pos, score: bool, cap: float) -> tuple[float, int]:
    """CPU seconds of one solve of every card (``INF`` past ``cap``) and the nodes searched."""
    solver = make(pos.bids, pos.bags)
    solver.clock = time.process_time
    start = time.process_time()
    try:
        solver.values(pos, score=score, deadline=start + cap)
        return time.process_time() - start, solver.nodes
    except Exception as exc:                   # the old package's own NotFinished class
        if type(exc).__name__ != "NotFinished":
            raise
        return INF, solver.nodes


def _quantiles(values: list[float]) -> tuple[float, ...]:
    """Median, p90, p95 and max; solves past the cap count as slower than all."""
    ordered = sorted(values)
    at = lambda q: ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]  # noqa: E731
    return statistics.median(ordered), at(0.9), at(0.95), ordered[-1]


def _fmt(v: float, cap: float) -> float | str:
    return round(v, 3) if v != INF else f"> {cap}"


def _first_leads(seed: int, deals: int) -> list[Position]:
    """The opening-lead positions of random deals with random bids (the ``lead`` draws)."""
    rnd = random.Random(seed)
    out = []
    for _ in range(deals):
        m = spades.Match(seed=rnd.getrandbits(32))
        for _ in range(4):
            m.bid(rnd.choice((1, 2, 3, 3, 4, 4, 5, 0)))
        out.append(Position.from_match(m))
    return out


def _summary(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def techniques(args: argparse.Namespace) -> None:
    """Trick value of the first lead with each technique switched off in turn (A/B per deal, one run)."""
    configs = ["all"] + args.off.split(",")
    cpu: dict[str, list[float]] = {c: [] for c in configs}
    nodes: dict[str, list[int]] = {c: [] for c in configs}
    for i, pos in enumerate(_first_leads(args.seed, args.deals)):
        for conf in configs:
            solver = Solver(pos.bids, pos.bags)
            if conf != "all":
                setattr(solver, "use_" + conf, False)
            solver.clock = time.process_time
            start = time.process_time()
            try:
                solver.values(pos, score=False, deadline=start + args.cap)
                spent = time.process_time() - start
            except NotFinished:
                spent = float("inf")                   # counted past the cap: medians stay honest
            cpu[conf].append(spent)
            nodes[conf].append(solver.nodes)
            emit(kind="technique", deal=i, off=conf, cpu_s=round(spent, 3), nodes=solver.nodes)
    for conf in configs:
        t50, t95 = _summary(cpu[conf])
        n50, n95 = _summary(nodes[conf])
        emit(kind="technique_summary", off=conf, deals=len(cpu[conf]), past_cap=sum(t == float("inf") for t in cpu[conf]),
             median_cpu_s=round(t50, 3), p95_cpu_s=round(t95, 3), median_nodes=n50, p95_nodes=n95)


def bots(args: argparse.Namespace) -> None:
    """Each level playing itself: tricks and points lost per hand against double-dummy play."""
    for level in args.levels.split(","):
        rnd = random.Random(args.seed)
        lost_t, lost_p, unfinished, hands = [], [], 0, 0
        for h in range(args.hands):
            m = spades.Match(seed=rnd.getrandbits(32))
            players = [bot(level, seed=h * 4 + s) for s in range(4)]
            while not m.hands_played:
                m.act(players[m.to_act].choose(m.view(m.to_act)))
            record = m.hands_played[0]
            t = p = 0
            for item in iter_review(record, args.budget):
                if isinstance(item, dict) or item.index < 4 + 4 * (13 - args.last):
                    break                                  # backwards: the judged cards are done
                if item.cost_tricks is None or item.cost_points is None:
                    unfinished += 1
                    continue
                t += item.cost_tricks
                p += item.cost_points
            lost_t.append(t)
            lost_p.append(p)
            hands += 1
            emit(kind="bot_hand", level=level, hand=h, tricks_lost=t, points_lost=p)
        emit(kind="bot_summary", level=level, hands=hands, last_tricks=args.last,
             mean_tricks_lost=round(statistics.mean(lost_t), 3), mean_points_lost=round(statistics.mean(lost_p), 2),
             decisions_not_finished=unfinished)


def pair(args: argparse.Namespace) -> None:
    """Every level's card judged at the same positions: one level (the driver) plays whole hands; at each
    card decision every level is asked for its card, and all are judged against double-dummy play
    there (the review's values). Unlike ``bots``, the bids and positions are the same for all levels.

    A level may be ``LEVEL@COMMIT``: that level as of an old commit (its own engine kept in step).
    ``--left N,…``: only the decisions with N cards in hand are asked, and only those where the
    levels' cards differ are solved (the others cost every level alike): an A/B of two versions at
    one point of the hand, at a fraction of the cost. The summary's ``minus_first`` is each level's
    loss a hand minus the first level's, with a 95 % interval over the hands."""
    levels = args.levels.split(",")
    left = {int(x) for x in args.left.split(",")} if args.left else None
    rnd = random.Random(args.seed)
    by_phase = {(lv, ph): [0, 0] for lv in levels for ph in PHASES}   # tricks, points lost
    wins = dict.fromkeys(levels, 0)       # decisions where this level's card lost fewest points, alone
    per_hand: dict[str, list[tuple[int, int]]] = {lv: [] for lv in levels}   # tricks, points lost
    judged = unfinished = asked = 0
    for h in range(args.hands):
        seed = rnd.getrandbits(32)
        m = spades.Match(seed=seed)
        driver = [bot(args.driver, seed=h * 4 + s) for s in range(4)]
        judges = {lv: _PairPlayers(lv, m, seed, h) for lv in levels}
        picks: dict[int, dict[str, str]] = {}      # card index in the hand (0–51) → each level's card
        played = 0
        while not m.hands_played:
            view = m.view(m.to_act)
            card = m.phase == "play"
            if card and (left is None or len(view.hand) in left):
                picks[played] = {lv: judges[lv].choose(m.to_act, view) for lv in levels}
            action = driver[m.to_act].choose(view)
            for j in judges.values():
                j.act(action, m.to_act)
            m.act(action)
            played += card
        record = m.hands_played[0]
        asked += len(picks)
        if left is None:
            items = takewhile(lambda i: not isinstance(i, dict), iter_review(record, args.budget))
        else:
            items = (decision_at(record, i, args.budget) for i, p in sorted(picks.items())
                     if len(set(p.values())) > 1)
        hand = {lv: [0, 0] for lv in levels}
        for item in items:
            if not item.finished:
                unfinished += 1
                continue
            judged += 1
            team = item.seat & 1
            vals = item.values
            top_t = max(v.tricks[team] for v in vals.values())
            top_p = max(v.margin for v in vals.values())
            costs = {}
            phase = _phase((item.index - 4) // 4 + 1)
            for lv, card in picks[item.index - 4].items():
                costs[lv] = top_p - vals[card].margin
                hand[lv][0] += top_t - vals[card].tricks[team]
                hand[lv][1] += costs[lv]
                by_phase[lv, phase][0] += top_t - vals[card].tricks[team]
                by_phase[lv, phase][1] += costs[lv]
            low = min(costs.values())
            if list(costs.values()).count(low) == 1:
                wins[min(costs, key=costs.get)] += 1
        for lv in levels:
            per_hand[lv].append((hand[lv][0], hand[lv][1]))
        emit(kind="pair_hand", hand=h, **{f"{lv}_tricks_lost": hand[lv][0] for lv in levels},
             **{f"{lv}_points_lost": hand[lv][1] for lv in levels})
    for lv in levels:
        lost = [sum(x) for x in zip(*per_hand[lv])]
        emit(kind="pair_summary", level=lv, driver=args.driver, hands=args.hands, decisions_asked=asked,
             decisions_judged=judged, decisions_not_finished=unfinished,
             mean_tricks_lost=round(lost[0] / args.hands, 3),
             mean_points_lost=round(lost[1] / args.hands, 2), decisions_best_alone=wins[lv],
             minus_first={"tricks": _paired(per_hand[lv], per_hand[levels[0]], 0),
                          "points": _paired(per_hand[lv], per_hand[levels[0]], 1)},
             **{f"tricks_{ph}": [round(by_phase[lv, ph][0] / args.hands, 3),
                                 round(by_phase[lv, ph][1] / args.hands, 2)] for ph in PHASES})


class _PairPlayers:
    """One level's four players for ``pair``: today's bots, or an old commit's deciding from that
    commit's own match, kept in step (the arena's :class:`~spades.cli.baseline.Shadow`)."""

    def __init__(self, level: str, m: spades.Match, seed: int, hand: int) -> None:
        seeds = [hand * 4 + s for s in range(4)]
        name, commit = split_level(level)
        self.bots = None if commit else [bot(name, seed=x) for x in seeds]
        self.shadow = Shadow([level] * 4, seed, [m.dealt(s) for s in range(4)], m.dealer, seeds) if commit else None

    def choose(self, seat: int, view) -> str:
        """The level's card for ``seat`` (``view``: today's engine's view of the same moment)."""
        return self.shadow.choose(seat) if self.shadow else self.bots[seat].choose(view)

    def act(self, action, seat: int) -> None:
        """Keep an old commit's match in step with today's."""
        if self.shadow:
            self.shadow.act(action, seat)


def _paired(mine: list[tuple[int, int]], first: list[tuple[int, int]], k: int) -> list[float]:
    """Mean of (mine − first) a hand in part ``k`` (0 tricks, 1 points), and its 95 % interval."""
    d = [a[k] - b[k] for a, b in zip(mine, first)]
    half = 1.96 * statistics.stdev(d) / len(d) ** 0.5 if len(d) > 1 else 0.0
    return [round(statistics.fmean(d), 3), round(half, 3)]


#: The hand's tricks in three parts, for ``pair``'s losses per part (tricks and points a hand).
PHASES = ("1-4", "5-8", "9-13")


def _phase(trick: int) -> str:
    """The part of the hand (:data:`PHASES`) trick number ``trick`` is in."""
    return PHASES[0] if trick <= 4 else PHASES[1] if trick <= 8 else PHASES[2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("lead")
    b.add_argument("--deals", type=int, default=50)
    b.add_argument("--cap", type=float, default=60.0, help="CPU seconds per solve")
    b.add_argument("--kinds", default="tricks,score")
    b.add_argument("--baseline", help="also solve with this commit's solver (A/B in one run)")
    b.add_argument("--played", type=int, default=0, help="tricks played at random first (0: the first lead)")
    b.add_argument("--nil", action="store_true", help="only deals with a nil bid (the others are drawn and skipped)")
    t = sub.add_parser("techniques")
    t.add_argument("--deals", type=int, default=50)
    t.add_argument("--cap", type=float, default=20.0, help="CPU seconds per solve (past it: counted as infinite)")
    t.add_argument("--off", default="partition,quick,order,equiv,low,tt")
    c = sub.add_parser("bots")
    c.add_argument("--hands", type=int, default=200)
    c.add_argument("--last", type=int, default=13, help="judge the cards of the last N tricks only")
    c.add_argument("--budget", type=float, default=5.0, help="CPU seconds per position")
    c.add_argument("--levels", default=",".join(LEVELS))
    d = sub.add_parser("pair")
    d.add_argument("--hands", type=int, default=200)
    d.add_argument("--driver", default="normal", help="the level that plays the hands")
    d.add_argument("--budget", type=float, default=3.0, help="CPU seconds per position")
    d.add_argument("--levels", default=",".join(LEVELS), help="levels, LEVEL@COMMIT for an old commit's")
    d.add_argument("--left", help="only the decisions with these many cards in hand (e.g. 6 or 6,5)")
    for p in (b, t, c, d):
        p.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    use_cpu_clock(spades)   # the review's budgets too (see the header)
    {"lead": lead, "techniques": techniques, "bots": bots, "pair": pair}[args.cmd](args)


if __name__ == "__main__":
    main()
