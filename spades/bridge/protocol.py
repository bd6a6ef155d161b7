"""The protocol between the page and the engine, in one table.

Each :class:`Message` names one message the page may send (:func:`spades.bridge.handle`), the
shape of its arguments and of its result (as the page reads them), whether it changes the
session (its reply then carries ``save``), how long the page waits for its answer, and
whether it is interactive play or analysis (and whether the engine may answer it in slices). The
bridge derives ``HANDLERS`` and ``CHANGES``
from it; the build writes it for the page as ``engine/messages.js`` (:func:`to_javascript`),
so the page's message names, ``changes`` flags and deadlines come from here too.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass

#: How long the page waits for each kind of answer, in milliseconds.
DEADLINE_MS: dict[str, int] = {
    "request": 10_000,  # a bid, a card, undo, a save: answered in milliseconds
    "bot_move": 30_000,  # one computer player's move: the hardest level thinks longest
    "bot_run": 60_000,  # every computer player's move until the human's turn (instant speed)
    "analysis": 45_000,  # a hint or a solve: longer than the largest budget the engine accepts
    "resume": 30_000,  # every action of a save replayed through the rules
}

#: Kinds of work: interactive play is answered before analysis where both wait.
PLAY, ANALYSIS = "play", "analysis"
#: The argument that holds an analysis message's time budget, and the budgets it accepts (s).
BUDGET_ARG = "budget"
MIN_BUDGET_S, MAX_BUDGET_S = 0, 30


@dataclass(frozen=True)
class Message:
    """One message: its name, its arguments' and result's shapes, and how the page treats it.

    ``sliced``: the engine may spend the message's ``budget`` in slices, asking again with what is
    left while the result's ``finished`` is false (the solver keeps its tables between), so a
    long analysis never holds a move back for more than one slice.
    """

    name: str
    args: str
    result: str
    changes: bool = False
    deadline: str = "request"
    kind: str = PLAY
    sliced: bool = False


MESSAGES: tuple[Message, ...] = (
    Message("hello", "{}", "{version, variant, levels, reason_kinds, presets}"),
    Message("ping", "{}", "{pong: true, version, variant}"),
    Message("new_match", "{seed?, partner?, opponents?, rules?}", "state", changes=True),
    Message("rules", "{rules}", "{rules, text}"),
    Message("resume", "{save}", "state", changes=True, deadline="resume"),
    Message("bid", "{n}", "state", changes=True),
    Message("look", "{}", "state", changes=True),
    Message("play", "{card}", "state", changes=True),
    Message("why_not", "{card}", "{legal: bool, code: string|null}"),
    Message("bot_step", "{}", "{event, state}", changes=True, deadline="bot_move"),
    Message("run_bots", "{}", "{events, state}", changes=True, deadline="bot_run"),
    Message(
        "hint",
        "{level?}",
        "{action: {bid}|{card}, level, reason: {code, params}}",
        deadline="analysis",
    ),
    Message("why", "{seat}", "{seat, action: {bid}|{card}|null, reason: {code, params}|null}"),
    Message("undo", "{}", "state", changes=True),
    Message("save", "{}", "{save}"),
    Message("hand", "{number?}", "hand record"),
    Message("export", "{number?}", "{text, record}"),
    Message(
        "review", "{text}", "{source, hands, rules, order}", deadline="analysis", kind=ANALYSIS
    ),
    Message(
        "analyse",
        "{text, hand?, step, budget?} | {position, budget?, score?}",
        "{seat, action, best, cost_tricks, cost_points, finished, values, step, total}",
        deadline="analysis",
        kind=ANALYSIS,
        sliced=True,
    ),
    Message(
        "bid_advice",
        "{text, hand?, step}",
        "{seat, action, best, level, legal, reason}",
        deadline="analysis",
        kind=ANALYSIS,
    ),
    Message(
        "dd_table",
        "{text, hand?, budget?}",
        "{table, leader, bids}",
        deadline="analysis",
        kind=ANALYSIS,
    ),
    Message("end_session", "{}", "{ended: bool}", changes=True),
    Message("sessions", "{}", "{count}"),
)

#: The messages by name.
BY_NAME: dict[str, Message] = {m.name: m for m in MESSAGES}

#: Messages that change the session: their replies carry the new save text.
CHANGES: frozenset[str] = frozenset(m.name for m in MESSAGES if m.changes)


def as_json() -> dict[str, object]:
    """The table as the page reads it: ``{messages: {name: {...}}, deadline_ms, play_kind,
    budget}``."""
    return {
        "messages": {m.name: {k: v for k, v in asdict(m).items() if k != "name"} for m in MESSAGES},
        "deadline_ms": dict(DEADLINE_MS),
        "play_kind": PLAY,
        "budget": {"arg": BUDGET_ARG, "min": MIN_BUDGET_S, "max": MAX_BUDGET_S},
    }


def to_javascript() -> str:
    """The table as an ES module, ``engine/messages.js`` in the built site."""
    body = json.dumps(as_json(), indent=1, sort_keys=True)
    return (
        "// Generated by build_site.py from spades/bridge/protocol.py: do not edit.\n"
        f"export const PROTOCOL = Object.freeze({body});\n"
    )
