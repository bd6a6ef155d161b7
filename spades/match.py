"""The match state machine: deal → bid → play 13 tricks → score → next deal … → over.

:class:`Match` checks every action against the rules (:mod:`spades.rules`) before it
changes anything, scores hands with :mod:`spades.scoring`, keeps the full history
of the match, and can take actions back. A match is fully determined by its start
(random state, first dealer, optional first deal, starting totals) and the list of
actions taken, which is what a save stores (:mod:`spades.save`).
"""
from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import CARD_INDEX, CARD_NAMES, FULL_DECK, Rng, cards_of, mask_of
from .errors import IllegalAction
from .rules import BIDS, MAX_BID, MIN_BID, legal_mask, refusal, trick_winner
from .scoring import TeamScore, match_winner, score_team
from .view import SeatView, Trick

BID = "bid"
PLAY = "play"
OVER = "over"
SEAT_NAMES = ("South", "West", "North", "East")


@dataclass(frozen=True, slots=True)
class HandRecord:
    """A completed hand: the deal, the bids, every trick and both teams' score breakdowns."""

    number: int
    dealer: int
    deal: tuple[tuple[str, ...], ...]      # four hands as dealt, indexed by seat
    bids: tuple[int, int, int, int]        # indexed by seat
    tricks: tuple[Trick, ...]              # the 13 tricks in order
    scores: tuple[TeamScore, TeamScore]    # per team

    @property
    def trick_winners(self) -> tuple[int, ...]:
        """The seat that won each of the 13 tricks, in order."""
        return tuple(t.winner for t in self.tricks)  # type: ignore[misc]

    @property
    def score_delta(self) -> tuple[int, int]:
        """Points each team gained or lost in this hand."""
        return self.scores[0].delta, self.scores[1].delta

    def to_dict(self) -> dict:
        """A JSON-ready dictionary (for tutorials, the bridge and the hand viewer)."""
        return {
            "number": self.number, "dealer": self.dealer,
            "deal": [list(h) for h in self.deal], "bids": list(self.bids),
            "tricks": [t.to_dict() for t in self.tricks],
            "scores": [s.to_dict() for s in self.scores],
        }


