"""The save format: a match as JSON text, and text read back checked by replay.

The format (``"format": "spades-match"``, ``"version": 1``) stores the match's
start — random state, first dealer, optional first deal, starting totals — and
every hand as dealt, bid and played, then the resulting totals::

    {"format": "spades-match", "version": 1, "variant": "1.0.0",
     "start": {"rng": "<16 hex digits>", "dealer": 2 | null,
               "deal": [[13 cards] x 4] | null, "scores": [0, 0], "bags": [0, 0]},
     "hands": [{"dealer": 3, "deal": [[...], [...], [...], [...]],
                "bids": [4, 3, null, null], "plays": ["KC", "2C", ...]}, ...],
     "state": {"phase": "bid", "to_act": 2, "scores": [0, 0], "bags": [0, 0], "winner": null}}

A match with house rules (:class:`~spades.Rules` other than 1.0.0) adds a ``"rules"``
section (:meth:`~spades.Rules.to_dict`) and names them in ``"variant"`` (the preset name,
or ``"custom"``); a save without ``"rules"`` is variant 1.0.0, as every earlier save is.
Bids may include ``"blind"`` (a blind nil) under rules that allow it.

Loading checks, in order: the text's size and nesting (before it is parsed, see
:mod:`spades.safejson`), that it is JSON, the format marker, version and rules variant,
the shape and types of every field (whole numbers are never ``true`` or ``1.0``), the
start (seats 0–3, scores within ±100,000 and not already ending the match, bags 0–9),
then it replays every hand: each hand's dealer and deal must follow from the random
state, every bid and card must be legal, and the stated scores, bags and state must be
what the replay gives. Anything else raises :class:`~spades.BadSave` and no match is
returned.

A save whose start names a first deal or starting totals other than 0/0 is a *custom
position* (:attr:`spades.Match.custom`): its replay is checked like any other, but its
first deal or totals were chosen rather than dealt, so nothing shows they are fair.
The random state is the match's seed: any value is a fresh shuffle of that seed.

This module sits below :mod:`spades.match`: it writes a match it is given and replays a save
into the match class it is given, so :class:`~spades.Match` defines ``to_json`` and
``from_json`` itself with no import circle. :mod:`spades.save` offers the same as functions
(``spades.save.dumps(m)``, ``spades.save.loads(text)``), kept apart from the match the way
python-chess keeps ``chess.pgn`` apart from ``Board``.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, TypeVar

from .cards import cards_of, mask_of
from .errors import BadInput, BadSave, IllegalAction
from .rules import DEFAULT, BadRules, Rules
from .safejson import excerpt
from .safejson import loads as safe_loads
from .start import ACTIONS_PER_HAND, SEAT_COUNT, SEATS, MatchStart, check_deal
from .version import VARIANT
from .view import OVER

if TYPE_CHECKING:  # annotations only: the match is handed in, never imported
    from .match import Match

M = TypeVar("M", bound="Match")

FORMAT = "spades-match"
VERSION = 1
#: Longest save text read: a 3,000-hand match is about 1.8 million characters. Longer text
#: is refused before it is parsed (``too_large``).
MAX_TEXT = 2_000_000
#: Deepest nesting read: a save nests five levels (save → hands → hand → deal → cards).
MAX_DEPTH = 8
RNG_DIGITS = 16  # the random state, as lower-case hexadecimal
SECTIONS = {"format", "version", "variant", "start", "hands", "state"}
START_FIELDS = {"rng", "dealer", "deal", "scores", "bags"}
HAND_FIELDS = {"dealer", "deal", "bids", "plays"}
STATE_FIELDS = {"phase", "to_act", "scores", "bags", "winner"}


def to_dict(match: Match) -> dict[str, Any]:
    """The match as a JSON-ready dictionary."""
    start = match.start
    actions = match.actions
    hands = []
    for number, record in enumerate(match.hands_played):
        chunk = actions[ACTIONS_PER_HAND * number : ACTIONS_PER_HAND * (number + 1)]
        hands.append(_hand_dict(record.dealer, [list(h) for h in record.deal], chunk))
    if match.phase != OVER:
        chunk = actions[ACTIONS_PER_HAND * len(hands) :]
        hands.append(_hand_dict(match.dealer, [match.dealt(s) for s in SEATS], chunk))
    rules = match.rules
    return {
        "format": FORMAT,
        "version": VERSION,
        "variant": VARIANT if rules.default else rules.name,
        **({} if rules.default else {"rules": rules.to_dict()}),
        "start": {
            "rng": f"{start.rng:0{RNG_DIGITS}x}",
            "dealer": start.dealer,
            "deal": [cards_of(m) for m in start.deal] if start.deal is not None else None,
            "scores": list(start.scores),
            "bags": list(start.bags),
        },
        "hands": hands,
        "state": {
            "phase": match.phase,
            "to_act": match.to_act,
            "scores": list(match.scores),
            "bags": list(match.bags),
            "winner": match.winner,
        },
    }


def _hand_dict(dealer: int, deal: list[list[str]], chunk: list[int | str]) -> dict[str, Any]:
    """One hand of the save: its dealer, deal, bids by seat and cards in play order."""
    bids: list[int | str | None] = [None] * SEAT_COUNT
    for i, b in enumerate(chunk[:SEAT_COUNT]):
        bids[(dealer + 1 + i) % SEAT_COUNT] = b
    return {"dealer": dealer, "deal": deal, "bids": bids, "plays": chunk[SEAT_COUNT:]}


def dumps(match: Match) -> str:
    """The match as compact JSON text."""
    return json.dumps(to_dict(match), separators=(",", ":"))


def _need(cond: bool, what: str) -> None:
    """Refuse the save as ``malformed`` unless ``cond`` holds (``what`` names what is wrong)."""
    if not cond:
        raise BadSave("malformed", f"Not a valid save: {what}.")


def _same(a: Any, b: Any) -> bool:
    """Equal JSON values of the same types (``True`` is not ``1``, ``1.0`` is not ``1``)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return a == b


