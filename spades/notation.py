"""A short text notation for one hand, for tutorials and the hand viewer.

Example (seats are S, W, N, E = 0, 1, 2, 3; S and N are partners)::

    Spades hand                      (optional first line)
    Rules: jokers                    (optional: the house rules, see spades.Rules.parse; 1.0.0 if
    absent)
    Dealer: E
    Score: 120 -40                   (optional: team S/N, team W/E before the hand)
    Bags: 3 0                        (optional)
    S: AS KS 7S 2S AH 9H 4H KC 8C 3C QD 5D 2D
    W: ...13 cards...
    N: ...13 cards...
    E: ...13 cards...                (one hand may be left out: it is the 13 cards left)
    Bids: 3 4 nil 2                  (in bidding order, from the dealer's left)
    Play: 2C 5C KC AC / 4D QD ...    (cards in play order; "/" between tricks is optional)

Cards are written rank then suit (``AS``, ``TD``; ``10D`` and lower case are accepted);
a bid of ``nil`` or ``0`` is nil, ``blind`` a blind nil; the jokers are ``LJ`` and ``BJ``. Bids and
Play may stop part-way. Lines starting
with ``#`` are comments. :func:`parse` checks the text against the rules by
replaying it, so a hand that breaks a rule is refused with the rule's reason.
Text longer than :data:`MAX_CHARS` is refused before it is read (``too_large``);
numbers are ASCII digits only, and no message quotes more than a short excerpt.
A hand read from notation is a custom position (:attr:`spades.Match.custom`): its
deal was written, not shuffled.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .cards import ALL_CARD_INDEX, cards_of, mask_of, sort_hand
from .errors import IllegalAction, SpadesError
from .legal import BLIND_NIL
from .match import HandRecord, Match
from .rules import DEFAULT, BadRules, Rules
from .safejson import excerpt
from .start import SEAT_COUNT, SEATS

SEAT_LETTERS = "SWNE"
#: Longest notation read: a hand with comments fits in a few hundred characters.
MAX_CHARS = 20_000
#: A score or bag count: an optional minus sign and at most six ASCII digits.
_NUMBER = re.compile(r"-?[0-9]{1,6}")
#: A bid: one or two ASCII digits (the range is the rules' to check).
_BID = re.compile(r"[0-9]{1,2}")


class NotationError(SpadesError, ValueError):
    """Hand notation that cannot be read or breaks a rule.

    Codes: ``bad_notation``, ``illegal_history``, ``too_large``.
    """


@dataclass(frozen=True)
class HandText:
    """A parsed hand: the deal and what was bid and played."""

    dealer: int
    deal: tuple[tuple[str, ...], ...]
    scores: tuple[int, int]
    bags: tuple[int, int]
    bids: tuple[int | str, ...]  # in bidding order (BLIND_NIL for a blind nil)
    plays: tuple[str, ...]
    rules: Rules = DEFAULT


def _card(token: str, line: int) -> str:
    """A card token of line ``line`` as its name (``10`` read as ``T``), else ``bad_notation``."""
    t = token.strip().upper().replace("10", "T")
    if t not in ALL_CARD_INDEX:
        raise NotationError(
            "bad_notation",
            f"Line {line}: {excerpt(token)} is not a card (write rank then suit, e.g. AS, TD, 2C).",
        )
    return t


def _ints(value: str, line: int, what: str) -> tuple[int, int]:
    """The two whole numbers of a ``Scores:``/``Bags:`` line, else ``bad_notation``."""
    parts = value.split()
    if len(parts) != 2 or not all(_NUMBER.fullmatch(p) for p in parts):
        raise NotationError(
            "bad_notation", f"Line {line}: {what} needs two whole numbers, e.g. '{what}: 0 0'."
        )
    return int(parts[0]), int(parts[1])


def parse(text: str) -> HandText:
    """Read hand notation; raises :class:`NotationError` if it is malformed or breaks a rule."""
    if not isinstance(text, str):
        raise NotationError("bad_notation", "Hand notation must be text.")
    if len(text) > MAX_CHARS:
        raise NotationError(
            "too_large",
            f"Hand notation is at most {MAX_CHARS:,} characters; this text has {len(text):,}.",
        )
    dealer = None
    hands: dict[int, list[str]] = {}
    scores, bags = (0, 0), (0, 0)
    bids: list[int | str] = []
    plays: list[str] = []
    rules = DEFAULT
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line or (number == 1 and line.lower().startswith("spades")):
            continue
        key, sep, value = line.partition(":")
        if not sep:
            raise NotationError(
                "bad_notation",
                f"Line {number}: expected 'Name: value', got {excerpt(raw.strip())}.",
            )
        key = key.strip().lower()
        if key == "rules":
            try:
                rules = Rules.parse(value.strip())
            except BadRules as exc:
                raise NotationError("bad_notation", f"Line {number}: {exc.message}") from None
        elif key == "dealer":
            v = value.strip().upper()
            if v not in SEAT_LETTERS or len(v) != 1:
                raise NotationError(
                    "bad_notation", f"Line {number}: the dealer is one of S, W, N, E."
                )
            dealer = SEAT_LETTERS.index(v)
        elif key.upper() in ("S", "W", "N", "E") and len(key) == 1:
            hands[SEAT_LETTERS.index(key.upper())] = [_card(t, number) for t in value.split()]
        elif key == "score":
            scores = _ints(value, number, "Score")
        elif key == "bags":
            bags = _ints(value, number, "Bags")
        elif key == "bids":
            for t in value.split():
                t = t.lower()
                if t == "nil":
                    bids.append(0)
                elif t == BLIND_NIL:
                    bids.append(BLIND_NIL)
                elif _BID.fullmatch(t):
                    bids.append(int(t))
                else:
                    raise NotationError(
                        "bad_notation",
                        f"Line {number}: {excerpt(t)} is not a bid (0–13, nil or blind).",
                    )
        elif key == "play":
            plays.extend(
                _card(t, number) for t in value.replace("/", " ").replace("|", " ").split()
            )
        else:
            raise NotationError(
                "bad_notation",
                f"Line {number}: unknown field {excerpt(key)} (Rules, Dealer, Score, Bags, S, W, "
                "N, E, Bids, Play).",
            )
    if dealer is None:
        raise NotationError("bad_notation", "The dealer is missing (a line such as 'Dealer: E').")
    if len(hands) == SEAT_COUNT - 1:
        missing = next(s for s in SEATS if s not in hands)
        rest = rules.card_deck.mask
        for h in hands.values():
            rest &= ~mask_of(h, True)
        hands[missing] = cards_of(rest)
    if len(hands) != SEAT_COUNT:
        raise NotationError(
            "bad_notation", "Give the cards of at least three seats (lines 'S:', 'W:', 'N:', 'E:')."
        )
    if len(bids) > SEAT_COUNT:
        raise NotationError("bad_notation", "There are only four bids in a hand.")
    spec = HandText(
        dealer,
        tuple(tuple(hands[s]) for s in SEATS),
        scores,
        bags,
        tuple(bids),
        tuple(plays),
        rules,
    )
    replay(spec)
    return spec


def replay(spec: HandText) -> Match:
    """A match positioned after the parsed hand's bids and plays (the rules check every step)."""
    try:
        match = Match(
            seed=0,
            dealer=spec.dealer,
            deal=[list(h) for h in spec.deal],
            scores=spec.scores,
            bags=spec.bags,
            rules=spec.rules,
        )
    except ValueError as exc:
        raise NotationError("bad_notation", f"The deal or totals are invalid: {exc}") from None
    step = "bid 1"
    try:
        for i, b in enumerate(spec.bids, start=1):
            step = f"bid {i}"
            match.bid(b)
        if spec.plays and len(spec.bids) < SEAT_COUNT:
            raise NotationError("bad_notation", "Cards were played before all four bids.")
        for i, card in enumerate(spec.plays, start=1):
            step = f"card {i} ({card})"
            match.play(card)
            if match.hands_played and i < len(spec.plays):
                raise NotationError("bad_notation", "More than 52 cards were played.")
    except IllegalAction as exc:
        raise NotationError("illegal_history", f"At {step}: {exc.message}") from None
    return match