def _check_pair(name: str, value: Sequence[int], low: int | None = None, high: int | None = None) -> tuple[int, int]:
    if (not isinstance(value, (tuple, list)) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise ValueError(f"{name} must be two integers (team 0, team 1), not {value!r}")
    for v in value:
        if (low is not None and v < low) or (high is not None and v > high):
            raise ValueError(f"{name} must be between {low} and {high}, not {value!r}")
    return value[0], value[1]


def check_deal(deal: Sequence[Sequence[str]]) -> tuple[int, int, int, int]:
    """Card masks of a deal given as four lists of 13 card names; ``ValueError`` unless it holds 52 distinct cards."""
    if not isinstance(deal, (list, tuple)) or len(deal) != 4:
        raise ValueError("a deal is four hands (one list of card names per seat)")
    masks = []
    seen = 0
    for seat, hand in enumerate(deal):
        if not isinstance(hand, (list, tuple)) or len(hand) != 13:
            raise ValueError(f"seat {seat} must be dealt exactly 13 cards")
        mask = mask_of(hand)
        if mask.bit_count() != 13 or mask & seen:
            raise ValueError(f"seat {seat}'s cards repeat a card: a deal holds 52 distinct cards")
        seen |= mask
        masks.append(mask)
    assert seen == FULL_DECK
    return masks[0], masks[1], masks[2], masks[3]


class Match:
    """A match of partnership Spades (RULES.md, variant 1.0.0).

    Seats 0–3 sit clockwise; team 0 is seats 0 and 2, team 1 seats 1 and 3. The
    seat to act is :attr:`to_act`; it calls :meth:`bid` or :meth:`play`. Anything
    the rules forbid raises :class:`~spades.IllegalAction` and changes nothing.

    >>> m = Match(seed=7)
    >>> m.phase, len(m.legal_bids())
    ('bid', 14)
    """

    def __init__(self, *, seed: int | str | None = None, dealer: int | None = None,
                 deal: Sequence[Sequence[str]] | None = None,
                 scores: Sequence[int] = (0, 0), bags: Sequence[int] = (0, 0)) -> None:
        if seed is None:
            seed = int.from_bytes(os.urandom(8), "big")
        rng = Rng.from_seed(seed)
        if dealer is not None and (isinstance(dealer, bool) or dealer not in (0, 1, 2, 3)):
            raise ValueError(f"dealer must be a seat 0–3, not {dealer!r}")
        start_scores = _check_pair("scores", scores)
        if match_winner(start_scores) is not None:
            raise ValueError(f"starting scores {start_scores} would already end the match")
        start_bags = _check_pair("bags", bags, 0, 9)
        masks = check_deal(deal) if deal is not None else None
        self._start = (rng.state, dealer, masks, start_scores, start_bags)
        self._reset()

    # -- construction and replay ------------------------------------------------

    def _reset(self) -> None:
        """Put the match back at its start."""
        rng_state, dealer, masks, scores, bags = self._start
        self._rng = Rng(rng_state)
        self._dealer = self._rng.below(4) if dealer is None else dealer
        self._scores = list(scores)
        self._bags = list(bags)
        self._history: list[HandRecord] = []
        self._log: list[int] = []       # every action: a bid (0–13) or a card number, by phase
        self._winner: int | None = None
        self._begin_hand(masks if masks is not None else self._rng.deal())

    def _begin_hand(self, hands: tuple[int, int, int, int]) -> None:
        self._dealt = hands
        self._hands = list(hands)
        self._bids: list[int | None] = [None, None, None, None]
        self._phase = BID
        self._to_act: int | None = (self._dealer + 1) % 4
        self._leader = self._to_act
        self._trick: list[int] = []
        self._tricks: list[Trick] = []
        self._won = [0, 0, 0, 0]
        self._broken = False

    # -- state ---------------------------------------------------------------------

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
        return Trick(leader, tuple(((leader + i) % 4, CARD_NAMES[c]) for i, c in enumerate(self._trick)))

    @property
    def hands_played(self) -> tuple[HandRecord, ...]:
        """Every completed hand of the match, in order."""
        return tuple(self._history)

    @property
    def actions(self) -> list[int | str]:
        """Every action taken so far, in order: bids as integers, cards as names.

        Each hand is 4 bids then 52 cards, so position in the hand tells the kind.
        """
        return [a if i % 56 < 4 else CARD_NAMES[a] for i, a in enumerate(self._log)]

    def hand(self, seat: int) -> list[str]:
        """The cards ``seat`` holds now (full knowledge: for tutorials and tests, not for bots)."""
        return cards_of(self._hands[seat])

    def dealt(self, seat: int) -> list[str]:
        """The cards ``seat`` was dealt in the current hand."""
        return cards_of(self._dealt[seat])

    def legal_bids(self) -> list[int]:
        """Bids open to the seat to act (0–13), or an empty list outside bidding."""
        return list(BIDS) if self._phase == BID else []

    def legal_cards(self) -> list[str]:
        """Cards the seat to act may play, or an empty list outside play."""
        if self._phase != PLAY:
            return []
        trick = self._trick
        return cards_of(legal_mask(self._hands[self._to_act], trick[0] // 13 if trick else None, self._broken))

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know now (its own hand and everything public)."""
        if isinstance(seat, bool) or seat not in (0, 1, 2, 3):
            raise ValueError(f"a seat is 0–3, not {seat!r}")
        mine = self._to_act == seat
        return SeatView(
            seat=seat, phase=self._phase, hand_number=self.hand_number, dealer=self._dealer,
            to_act=self._to_act, hand=tuple(cards_of(self._hands[seat])), bids=tuple(self._bids),
            tricks=tuple(self._tricks), trick=self.trick, tricks_won=(self._won[0], self._won[1], self._won[2], self._won[3]),
            spades_broken=self._broken, scores=self.scores, bags=self.bags,
            legal_bids=tuple(self.legal_bids()) if mine else (),
            legal_cards=tuple(self.legal_cards()) if mine else ())

    # -- actions --------------------------------------------------------------------

    def _check_turn(self, action: str, seat: int | None) -> int:
        if self._phase == OVER:
            raise IllegalAction("match_over", f"The match is over: team {self._winner} won, so no one may {action}.")
        if self._phase != action:
            doing = "bidding" if self._phase == BID else "playing cards"
            raise IllegalAction("wrong_phase", f"You may not {action} now: the table is {doing}.")
        to_act = self._to_act
        if seat is not None and seat != to_act:
            raise IllegalAction("not_your_turn", f"It is seat {to_act}'s turn ({SEAT_NAMES[to_act]}), not seat {seat}'s.")
        return to_act  # type: ignore[return-value]

    def bid(self, n: int, *, seat: int | None = None) -> None:
        """Bid ``n`` tricks (0 = nil) for the seat to act; ``seat`` optionally names who is bidding."""
        to_act = self._check_turn(BID, seat)
        if isinstance(n, bool) or not isinstance(n, int) or not MIN_BID <= n <= MAX_BID:
            raise IllegalAction("bad_bid", f"A bid is a whole number of tricks from {MIN_BID} (nil) to {MAX_BID}, not {n!r}.")
        self._bids[to_act] = n
        self._log.append(n)
        if to_act == self._dealer:  # the dealer bids last
            self._phase = PLAY
            self._to_act = self._leader
        else:
            self._to_act = (to_act + 1) % 4

    def play(self, card: str, *, seat: int | None = None) -> None:
        """Play ``card`` (e.g. ``"QH"``) for the seat to act; ``seat`` optionally names who is playing."""
        to_act = self._check_turn(PLAY, seat)
        c = CARD_INDEX.get(card) if isinstance(card, str) else None
        if c is None:
            raise IllegalAction("bad_card", f"{card!r} is not a card: write rank then suit, e.g. AS, TD, 2C.")
        hand = self._hands[to_act]
        trick = self._trick
        led = trick[0] // 13 if trick else None
        if not legal_mask(hand, led, self._broken) >> c & 1:
            code, message = refusal(hand, c, led, self._broken)  # type: ignore[misc]
            raise IllegalAction(code, message)
        self._hands[to_act] = hand ^ (1 << c)
        trick.append(c)
        self._log.append(c)
        if c >= 39:
            self._broken = True
        if len(trick) < 4:
            self._to_act = (to_act + 1) % 4
        else:
            self._finish_trick()

    def act(self, action: int | str, *, seat: int | None = None) -> None:
        """Take ``action``: an integer is a bid, a string is a card."""
        if isinstance(action, str):
            self.play(action, seat=seat)
        else:
            self.bid(action, seat=seat)

    def _finish_trick(self) -> None:
        trick = self._trick
        leader = self._leader
        winner = (leader + trick_winner(trick)) % 4
        self._won[winner] += 1
        names = CARD_NAMES
        self._tricks.append(Trick(leader, (
            (leader, names[trick[0]]), ((leader + 1) % 4, names[trick[1]]),
            ((leader + 2) % 4, names[trick[2]]), ((leader + 3) % 4, names[trick[3]])), winner))
        self._trick = []
        self._leader = self._to_act = winner
        if len(self._tricks) == 13:
            self._finish_hand()

    def _finish_hand(self) -> None:
        bids, won = self._bids, self._won
        team_scores = tuple(
            score_team(t, (bids[t], bids[t + 2]), (won[t], won[t + 2]), self._scores[t], self._bags[t])  # type: ignore[arg-type]
            for t in (0, 1))
        self._history.append(HandRecord(
            number=len(self._history) + 1, dealer=self._dealer,
            deal=tuple(tuple(cards_of(h)) for h in self._dealt), bids=tuple(bids),  # type: ignore[arg-type]
            tricks=tuple(self._tricks), scores=team_scores))  # type: ignore[arg-type]
        for t in (0, 1):
            self._scores[t] = team_scores[t].score_after
            self._bags[t] = team_scores[t].bags_after
        self._winner = match_winner(self.scores)
        if self._winner is not None:
            self._phase = OVER
            self._to_act = None
        else:
            self._dealer = (self._dealer + 1) % 4
            self._begin_hand(self._rng.deal())

    def undo(self, n: int = 1) -> None:
        """Take back the last ``n`` actions (across hands if need be) by replaying the rest."""
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= len(self._log):
            raise IllegalAction("nothing_to_undo", f"Cannot take back {n!r} action(s): {len(self._log)} taken so far.")
        keep = self._log[:-n]
        self._reset()
        for action in keep:
            if self._phase == BID:
                self.bid(action)
            else:
                self.play(CARD_NAMES[action])

    # -- comparison, copy, saves ----------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Match):
            return NotImplemented
        return self._start == other._start and self._log == other._log

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"<Match hand {self.hand_number} {self._phase} to_act={self._to_act} "
                f"scores={self.scores} bags={self.bags}>")

    def copy(self) -> Match:
        """An independent copy of the match (same start, same actions)."""
        other = Match.__new__(Match)
        other._start = self._start
        other._reset()
        for action in self.actions:
            other.act(action)
        return other

    def to_json(self) -> str:
        """The whole match as JSON text (see :mod:`spades.save`)."""
        from .save import dumps
        return dumps(self)

    @classmethod
    def from_json(cls, text: str) -> Match:
        """A match from :meth:`to_json` text; raises :class:`~spades.BadSave` for anything else."""
        from .save import loads
        return loads(text)