def loads(text: str | bytes, cls: type[M]) -> M:
    """Restore a match of class ``cls`` from :func:`dumps` text, or raise :class:`~spades.BadSave`.

    Codes for the text itself: ``not_json`` (not text, not UTF-8, or not valid JSON),
    ``too_large`` (over :data:`MAX_TEXT` characters), ``too_deep`` (nested over :data:`MAX_DEPTH`).
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise BadSave("not_json", "Not a save: the text is not valid UTF-8.") from None
    if not isinstance(text, str):
        raise BadSave("not_json", f"Not a save: expected JSON text, got {excerpt(text)}.")
    try:
        data = safe_loads(text, max_chars=MAX_TEXT, max_depth=MAX_DEPTH)
    except BadInput as exc:
        raise BadSave(exc.code, _TEXT_REFUSALS[exc.code]) from None
    return from_dict(data, cls)


_TEXT_REFUSALS = {
    "not_json": "Not a save: the text is not valid JSON (damaged or cut short?).",
    "too_large": f"Not a save: the text is longer than any match ({MAX_TEXT:,} characters at "
    "most).",
    "too_deep": f"Not a save: the text is nested more deeply than a save ever is ({MAX_DEPTH} "
    "levels at most).",
}


def _start_of(start: dict[str, Any], rules: Rules) -> MatchStart:
    """The :class:`MatchStart` of a save's ``start`` section, every field checked."""
    rng = start["rng"]
    _need(
        isinstance(rng, str)
        and len(rng) == RNG_DIGITS
        and all(c in "0123456789abcdef" for c in rng),
        "the random state",
    )
    try:
        deal = (
            check_deal(start["deal"], not rules.card_deck.standard)
            if start["deal"] is not None
            else None
        )
        return MatchStart(
            int(rng, 16), start["dealer"], deal, start["scores"], start["bags"], rules
        )
    except IllegalAction as exc:
        raise BadSave(
            "malformed", f"Not a valid save: the start is invalid ({exc.message})"
        ) from None


