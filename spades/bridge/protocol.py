"""The protocol between the page and the engine, in one table.

Each :class:`Message` names one message the page may send (:func:`spades.bridge.handle`), the
shape of its arguments and of its result (as the page reads them), whether it changes the
session (its reply then carries ``save``), how long the page waits for its answer, and
whether it is interactive play or analysis (and whether the engine may answer it in slices). The
bridge derives ``HANDLERS`` and ``CHANGES``
from it; the build writes it for the page as ``engine/messages.js`` (:func:`to_javascript`),
so the page's message names, ``changes`` flags and deadlines come from here too.

A table played with friends adds a second table, :data:`PEER_MESSAGES`: the messages between
the host's page and a guest's page over their WebRTC data channel. A guest's message is
untrusted: the host's page bounds its size and rate, and the engine (the ``guest`` message,
:mod:`spades.bridge.guests`) checks it against its row here — exactly these fields, each of its
kind — before anything is decided, and only for the guest's own seat.
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
    Message("new_match", "{seed?, partner?, opponents?, rules?, humans?}", "state", changes=True),
    Message("rules", "{rules}", "{rules, text}"),
    Message("resume", "{save}", "state", changes=True, deadline="resume"),
    Message("bid", "{n, seat?}", "state", changes=True),
    Message("look", "{seat?}", "state", changes=True),
    Message("play", "{card, seat?}", "state", changes=True),
    Message("why_not", "{card, seat?}", "{legal: bool, code: string|null}"),
    Message("bot_step", "{seat?}", "{event, state}", changes=True, deadline="bot_move"),
    Message("run_bots", "{seat?}", "{events, state}", changes=True, deadline="bot_run"),
    Message(
        "hint",
        "{level?, seat?}",
        "{action: {bid}|{card}, level, reason: {code, params}}",
        deadline="analysis",
    ),
    Message(
        "why",
        "{seat, viewer?}",
        "{seat, action: {bid}|{card}|null, reason: {code, params}|null}",
    ),
    Message("undo", "{seat?}", "state", changes=True),
    Message("view", "{seat}", "state"),
    Message("seat", "{seat, person}", "state", changes=True),
    Message(
        "guest",
        "{seat, text}",
        "{reply: {t, id, ok, result?|error?}|null, event: event|null, changed: bool}",
        changes=True,
        deadline="analysis",
    ),
    Message("save", "{}", "{save}"),
    Message("hand", "{number?}", "hand record"),
    Message("export", "{number?}", "{text, record}"),
    # a hand or match read for the viewer: milliseconds of replay, and the page shows nothing
    # until it is answered, so it goes with play, not behind another page's analysis
    Message("review", "{text}", "{source, hands, rules, order}", deadline="analysis"),
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


@dataclass(frozen=True)
class PeerMessage:
    """One message between a hosted table's pages: who sends it and its fields' kinds.

    Every message is a JSON object ``{"t": name, ...fields}``. Kinds: ``id`` a request number
    (1 to :data:`MAX_PEER_ID`), ``bid`` a whole number 0–13 or ``"blind"``, ``card`` a card's
    short text, ``seat`` 0–3, ``phrase`` one of :data:`REACTIONS`; the host's fields are JSON
    values its own engine wrote (``state`` is ``state_for`` the guest's seat).
    """

    name: str
    sender: str
    fields: tuple[tuple[str, str], ...] = ()


GUEST, HOST = "guest", "host"
#: The largest request number a guest may send.
MAX_PEER_ID = 2**31 - 1
#: The longest message a guest may send, in characters (the longest real one, ``why_not``, is
#: under 50): the host's page drops a longer one before it reaches the engine, which bounds it
#: again.
PEER_MAX_CHARS = 256
#: How many messages a guest may send at once, and how many a second after that: the host's
#: page refuses the rest (``too_fast``) before they reach the engine.
PEER_BURST = 8
PEER_PER_SECOND = 4
#: A quick reaction from one seat at most this often (ms): the host's page drops faster ones
#: before the others see them, and a page's own buttons rest that long after each.
PEER_REACT_EVERY_MS = 2500

#: The quick reactions a guest (or the host) may show at their seat: fixed phrases, translated
#: on each page (``react.<phrase>``), never free text.
REACTIONS: tuple[str, ...] = ("nice", "sorry", "well_played", "thanks")

PEER_MESSAGES: tuple[PeerMessage, ...] = (
    # guest -> host: untrusted, each answered by one ``reply`` with its id
    PeerMessage("bid", GUEST, (("id", "id"), ("n", "bid"))),
    PeerMessage("play", GUEST, (("id", "id"), ("card", "card"))),
    PeerMessage("look", GUEST, (("id", "id"),)),
    PeerMessage("undo", GUEST, (("id", "id"),)),
    PeerMessage("hint", GUEST, (("id", "id"),)),
    PeerMessage("why", GUEST, (("id", "id"), ("seat", "seat"))),
    PeerMessage("why_not", GUEST, (("id", "id"), ("card", "card"))),
    PeerMessage("react", GUEST, (("id", "id"), ("phrase", "phrase"))),
    PeerMessage("sync", GUEST, (("id", "id"),)),
    # host -> guest
    PeerMessage("welcome", HOST, (("seat", "seat"), ("state", "state"))),
    PeerMessage("state", HOST, (("state", "state"), ("event", "event"))),
    PeerMessage(
        "reply", HOST, (("id", "id"), ("ok", "bool"), ("result", "json"), ("error", "error"))
    ),
    PeerMessage("notice", HOST, (("code", "code"), ("seat", "seat"))),
    PeerMessage("react", HOST, (("seat", "seat"), ("phrase", "phrase"))),
    PeerMessage("bye", HOST, (("code", "code"),)),
)

#: The guest's messages by name (what the engine accepts from a guest).
GUEST_MESSAGES: dict[str, PeerMessage] = {m.name: m for m in PEER_MESSAGES if m.sender == GUEST}
#: The host's messages by name.
HOST_MESSAGES: dict[str, PeerMessage] = {m.name: m for m in PEER_MESSAGES if m.sender == HOST}

#: The messages by name.
BY_NAME: dict[str, Message] = {m.name: m for m in MESSAGES}

#: Messages that change the session: their replies carry the new save text.
CHANGES: frozenset[str] = frozenset(m.name for m in MESSAGES if m.changes)


def as_json() -> dict[str, object]:
    """The table as the page reads it: ``{messages: {name: {...}}, deadline_ms, play_kind,
    budget, peer: {guest: {name: [fields]}, host: {...}}, reactions: [...], peer_limits}``."""
    return {
        "messages": {m.name: {k: v for k, v in asdict(m).items() if k != "name"} for m in MESSAGES},
        "deadline_ms": dict(DEADLINE_MS),
        "play_kind": PLAY,
        "budget": {"arg": BUDGET_ARG, "min": MIN_BUDGET_S, "max": MAX_BUDGET_S},
        "peer": {
            side: {m.name: [f for f, _ in m.fields] for m in PEER_MESSAGES if m.sender == side}
            for side in (GUEST, HOST)
        },
        "reactions": list(REACTIONS),
        "peer_limits": {
            "max_chars": PEER_MAX_CHARS,
            "max_id": MAX_PEER_ID,
            "burst": PEER_BURST,
            "per_second": PEER_PER_SECOND,
            "react_every_ms": PEER_REACT_EVERY_MS,
        },
    }


def to_javascript() -> str:
    """The table as an ES module, ``engine/messages.js`` in the built site."""
    body = json.dumps(as_json(), indent=1, sort_keys=True)
    return (
        "// Generated by build_site.py from spades/bridge/protocol.py: do not edit.\n"
        f"export const PROTOCOL = Object.freeze({body});\n"
    )
