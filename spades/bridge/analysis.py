"""The bridge's analysis messages: ``review``, ``analyse``, ``bid_advice`` and ``dd_table``.

They read a match save, session save, hand record or hand notation handed in as text and never
touch a session (``sid`` is accepted for the common handler signature and unused), so they live
apart from the play messages in :mod:`spades.bridge.game`; :mod:`spades.bridge`'s ``HANDLERS`` table
(and docstring)
lists them with every other message.
"""

from __future__ import annotations

import functools
import json
import time
from typing import Any

from ..ai import bot
from ..cards import ALL_CARD_NAMES, CARD_INDEX, CARD_NAMES, mask_of, sort_hand
from ..errors import BadInput, BadRequest, BadSave, SpadesError
from ..legal import BLIND_NIL
from ..match import HandRecord, Match
from ..notation import HandText, parse, replay
from ..rules import DEFAULT, Rules
from ..safejson import excerpt, loads
from ..session import MAX_SAVE_CHARS, MAX_SAVE_DEPTH, SESSION_FORMAT
from ..solver import NotFinished, Position, Solver, SolverError
from ..solver import review as analysis
from .protocol import BUDGET_ARG, MAX_BUDGET_S, MIN_BUDGET_S
from .views import match_records

#: A card position's solving budget in seconds (the page sends one position a message); the
#: protocol's table holds the bounds (the engine worker slices budgets within them).
MIN_BUDGET, MAX_BUDGET = MIN_BUDGET_S, MAX_BUDGET_S
CARDS_PER_HAND = 52
#: Bid puzzles ask the strongest computer player, with a fixed seed (the same advice each time).
HARD, ADVICE_SEED = "hard", 0

Args = dict[str, Any]


def _record_match(data: dict[str, Any]) -> Match:
    """Replay a single hand record (``HandRecord.to_dict``) and check its stated scores."""
    try:
        scores = data["scores"]
        before = tuple(t["score_before"] for t in scores) if scores else (0, 0)
        bags = tuple(t["bags_before"] for t in scores) if scores else (0, 0)
        order = [(data["dealer"] + 1 + i) % 4 for i in range(4)]
        rules = Rules.read(data.get("rules"))
        blind = data.get("blind", [False] * 4)
        bids = ["blind" if blind[s] is True else data["bids"][s] for s in order]
        plays = [card for t in data["tricks"] for _, card in t["plays"]]
        spec = HandText(
            data["dealer"],
            tuple(tuple(h) for h in data["deal"]),
            before,
            bags,
            tuple(b for b in bids if b is not None),
            tuple(plays),
            rules,
        )
    except (KeyError, TypeError, IndexError, ValueError):
        raise BadSave(
            "malformed", "Not a valid hand record: a field is missing or of the wrong kind."
        ) from None
    m = replay(spec)
    given = {k: v for k, v in data.items() if k != "rules"}
    if scores is not None and (
        not m.hands_played or {**m.hands_played[0].to_dict(), "number": data.get("number")} != given
    ):
        raise BadSave(
            "inconsistent",
            "The hand record's tricks or scores do not agree with its own cards (tampered?).",
        )
    return m


def _saved_match(data: Any) -> Match:
    """A match from a decoded match save, every failure a :class:`BadSave`."""
    try:
        return Match.from_json(json.dumps(data))
    except SpadesError:
        raise
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, OverflowError):
        raise BadSave("malformed", "The saved match is damaged.") from None


def _match_of(text: Any) -> tuple[str, Match]:
    """The kind of ``text`` and its match replayed: a match save, session save, hand record or
    notation."""
    if not isinstance(text, str) or not text.strip():
        raise BadRequest("bad_args", "Give a saved match, a hand record or hand notation.")
    if len(text) > MAX_SAVE_CHARS:
        raise BadInput(
            "too_large",
            f"The text is too long: {len(text):,} characters, at most {MAX_SAVE_CHARS:,}.",
        )
    if not text.lstrip().startswith("{"):
        return "notation", replay(parse(text))
    data = loads(text, max_chars=MAX_SAVE_CHARS, max_depth=MAX_SAVE_DEPTH)
    if isinstance(data, dict) and data.get("format") == SESSION_FORMAT:
        return "session", _saved_match(data.get("match"))
    if isinstance(data, dict) and {"deal", "dealer", "bids", "tricks"} <= set(data):
        return "hand", _record_match(data)
    return "match", _saved_match(data)