def format_hand(record: HandRecord, rules: Rules = DEFAULT) -> str:
    """Hand notation for a completed hand of a match with ``rules``, readable back by
    :func:`parse`."""
    before = tuple(s.score_before for s in record.scores)
    bags = tuple(s.bags_before for s in record.scores)
    order = [(record.dealer + 1 + i) % SEAT_COUNT for i in range(SEAT_COUNT)]
    lines = ["Spades hand"] + ([] if rules.default else [f"Rules: {rules.to_text()}"])
    lines.append(f"Dealer: {SEAT_LETTERS[record.dealer]}")
    if before != (0, 0):
        lines.append(f"Score: {before[0]} {before[1]}")
    if bags != (0, 0):
        lines.append(f"Bags: {bags[0]} {bags[1]}")
    for seat in SEATS:
        lines.append(
            f"{SEAT_LETTERS[seat]}: {' '.join(sort_hand(record.deal[seat], rules.card_deck))}"
        )
    lines.append(
        "Bids: "
        + " ".join(
            BLIND_NIL if record.blind[s] else "nil" if record.bids[s] == 0 else str(record.bids[s])
            for s in order
        )
    )
    lines.append("Play: " + " / ".join(" ".join(t.cards) for t in record.tricks))
    return "\n".join(lines) + "\n"
