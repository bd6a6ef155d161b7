"""Review of a completed hand: every decision (bids and cards) against double-dummy play.

For each card played: the value (:class:`~spades.solver.CardValue`) of every legal card at
that moment, the best one, and what the card played cost in tricks and in points. For each
bid: the hand-score margin with best play had the seat bid otherwise (a few candidate bids:
the one made, nil, and those around the team's makeable tricks). Plus the double-dummy table:
the tricks each team takes with best play for each seat on lead to the first trick.

Positions are solved from the end of the hand backwards (cheap ones first, and their
tables help the earlier ones); :func:`iter_review` yields results as they come, for a
worker that shows progress. Each position has a time budget; past it the decision says
"not finished" (``finished`` false, costs ``None``) instead of blocking.
"""
from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field

from .cards import CARD_NAMES
from .errors import SpadesError
from .match import HandRecord, Match
from .solver import CardValue, NotFinished, Position, Solver

DEFAULT_BUDGET = 2.0        # seconds per position
BID_SPREAD = 1              # candidate bids: makeable tricks minus partner's bid, ± this


class ReviewError(SpadesError, ValueError):
    """A hand that cannot be reviewed. Code: ``not_complete``."""


@dataclass(slots=True)
class Decision:
    """One decision of the hand and its double-dummy judgement."""

    index: int                    # 0–3 the bids in order, 4–55 the cards in order
    seat: int
    kind: str                     # "bid" or "card"
    action: str                   # the card name, or the bid ("nil" or a number)
    values: dict[str, CardValue] = field(default_factory=dict)   # each option → its value
    best: str | None = None       # the option with the best score margin (tricks if points unknown)
    cost_tricks: int | None = None
    cost_points: int | None = None
    finished: bool = False

    def to_dict(self) -> dict:
        """The JSON form (``seat``, ``action``, ``best``, ``cost_tricks``, ``cost_points`` and more)."""
        team = self.seat & 1
        return {"index": self.index, "seat": self.seat, "kind": self.kind, "action": self.action,
                "best": self.best, "cost_tricks": self.cost_tricks, "cost_points": self.cost_points,
                "finished": self.finished,
                "values": {k: {"tricks": v.tricks[team] if v.tricks else None, "margin": v.margin}
                           for k, v in self.values.items()}}


@dataclass(slots=True)
class Review:
    """Every decision of a hand in order, and the double-dummy table (leader → tricks per team)."""

    decisions: list[Decision]
    table: dict[int, tuple[int, int] | None]


def _bid_text(b: int) -> str:
    return "nil" if b == 0 else str(b)


def _judge(d: Decision) -> None:
    """Fill ``best`` and the costs from the option values (points first, then tricks)."""
    team = d.seat & 1
    vals = d.values
    played = vals.get(d.action)
    if not vals or played is None:
        return
    if all(v.tricks is not None for v in vals.values()):
        d.cost_tricks = max(v.tricks[team] for v in vals.values()) - played.tricks[team]
    if all(v.margin is not None for v in vals.values()):
        d.best = max(vals, key=lambda k: (vals[k].margin, vals[k].tricks[team] if vals[k].tricks else 0))
        d.cost_points = vals[d.best].margin - played.margin  # type: ignore[operator]
    elif d.cost_tricks is not None:
        d.best = max(vals, key=lambda k: vals[k].tricks[team])
    d.finished = d.cost_tricks is not None and d.cost_points is not None


def _positions(record: HandRecord) -> tuple[Match, list[Position]]:
    """Replay the hand; the position before each of its 52 cards, and the match after the bids."""
    before = [s.score_before for s in record.scores]
    bags = [s.bags_before for s in record.scores]
    m = Match(seed=0, dealer=record.dealer, deal=[list(h) for h in record.deal], scores=before, bags=bags)
    for i in range(4):
        m.bid(record.bids[(record.dealer + 1 + i) % 4])
    start = m.copy()
    positions = []
    for trick in record.tricks:
        for _, card in trick.plays:
            positions.append(Position.from_match(m))
            m.play(card)
    return start, positions


def _card_values(solver: Solver, pos: Position, budget: float) -> tuple[dict[str, CardValue], bool]:
    """Every legal card's value within ``budget`` seconds in all: tricks first, then points."""
    deadline = time.perf_counter() + budget
    try:
        tricks = solver.values(pos, score=False, deadline=deadline)
    except NotFinished:
        return {}, False
    names = {CARD_NAMES[c]: v for c, v in tricks.items()}
    try:
        full = solver.values(pos, score=True, deadline=deadline, known=tricks)
    except NotFinished:
        return names, False
    return {CARD_NAMES[c]: v for c, v in full.items()}, True


