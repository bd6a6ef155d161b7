"""The match state machine: deal → bid → play 13 tricks → score → next deal … → over.

:class:`Match` checks every action against the rules (:mod:`spades.legal`) before it
changes anything, scores hands with :mod:`spades.scoring`, keeps the full history
of the match, and can take actions back. A match is fully determined by its
:class:`MatchStart` (random state, first dealer, optional first deal, starting totals)
and the list of actions taken: :meth:`Match.from_start` rebuilds it from those, which is
how saves (:meth:`Match.to_json`/:meth:`Match.from_json`, the format in
:mod:`spades.saveformat`) and copies are restored. The rules are the project's rules page,
``site/rules/en.html``.

Arguments are checked strictly: seats, dealers, scores and bags are real integers in
range (``True`` and ``1.0`` are refused), with :class:`~spades.IllegalAction` code
``bad_argument``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from typing import Any, Self

from . import saveformat
from .cards import ALL_CARD_INDEX, ALL_CARD_NAMES, SPADES, SUIT_SIZE, Rng, cards_of
from .errors import IllegalAction
from .legal import (
    BLIND_NIL,
    MAX_BID,
    MIN_BID,
    NIL,
    legal_bids,
    legal_mask,
    ranked_winner,
    refusal,
    trick_winner,
)
from .record import HandRecord
from .rules import Rules
from .safejson import excerpt
from .scoring import TeamScore, match_winner, score_team
from .start import ACTIONS_PER_HAND, SEAT_COUNT, MatchStart, check_deal, check_seat
from .view import BID, OVER, PLAY, SeatView, Trick

SEAT_NAMES = ("South", "West", "North", "East")
BLIND_CODE = -1  # a blind nil in the action log (``actions`` lists it as BLIND_NIL)
CARD_NAMES = ALL_CARD_NAMES


class Match:
    """A match of partnership Spades (rules variant 1.0.0: ``site/rules/en.html``).

    Seats 0–3 sit clockwise; team 0 is seats 0 and 2, team 1 seats 1 and 3. The
    seat to act is :attr:`to_act`; it calls :meth:`bid` or :meth:`play`. Anything
    the rules forbid raises :class:`~spades.IllegalAction` and changes nothing.

    >>> m = Match(seed=7)
    >>> m.phase, len(m.legal_bids())
    ('bid', 14)
    """

    def __init__(
        self,
        *,
        seed: int | str | None = None,
        dealer: int | None = None,
        deal: Sequence[Sequence[str]] | None = None,
        scores: Sequence[int] = (0, 0),
        bags: Sequence[int] = (0, 0),
        rules: Rules | str | dict | None = None,
    ) -> None:
        if seed is None:
            seed = int.from_bytes(os.urandom(8), "big")
        try:
            rng = Rng.from_seed(seed)
        except ValueError:
            raise IllegalAction(
                "bad_argument", f"A seed is a whole number or a text, not {excerpt(seed)}."
            ) from None
        rules = Rules.read(rules)
        masks = check_deal(deal, not rules.card_deck.standard) if deal is not None else None

        self._start = MatchStart(rng.state, dealer, masks, scores, bags, rules)  # type: ignore[arg-type]  # checked there
        self._reset()

    @classmethod
    def from_start(cls, start: MatchStart, actions: Iterable[int | str] = ()) -> Self:
        """The match that ``start`` and then ``actions`` (as :attr:`actions` lists them) give.

        Each action is checked by the rules as it is taken; a refused one raises
        :class:`~spades.IllegalAction`.
        """
        if not isinstance(start, MatchStart):
            raise IllegalAction(
                "bad_argument", f"A match starts from a MatchStart, not {excerpt(start)}."
            )
        match = cls.__new__(cls)
        match._start = start
        match._reset()
        for action in actions:
            match.act(action)
        return match

    # -- construction and replay ------------------------------------------------

    def _reset(self) -> None:
        """Put the match back at its start."""
        start = self._start
        self._rules = rules = start.rules
        deck = self._deckinfo = rules.card_deck
        self._cards = None if deck.standard else deck.cards
        # the play loop's tables, read once (1.0.0's are the standard deck's)
        self._suit_of, self._suit_masks, self._non_spades = (
            deck.suit_of,
            deck.suit_masks,
            deck.non_spades,
        )
        self._any_time = rules.spades_any_time
        self._ranked = None if deck.standard else deck.power
        self._rng = Rng(start.rng)
        self._dealer = self._rng.below(SEAT_COUNT) if start.dealer is None else start.dealer
        self._scores = list(start.scores)
        self._bags = list(start.bags)
        self._history: list[HandRecord] = []
        self._log: list[int] = []  # every action: a bid (0–13) or a card number, by phase
        self._winner: int | None = None
        self._begin_hand(start.deal if start.deal is not None else self._rng.deal(self._cards))

    def _begin_hand(self, hands: tuple[int, int, int, int]) -> None:
        """Start a hand with ``hands`` dealt: no bids yet, the dealer's left to bid."""
        self._dealt = hands
        self._hands = list(hands)
        self._bids: list[int | None] = [None, None, None, None]
        self._blind = [False, False, False, False]
        self._phase = BID
        self._to_act: int | None = (self._dealer + 1) % 4
        self._leader = self._to_act
        self._trick: list[int] = []
        self._tricks: list[Trick] = []
        self._won = [0, 0, 0, 0]
        self._broken = False

    # -- state ---------------------------------------------------------------------

    @property
    def start(self) -> MatchStart:
        """What the match started from (see :class:`MatchStart`)."""
        return self._start

    @property
    def rules(self) -> Rules:
        """The house rules of this match (:class:`~spades.Rules`; ``Rules()`` is variant 1.0.0)."""
        return self._rules

    @property
    def blind(self) -> tuple[bool, ...]:
        """Which of this hand's bids are blind nils, by seat."""
        return tuple(self._blind)

    @property
    def custom(self) -> bool:
        """Whether the match began from a custom position (a chosen deal or starting totals): see
        :attr:`MatchStart.custom`."""
        return self._start.custom

    @property
    def phase(self) -> str:
        """``"bid"``, ``"play"`` or ``"over"``."""
        return self._phase

    @property
    def to_act(self) -> int | None:
        """The seat whose turn it is, or ``None`` when the match is over."""
        return self._to_act

    @property
    def dealer(self) -> int:
        """The dealer of the current (or last) hand."""
        return self._dealer

    @property
    def scores(self) -> tuple[int, int]:
        """Team totals (team 0, team 1)."""
        return self._scores[0], self._scores[1]

    @property
    def bags(self) -> tuple[int, int]:
        """Each team's running bag count, kept apart from the score."""
        return self._bags[0], self._bags[1]

    @property
    def winner(self) -> int | None:
        """The winning team once the match is over, else ``None``."""
        return self._winner

    @property
    def hand_number(self) -> int:
        """Number of the current hand, from 1 (the last hand once the match is over)."""
        return len(self._history) + (self._phase != OVER)

    @property
    def bids(self) -> tuple[int | None, ...]:
        """This hand's bids by seat (``None`` for a seat yet to bid)."""
        return tuple(self._bids)

    @property
    def tricks_won(self) -> tuple[int, ...]:
        """Tricks each seat has won in this hand."""
        return tuple(self._won)

    @property
    def spades_broken(self) -> bool:
        """Whether a spade has been played in this hand."""
        return self._broken

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """This hand's completed tricks."""
        return tuple(self._tricks)

    @property
    def trick(self) -> Trick | None:
        """The trick in progress, or ``None`` if no card has been played to it yet."""
        if not self._trick:
            return None
        leader = self._leader
        return Trick(
            leader, tuple(((leader + i) % 4, CARD_NAMES[c]) for i, c in enumerate(self._trick))
        )

    @property
    def hands_played(self) -> tuple[HandRecord, ...]:
        """Every completed hand of the match, in order."""
        return tuple(self._history)

    @property
    def actions(self) -> list[int | str]:
        """Every action taken so far, in order: bids as integers, cards as names.

        Each hand is 4 bids then 52 cards, so position in the hand tells the kind.
        """
        return [
            (a if a != BLIND_CODE else BLIND_NIL)
            if i % ACTIONS_PER_HAND < SEAT_COUNT
            else CARD_NAMES[a]
            for i, a in enumerate(self._log)
        ]

    def hand(self, seat: int) -> list[str]:
        """The cards ``seat`` holds now (full knowledge: for tutorials and tests, not for bots)."""
        return cards_of(self._hands[check_seat(seat)])

    def dealt(self, seat: int) -> list[str]:
        """The cards ``seat`` was dealt in the current hand."""
        return cards_of(self._dealt[check_seat(seat)])

    @property
    def _seat(self) -> int:
        """The seat to act, in the bid and play phases (where there always is one)."""
        assert self._to_act is not None, "no seat acts once the match is over"
        return self._to_act

    def legal_bids(self) -> list[int | str]:
        """Bids open to the seat to act (0–13, fewer under some house rules, and
        :data:`~spades.legal.BLIND_NIL` when open), or an empty list outside bidding."""
        if self._phase != BID:
            return []
        return list(legal_bids(self._rules, self._seat, self._bids, self._blind, self._scores))

    def legal_cards(self) -> list[str]:
        """Cards the seat to act may play, or an empty list outside play."""
        if self._phase != PLAY:
            return []
        trick = self._trick
        return cards_of(
            legal_mask(
                self._hands[self._seat],
                self._suit_of[trick[0]] if trick else None,
                self._broken or self._any_time,
                self._suit_masks,
                self._non_spades,
            )
        )

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know now (its own hand and everything public)."""
        check_seat(seat)
        mine = self._to_act == seat
        return SeatView(
            seat=seat,
            phase=self._phase,
            hand_number=self.hand_number,
            dealer=self._dealer,
            to_act=self._to_act,
            hand=tuple(cards_of(self._hands[seat])),
            bids=tuple(self._bids),
            tricks=tuple(self._tricks),
            trick=self.trick,
            tricks_won=(self._won[0], self._won[1], self._won[2], self._won[3]),
            spades_broken=self._broken,
            scores=self.scores,
            bags=self.bags,
            legal_bids=tuple(self.legal_bids()) if mine else (),
            legal_cards=tuple(self.legal_cards()) if mine else (),
            rules=self._rules,
            blind=tuple(self._blind),
        )

    # -- actions --------------------------------------------------------------------

    def _check_turn(self, action: str, seat: int | None) -> int:
        """The seat that may take ``action`` (``bid`` or ``play``) now; refuses a wrong phase, a
        finished match or a wrong seat."""
        if self._phase == OVER:
            raise IllegalAction(
                "match_over", f"The match is over: team {self._winner} won, so no one may {action}."
            )
        if self._phase != action:
            doing = "bidding" if self._phase == BID else "playing cards"
            raise IllegalAction("wrong_phase", f"You may not {action} now: the table is {doing}.")
        to_act = self._seat
        if seat is not None and check_seat(seat) != to_act:
            raise IllegalAction(
                "not_your_turn",
                f"It is seat {to_act}'s turn ({SEAT_NAMES[to_act]}), not seat {seat}'s.",
            )
        return to_act

    def bid(self, n: int | str, *, seat: int | None = None) -> None:
        """Bid ``n`` tricks (0 = nil) for the seat to act; ``seat`` optionally names who is
        bidding."""
        to_act = self._check_turn(BID, seat)
        if n != BLIND_NIL and (
            isinstance(n, bool) or not isinstance(n, int) or not MIN_BID <= n <= MAX_BID
        ):
            raise IllegalAction(
                "bad_bid",
                f"A bid is a whole number of tricks from {MIN_BID} (nil) to {MAX_BID}, not "
                f"{excerpt(n)}.",
            )
        # every bid is checked against the rules in force, blind nil included: no shortcut
        allowed = legal_bids(self._rules, to_act, self._bids, self._blind, self._scores)
        if n not in allowed:
            raise IllegalAction(
                "bid_not_allowed",
                f"The house rules ({self._rules.to_text()}) do not allow the bid "
                f"{excerpt(n)} now; allowed: {', '.join(map(str, allowed))}.",
            )
        blind = isinstance(n, str)  # the one text bid is BLIND_NIL, checked above
        self._blind[to_act] = blind
        self._bids[to_act] = NIL if isinstance(n, str) else n
        self._log.append(BLIND_CODE if isinstance(n, str) else n)
        if to_act == self._dealer:  # the dealer bids last
            self._phase = PLAY
            self._to_act = self._leader
        else:
            self._to_act = (to_act + 1) % 4

    def play(self, card: str, *, seat: int | None = None) -> None:
        """Play ``card`` (e.g. ``"QH"``) for the seat to act; ``seat`` optionally names who is
        playing."""
        to_act = self._check_turn(PLAY, seat)
        c = ALL_CARD_INDEX.get(card) if isinstance(card, str) else None
        if c is None:
            raise IllegalAction(
                "bad_card", f"{excerpt(card)} is not a card: write rank then suit, e.g. AS, TD, 2C."
            )
        hand = self._hands[to_act]
        trick = self._trick
        suit_of = self._suit_of
        led = suit_of[trick[0]] if trick else None
        broken = self._broken or self._any_time
        if not legal_mask(hand, led, broken, self._suit_masks, self._non_spades) >> c & 1:
            found = refusal(hand, c, led, broken, self._deckinfo)
            assert found is not None, "refusal names why a card legal_mask refuses is refused"
            raise IllegalAction(*found)
        self._hands[to_act] = hand ^ (1 << c)
        trick.append(c)
        self._log.append(c)
        if suit_of[c] == SPADES:
            self._broken = True
        if len(trick) < SEAT_COUNT:
            self._to_act = (to_act + 1) % 4
        else:
            self._finish_trick()

    def act(self, action: int | str, *, seat: int | None = None) -> None:
        """Take ``action``: an integer (or :data:`~spades.legal.BLIND_NIL`) is a bid, a string is a
        card."""
        if isinstance(action, str) and action != BLIND_NIL:
            self.play(action, seat=seat)
        else:
            self.bid(action, seat=seat)

    def _finish_trick(self) -> None:
        """Four cards are down: the winner takes the trick and leads; the hand ends after the
        13th."""
        trick = self._trick
        leader = self._leader
        ranked = self._ranked
        winner = (
            leader
            + (
                trick_winner(trick)
                if ranked is None
                else ranked_winner(trick, self._suit_of, ranked)
            )
        ) % 4
        self._won[winner] += 1
        names = CARD_NAMES
        self._tricks.append(
            Trick(
                leader,
                (
                    (leader, names[trick[0]]),
                    ((leader + 1) % 4, names[trick[1]]),
                    ((leader + 2) % 4, names[trick[2]]),
                    ((leader + 3) % 4, names[trick[3]]),
                ),
                winner,
            )
        )
        self._trick = []
        self._leader = self._to_act = winner
        if len(self._tricks) == SUIT_SIZE:  # thirteen tricks to a hand
            self._finish_hand()

    def _finish_hand(self) -> None:
        """Score the hand, record it, and deal the next one unless the match is decided."""
        bids, won, blind, rules = self._bids, self._won, self._blind, self._rules
        made = [b for b in bids if b is not None]  # every seat has bid once a hand is scored

        def team_score(t: int) -> TeamScore:
            return score_team(
                t,
                (made[t], made[t + 2]),
                (won[t], won[t + 2]),
                self._scores[t],
                self._bags[t],
                rules,
                (blind[t], blind[t + 2]),
            )

        team_scores = (team_score(0), team_score(1))
        self._history.append(
            HandRecord(
                number=len(self._history) + 1,
                dealer=self._dealer,
                deal=tuple(tuple(cards_of(h)) for h in self._dealt),
                bids=(made[0], made[1], made[2], made[3]),
                tricks=tuple(self._tricks),
                scores=team_scores,
                blind=(blind[0], blind[1], blind[2], blind[3]),
            )
        )
        for t in (0, 1):
            self._scores[t] = team_scores[t].score_after
            self._bags[t] = team_scores[t].bags_after
        self._winner = match_winner(self.scores, rules.target, rules.floor)
        if self._winner is not None:
            self._phase = OVER
            self._to_act = None
        else:
            self._dealer = (self._dealer + 1) % 4
            self._begin_hand(self._rng.deal(self._cards))

    def undo(self, n: int = 1) -> None:
        """Take back the last ``n`` actions (across hands if need be) by replaying the rest."""
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= len(self._log):
            raise IllegalAction(
                "nothing_to_undo",
                f"Cannot take back {excerpt(n)} action(s): {len(self._log)} taken so far.",
            )
        keep = self._log[:-n]
        self._reset()
        for action in keep:
            if self._phase == BID:
                self.bid(BLIND_NIL if action == BLIND_CODE else action)
            else:
                self.play(CARD_NAMES[action])

    # -- comparison, copy --------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Match):
            return NotImplemented
        return self._start == other._start and self._log == other._log

    __hash__ = None  # type: ignore[assignment]  # unhashable: a match changes and compares by value

    def __repr__(self) -> str:
        return (
            f"<Match hand {self.hand_number} {self._phase} to_act={self._to_act} "
            f"scores={self.scores} bags={self.bags}>"
        )

    # -- saves ---------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The match as a JSON-ready dictionary (the save format: :mod:`spades.saveformat`)."""
        return saveformat.to_dict(self)

    def to_json(self) -> str:
        """The whole match as compact JSON text, for :meth:`from_json`."""
        return saveformat.dumps(self)

    @classmethod
    def from_dict(cls, data: Any) -> Self:
        """A match from :meth:`to_dict` data, checked by replay; raises :class:`~spades.BadSave` for
        anything else."""
        return saveformat.from_dict(data, cls)

    @classmethod
    def from_json(cls, text: str | bytes) -> Self:
        """A match from :meth:`to_json` text, checked by replay; raises :class:`~spades.BadSave` for
        anything else."""
        return saveformat.loads(text, cls)

    def copy(self) -> Match:
        """An independent copy of the match (same start, same actions)."""
        return Match.from_start(self._start, self.actions)
