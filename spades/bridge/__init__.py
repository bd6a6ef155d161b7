"""The browser's JSON boundary: a thin adapter from messages to :class:`~spades.session.Session`.

The page's Web Worker calls :func:`handle` with ``{"fn": NAME, "args": {...}}`` and gets
back ``{"ok": true, "result": ...}`` or ``{"ok": false, "error": {"code": ..., "message": ...}}``.
The human is seat 0 (bottom), the partner seat 2; seats 1 and 3 are the opponents.
The only state is :data:`~spades.bridge.game.SESSIONS`, the registry of sessions by id: in the
browser every page connected to the engine has a session id of its own (the engine worker's,
one per connection), ended with ``end_session`` when the page goes; Python callers use
:data:`~spades.bridge.game.DEFAULT_SESSION` unless they name one.

A reply to a message that changes the session (:data:`CHANGES`) also carries ``"save"``:
the session as text, which the page keeps in localStorage and hands back to ``resume``.
It is kept out of the state because it holds every seat's cards.

Messages (the names, shapes, ``changes`` flags and deadlines are the table
:data:`spades.bridge.protocol.MESSAGES`; here what each means; *state* is
:meth:`Session.state_for`):

=============================  =====================================================================
message and arguments          result
=============================  =====================================================================
``hello``                      ``{version, variant, levels, reason_kinds, presets}`` (reason
                               parameter name → kind; presets: name → ``Rules.to_dict``)
``ping``                       ``{pong, version, variant}``: the engine is loaded
``new_match {seed?, partner?,  state; levels "easy" | "normal" | "hard"; seed: digits or a word
opponents?, rules?, humans?}`` (:func:`~spades.newmatch.parse_seed`, else ``bad_seed``); rules: a
                               preset name, ``preset,key=value`` text or a dictionary
                               (:class:`~spades.Rules`; ``unknown_preset``, ``bad_rules``,
                               ``bad_option``, ``rules_conflict``). Every state carries ``rules``
                               (``Rules.to_dict``: ``name`` and options) and ``blind`` (which nil
                               bids are blind); ``cards_hidden``: the human's cards are face down (a
                               blind nil may still be chosen), so ``hand`` is empty
``rules {rules}``              ``{rules, text}``: ``rules`` (any form ``new_match`` takes) checked
                               and described (``Rules.to_dict``, ``Rules.to_text``) without starting
                               a match; refused with the same codes (the new-match dialog asks
                               before it closes)
``resume {save}``              state, from text ``save`` returned (``BadSave``/``BadInput`` codes)
``bid {n, seat?}``             state after the human's bid, 0 = nil, ``"blind"`` = blind nil
                               (``IllegalAction`` codes if refused, ``bid_not_allowed`` by house
                               rules, ``blind_after_look`` once the human has seen their cards this
                               hand)
``look``                       state after the human turns their cards face up (blind nil tables):
                               blind nil closes for them this hand; kept in the save
``play {card, seat?}``         state after the human's card (``IllegalAction`` codes if refused);
                               ``seat``: which person, at a table of several (``humans``, one to
                               four seats, the first the page's owner; every state lists them);
                               the reply is that seat's view. ``bid``, ``look``, ``hint``,
                               ``why_not`` and ``undo`` take ``seat`` the same way
``bot_step {seat?}``           ``{event, state}``: one computer player's action
``run_bots {seat?}``           ``{events, state}``: computer players act until a person's turn
                               (``seat``: whose view the state is, as for ``play``)
``hint {level?}``              ``{action, level, reason}``: what that bot would do in the human's
                               seat, and why (``reason`` is ``{code, params}``, see
                               :mod:`spades.ai.explain`)
``why {seat}``                 ``{seat, action, reason}``: computer seat ``seat``'s last bid or card
                               in the match, its reason recomputed by its own bot from its view then
                               (both null before it acted); ``bad_argument`` for a non-seat,
                               ``bad_args`` for a human
``why_not {card}``             ``{legal, code}``: whether the human may play ``card`` now, else the
                               ``IllegalAction`` code ``play`` would give (the match is untouched)
``undo {seat?}``               state with the human's last action (and the bots' replies) taken
                               back; with several people, ``seat``'s own, while no other person
                               has acted since (``others_acted``)
``view {seat}``                state as the person at ``seat`` sees it (``bad_seat``: no person
                               plays it): pass-and-play's next person, a guest's table
``seat {seat, person}``        state after a person takes ``seat`` (``person: true``) or a computer
                               player takes it over (``false``); the first human's seat stays a
                               person's (``bad_seat``)
``guest {seat, text}``         ``{reply, event, changed}``: a guest's untrusted message ``text``
                               from ``seat`` (:mod:`spades.bridge.guests`), checked against its
                               row of the peer table and decided for that seat only; ``reply`` is
                               for the guest (a refusal is ``{code}``: ``bad_message``,
                               ``too_large``, the rules' codes), ``event`` what it did, for the
                               host to show
``save``                       ``{save}``: the session as text, for localStorage
``hand {number?}``             a completed hand's record (deal, bids, tricks, score breakdown);
                               default the last; an int (else ``bad_args``) in range (``bad_hand``)
``export {number?}``           ``{text, record}``: a completed hand as hand notation and as record
``review {text}``              ``{source, hands, rules}``: every hand of a match save, session save,
                               hand record or hand notation (:mod:`spades.notation`), checked by
                               replay; an unfinished hand has ``"scores": null`` and its trick in
                               progress last; ``rules`` (``Rules.to_dict``) from the save, the
                               notation's ``Rules:`` line or a record's ``rules`` (1.0.0 when
                               absent); ``order``: the deck's cards in display order (``sort_hand``
                               with that deck)
``analyse {text, hand?, step,  the decision before card ``step`` (0–51) of completed hand ``hand``
budget?}``                     (1-based) of ``text``: ``{index, seat, action, best, cost_tricks,
                               cost_points, finished, values: {card: {tricks, margin}}, step,
                               total}`` (values from the acting team's side; ``{}`` past ``budget``
                               seconds)
  or ``{position, budget?,     the same ``values`` for a position ``{hands, trick, leader, broken,
  score?}``                    bids, won?, bags?}`` (``score: false``: trick values only, margins
                               ``null``); one that cannot occur is refused (``card_twice``,
                               ``wrong_counts``, ``bad_position``)
``bid_advice {text, hand?,     ``{seat, action, best, level, legal, reason}``: the bid made as bid
                               ``step``
step}``                        (0–3) of a completed hand, the Hard player's bid there (0 = nil) and
                               its reason ``{code, params}``, and the bids the match's rules allowed
                               there (``legal``: a puzzle offers only these), for puzzles
``dd_table {text, hand?,       ``{table, leader, bids}``: per seat on lead, tricks [team 0, team 1]
budget?}``                     with best play (``null`` past the budget, one budget for the table);
                               ``analyse`` and ``dd_table`` refuse house rules the solver cannot
                               play or score (``unsupported_rules``)
``end_session``                ``{ended}``: the session is forgotten (its page has gone; the engine
                               worker sends this, and a page may too); ``ended``: there was one
``sessions``                   ``{count}``: how many sessions the registry holds (one per page with
                               a match in progress, when pages share one engine)
=============================  =====================================================================

An *event* is described in :mod:`spades.session`. The play messages live in
:mod:`spades.bridge.game`, the analysis messages (review, analyse, bid_advice, dd_table) in
:mod:`spades.bridge.analysis`, the JSON shapes they share in :mod:`spades.bridge.views`; this
module maps the table's names to handlers (:data:`HANDLERS`, :data:`CHANGES`) and holds
:func:`handle`. Every request is bounded before it is
parsed (:data:`MAX_MESSAGE_CHARS`, :data:`MAX_MESSAGE_DEPTH`); an error message is at most
:data:`MAX_ERROR_CHARS` and quotes at most a short excerpt of the input; anything
unexpected is answered with code ``internal`` and a generic message.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from ..errors import BadInput, BadRequest, SpadesError
from ..safejson import EXCERPT_CHARS, loads
from ..session import MAX_SAVE_CHARS
from .analysis import analyse, bid_advice, dd_table, review
from .game import (
    DEFAULT_SESSION,
    SESSIONS,
    Args,
    bid,
    bot_step,
    end_session,
    export,
    hand,
    hello,
    hint,
    look,
    new_match,
    ping,
    play,
    resume,
    rules,
    run_bots,
    save,
    saved_text,
    seat,
    sessions,
    state,
    undo,
    view,
    why,
    why_not,
)
from .guests import answer as guest
from .protocol import CHANGES, MESSAGES

#: A request holds at most a session save as a JSON string (escaping adds under 40 %).
MAX_MESSAGE_CHARS = 2 * MAX_SAVE_CHARS
#: ``{"fn", "args": {...}}`` is two levels; arguments are flat values.
MAX_MESSAGE_DEPTH = 8
#: The longest error message a reply carries.
MAX_ERROR_CHARS = 200
INTERNAL_MESSAGE = "The game engine met an unexpected problem; your match is unchanged."

#: Every code an error reply may carry (the page translates each): the rules' refusals,
#: save refusals, request errors, input limits, hand notation, and ``internal``.
ERROR_CODES = frozenset(
    {
        "not_your_turn",
        "wrong_phase",
        "match_over",
        "not_in_hand",
        "must_follow_suit",
        "spades_not_broken",
        "bad_bid",
        "bad_card",
        "nothing_to_undo",
        "bad_argument",
        "not_json",
        "wrong_format",
        "wrong_version",
        "malformed",
        "bad_deal",
        "illegal_history",
        "inconsistent",
        "bad_request",
        "bad_args",
        "unknown_message",
        "no_match",
        "bad_seed",
        "bad_level",
        "bad_hand",
        "not_bot_turn",
        "too_large",
        "too_deep",
        "bad_notation",
        "internal",
        "not_complete",
        "bad_step",
        "card_twice",
        "wrong_counts",
        "bad_position",
        "not_play_phase",
        "unsupported_rules",
        "bid_not_allowed",
        "unknown_preset",
        "bad_rules",
        "bad_option",
        "rules_conflict",
        "blind_after_look",
        "bad_seat",
        "others_acted",
        "bad_message",
        "too_fast",
    }
)

_FUNCTIONS: dict[str, Callable[..., dict[str, Any]]] = {
    "hello": hello,
    "ping": ping,
    "new_match": new_match,
    "rules": rules,
    "resume": resume,
    "bid": bid,
    "look": look,
    "play": play,
    "bot_step": bot_step,
    "run_bots": run_bots,
    "hint": hint,
    "why": why,
    "why_not": why_not,
    "undo": undo,
    "view": view,
    "seat": seat,
    "guest": guest,
    "save": save,
    "hand": hand,
    "export": export,
    "review": review,
    "analyse": analyse,
    "dd_table": dd_table,
    "bid_advice": bid_advice,
    "end_session": end_session,
    "sessions": sessions,
}

#: Every message's handler, in the order of :data:`~spades.bridge.protocol.MESSAGES` (the one
#: table of names, shapes, ``changes`` flags and deadlines; the page reads it too).
HANDLERS: dict[str, Callable[..., dict[str, Any]]] = {m.name: _FUNCTIONS[m.name] for m in MESSAGES}
if set(_FUNCTIONS) != set(HANDLERS):  # a handler without a table entry is a bug
    raise ImportError(
        f"handlers without a protocol entry: {sorted(set(_FUNCTIONS) - set(HANDLERS))}"
    )


def call(fn: Any, args: Any = None, sid: str = DEFAULT_SESSION) -> dict[str, Any]:
    """Run one message by name (the Python-side entry point; :func:`handle` wraps it in JSON)."""
    handler = HANDLERS.get(fn) if isinstance(fn, str) else None
    if handler is None:
        raise BadRequest("unknown_message", "Unknown message name.")
    if args is not None and not isinstance(args, dict):
        raise BadRequest("bad_args", "Message arguments must be an object.")
    return handler(args or {}, sid)


def _unechoed(message: str, source: str) -> str:
    """``message`` cut to :data:`MAX_ERROR_CHARS`, and cut again where it would quote more than
    :data:`EXCERPT_CHARS` characters of the request in a row (engine messages quote tokens
    whole)."""
    if len(message) > MAX_ERROR_CHARS:
        message = message[: MAX_ERROR_CHARS - 1] + "…"
    # any run of EXCERPT_CHARS + 1 quoted characters holds one of these half-length windows
    half = EXCERPT_CHARS // 2
    if not any(message[i : i + half + 1] in source for i in range(0, len(message) - half, half)):
        return message
    for i in range(len(message) - EXCERPT_CHARS):
        if message[i : i + EXCERPT_CHARS + 1] in source:
            return message[: i + EXCERPT_CHARS] + "…"
    return message


def _refusal(code: str, message: str) -> str:
    """An error reply with ``code`` and ``message``."""
    return json.dumps({"ok": False, "error": {"code": code, "message": message}})


def handle(message: str, sid: str = DEFAULT_SESSION) -> str:
    """Answer one JSON request ``{"fn": name, "args": {...}}`` with a JSON reply; never raises.

    A successful reply to a message that changed the session also carries ``"save"``: the
    session as text for the page to keep. It sits beside the result, not in the state,
    because it holds the whole deal and the state holds only what the human may see.
    """
    try:
        try:
            request = loads(message, max_chars=MAX_MESSAGE_CHARS, max_depth=MAX_MESSAGE_DEPTH)
        except BadInput as exc:
            if exc.code != "not_json":
                raise
            raise BadRequest(
                "bad_request", "A request is JSON text: an object with fn and args."
            ) from None
        if not isinstance(request, dict):
            raise BadRequest("bad_request", "A request is a JSON object with fn and args.")
        fn = request.get("fn")
        reply: dict[str, Any] = {"ok": True, "result": call(fn, request.get("args"), sid)}
        if fn in CHANGES:
            text = saved_text(sid)
            if text is not None:
                reply["save"] = text
        return json.dumps(reply, separators=(",", ":"))
    except SpadesError as exc:
        return _refusal(
            exc.code, _unechoed(exc.message, message if isinstance(message, str) else "")
        )
    except Exception:  # the page never sees Python's own text or a stack trace
        return _refusal("internal", INTERNAL_MESSAGE)


__all__ = [
    "CHANGES",
    "DEFAULT_SESSION",
    "ERROR_CODES",
    "HANDLERS",
    "MAX_MESSAGE_CHARS",
    "SESSIONS",
    "Args",
    "analyse",
    "bid",
    "bid_advice",
    "bot_step",
    "call",
    "dd_table",
    "end_session",
    "export",
    "guest",
    "hand",
    "handle",
    "hello",
    "hint",
    "look",
    "new_match",
    "ping",
    "play",
    "resume",
    "review",
    "rules",
    "run_bots",
    "save",
    "seat",
    "sessions",
    "state",
    "undo",
    "view",
    "why",
    "why_not",
]
