"""``python -m spades review FILE``: every decision of a hand judged against double-dummy play."""

from __future__ import annotations

import json
import sys
from typing import Any

from ..errors import SpadesError
from ..match import SEAT_NAMES, HandRecord, Match
from ..notation import parse, replay
from ..solver.review import Review, ReviewError, review


def load_hand(path: str, number: int | None = None) -> HandRecord:
    """A completed hand from a file of hand notation or a save (the last hand, or hand
    ``number``)."""
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
        lines.append(
            f"  {SEAT_NAMES[leader]:5} leads: "
            + ("not finished" if t is None else f"South/North {t[0]}, West/East {t[1]}")
        )
    for d in result.decisions:
        verb = "bids" if d.kind == "bid" else "plays"
        if not d.finished and d.cost_tricks is None and d.cost_points is None:
            note = "not finished"
        elif (d.cost_tricks or 0) == 0 and (d.cost_points or 0) == 0:
            note = "best" if d.finished else "best on tricks (points not finished)"
        else:
            parts = [
                f"{d.cost_tricks} trick(s)" if d.cost_tricks else "",
                f"{d.cost_points} point(s)" if d.cost_points else "",
            ]
            note = f"costs {' and '.join(p for p in parts if p)}; best {d.best}"
        trick = "" if d.kind == "bid" else f"trick {(d.index - 4) // 4 + 1:2}: "
        lines.append(f"  {trick}{SEAT_NAMES[d.seat]:5} {verb} {d.action:3}  {note}")
    return lines


def review_command(args) -> int:
    """``python -m spades review FILE [--json] [--hand N] [--budget S]``."""
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


def add_review(sub: Any) -> None:
    """The ``review`` subcommand."""
    r = sub.add_parser("review", help="judge every decision of a hand against double-dummy play")
    r.add_argument("file", help="hand notation or a save")
    r.add_argument("--json", action="store_true")
    r.add_argument(
        "--hand", type=int, default=None, help="which completed hand of a save (default: the last)"
    )
    r.add_argument(
        "--budget", type=float, default=2.0, help="seconds per position before 'not finished'"
    )
    r.set_defaults(run=review_command)