def leader_table(start: Position, solver: Solver, budget: float) -> dict[int, tuple[int, int] | None]:
    """For each seat on lead to the first trick: tricks (team 0, team 1) with best play, or ``None`` past the budget."""
    out: dict[int, tuple[int, int] | None] = {}
    for leader in range(4):
        pos = Position(start.hands, (), leader, start.broken, start.bids, start.won, start.bags)
        try:
            t0 = solver.tricks(pos, deadline=time.perf_counter() + budget)
            out[leader] = (t0, pos.hands[leader].bit_count() - t0)
        except NotFinished:
            out[leader] = None
    return out


def iter_review(record: HandRecord, budget: float = DEFAULT_BUDGET) -> Iterator[Decision | dict]:
    """Yield each card decision from the last to the first, then the table (a dict), then the bids."""
    if not isinstance(record, HandRecord) or len(record.tricks) != 13:
        raise ReviewError("not_complete", "Only a completed hand (13 tricks) can be reviewed.")
    start, positions = _positions(record)
    cards = [c for t in record.tricks for _, c in t.plays]
    solver = Solver(positions[0].bids, positions[0].bags)
    for i in range(51, -1, -1):
        pos = positions[i]
        d = Decision(4 + i, pos.to_act, "card", cards[i])
        d.values, _ = _card_values(solver, pos, budget)
        _judge(d)
        yield d
    table = leader_table(positions[0], solver, budget)
    yield {"table": table}
    yield from _bid_decisions(record, positions[0], table, budget)


def _bid_decisions(record: HandRecord, first: Position, table: dict, budget: float) -> Iterator[Decision]:
    """Each bid against a few alternatives, by the score margin with best play from the opening lead."""
    makeable = table.get(first.leader)
    for i in range(4):
        seat = (record.dealer + 1 + i) % 4
        team = seat & 1
        made = record.bids[seat]
        options = {made, 0}
        if makeable is not None:
            centre = makeable[team] - record.bids[seat ^ 2]
            options |= {b for b in range(centre - BID_SPREAD, centre + BID_SPREAD + 1) if 1 <= b <= 13}
        d = Decision(i, seat, "bid", _bid_text(made))
        deadline = time.perf_counter() + budget
        try:
            for b in sorted(options):
                bids = list(first.bids)
                bids[seat] = b
                pos = Position(first.hands, (), first.leader, first.broken, tuple(bids), first.won, first.bags)  # type: ignore[arg-type]
                m0 = Solver(pos.bids, pos.bags).margin(pos, deadline=deadline)
                d.values[_bid_text(b)] = CardValue(None, m0 if team == 0 else -m0)  # type: ignore[arg-type]
            d.best = max(d.values, key=lambda k: d.values[k].margin)  # type: ignore[arg-type, return-value]
            d.cost_points = d.values[d.best].margin - d.values[d.action].margin  # type: ignore[operator]
            d.finished = True
        except NotFinished:
            d.values = {}
        yield d


def review(record: HandRecord, budget: float = DEFAULT_BUDGET) -> Review:
    """Every decision of the hand in order (bids, then cards) and the double-dummy table."""
    decisions: list[Decision] = []
    table: dict = {}
    for item in iter_review(record, budget):
        if isinstance(item, Decision):
            decisions.append(item)
        else:
            table = item["table"]
    decisions.sort(key=lambda d: d.index)
    return Review(decisions, table)


# -- step-wise use: one position a message, so the page can cancel and interleave ----------

#: The last hand analysed step by step: (its deal and bids, positions, cards, solver). One
#: entry, so a page reviewing a hand one message per position reuses the solver's tables.
_STEPWISE: dict[str, tuple[list[Position], list[str], Solver]] = {}


def _stepwise(record: HandRecord) -> tuple[list[Position], list[str], Solver]:
    key = repr((record.dealer, record.deal, record.bids, [s.score_before for s in record.scores],
                [s.bags_before for s in record.scores], [t.plays for t in record.tricks]))
    if key not in _STEPWISE:
        _, positions = _positions(record)
        cards = [c for t in record.tricks for _, c in t.plays]
        _STEPWISE.clear()
        _STEPWISE[key] = (positions, cards, Solver(positions[0].bids, positions[0].bags))
    return _STEPWISE[key]


def decision_at(record: HandRecord, step: int, budget: float = DEFAULT_BUDGET) -> Decision:
    """The card decision before card ``step`` (0–51) of a completed hand, judged within ``budget`` seconds."""
    if not isinstance(record, HandRecord) or len(record.tricks) != 13:
        raise ReviewError("not_complete", "Only a completed hand (13 tricks) can be reviewed.")
    positions, cards, solver = _stepwise(record)
    pos = positions[step]
    d = Decision(4 + step, pos.to_act, "card", cards[step])
    d.values, _ = _card_values(solver, pos, budget)
    _judge(d)
    return d