def review(args: Args, sid: str | None = None) -> dict[str, Any]:
    """Every hand in a saved match, session, hand record or hand notation, checked by replay."""
    source, m = _match_of(args.get("text"))
    deck = m.rules.card_deck
    return {
        "source": source,
        "hands": match_records(m),
        "rules": m.rules.to_dict(),
        "order": sort_hand([ALL_CARD_NAMES[c] for c in deck.cards], deck),
    }


def _whole(args: Args, name: str, default: int, low: int, high: int) -> int:
    """Argument ``name``: a whole number ``low``–``high`` (``bad_args``, ``bad_<name>``)."""
    value = args.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadRequest("bad_args", f"{name} is a whole number.")
    if not low <= value <= high:
        raise BadRequest(f"bad_{name}", f"{name} {excerpt(value)} is out of range ({low}–{high}).")
    return value


def _budget(args: Args) -> float:
    """The ``budget`` argument in seconds (:data:`MIN_BUDGET`–:data:`MAX_BUDGET`)."""
    value = args.get(BUDGET_ARG, analysis.DEFAULT_BUDGET)
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not MIN_BUDGET <= value <= MAX_BUDGET
    ):
        raise BadRequest("bad_args", f"A budget is {MIN_BUDGET}–{MAX_BUDGET} seconds.")
    return float(value)


def _completed(args: Args) -> tuple[Rules, HandRecord]:
    """The rules of the match handed in and the completed hand asked for."""
    m = _match_of(args.get("text"))[1]
    hands = m.hands_played
    if not hands:
        raise BadRequest("not_complete", "Only a completed hand (13 tricks) can be analysed.")
    return m.rules, hands[_whole(args, "hand", 1, 1, len(hands)) - 1]


def _solvable(args: Args) -> HandRecord:
    """The completed hand asked for, if the solver plays and scores it exactly under its rules.

    The solver knows the standard deck, spades led once broken and 1.0.0's hand score. Options
    that change neither the play nor the hand's score (the target, the floor, suicide, a minimum
    team bid, blind nil allowed but not bid) are fine; any other is refused with
    ``unsupported_rules``
    rather than analysed with 1.0.0's scoring without saying so.
    """
    rules, record = _completed(args)
    if (
        not rules.card_deck.standard
        or rules.spades_any_time
        or rules.nil_points != DEFAULT.nil_points
        or rules.bag_limit != DEFAULT.bag_limit
        or rules.ten_for_200
        or any(record.blind)
    ):
        raise SolverError(
            "unsupported_rules",
            f"The analysis knows the standard deck and scoring only, "
            f"not these house rules ({rules.to_text()}).",
        )
    return record


def _mask(cards: list[str]) -> int:
    """The card mask of card names, refusing a card named twice."""
    if len(set(cards)) != len(cards):
        raise SolverError("card_twice", "A card appears twice.")
    return mask_of(cards)


def _int(value: Any) -> int:
    """A whole number as JSON gives it: ``true``, ``1.0``, ``1e400`` (infinity) and text are
    refused."""
    if type(value) is not int:
        raise TypeError(f"not a whole number: {excerpt(value)}")
    return value


