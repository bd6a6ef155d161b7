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

import functools
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

from ..cards import CARD_NAMES
from ..errors import SpadesError
from ..match import HandRecord, Match
from .position import CardValue, NotFinished, Position
from .search import Solver

DEFAULT_BUDGET = 2.0  # seconds per position
BID_SPREAD = 1  # candidate bids: makeable tricks minus partner's bid, ± this


class ReviewError(SpadesError, ValueError):
    """A hand that cannot be reviewed. Code: ``not_complete``."""


@dataclass(slots=True)
class Decision:
    """One decision of the hand and its double-dummy judgement."""

    index: int  # 0–3 the bids in order, 4–55 the cards in order
    seat: int
    kind: str  # "bid" or "card"
    action: str  # the card name, or the bid ("nil" or a number)
    values: dict[str, CardValue] = field(default_factory=dict)  # each option → its value
    best: str | None = None  # the option with the best score margin (tricks if points unknown)
    cost_tricks: int | None = None
    cost_points: int | None = None
    finished: bool = False

    def to_dict(self) -> dict:
        """The JSON form (``seat``, ``action``, ``best``, ``cost_tricks``, ``cost_points`` and
        more)."""
        team = self.seat & 1
        return {
            "index": self.index,
            "seat": self.seat,
            "kind": self.kind,
            "action": self.action,
            "best": self.best,
            "cost_tricks": self.cost_tricks,
            "cost_points": self.cost_points,
            "finished": self.finished,
            "values": {
                k: {"tricks": v.tricks[team] if v.tricks else None, "margin": v.margin}
                for k, v in self.values.items()
            },
        }


@dataclass(slots=True)
class Review:
    """Every decision of a hand in order, and the double-dummy table (leader → tricks per team)."""

    decisions: list[Decision]
    table: dict[int, tuple[int, int] | None]


def _bid_text(b: int) -> str:
    """A bid as the review names it: ``nil`` or the number."""
    return "nil" if b == 0 else str(b)


def _judge(d: Decision) -> None:
    """Fill ``best`` and the costs from the option values (points first, then tricks)."""
    team = d.seat & 1
    vals = d.values
    played = vals.get(d.action)
    if not vals or played is None:
        return
    tricks = {k: v.tricks[team] for k, v in vals.items() if v.tricks is not None}
    margins = {k: v.margin for k, v in vals.items() if v.margin is not None}
    if len(tricks) == len(vals):
        d.cost_tricks = max(tricks.values()) - tricks[d.action]
    if len(margins) == len(vals):
        d.best = max(vals, key=lambda k: (margins[k], tricks.get(k, 0)))
        d.cost_points = margins[d.best] - margins[d.action]
    elif d.cost_tricks is not None:
        d.best = max(vals, key=tricks.__getitem__)
    d.finished = d.cost_tricks is not None and d.cost_points is not None


def _positions(record: HandRecord) -> tuple[Match, list[Position]]:
    """Replay the hand; the position before each of its 52 cards, and the match after the bids."""
    before = [s.score_before for s in record.scores]
    bags = [s.bags_before for s in record.scores]
    m = Match(
        seed=0, dealer=record.dealer, deal=[list(h) for h in record.deal], scores=before, bags=bags
    )
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


def leader_table(
    start: Position, solver: Solver, budget: float
) -> dict[int, tuple[int, int] | None]:
    """For each seat on lead to the first trick: tricks (team 0, team 1) with best play, or
    ``None`` past the budget.

    ``budget`` is for the whole table, not each leader: one message stays within the page's
    deadline.
    """
    out: dict[int, tuple[int, int] | None] = {}
    deadline = time.perf_counter() + budget
    for leader in range(4):
        pos = Position(start.hands, (), leader, start.broken, start.bids, start.won, start.bags)
        try:
            t0 = solver.tricks(pos, deadline=deadline)
            out[leader] = (t0, pos.hands[leader].bit_count() - t0)
        except NotFinished:
            out[leader] = None
    return out


def iter_review(record: HandRecord, budget: float = DEFAULT_BUDGET) -> Iterator[Decision | dict]:
    """Yield each card decision from the last to the first, then the table (a dict), then the
    bids."""
    if not isinstance(record, HandRecord) or len(record.tricks) != 13:
        raise ReviewError("not_complete", "Only a completed hand (13 tricks) can be reviewed.")
    _, positions = _positions(record)
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


def _bid_decisions(
    record: HandRecord, first: Position, table: dict, budget: float
) -> Iterator[Decision]:
    """Each bid against a few alternatives, by the score margin with best play from the opening
    lead."""
    makeable = table.get(first.leader)
    for i in range(4):
        seat = (record.dealer + 1 + i) % 4
        team = seat & 1
        made = record.bids[seat]
        options = {made, 0}
        if makeable is not None:
            centre = makeable[team] - record.bids[seat ^ 2]
            options |= {
                b for b in range(centre - BID_SPREAD, centre + BID_SPREAD + 1) if 1 <= b <= 13
            }
        d = Decision(i, seat, "bid", _bid_text(made))
        deadline = time.perf_counter() + budget
        margins: dict[str, int] = {}  # each bid's margin, from the bidder's side
        try:
            for b in sorted(options):
                bids = list(first.bids)
                bids[seat] = b
                pos = Position(
                    first.hands, (), first.leader, first.broken, tuple(bids), first.won, first.bags
                )
                m0 = Solver(pos.bids, pos.bags).margin(pos, deadline=deadline)
                margins[_bid_text(b)] = m0 if team == 0 else -m0
                value = CardValue(None, margins[_bid_text(b)])  # type: ignore[arg-type]  # a bid: no trick split
                d.values[_bid_text(b)] = value
            d.best = max(margins, key=margins.__getitem__)
            d.cost_points = margins[d.best] - margins[d.action]
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

#: How many hands :func:`_stepwise` keeps (the least recently used goes first).
STEPWISE_KEPT = 4


@functools.lru_cache(maxsize=STEPWISE_KEPT)
def _stepwise(record: HandRecord) -> tuple[list[Position], list[str], Solver]:
    """The positions, cards and solver of ``record``, made once and kept: a page reviewing a
    hand one message per position reuses the solver's tables, also while other pages sharing
    the engine analyse other hands between its messages."""
    _, positions = _positions(record)
    cards = [c for t in record.tricks for _, c in t.plays]
    return positions, cards, Solver(positions[0].bids, positions[0].bags)


def decision_at(record: HandRecord, step: int, budget: float = DEFAULT_BUDGET) -> Decision:
    """The card decision before card ``step`` (0–51) of a completed hand, judged within ``budget``
    seconds."""
    if not isinstance(record, HandRecord) or len(record.tricks) != 13:
        raise ReviewError("not_complete", "Only a completed hand (13 tricks) can be reviewed.")
    positions, cards, solver = _stepwise(record)
    pos = positions[step]
    d = Decision(4 + step, pos.to_act, "card", cards[step])
    d.values, _ = _card_values(solver, pos, budget)
    _judge(d)
    return d


def table_of(
    record: HandRecord, budget: float = DEFAULT_BUDGET
) -> dict[int, tuple[int, int] | None]:
    """The double-dummy table of a completed hand (see :func:`leader_table`)."""
    if not isinstance(record, HandRecord) or len(record.tricks) != 13:
        raise ReviewError("not_complete", "Only a completed hand (13 tricks) can be reviewed.")
    positions, _, solver = _stepwise(record)
    return leader_table(positions[0], solver, budget)


__all__ = [
    "Decision",
    "Review",
    "ReviewError",
    "decision_at",
    "iter_review",
    "leader_table",
    "review",
    "table_of",
]
