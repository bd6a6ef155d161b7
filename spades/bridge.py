"""The browser's JSON boundary: one function per message, JSON in and out.

The page's Web Worker calls :func:`handle` with ``{"fn": NAME, "args": {...}}``
and gets back ``{"ok": true, "result": ...}`` or
``{"ok": false, "error": {"code": ..., "message": ...}}``. The human is always
seat 0 (bottom), the partner seat 2; seats 1 and 3 are the opponents. The bridge
holds one session: the match and the computer players' levels.

A reply to a message that changes the session (:data:`CHANGES`) also carries
``"save"``: the session as text, which the page keeps in localStorage and hands
back to ``resume``. It is kept out of the state because it holds every seat's cards.

Messages (each returns a *state* unless said otherwise; see :func:`state`):

``hello``                      → ``{version, variant, levels}``
``new_match {seed?, partner?, opponents?}`` → state (levels "easy" | "normal" | "hard")
``resume {save}``              → state, from text that ``save`` returned (``BadSave`` codes if refused)
``bid {n}`` / ``play {card}``  → state after the human's action (``IllegalAction`` codes if refused)
``bot_step``                   → ``{event, state}``: one computer player's action
``run_bots``                   → ``{events, state}``: computer players act until the human's turn or the match ends
``hint {level?}``              → ``{action, level}``: what that bot would do in the human's seat
``why_not {card}``             → ``{legal, code}``: whether the human may play ``card`` now, and if not
                                 the ``IllegalAction`` code ``play`` would give (the match is untouched)
``undo``                       → state with the human's last action (and the bots' replies) taken back
``save``                       → ``{save}``: the session as text, for localStorage
``hand {number}``              → a completed hand's full record (deal, bids, tricks, score breakdown)
``export {number}``            → ``{text, record}``: a completed hand as hand notation and as its record
``review {text}``              → ``{source, hands}``: every hand of a match save, session save, hand
                                 record or hand notation (:mod:`spades.notation`), checked by replay;
                                 an unfinished hand has ``"scores": null`` and its trick in progress last

An *event* is ``{"kind": "bid", "seat", "bid"}`` or ``{"kind": "play", "seat", "card"}``, plus
``"trick": {leader, plays, winner}`` when the card completed a trick and ``"hand": {...}`` (the
score sheet row) when it completed a hand.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any, Callable

from . import VARIANT, __version__
from .ai import LEVELS, Bot, bot
from .cards import sort_hand
from .errors import BadSave, IllegalAction, SpadesError
from .match import Match
from .notation import HandText, format_hand, parse, replay
from .save import from_dict
from .session import refusal_code

HUMAN = 0
SESSION_FORMAT = "spades-session"


class BridgeError(SpadesError):
    """A request the bridge cannot serve (unknown message, bad arguments, no match)."""


@dataclass
class Session:
    """The match on the table and who plays the computer seats."""

    match: Match
    partner: str = "normal"
    opponents: str = "normal"
    seed: int | str | None = None
    bots: dict[int, Bot] = field(default_factory=dict)

    def __post_init__(self) -> None:
        base = self.seed if isinstance(self.seed, int) else 0
        self.bots = {2: bot(self.partner, base + 2), 1: bot(self.opponents, base + 1),
                     3: bot(self.opponents, base + 3)}


_session: Session | None = None


def _need_session() -> Session:
    if _session is None:
        raise BridgeError("no_match", "No match is in progress: start a new match.")
    return _session


def _level(value: Any, default: str) -> str:
    if value is None:
        return default
    if value not in LEVELS:
        raise BridgeError("bad_level", f"Unknown computer player level {value!r}; choose one of {', '.join(LEVELS)}.")
    return value


def _team_row(record: Any) -> dict[str, Any]:
    return {"number": record.number, "dealer": record.dealer, "bids": list(record.bids),
            "tricks": [sum(1 for t in record.tricks if t.winner == s) for s in range(4)],
            "teams": [s.to_dict() for s in record.scores]}


def state() -> dict[str, Any]:
    """Everything the table shows, from the human's seat only (no hidden card appears)."""
    session = _need_session()
    m = session.match
    view = m.view(HUMAN)
    tricks = view.tricks
    history = m.hands_played
    played = sum(len(t.plays) for t in tricks) + (len(view.trick.plays) if view.trick else 0)
    counts = [13 - len(tricks) - (1 if view.trick and any(s == seat for s, _ in view.trick.plays) else 0)
              for seat in range(4)]
    if m.phase == "over":
        counts = [0, 0, 0, 0]
    return {
        "phase": view.phase, "hand_number": view.hand_number, "dealer": view.dealer,
        "to_act": view.to_act, "human": HUMAN,
        "hand": sort_hand(view.hand), "legal_bids": list(view.legal_bids),
        "legal_cards": list(view.legal_cards), "bids": list(view.bids),
        "tricks_won": list(view.tricks_won), "trick": view.trick.to_dict() if view.trick else None,
        "last_trick": tricks[-1].to_dict() if tricks else (
            history[-1].tricks[-1].to_dict() if history and not played and m.phase != "over" else None),
        "cards_left": counts, "spades_broken": view.spades_broken,
        "scores": list(view.scores), "bags": list(view.bags), "winner": m.winner,
        "sheet": [_team_row(r) for r in history],
        "levels": {"partner": session.partner, "opponents": session.opponents},
        "seed": session.seed,
    }