def _position(data: Any) -> Position:
    """A position from ``{hands, trick, leader, broken, bids, won?, bags?}`` (card names),
    checked."""
    try:
        names = [*(c for h in data["hands"] for c in h), *data["trick"]]
        if len(data["hands"]) != 4 or any(
            not isinstance(c, str) or c not in CARD_INDEX for c in names
        ):
            raise BadRequest(
                "bad_card", "A position's hands and trick hold card names such as AS or 10H."
            )
        if not isinstance(data["broken"], bool):
            raise TypeError("broken is true or false")
        pos = Position(
            tuple(_mask(h) for h in data["hands"]),
            tuple(CARD_INDEX[c] for c in data["trick"]),
            _int(data["leader"]),
            data["broken"],
            tuple(_int(b) for b in data["bids"]),
            tuple(_int(w) for w in data.get("won", (0, 0, 0, 0))),
            tuple(_int(b) for b in data.get("bags", (0, 0))),
        )
    except (KeyError, TypeError, ValueError, AttributeError):
        raise BadRequest(
            "bad_args", "A position is {hands, trick, leader, broken, bids, won, bags}."
        ) from None
    pos.check()
    return pos


#: How many solvers :func:`_solver_for` keeps (the least recently used goes first).
POSITION_SOLVERS_KEPT = 4


@functools.lru_cache(maxsize=POSITION_SOLVERS_KEPT)
def _solver_for(bids: tuple[int, ...], bags: tuple[int, ...]) -> Solver:
    """The solver for positions with these bids and bags (what its tables depend on), kept: the
    engine answers a long budget in slices, each a message of its own, and a slice must go on
    from the tables of the one before, not start again."""
    return Solver(bids, bags)


def analyse(args: Args, sid: str | None = None) -> dict[str, Any]:
    """Every legal card's value before card ``step`` of a hand, or in a given ``position``; one
    budget."""
    budget = _budget(args)
    if "position" in args:
        pos = _position(args["position"])
        score = args.get("score", True) is not False  # score: false → the trick value alone
        try:
            values = {
                CARD_NAMES[c]: v
                for c, v in sorted(
                    _solver_for(tuple(pos.bids), tuple(pos.bags))
                    .values(pos, score=score, deadline=time.perf_counter() + budget)
                    .items()
                )
            }
        except NotFinished:
            values = {}
        team = pos.to_act & 1
        return {
            "seat": pos.to_act,
            "finished": bool(values),
            "values": {
                k: {"tricks": v.tricks[team], "margin": v.margin} for k, v in values.items()
            },
        }
    record = _solvable(args)
    step = _whole(args, "step", 0, 0, CARDS_PER_HAND - 1)
    return {
        **analysis.decision_at(record, step, budget).to_dict(),
        "step": step,
        "total": CARDS_PER_HAND,
    }


def bid_advice(args: Args, sid: str | None = None) -> dict[str, Any]:
    """What the Hard computer player would bid as bid ``step`` (0–3) of a completed hand, and
    why (puzzles)."""
    rules, record = _completed(args)
    step = _whole(args, "step", 0, 0, 3)
    m = Match(
        seed=0,
        dealer=record.dealer,
        deal=[list(h) for h in record.deal],
        rules=rules,
        scores=[s.score_before for s in record.scores],
        bags=[s.bags_before for s in record.scores],
    )

    def made(seat: int) -> int | str:
        return BLIND_NIL if record.blind[seat] else record.bids[seat]

    for i in range(step):
        m.bid(made((record.dealer + 1 + i) % 4))
    seat = m.to_act
    assert seat is not None, "a seat bids next in the bidding"
    explained = bot(HARD, seed=ADVICE_SEED).explain(m.view(seat))
    return {
        "seat": seat,
        "action": made(seat),
        "best": explained.action,
        "level": HARD,
        "legal": m.legal_bids(),
        "reason": explained.reason.to_dict(),
    }


def dd_table(args: Args, sid: str | None = None) -> dict[str, Any]:
    """The double-dummy table of a completed hand: tricks per team with best play, by seat on
    lead."""
    record = _solvable(args)
    table = analysis.table_of(record, _budget(args))
    return {
        "table": [None if (row := table[s]) is None else list(row) for s in range(4)],
        "leader": (record.dealer + 1) % 4,
        "bids": list(record.bids),
    }
