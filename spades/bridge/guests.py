"""A guest's message at a table hosted in a player's page: untrusted text, checked whole before
anything is decided, and only ever for the guest's own seat.

The host's page hands each message a guest sent over its data channel to the engine as
``guest {seat, text}`` (the page has already bounded its size and rate). Here the text is
bounded again and parsed (:func:`~spades.safejson.loads`), checked against its row of
:data:`~spades.bridge.protocol.PEER_MESSAGES` (exactly its fields, each of its kind), and
only then answered, by the same session methods the host's own clicks use, with ``seat``
fixed to the seat the message came from: a guest cannot act, look, undo or ask a hint for
any other seat. Every outcome is a reply for the guest ``{t: "reply", id, ok, result |
error: {code}}`` — a refusal is a code the guest's page translates, never engine text — with
the event it caused (a bid, a card, an undo, a reaction) for the host's page to show and pass on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..cards import CARD_INDEX
from ..errors import BadRequest, SpadesError
from ..legal import BLIND_NIL, MAX_BID
from ..newmatch import check_level
from ..safejson import loads
from .game import Args, _open, hint, state, why, why_not
from .protocol import GUEST_MESSAGES, MAX_PEER_ID, PEER_MAX_CHARS, REACTIONS

#: The longest message a guest may send (the table's limit, which the host's page applies too).
MAX_GUEST_CHARS = PEER_MAX_CHARS
#: A guest's message is one flat object.
MAX_GUEST_DEPTH = 1
#: The longest card text (cards are two characters, ``TD`` and the jokers ``BJ``/``LJ`` too).
MAX_CARD_CHARS = 2

#: The code of a message that is not one of the guest's messages with exactly its fields.
BAD_MESSAGE = "bad_message"


def _whole(value: Any, low: int, high: int) -> bool:
    return type(value) is int and low <= value <= high


#: Each field kind's check (the kinds of :class:`~spades.bridge.protocol.PeerMessage`).
KIND_CHECKS: dict[str, Callable[[Any], bool]] = {
    "id": lambda v: _whole(v, 1, MAX_PEER_ID),
    "bid": lambda v: _whole(v, 0, MAX_BID) or v == BLIND_NIL,
    "card": lambda v: isinstance(v, str) and len(v) <= MAX_CARD_CHARS and v in CARD_INDEX,
    "seat": lambda v: _whole(v, 0, 3),
    "phrase": lambda v: isinstance(v, str) and v in REACTIONS,
}


class Refused(SpadesError):
    """A guest's message refused before it was read: code ``bad_message`` (or a
    :class:`~spades.errors.BadInput` code)."""


def read(text: Any) -> tuple[str, dict[str, Any]]:
    """A guest's message as ``(name, fields)``; anything else is :class:`Refused`."""
    if not isinstance(text, str):
        raise Refused(BAD_MESSAGE, "A guest's message is text.")
    data = loads(text, max_chars=MAX_GUEST_CHARS, max_depth=MAX_GUEST_DEPTH)
    if not isinstance(data, dict):
        raise Refused(BAD_MESSAGE, "A guest's message is a JSON object.")
    name = data.get("t")
    row = GUEST_MESSAGES.get(name) if isinstance(name, str) else None
    if row is None:
        raise Refused(BAD_MESSAGE, "That is not a message a guest may send.")
    if set(data) != {"t", *(field for field, _ in row.fields)}:
        raise Refused(BAD_MESSAGE, "The message does not have exactly its fields.")
    for field, kind in row.fields:
        if not KIND_CHECKS[kind](data[field]):
            raise Refused(BAD_MESSAGE, f"The message's {field} is not a {kind}.")
    return row.name, {field: data[field] for field, _ in row.fields}


def _request_id(text: Any) -> int | None:
    """The id a refused message carried, when it can be read safely (else ``None``)."""
    try:
        data = loads(text, max_chars=MAX_GUEST_CHARS, max_depth=MAX_GUEST_DEPTH)
    except SpadesError:
        return None
    ident = data.get("id") if isinstance(data, dict) else None
    return ident if KIND_CHECKS["id"](ident) else None


def answer(args: Args, sid: str) -> dict[str, Any]:
    """Answer the message ``text`` a guest at ``seat`` sent: ``{reply, event, changed}``.

    ``seat`` and ``text`` come from the host's own page: a seat no person plays is refused
    (``bad_seat``) like any bad argument. What the guest sent is never refused as a request:
    its refusal is the reply's ``error``, for the guest's page.
    """
    session = _open(sid)
    if "seat" not in args:
        raise BadRequest("bad_args", "Say which seat the guest's message came from.")
    seat = session.seat_of(args["seat"])
    text = args.get("text")
    event: dict[str, Any] | None = None
    changed = False
    try:
        name, fields = read(text)
    except SpadesError as exc:
        return {"reply": _refusal(_request_id(text), exc.code), "event": None, "changed": False}
    ident = fields["id"]
    try:
        result: Any = None
        if name == "bid":
            event, changed = session.bid(fields["n"], seat), True
        elif name == "play":
            event, changed = session.play(fields["card"], seat), True
        elif name == "look":
            session.look(seat)
            event, changed = {"kind": "look", "seat": seat}, True
        elif name == "undo":
            session.undo_mine(seat)
            event, changed = {"kind": "undo", "seat": seat}, True
        elif name == "hint":
            result = hint({"level": check_level(None), "seat": seat}, sid)
        elif name == "why":
            result = why({"seat": fields["seat"], "viewer": seat}, sid)
        elif name == "why_not":
            result = why_not({"card": fields["card"], "seat": seat}, sid)
        elif name == "react":
            event = {"kind": "react", "seat": seat, "phrase": fields["phrase"]}
        else:  # sync: the guest asks for its table again
            result = state(sid, seat)
    except SpadesError as exc:
        return {"reply": _refusal(ident, exc.code), "event": None, "changed": False}
    reply = {"t": "reply", "id": ident, "ok": True, "result": result}
    return {"reply": reply, "event": event, "changed": changed}


def _refusal(ident: int | None, code: str) -> dict[str, Any]:
    return {"t": "reply", "id": ident, "ok": False, "error": {"code": code}}
