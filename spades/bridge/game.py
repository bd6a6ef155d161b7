"""The bridge's play messages (a game in progress): a match in a :class:`~spades.session.Session`,
kept by id.

``hello``, ``ping``, ``new_match``, ``rules``, ``resume``, ``bid``, ``look``, ``play``,
``bot_step``, ``run_bots``, ``hint``, ``why``, ``why_not``, ``undo``, ``view``, ``seat``,
``save``, ``hand``, ``export``, ``end_session`` and ``sessions``: each takes the message's
arguments and the session id and returns the result; the protocol (names, which messages change
the session, errors) is :mod:`spades.bridge`. In the browser one engine serves every page of the
site (a shared worker): each page's connection has a session id of its own, and its session ends
when the page goes.
"""

from __future__ import annotations

from typing import Any

from ..ai import LEVELS
from ..ai.explain import param_kinds
from ..errors import BadRequest
from ..newmatch import check_level
from ..notation import format_hand
from ..rules import PRESETS, Rules
from ..safejson import excerpt
from ..session import HUMAN, Session
from ..version import VARIANT, __version__
from .views import action as action_json

DEFAULT_SESSION = "main"
#: The registry of sessions by id: the bridge's only state.
SESSIONS: dict[str, Session] = {}

Args = dict[str, Any]


def _open(sid: str) -> Session:
    """Session ``sid``, or ``no_match`` when none is in progress."""
    session = SESSIONS.get(sid)
    if session is None:
        raise BadRequest("no_match", "No match is in progress: start a new match.")
    return session


def state(sid: str = DEFAULT_SESSION, seat: Any = None) -> dict[str, Any]:
    """Everything the table shows, from ``seat`` (a person's; default the first human) only: no
    hidden card appears."""
    session = _open(sid)
    return session.state_for(session.seat_of(seat))


# -- messages ------------------------------------------------------------------------------


def hello(args: Args, sid: str = DEFAULT_SESSION) -> dict[str, Any]:
    """The engine's version, the bot levels on offer and the kind of each reason parameter."""
    return {
        "version": __version__,
        "variant": VARIANT,
        "levels": list(LEVELS),
        "reason_kinds": param_kinds(),
        "presets": {name: rules.to_dict() for name, rules in PRESETS.items()},
    }


def ping(args: Args, sid: str = DEFAULT_SESSION) -> dict[str, Any]:
    """Answer that the engine is loaded (used by boot checks)."""
    return {"pong": True, "version": __version__, "variant": VARIANT}


def new_match(args: Args, sid: str = DEFAULT_SESSION) -> dict[str, Any]:
    """Start a match: ``seed`` (digits or a word, optional), ``partner`` and ``opponents`` levels,
    ``rules``."""
    SESSIONS[sid] = Session.new(
        args.get("seed"),
        partner=args.get("partner"),
        opponents=args.get("opponents"),
        rules=args.get("rules"),
        humans=args.get("humans", [HUMAN]),
    )
    return state(sid)


def rules(args: Args, sid: str = DEFAULT_SESSION) -> dict[str, Any]:
    """Check and describe ``rules`` (a preset name, text or a dictionary) without starting a
    match."""
    checked = Rules.read(args.get("rules"))
    return {"rules": checked.to_dict(), "text": checked.to_text()}


def resume(args: Args, sid: str = DEFAULT_SESSION) -> dict[str, Any]:
    """Restore a session from the text ``save`` returned; a bad save is refused whole."""
    SESSIONS[sid] = Session.from_json(args.get("save"))
    return state(sid)


def bid(args: Args, sid: str = DEFAULT_SESSION) -> dict[str, Any]:
    """The human (``seat``, when several people play) bids ``n`` (0 = nil)."""
    _open(sid).bid(args.get("n"), args.get("seat"))
    return state(sid, args.get("seat"))


def look(args: Args, sid: str = DEFAULT_SESSION) -> dict[str, Any]:
    """The human (or ``seat``) turns their cards face up at a blind-nil table (blind nil then
    closes for this hand)."""
    _open(sid).look(args.get("seat"))
    return state(sid, args.get("seat"))


def play(args: Args, sid: str = DEFAULT_SESSION) -> dict[str, Any]:
    """The human (``seat``, when several people play) plays ``card``."""
    _open(sid).play(args.get("card"), args.get("seat"))
    return state(sid, args.get("seat"))


