"""Saving and restoring a match as JSON text.

The format (``"format": "spades-match"``, ``"version": 1``) stores the match's
start — random state, first dealer, optional first deal, starting totals — and
every hand as dealt, bid and played, then the resulting totals::

    {"format": "spades-match", "version": 1, "variant": "1.0.0",
     "start": {"rng": "<16 hex digits>", "dealer": 2 | null,
               "deal": [[13 cards] x 4] | null, "scores": [0, 0], "bags": [0, 0]},
     "hands": [{"dealer": 3, "deal": [[...], [...], [...], [...]],
                "bids": [4, 3, null, null], "plays": ["KC", "2C", ...]}, ...],
     "state": {"phase": "bid", "to_act": 2, "scores": [0, 0], "bags": [0, 0], "winner": null}}

Loading replays every hand through the rules, so a save is accepted only if each
deal follows from the random state, every bid and card was legal, and the stated
totals are what the replay gives. Anything else raises :class:`~spades.BadSave`
and no match is returned.
"""
from __future__ import annotations

import json
from typing import Any

from . import VARIANT
from .cards import CARD_NAMES, cards_of
from .errors import BadSave, IllegalAction
from .match import Match, check_deal

FORMAT = "spades-match"
VERSION = 1
MAX_TEXT = 2_000_000  # far above any real match; refuses absurd input early


def to_dict(match: Match) -> dict[str, Any]:
    """The match as a JSON-ready dictionary."""
    rng, dealer, masks, scores, bags = match._start
    hands = []
    log = match._log
    for number, record in enumerate(match.hands_played):
        chunk = log[56 * number:56 * number + 56]
        hands.append(_hand_dict(record.dealer, [list(h) for h in record.deal], chunk))
    if match.phase != "over":
        chunk = log[56 * len(hands):]
        hands.append(_hand_dict(match.dealer, [match.dealt(s) for s in range(4)], chunk))
    return {
        "format": FORMAT, "version": VERSION, "variant": VARIANT,
        "start": {"rng": f"{rng:016x}", "dealer": dealer,
                  "deal": [cards_of(m) for m in masks] if masks is not None else None,
                  "scores": list(scores), "bags": list(bags)},
        "hands": hands,
        "state": {"phase": match.phase, "to_act": match.to_act, "scores": list(match.scores),
                  "bags": list(match.bags), "winner": match.winner},
    }


def _hand_dict(dealer: int, deal: list[list[str]], chunk: list[int]) -> dict[str, Any]:
    bids: list[int | None] = [None] * 4
    for i, b in enumerate(chunk[:4]):
        bids[(dealer + 1 + i) % 4] = b
    return {"dealer": dealer, "deal": deal, "bids": bids,
            "plays": [CARD_NAMES[c] for c in chunk[4:]]}


def dumps(match: Match) -> str:
    """The match as compact JSON text."""
    return json.dumps(to_dict(match), separators=(",", ":"))


def _need(cond: bool, what: str) -> None:
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


def loads(text: str | bytes) -> Match:
    """Restore a match from :func:`dumps` text, or raise :class:`~spades.BadSave`."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise BadSave("not_json", "Not a save: the text is not UTF-8.") from None
    if not isinstance(text, str):
        raise BadSave("not_json", f"Not a save: expected JSON text, got {type(text).__name__}.")
    if len(text) > MAX_TEXT:
        raise BadSave("malformed", "Not a valid save: the text is far too long for a match.")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise BadSave("not_json", "Not a save: the text is not valid JSON (truncated or damaged?).") from None
    return from_dict(data)


def from_dict(data: Any) -> Match:
    """Restore a match from :func:`to_dict` data, or raise :class:`~spades.BadSave`."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BadSave("wrong_format", "Not a Spades match save (the format marker is missing or different).")
    if not _same(data.get("version"), VERSION):
        raise BadSave("wrong_version", f"This save has version {data.get('version')!r}; this engine reads version {VERSION}.")
    if data.get("variant") != VARIANT:
        raise BadSave("wrong_version", f"This save is for rules variant {data.get('variant')!r}, not {VARIANT}.")
    _need(set(data) == {"format", "version", "variant", "start", "hands", "state"}, "unexpected or missing sections")
    start, hands, state = data["start"], data["hands"], data["state"]
    _need(isinstance(start, dict) and set(start) == {"rng", "dealer", "deal", "scores", "bags"}, "the start section")
    _need(isinstance(hands, list) and len(hands) >= 1, "the list of hands")
    _need(isinstance(state, dict) and set(state) == {"phase", "to_act", "scores", "bags", "winner"}, "the state section")
    rng = start["rng"]
    _need(isinstance(rng, str) and len(rng) == 16 and all(c in "0123456789abcdef" for c in rng), "the random state")
    match = Match.__new__(Match)
    try:
        masks = check_deal(start["deal"]) if start["deal"] is not None else None
        probe = Match(seed=0, dealer=start["dealer"], scores=start["scores"], bags=start["bags"])
    except ValueError as exc:
        raise BadSave("malformed", f"Not a valid save: the start is invalid ({exc}).") from None
    match._start = (int(rng, 16), probe._start[1], masks, probe._start[3], probe._start[4])
    match._reset()

    for number, hand in enumerate(hands, start=1):
        last = number == len(hands)
        where = f"hand {number}"
        _need(isinstance(hand, dict) and set(hand) == {"dealer", "deal", "bids", "plays"}, f"{where} is not a hand record")
        if match.phase == "over":
            raise BadSave("inconsistent", f"The save goes on after the match ended (at {where}).")
        if not _same(hand["dealer"], match.dealer):
            raise BadSave("bad_deal", f"{where}: the dealer does not follow from the start of the match.")
        try:
            dealt = check_deal(hand["deal"])
        except (ValueError, TypeError) as exc:
            raise BadSave("bad_deal", f"{where}: the deal is not 52 distinct cards ({exc}).") from None
        if dealt != match._dealt:
            raise BadSave("bad_deal", f"{where}: the deal does not match the save's random state (tampered?).")
        bids, plays = hand["bids"], hand["plays"]
        _need(isinstance(bids, list) and len(bids) == 4, f"{where}: bids must list four seats")
        _need(isinstance(plays, list) and len(plays) <= 52, f"{where}: plays must be a list of at most 52 cards")
        order = [(match.dealer + 1 + i) % 4 for i in range(4)]
        made = [bids[s] for s in order]
        count = sum(b is not None for b in made)
        _need(all(b is not None for b in made[:count]), f"{where}: bids must be made in turn from the dealer's left")
        if not last or plays:
            _need(count == 4, f"{where}: cards were played before all four bids")
        if not last:
            _need(len(plays) == 52, f"{where}: an earlier hand must be complete (52 cards)")
        step = "bidding"
        try:
            for b in made[:count]:
                match.bid(b)
            for i, card in enumerate(plays, start=1):
                step = f"card {i}"
                match.play(card)
        except IllegalAction as exc:
            raise BadSave("illegal_history", f"{where}, {step}: {exc.message}") from None
        if last and len(plays) == 52 and match.phase != "over":
            raise BadSave("inconsistent", f"{where} is complete, but the next hand is missing.")

    expected = {"phase": match.phase, "to_act": match.to_act, "scores": list(match.scores),
                "bags": list(match.bags), "winner": match.winner}
    if not _same(state, expected):
        raise BadSave("inconsistent", "The save's scores or state do not agree with its own history (tampered?).")
    return match
