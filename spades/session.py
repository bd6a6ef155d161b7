"""One match with its human seat(s) and the computer players of the other seats.

A :class:`Session` is what the browser (through :mod:`spades.bridge`) and the terminal
(:mod:`spades.cli`) both play: the humans act (:meth:`Session.act`), the computer players
answer one event at a time (:meth:`Session.run_bots`), a human may take back their last
action (:meth:`Session.undo_mine`), ask for a hint (:meth:`Session.hint`) or ask why a card
is refused (:meth:`Session.why_not`), and the table is shown from one seat
(:meth:`Session.state_for`, which never holds a hidden card). The computer players decide
from a :class:`~spades.SeatView` only. A session saves as text (:meth:`Session.to_json`)
and is restored whole or refused whole (:meth:`Session.from_json`).

An *event* is ``{"kind": "bid", "seat", "bid"}`` or ``{"kind": "play", "seat", "card"}``,
plus ``"trick": {leader, plays, winner}`` when the card completed a trick and ``"hand"``
(the score sheet row) when it completed a hand.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterator, Sequence
from typing import Any

from .ai import Bot, bot
from .ai.explain import Explanation, Reason, told_to
from .cards import CARD_INDEX, SUIT_OF, SUIT_SIZE, mask_of, sort_hand
from .errors import BadRequest, BadSave, IllegalAction, SpadesError
from .legal import BLIND_NIL, refusal
from .match import BID, OVER, PLAY, HandRecord, Match
from .newmatch import DEFAULT_LEVEL, check_level, parse_seed
from .rules import Rules
from .safejson import loads
from .start import SEATS, check_seat
from .view import SeatView

HUMAN = 0
SESSION_FORMAT = "spades-session"
SESSION_VERSION = 1

#: A seed read back from a save: older saves may hold any text a player typed, so only
#: its size is bounded (the match itself is checked by replay).
MAX_SAVED_SEED_CHARS = 256
MAX_SAVED_SEED_BITS = 128

#: The largest session save measured over 200 whole matches (bots and a random human, the
#: longest 56 hands) was 32,656 characters at depth 6; the limits leave over 4x headroom.
MAX_SAVE_CHARS = 200_000
MAX_SAVE_DEPTH = 16


def refusal_code(view: SeatView, card: object) -> str | None:
    """Why the seat of ``view`` may not play ``card`` now (an ``IllegalAction`` code), or ``None``.

    Checked in the order :meth:`Session.play` checks: the match is over, not this seat's
    turn, not the play phase, not a card, then the rules (not held, spades not broken,
    must follow suit). A pure function of the view: nothing is played.
    """
    if view.phase == OVER:
        return "match_over"
    if view.to_act != view.seat:
        return "not_your_turn"
    if view.phase != PLAY:
        return "wrong_phase"
    c = CARD_INDEX.get(card) if isinstance(card, str) else None
    if c is None:
        return "bad_card"
    led = SUIT_OF[CARD_INDEX[view.trick.plays[0][1]]] if view.trick else None
    found = refusal(mask_of(view.hand), c, led, view.spades_broken)
    return found[0] if found else None


def action_seats(m: Match) -> list[int]:
    """The seat that took each of ``m.actions``, in order (bids from the dealer's left, then
    cards)."""
    seats: list[int] = []
    for r in m.hands_played:
        seats += [(r.dealer + 1 + i) % 4 for i in range(4)]
        seats += [s for t in r.tricks for s, _ in t.plays]
    if m.phase != OVER:
        seats += [(m.dealer + 1 + i) % 4 for i in range(sum(b is not None for b in m.bids))]
        seats += [s for t in m.tricks for s, _ in t.plays]
        seats += [s for s, _ in m.trick.plays] if m.trick else []
    return seats


def sheet_row(record: HandRecord) -> dict[str, Any]:
    """One row of the score sheet: bids, tricks taken per seat and both teams' breakdowns."""
    return {
        "number": record.number,
        "dealer": record.dealer,
        "bids": list(record.bids),
        "tricks": [sum(1 for t in record.tricks if t.winner == s) for s in SEATS],
        "teams": [s.to_dict() for s in record.scores],
    }


def _check_humans(value: Any) -> tuple[int, ...]:
    """The human seats: one to four different seats 0–3, else ``bad_args``."""
    if (
        not isinstance(value, (list, tuple))
        or not 1 <= len(value) <= len(SEATS)
        or any(type(s) is not int or s not in SEATS for s in value)
        or len(set(value)) != len(value)
    ):
        raise BadRequest("bad_args", "The human seats are one to four different seats 0–3.")
    return tuple(value)