def bot_step(args: Args, sid: str = DEFAULT_SESSION) -> dict[str, Any]:
    """One computer player acts; returns what it did and the new state, as the person at
    ``seat`` (default the first human) sees it: at pass-and-play that is whoever holds the
    device now."""
    session = _open(sid)
    viewer = session.seat_of(args.get("seat"))  # checked before anyone acts
    return {"event": session.bot_step(), "state": state(sid, viewer)}


def run_bots(args: Args, sid: str = DEFAULT_SESSION) -> dict[str, Any]:
    """Computer players act until it is a person's turn or the match is over; the state as the
    person at ``seat`` (default the first human) sees it."""
    session = _open(sid)
    viewer = session.seat_of(args.get("seat"))
    return {"events": list(session.run_bots()), "state": state(sid, viewer)}


def hint(args: Args, sid: str = DEFAULT_SESSION) -> dict[str, Any]:
    """What a computer player of ``level`` would do in the human's seat, and why."""
    level = check_level(args.get("level"))
    explained = _open(sid).explain_hint(level, args.get("seat"))
    return {
        "level": level,
        "action": action_json(explained.action),
        "reason": explained.reason.to_dict(),
    }


def why(args: Args, sid: str = DEFAULT_SESSION) -> dict[str, Any]:
    """Computer seat ``seat``'s last action in the match and the reason its bot had for it."""
    found = _open(sid).why(args.get("seat"), args.get("viewer"))
    if found is None:
        return {"seat": args["seat"], "action": None, "reason": None}
    action, reason = found
    return {
        "seat": args["seat"],
        "action": action_json(action),
        "reason": reason.to_dict() if reason else None,
    }


def why_not(args: Args, sid: str = DEFAULT_SESSION) -> dict[str, Any]:
    """Whether the human may play ``card`` now and, if not, the code ``play`` would refuse it
    with."""
    code = _open(sid).why_not(args.get("card"), args.get("seat"))
    return {"legal": code is None, "code": code}


def undo(args: Args, sid: str = DEFAULT_SESSION) -> dict[str, Any]:
    """Take back the human's (or ``seat``'s) last action and everything after it (see
    :meth:`Session.undo_mine`)."""
    _open(sid).undo_mine(args.get("seat"))
    return state(sid, args.get("seat"))


def view(args: Args, sid: str = DEFAULT_SESSION) -> dict[str, Any]:
    """The table as the person at ``seat`` sees it (pass-and-play's next person, a guest)."""
    if "seat" not in args:
        raise BadRequest("bad_args", "Say whose view of the table is asked for.")
    return state(sid, args["seat"])


def seat(args: Args, sid: str = DEFAULT_SESSION) -> dict[str, Any]:
    """Whether a person plays ``seat`` from now on (``person``); a computer player takes it
    otherwise."""
    _open(sid).set_person(args.get("seat"), args.get("person"))
    return state(sid)


def save(args: Args, sid: str = DEFAULT_SESSION) -> dict[str, Any]:
    """The session as text, for the page to keep in localStorage."""
    return {"save": _open(sid).to_json()}


def hand(args: Args, sid: str = DEFAULT_SESSION) -> dict[str, Any]:
    """The full record of completed hand ``number`` (1-based; default the last)."""
    history = _open(sid).match.hands_played
    number = args.get("number", len(history))
    if isinstance(number, bool) or not isinstance(number, int):
        raise BadRequest("bad_args", "A hand number is a whole number.")
    if not 1 <= number <= len(history):
        raise BadRequest(
            "bad_hand",
            f"There is no completed hand number {excerpt(number)}; {len(history)} are completed.",
        )
    return history[number - 1].to_dict()


def export(args: Args, sid: str = DEFAULT_SESSION) -> dict[str, Any]:
    """A completed hand (default: the last) as hand notation, for tutorial authors."""
    record = hand(args, sid)
    match = _open(sid).match
    return {
        "text": format_hand(match.hands_played[record["number"] - 1], match.rules),
        "record": record,
    }


def end_session(args: Args, sid: str = DEFAULT_SESSION) -> dict[str, Any]:
    """Forget session ``sid`` (its page has gone); ``ended`` says whether there was one."""
    return {"ended": SESSIONS.pop(sid, None) is not None}


def sessions(args: Args, sid: str = DEFAULT_SESSION) -> dict[str, Any]:
    """How many sessions the registry holds (one per page with a match, in a shared engine)."""
    return {"count": len(SESSIONS)}


def saved_text(sid: str = DEFAULT_SESSION) -> str | None:
    """Session ``sid`` as save text, or ``None`` if there is none (a reply that changed it carries
    this)."""
    session = SESSIONS.get(sid)
    return None if session is None else session.to_json()