def table_of(record: HandRecord, budget: float = DEFAULT_BUDGET) -> dict[int, tuple[int, int] | None]:
    """The double-dummy table of a completed hand (see :func:`leader_table`)."""
    if not isinstance(record, HandRecord) or len(record.tricks) != 13:
        raise ReviewError("not_complete", "Only a completed hand (13 tricks) can be reviewed.")
    positions, _, solver = _stepwise(record)
    return leader_table(positions[0], solver, budget)


# -- command line: python -m spades review FILE | bench --solver ------------------------------

SEATS = ("South", "West", "North", "East")


def load_hand(path: str, number: int | None = None) -> HandRecord:
    """A completed hand from a file of hand notation or a save (the last hand, or hand ``number``)."""
    from .notation import parse, replay
    with open(path, encoding="utf-8") as f:
        text = f.read()
    match = Match.from_json(text) if text.lstrip().startswith("{") else replay(parse(text))
    hands = match.hands_played
    if not hands:
        raise ReviewError("not_complete", "The file holds no completed hand (13 tricks) to review.")
    if number is None:
        return hands[-1]
    if not 1 <= number <= len(hands):
        raise ReviewError("not_complete", f"There is no completed hand {number} (1–{len(hands)}).")
    return hands[number - 1]


def format_review(result: Review) -> list[str]:
    """The review as readable lines: the table, then each decision and what it cost."""
    lines = ["Double-dummy table (tricks per team with best play, by seat on lead):"]
    for leader, t in result.table.items():
        lines.append(f"  {SEATS[leader]:5} leads: " + ("not finished" if t is None else f"South/North {t[0]}, West/East {t[1]}"))
    for d in result.decisions:
        verb = "bids" if d.kind == "bid" else "plays"
        if not d.finished and d.cost_tricks is None and d.cost_points is None:
            note = "not finished"
        elif (d.cost_tricks or 0) == 0 and (d.cost_points or 0) == 0:
            note = "best" if d.finished else "best on tricks (points not finished)"
        else:
            parts = [f"{d.cost_tricks} trick(s)" if d.cost_tricks else "", f"{d.cost_points} point(s)" if d.cost_points else ""]
            note = f"costs {' and '.join(p for p in parts if p)}; best {d.best}"
        trick = "" if d.kind == "bid" else f"trick {(d.index - 4) // 4 + 1:2}: "
        lines.append(f"  {trick}{SEATS[d.seat]:5} {verb} {d.action:3}  {note}")
    return lines


def review_command(args) -> int:  # noqa: ANN001 - argparse.Namespace
    """``python -m spades review FILE [--json] [--hand N] [--budget S]``."""
    import json
    import sys
    try:
        record = load_hand(args.file, args.hand)
    except (SpadesError, ValueError, OSError) as exc:
        print(f"Cannot review {args.file}: {getattr(exc, 'message', exc)}", file=sys.stderr)
        return 2
    result = review(record, args.budget)
    if args.json:
        print(json.dumps([d.to_dict() for d in result.decisions]))
    else:
        print("\n".join(format_review(result)))
    return 0


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def bench_solver(args) -> int:  # noqa: ANN001 - argparse.Namespace
    """CPU time to solve the first lead of random deals (all candidate cards): trick value, then score value.

    A solve past ``cap`` CPU seconds is counted as not finished, and in the median and p95 as
    slower than every finished one (so they stay honest).
    """
    import json
    import random
    import sys
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
                times[kind].append(time.process_time() - cpu)     # CPU time: the machine may be shared
            except NotFinished:
                unfinished[kind] += 1
    def figure(v: list[float], q: float, past: int) -> float | str | None:
        """A percentile counting the solves past the cap as slower than all: "> cap" if it falls there."""
        both = v + [float("inf")] * past
        x = _percentile(both, q) if both else None
        return None if x is None else f"> {cap}" if x == float("inf") else round(x, 3)

    result = {k: {"median_s": figure(v, 0.5, unfinished[k]),
                  "p95_s": figure(v, 0.95, unfinished[k]),
                  "solved": len(v), "not_finished": unfinished[k]} for k, v in times.items()}
    result["python"] = sys.version.split()[0]
    result["cap_s"] = cap
    print(json.dumps(result) if args.json else "\n".join(
        f"{k:6}: median {r['median_s']} s, p95 {r['p95_s']} s CPU over {r['solved']} deals"
        f" ({r['not_finished']} past {cap} s)" for k, r in result.items() if isinstance(r, dict)))
    return 0


__all__ = ["Decision", "Review", "ReviewError", "decision_at", "table_of", "iter_review", "review", "leader_table", "load_hand",
           "format_review", "review_command", "bench_solver"]