class Session:
    """One match, the seat(s) humans play, and the computer players of the other seats.

    ``partner`` is the level of the computer players on the first human's team,
    ``opponents`` the level of the others. Bots are seeded from the match seed (a word
    seed counts as 0) plus their seat, and decide from their seat's view only.
    """

    def __init__(
        self,
        match: Match,
        *,
        humans: Sequence[int] = (HUMAN,),
        partner: str | None = DEFAULT_LEVEL,
        opponents: str | None = DEFAULT_LEVEL,
        seed: int | str | None = None,
    ) -> None:
        self.match = match
        self.humans = _check_humans(humans)
        self.partner = check_level(partner)
        self.opponents = check_level(opponents)
        self.seed = seed
        self.bots: dict[int, Bot] = {s: self._bot_for(s) for s in SEATS if s not in self.humans}
        #: Each computer action's explanation, by its index in ``match.actions`` (see :meth:`why`).
        self.explained: dict[int, Explanation] = {}
        # : Human seats that turned their cards face up this hand (blind nil is then closed): seat
        # -> hand number.
        self.looked: dict[int, int] = {}

    def _bot_for(self, seat: int) -> Bot:
        """The computer player of ``seat``: the partner's level on the first human's team, else the
        opponents'; seeded from the match seed (a word seed counts as 0) plus the seat."""
        base = self.seed if isinstance(self.seed, int) else 0
        level = self.partner if seat % 2 == self.humans[0] % 2 else self.opponents
        return bot(level, base + seat)

    def set_person(self, seat: Any, person: Any) -> None:
        """Whether a person plays ``seat`` from now on (a friend joins, drops or comes back).

        A computer player takes a seat a person leaves, and gives it back when they return;
        the match itself does not change. The first human's seat (the host's, the device
        owner's) is always a person's: refused with ``bad_seat``, as is a non-seat
        (``bad_argument``) or a ``person`` that is not a boolean (``bad_args``).
        """
        seat = check_seat(seat)
        if type(person) is not bool:
            raise BadRequest("bad_args", "Whether a person plays a seat is true or false.")
        if seat == self.humans[0]:
            raise BadRequest("bad_seat", "The first person's seat is always a person's.")
        if person and seat not in self.humans:
            self.humans = (*self.humans, seat)
            del self.bots[seat]
        elif not person and seat in self.humans:
            self.humans = tuple(s for s in self.humans if s != seat)
            self.bots[seat] = self._bot_for(seat)

    @classmethod
    def new(
        cls,
        seed: Any = None,
        *,
        partner: Any = None,
        opponents: Any = None,
        humans: Sequence[int] = (HUMAN,),
        rules: Any = None,
    ) -> Session:
        """A fresh match from a player's ``seed`` (see :func:`parse_seed`), bot levels and house
        ``rules`` (:meth:`spades.Rules.read`: a preset name, text, a dictionary; ``BadRules``
        codes)."""
        seed = parse_seed(seed)
        return cls(
            Match(seed=seed, rules=Rules.read(rules)),
            humans=humans,
            partner=check_level(partner),
            opponents=check_level(opponents),
            seed=seed,
        )

    # -- the humans' actions ---------------------------------------------------------

    @property
    def human_to_act(self) -> int | None:
        """The human seat whose turn it is, or ``None`` (a bot's turn, or the match is over)."""
        to_act = self.match.to_act
        return to_act if to_act in self.humans else None

    def _my_turn(self, seat: int | None = None) -> int:
        """The human seat to act (``seat``, when given, must be it); refuses with ``match_over``,
        ``not_your_turn`` or, for a seat no person plays, ``bad_seat``."""
        m = self.match
        if seat is not None:
            self._check_human(seat)
        if m.phase == OVER:
            raise IllegalAction("match_over", f"The match is over: team {m.winner} won.")
        to_act = self.human_to_act
        if to_act is None or (seat is not None and to_act != seat):
            raise IllegalAction("not_your_turn", f"Wait for your turn: seat {m.to_act} is to act.")
        return to_act

    def _check_human(self, seat: Any) -> int:
        """``seat`` when a person plays it, else ``bad_seat`` (``bad_argument`` for a non-seat)."""
        seat = check_seat(seat)
        if seat not in self.humans:
            raise BadRequest("bad_seat", f"Seat {seat} is not played by a person.")
        return seat

    def seat_of(self, seat: Any = None) -> int:
        """The seat a person asks from: ``seat`` (checked), else the first human."""
        return self.humans[0] if seat is None else self._check_human(seat)

    def cards_hidden(self, seat: int) -> bool:
        """Whether ``seat``'s cards are still face down: at a blind-nil table, before its bid, until
        it looks, and at its turn only while the engine offers it a blind nil."""
        m = self.match
        if not (m.rules.blind_nil and m.phase == BID and m.bids[seat] is None) or self._has_looked(
            seat
        ):
            return False
        return m.to_act != seat or BLIND_NIL in m.legal_bids()

    def _has_looked(self, seat: int) -> bool:
        """Whether ``seat`` turned its cards face up this hand."""
        return self.looked.get(seat) == self.match.hand_number

    def look(self, seat: int | None = None) -> None:
        """A human turns their cards face up (default: the first human): no blind nil for them this
        hand."""
        self.looked[self.seat_of(seat)] = self.match.hand_number

    def bid(self, n: Any, seat: int | None = None) -> dict[str, Any]:
        """The human to act (``seat``, when given, must be it) bids ``n`` (0 = nil); returns the
        event. Refusals change nothing."""
        seat = self._my_turn(seat)
        if n == BLIND_NIL and self._has_looked(seat):
            raise IllegalAction(
                "blind_after_look", "You have seen your cards: blind nil is closed for this hand."
            )
        self.match.bid(n, seat=seat)
        return {"kind": "bid", "seat": seat, "bid": n}

    def play(self, card: Any, seat: int | None = None) -> dict[str, Any]:
        """The human to act (``seat``, when given, must be it) plays ``card``; returns the event.
        Refusals change nothing."""
        return self._played(self._my_turn(seat), card)

    def act(self, action: int | str, seat: int | None = None) -> dict[str, Any]:
        """The human to act takes ``action``: an integer is a bid, a string a card."""
        return (
            self.play(action, seat)
            if isinstance(action, str) and action != BLIND_NIL
            else self.bid(action, seat)
        )

    def _played(self, seat: int, card: str) -> dict[str, Any]:
        """``seat`` plays ``card``; the event, with the trick or hand it completed."""
        m = self.match
        hands_before, tricks_before = len(m.hands_played), len(m.tricks)
        m.play(card, seat=seat)
        event: dict[str, Any] = {"kind": "play", "seat": seat, "card": card}
        history = m.hands_played
        if len(history) > hands_before:
            event["trick"] = history[-1].tricks[-1].to_dict()
            event["hand"] = sheet_row(history[-1])
        elif len(m.tricks) > tricks_before:
            event["trick"] = m.tricks[-1].to_dict()
        return event

    # -- computer players -------------------------------------------------------------

    def bot_step(self) -> dict[str, Any]:
        """One computer player acts (from its own view); returns the event."""
        m = self.match
        seat = m.to_act
        if seat is None or seat in self.humans:
            raise BadRequest("not_bot_turn", "No computer player is to act.")
        explained = self.bots[seat].explain(m.view(seat))
        self.explained[len(m.actions)] = explained
        action = explained.action
        if isinstance(action, str):
            return self._played(seat, action)
        m.bid(action, seat=seat)
        return {"kind": "bid", "seat": seat, "bid": action}

    def run_bots(self) -> Iterator[dict[str, Any]]:
        """Computer players act one by one until a human's turn or the match's end, yielding each
        event."""
        while self.match.to_act is not None and self.match.to_act not in self.humans:
            yield self.bot_step()

    # -- undo, hint, why not -----------------------------------------------------------------

    def undo_mine(self, seat: int | None = None) -> int:
        """Take back the humans' last action (or ``seat``'s) and every action after it; returns
        how many.

        The last human action is taken back wherever it is: in this hand, or in the hand
        just scored (which is then un-scored and resumes at that card) — a player expects
        "undo" to undo their last move, and the terminal always did so. With several people
        at the table, ``seat`` takes back only its own last action, and only while no other
        person has acted since (``others_acted``: their move is not yours to take back).
        Refused, changing nothing: ``match_over`` once the match is decided (the result
        stands), and ``nothing_to_undo`` when that person has not acted yet in the match.
        """
        m = self.match
        mine = None if seat is None else self._check_human(seat)
        if m.phase == OVER:
            raise IllegalAction("match_over", "The match is over: there is nothing to take back.")
        seats = action_seats(m)
        for i in range(len(seats) - 1, -1, -1):
            if seats[i] in self.humans and mine is not None and seats[i] != mine:
                raise IllegalAction(
                    "others_acted", "Another player has acted since your last move."
                )
            if seats[i] in self.humans:
                # a blind nil shows the bidder's cards: taken back, it still counts as having looked
                undone_blind = [
                    seats[k]
                    for k in range(i, len(seats))
                    if seats[k] in self.humans and m.actions[k] == BLIND_NIL
                ]
                m.undo(len(seats) - i)
                for undone in undone_blind:
                    self.looked[undone] = m.hand_number
                for index in [k for k in self.explained if k >= i]:
                    del self.explained[index]
                return len(seats) - i
        raise IllegalAction(
            "nothing_to_undo",
            "You have not acted yet in this match, so there is nothing to take back.",
        )

    def hint_seed(self) -> int:
        """The hint bot's seed: a checksum of the whole position (start and every action)."""
        return zlib.crc32(self.match.to_json().encode())

    def hint(self, level: Any = None, seat: int | None = None) -> int | str:
        """What a computer player of ``level`` would do in the human's seat now (``seat``, when
        given, must be the one to act; nothing changes)."""
        return self.explain_hint(level, seat).action

    def explain_hint(self, level: Any = None, seat: int | None = None) -> Explanation:
        """The hint with its reason (:meth:`hint` is its action): the same seeded bot decides and
        explains."""
        level = check_level(level)
        seat = self._my_turn(seat)
        return bot(level, self.hint_seed()).explain(self.match.view(seat))

    def why(self, seat: Any, viewer: int | None = None) -> tuple[int | str, Reason | None] | None:
        """Computer seat ``seat``'s last action in the match and its reason, or ``None`` before it
        acted.

        The reason is the one the bot gave when it acted (kept by :meth:`bot_step`) or, after a
        restore, recomputed by that seat's own seeded bot from the view the seat had just before
        that action (the match is rebuilt to that moment; nothing here changes): the same code
        path, so the true reason. Should a recomputed action differ from the one taken (Hard's
        wall-clock safety net cut one of the two searches short) the reason is ``None``. While
        that hand is being played the reason is told as the person at ``viewer`` (default: the
        first human) may hear it (:func:`~spades.ai.explain.told_to`: no hidden card, nothing of
        the seat's hidden hand). Refused: ``bad_argument`` for a non-seat, ``bad_args`` for a
        human seat, ``bad_seat`` for a viewer no person plays.
        """
        seat = check_seat(seat)
        listener = self.seat_of(viewer)
        if seat in self.humans:
            raise BadRequest(
                "bad_args",
                f"Seat {seat} is a human player: only computer players' actions are explained.",
            )
        m = self.match
        seats = action_seats(m)
        index = next((i for i in range(len(seats) - 1, -1, -1) if seats[i] == seat), None)
        if index is None:
            return None
        actions = m.actions
        taken = actions[index]
        explained = self.explained.get(index)
        if explained is None or explained.action != taken:
            explained = self.recompute(seat, index)
        if explained.action != taken:
            return taken, None
        if index < self.completed_actions():
            return taken, explained.reason  # that hand is over: every card of it has been shown
        return taken, told_to(explained.reason, self.known_cards(listener))

    def completed_actions(self) -> int:
        """How many of ``match.actions`` belong to hands already completed."""
        return sum(
            len(r.bids) + sum(len(t.plays) for t in r.tricks) for r in self.match.hands_played
        )

    def known_cards(self, seat: int) -> frozenset[str]:
        """The cards ``seat`` may know now in this hand: those played, and its own unless still
        face down."""
        view = self.match.view(seat)
        played = {card for _, card in view.played}
        return frozenset(played if self.cards_hidden(seat) else played | set(view.hand))

    def recompute(self, seat: int, index: int) -> Explanation:
        """What ``seat``'s bot explains from its view just before action ``index`` of the match."""
        before = Match.from_start(self.match.start, self.match.actions[:index])
        return self.bots[seat].explain(before.view(seat))

    def why_not(self, card: Any, seat: int | None = None) -> str | None:
        """The ``IllegalAction`` code :meth:`play` would refuse ``card`` with now, or ``None``.

        A pure query on the view of ``seat`` (default: the human to act, else the first human):
        the match is not touched.
        """
        if seat is None:
            seat = self.human_to_act
        return refusal_code(self.match.view(self.seat_of(seat)), card)

    # -- what the page shows -------------------------------------------------------------------

    def state_for(self, seat: int = HUMAN) -> dict[str, Any]:
        """Everything the table shows to ``seat``: its own hand and what is public, no hidden
        card."""
        m = self.match
        view = m.view(seat)
        tricks = view.tricks
        history = m.hands_played
        played = sum(len(t.plays) for t in tricks) + (len(view.trick.plays) if view.trick else 0)
        if m.phase == OVER:
            counts = [0, 0, 0, 0]
        else:
            counts = [
                SUIT_SIZE
                - len(tricks)
                - (1 if view.trick and any(s == p for p, _ in view.trick.plays) else 0)
                for s in SEATS
            ]
        hidden = self.cards_hidden(seat)
        looked = self._has_looked(seat)
        bids = [b for b in view.legal_bids if not (looked and b == BLIND_NIL)]
        return {
            "phase": view.phase,
            "hand_number": view.hand_number,
            "dealer": view.dealer,
            "to_act": view.to_act,
            "human": seat,
            "cards_hidden": hidden,
            "hand": [] if hidden else sort_hand(view.hand, m.rules.card_deck),
            "legal_bids": bids,
            "legal_cards": list(view.legal_cards),
            "bids": list(view.bids),
            "tricks_won": list(view.tricks_won),
            "trick": view.trick.to_dict() if view.trick else None,
            "last_trick": tricks[-1].to_dict()
            if tricks
            else (
                history[-1].tricks[-1].to_dict()
                if history and not played and m.phase != OVER
                else None
            ),
            "cards_left": counts,
            "spades_broken": view.spades_broken,
            "scores": list(view.scores),
            "bags": list(view.bags),
            "winner": m.winner,
            "sheet": [sheet_row(r) for r in history],
            "levels": {"partner": self.partner, "opponents": self.opponents},
            "humans": list(self.humans),
            "seed": self.seed,
            "custom": bool(getattr(m, "custom", False)),
            "rules": m.rules.to_dict(),
            "blind": list(view.blind),
        }

    # -- saves ----------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The session as a JSON-ready dictionary: the match save, the levels, seed and human
        seats."""
        return {
            "format": SESSION_FORMAT,
            "version": SESSION_VERSION,
            "partner": self.partner,
            "opponents": self.opponents,
            "seed": self.seed,
            "humans": list(self.humans),
            "looked": sorted(s for s in self.looked if self._has_looked(s)),
            "match": json.loads(self.match.to_json()),
        }

    def to_json(self) -> str:
        """The session as compact JSON text (it holds every seat's cards: never shown to the
        page)."""
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: Any) -> Session:
        """A session from :meth:`to_json` text, checked by replay; anything else is refused whole.

        Raises :class:`~spades.errors.BadInput` (``too_large``, ``too_deep``, ``not_json``)
        or :class:`~spades.BadSave` (``wrong_format``, ``wrong_version``, ``malformed`` and
        the match save's own codes).
        """
        data = loads(text, max_chars=MAX_SAVE_CHARS, max_depth=MAX_SAVE_DEPTH)
        if not isinstance(data, dict) or data.get("format") != SESSION_FORMAT:
            raise BadSave("wrong_format", "This is not a saved game of Spades.")
        version = data.get("version")
        if type(version) is not int or version != SESSION_VERSION:  # ``true`` and ``1.0`` are not 1
            raise BadSave("wrong_version", "This saved game is from another version of the game.")
        seed = data.get("seed")
        if not (
            seed is None
            or (
                isinstance(seed, int)
                and not isinstance(seed, bool)
                and seed.bit_length() <= MAX_SAVED_SEED_BITS
            )
            or (isinstance(seed, str) and len(seed) <= MAX_SAVED_SEED_CHARS)
        ):
            raise BadSave("malformed", "The saved game's seed is invalid.")
        if not isinstance(data.get("match"), dict):
            raise BadSave("malformed", "The saved game holds no match.")
        try:
            match = Match.from_json(json.dumps(data["match"]))
        except SpadesError:
            raise
        except (TypeError, ValueError, KeyError, IndexError, AttributeError, OverflowError):
            raise BadSave("malformed", "The saved match is damaged.") from None
        try:
            session = cls(
                match,
                humans=data.get("humans", [HUMAN]),
                partner=data.get("partner"),
                opponents=data.get("opponents"),
                seed=seed,
            )
        except BadRequest as exc:
            raise BadSave("malformed", f"The saved game is damaged: {exc.message}") from None
        looked = data.get(
            "looked", []
        )  # absent in saves written before blind nil could be declined
        if not (
            isinstance(looked, list) and all(type(s) is int and s in session.humans for s in looked)
        ):
            raise BadSave("malformed", "The saved game's face-up hands are invalid.")
        session.looked = dict.fromkeys(looked, match.hand_number)
        return session