def _save_text(session: Session) -> str:
    return json.dumps({"format": SESSION_FORMAT, "version": 1, "partner": session.partner,
                       "opponents": session.opponents, "seed": session.seed,
                       "match": json.loads(session.match.to_json())}, separators=(",", ":"))


# -- messages -------------------------------------------------------------------------

def hello(args: dict[str, Any]) -> dict[str, Any]:
    """The engine's version and the bot levels on offer."""
    return {"version": __version__, "variant": VARIANT, "levels": list(LEVELS)}


def ping(args: dict[str, Any]) -> dict[str, Any]:
    """Answer that the engine is loaded (used by boot checks)."""
    return {"pong": True, "version": __version__, "variant": VARIANT}


def new_match(args: dict[str, Any]) -> dict[str, Any]:
    """Start a match: ``seed`` (integer or text, optional), ``partner`` and ``opponents`` levels."""
    global _session
    seed = args.get("seed")
    if seed == "" or seed is None:
        seed = int.from_bytes(os.urandom(4), "big")
    if isinstance(seed, str) and seed.strip().lstrip("-").isdigit():
        seed = int(seed)
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise BridgeError("bad_seed", f"A seed is a whole number or a word, not {seed!r}.")
    session = Session(Match(seed=seed), _level(args.get("partner"), "normal"),
                      _level(args.get("opponents"), "normal"), seed)
    _session = session
    return state()


def resume(args: dict[str, Any]) -> dict[str, Any]:
    """Restore a session from the text ``save`` returned; a bad save is refused whole."""
    global _session
    text = args.get("save")
    try:
        data = json.loads(text) if isinstance(text, str) else None
    except ValueError:
        data = None
    if not isinstance(data, dict) or data.get("format") != SESSION_FORMAT or data.get("version") != 1:
        raise BadSave("wrong_format", "This saved game is not one this version of the game can read.")
    match = from_dict(data.get("match"))
    seed = data.get("seed")
    if isinstance(seed, bool) or not (seed is None or isinstance(seed, (int, str))):
        raise BadSave("malformed", "The saved game's seed is invalid.")
    try:
        session = Session(match, _level(data.get("partner"), "normal"), _level(data.get("opponents"), "normal"), seed)
    except BridgeError as exc:
        raise BadSave("malformed", exc.message) from None
    _session = session
    return state()


def _human_turn(session: Session) -> None:
    m = session.match
    if m.phase != "over" and m.to_act != HUMAN:
        raise IllegalAction("not_your_turn", f"Wait for your turn: seat {m.to_act} is to act.")


def bid(args: dict[str, Any]) -> dict[str, Any]:
    """The human bids ``n`` (0 = nil)."""
    session = _need_session()
    _human_turn(session)
    session.match.bid(args.get("n"), seat=HUMAN)  # type: ignore[arg-type]
    return state()


def play(args: dict[str, Any]) -> dict[str, Any]:
    """The human plays ``card``."""
    session = _need_session()
    _human_turn(session)
    session.match.play(args.get("card"), seat=HUMAN)  # type: ignore[arg-type]
    return state()