def from_dict(data: Any, cls: type[M]) -> M:
    """Restore a match of class ``cls`` from :func:`to_dict` data, or raise
    :class:`~spades.BadSave`."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BadSave(
            "wrong_format", "Not a Spades match save (the format marker is missing or different)."
        )
    if not _same(data.get("version"), VERSION):
        raise BadSave(
            "wrong_version",
            f"This save has version {excerpt(data.get('version'))}; this engine reads version "
            f"{VERSION}.",
        )
    rules = _rules_of(data)
    _need(set(data) - {"rules"} == SECTIONS, "unexpected or missing sections")
    start, hands, state = data["start"], data["hands"], data["state"]
    _need(isinstance(start, dict) and set(start) == START_FIELDS, "the start section")
    _need(isinstance(hands, list) and len(hands) >= 1, "the list of hands")
    _need(isinstance(state, dict) and set(state) == STATE_FIELDS, "the state section")
    match = cls.from_start(_start_of(start, rules))
    for number, hand in enumerate(hands, start=1):
        _replay_hand(match, hand, number, last=number == len(hands))
    expected = {
        "phase": match.phase,
        "to_act": match.to_act,
        "scores": list(match.scores),
        "bags": list(match.bags),
        "winner": match.winner,
    }
    if not _same(state, expected):
        raise BadSave(
            "inconsistent",
            "The save's scores or state do not agree with its own history (tampered?).",
        )
    return match


def _rules_of(data: dict[str, Any]) -> Rules:
    """The save's house rules: its ``"rules"`` section, or 1.0.0 when it has none."""
    if "rules" not in data:
        if data.get("variant") != VARIANT:
            raise BadSave(
                "wrong_version",
                f"This save is for rules variant {excerpt(data.get('variant'))}, not {VARIANT}.",
            )
        return DEFAULT
    try:
        rules = Rules.from_dict(data["rules"])
    except BadRules as exc:
        raise BadSave(
            "malformed", f"Not a valid save: its rules are invalid ({exc.message})"
        ) from None
    if rules.default or data.get("variant") != rules.name:
        raise BadSave("inconsistent", "The save's variant does not name its rules (tampered?).")
    return rules


def _replay_hand(match: Match, hand: Any, number: int, last: bool) -> None:
    """Check one saved hand against ``match`` and take its bids and cards through the rules."""
    where = f"hand {number}"
    _need(isinstance(hand, dict) and set(hand) == HAND_FIELDS, f"{where} is not a hand record")
    if match.phase == OVER:
        raise BadSave("inconsistent", f"The save goes on after the match ended (at {where}).")
    if not _same(hand["dealer"], match.dealer):
        raise BadSave(
            "bad_deal", f"{where}: the dealer does not follow from the start of the match."
        )
    try:
        dealt = check_deal(hand["deal"], not match.rules.card_deck.standard)
    except IllegalAction as exc:
        raise BadSave(
            "bad_deal", f"{where}: the deal is not 52 distinct cards ({exc.message})"
        ) from None
    if dealt != tuple(mask_of(match.dealt(s), True) for s in SEATS):
        raise BadSave(
            "bad_deal", f"{where}: the deal does not match the save's random state (tampered?)."
        )
    bids, plays = hand["bids"], hand["plays"]
    _need(isinstance(bids, list) and len(bids) == SEAT_COUNT, f"{where}: bids must list four seats")
    _need(
        isinstance(plays, list) and len(plays) <= ACTIONS_PER_HAND - SEAT_COUNT,
        f"{where}: plays must be a list of at most 52 cards",
    )
    made = [bids[(match.dealer + 1 + i) % SEAT_COUNT] for i in range(SEAT_COUNT)]
    count = sum(b is not None for b in made)
    _need(
        all(b is not None for b in made[:count]),
        f"{where}: bids must be made in turn from the dealer's left",
    )
    if not last or plays:
        _need(count == SEAT_COUNT, f"{where}: cards were played before all four bids")
    if not last:
        _need(
            len(plays) == ACTIONS_PER_HAND - SEAT_COUNT,
            f"{where}: an earlier hand must be complete (52 cards)",
        )
    step = "bidding"
    try:
        for b in made[:count]:
            match.bid(b)
        for i, card in enumerate(plays, start=1):
            step = f"card {i}"
            match.play(card)
    except IllegalAction as exc:
        raise BadSave("illegal_history", f"{where}, {step}: {exc.message}") from None
    if last and len(plays) == ACTIONS_PER_HAND - SEAT_COUNT and match.phase != OVER:
        raise BadSave("inconsistent", f"{where} is complete, but the next hand is missing.")