def _event(m: Match, seat: int, action: int | str, hands_before: int, tricks_before: int) -> dict[str, Any]:
    if isinstance(action, int):
        return {"kind": "bid", "seat": seat, "bid": action}
    event: dict[str, Any] = {"kind": "play", "seat": seat, "card": action}
    history = m.hands_played
    if len(history) > hands_before:
        event["trick"] = history[-1].tricks[-1].to_dict()
        event["hand"] = _team_row(history[-1])
    elif len(m.tricks) > tricks_before:
        event["trick"] = m.tricks[-1].to_dict()
    return event


def _step(session: Session) -> dict[str, Any]:
    m = session.match
    seat = m.to_act
    if seat is None or seat == HUMAN:
        raise BridgeError("not_bot_turn", "No computer player is to act.")
    action = session.bots[seat].choose(m.view(seat))
    hands_before, tricks_before = len(m.hands_played), len(m.tricks)
    m.act(action, seat=seat)
    return _event(m, seat, action, hands_before, tricks_before)


def bot_step(args: dict[str, Any]) -> dict[str, Any]:
    """One computer player acts; returns what it did and the new state."""
    event = _step(_need_session())
    return {"event": event, "state": state()}


def run_bots(args: dict[str, Any]) -> dict[str, Any]:
    """Computer players act until it is the human's turn or the match is over."""
    session = _need_session()
    events = []
    while session.match.to_act not in (None, HUMAN):
        events.append(_step(session))
    return {"events": events, "state": state()}


def hint(args: dict[str, Any]) -> dict[str, Any]:
    """What a computer player of ``level`` would do in the human's seat."""
    session = _need_session()
    _human_turn(session)
    m = session.match
    if m.phase == "over":
        raise IllegalAction("match_over", "The match is over.")
    level = _level(args.get("level"), "normal")
    action = bot(level, 7).choose(m.view(HUMAN))
    return {"level": level, "action": {"bid": action} if isinstance(action, int) else {"card": action}}


def why_not(args: dict[str, Any]) -> dict[str, Any]:
    """Whether the human may play ``card`` now and, if not, the code ``play`` would refuse it with."""
    code = refusal_code(_need_session().match.view(HUMAN), args.get("card"))
    return {"legal": code is None, "code": code}


def undo(args: dict[str, Any]) -> dict[str, Any]:
    """Take back the human's last action in this hand and everything after it."""
    session = _need_session()
    m = session.match
    actions = m.actions
    if m.phase == "over":
        raise IllegalAction("match_over", "The match is over: there is nothing to take back.")
    hand_start = 56 * len(m.hands_played)
    seat = None
    for i in range(len(actions) - 1, hand_start - 1, -1):
        k = i - hand_start
        seat = ((m.dealer + 1 + k) % 4) if k < 4 else _seat_of_play(m, k - 4)
        if seat == HUMAN:
            m.undo(len(actions) - i)
            return state()
    raise IllegalAction("nothing_to_undo", "You have not acted yet in this hand, so there is nothing to take back.")


def _seat_of_play(m: Match, index: int) -> int:
    trick, pos = divmod(index, 4)
    tricks = m.tricks
    if trick < len(tricks):
        return tricks[trick].plays[pos][0]
    current = m.trick
    assert current is not None
    return current.plays[pos][0]


def save(args: dict[str, Any]) -> dict[str, Any]:
    """The session as text, for the page to keep in localStorage."""
    return {"save": _save_text(_need_session())}


def hand(args: dict[str, Any]) -> dict[str, Any]:
    """The full record of completed hand ``number`` (1-based)."""
    session = _need_session()
    history = session.match.hands_played
    number = args.get("number", len(history))
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(history):
        raise BridgeError("bad_hand", f"There is no completed hand number {number!r}.")
    return history[number - 1].to_dict()


def export(args: dict[str, Any]) -> dict[str, Any]:
    """A completed hand (default: the last) as hand notation, for tutorial authors."""
    record = hand(args)
    history = _need_session().match.hands_played
    return {"text": format_hand(history[record["number"] - 1]), "record": record}


def _partial_record(m: Match) -> dict[str, Any]:
    tricks = [t.to_dict() for t in m.tricks]
    if m.trick is not None:
        tricks.append(m.trick.to_dict())
    return {"number": m.hand_number, "dealer": m.dealer, "deal": [m.dealt(s) for s in range(4)],
            "bids": list(m.bids), "tricks": tricks, "scores": None}


def _match_records(m: Match) -> list[dict[str, Any]]:
    records = [r.to_dict() for r in m.hands_played]
    if m.phase != "over" and (m.actions[56 * len(m.hands_played):] or not records):
        records.append(_partial_record(m))
    return records


def _record_match(data: dict[str, Any]) -> Match:
    """Replay a single hand record (``HandRecord.to_dict``) and check its stated scores."""
    try:
        scores = data["scores"]
        before = tuple(t["score_before"] for t in scores) if scores else (0, 0)
        bags = tuple(t["bags_before"] for t in scores) if scores else (0, 0)
        order = [(data["dealer"] + 1 + i) % 4 for i in range(4)]
        bids = [data["bids"][s] for s in order]
        plays = [card for t in data["tricks"] for _, card in t["plays"]]
        spec = HandText(data["dealer"], tuple(tuple(h) for h in data["deal"]), before, bags,  # type: ignore[arg-type]
                        tuple(b for b in bids if b is not None), tuple(plays))
    except (KeyError, TypeError, IndexError) as exc:
        raise BadSave("malformed", f"Not a valid hand record ({exc}).") from None
    m = replay(spec)
    if scores is not None and (not m.hands_played or {**m.hands_played[0].to_dict(), "number": data.get("number")} != data):
        raise BadSave("inconsistent", "The hand record's tricks or scores do not agree with its own cards (tampered?).")
    return m


def review(args: dict[str, Any]) -> dict[str, Any]:
    """Every hand in a saved match, session, hand record or hand notation, checked by replay."""
    text = args.get("text")
    if not isinstance(text, str) or not text.strip():
        raise BridgeError("bad_args", "Give a saved match, a hand record or hand notation.")
    if not text.lstrip().startswith("{"):
        return {"source": "notation", "hands": _match_records(replay(parse(text)))}
    try:
        data = json.loads(text)
    except ValueError:
        raise BadSave("not_json", "The text looks like JSON but cannot be read (truncated or damaged?).") from None
    if isinstance(data, dict) and data.get("format") == SESSION_FORMAT:
        data, source = data.get("match"), "session"
    elif isinstance(data, dict) and {"deal", "dealer", "bids", "tricks"} <= set(data):
        return {"source": "hand", "hands": _match_records(_record_match(data))}
    else:
        source = "match"
    return {"source": source, "hands": _match_records(from_dict(data))}


HANDLERS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "hello": hello, "ping": ping, "new_match": new_match, "resume": resume, "bid": bid,
    "play": play, "bot_step": bot_step, "run_bots": run_bots, "hint": hint, "why_not": why_not, "undo": undo,
    "save": save, "hand": hand, "export": export, "review": review,
}


def call(fn: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
    """Run one message by name (the Python-side entry point; :func:`handle` wraps it in JSON)."""
    handler = HANDLERS.get(fn) if isinstance(fn, str) else None
    if handler is None:
        raise BridgeError("unknown_message", f"Unknown message {fn!r}.")
    if args is not None and not isinstance(args, dict):
        raise BridgeError("bad_args", "Message arguments must be an object.")
    return handler(args or {})


#: Messages that change the session: their replies carry the new save text.
CHANGES = frozenset({"new_match", "resume", "bid", "play", "bot_step", "run_bots", "undo"})


def handle(message: str) -> str:
    """Answer one JSON request ``{"fn": name, "args": {...}}`` with a JSON reply; never raises.

    A successful reply to a message that changed the session also carries ``"save"``: the
    session as text for the page to keep. It sits beside the result, not in the state,
    because it holds the whole deal and the state holds only what seat 0 may see.
    """
    try:
        request = json.loads(message)
        if not isinstance(request, dict):
            raise BridgeError("bad_request", "A request is a JSON object with fn and args.")
        fn = request.get("fn")
        result = call(fn, request.get("args"))  # type: ignore[arg-type]
        reply: dict[str, Any] = {"ok": True, "result": result}
        if fn in CHANGES and _session is not None:
            reply["save"] = _save_text(_session)
        return json.dumps(reply, separators=(",", ":"))
    except SpadesError as exc:
        return json.dumps({"ok": False, "error": {"code": exc.code, "message": exc.message}})
    except ValueError as exc:
        return json.dumps({"ok": False, "error": {"code": "bad_request", "message": str(exc)}})
    except Exception as exc:  # the page must never see a stack trace
        return json.dumps({"ok": False, "error": {"code": "internal", "message": f"Internal error: {type(exc).__name__}"}})
