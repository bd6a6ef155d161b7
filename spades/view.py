"""What one seat may know: its own hand and everything public, nothing more.

See the rules page, ``site/rules/en.html`` ("Computer players": what they may know).
A :class:`SeatView` is a frozen snapshot built by the match; it holds no reference to
the match or to other hands.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import ALL_CARD_INDEX
from .rules import DEFAULT, Rules

#: The phases of a match (``Match.phase``, ``SeatView.phase``): bidding, playing cards, over.
BID = "bid"
PLAY = "play"
OVER = "over"


@dataclass(frozen=True, slots=True)
class Trick:
    """One trick: who led, the cards in play order with their seats, and (once complete) the
    winner."""

    leader: int
    plays: tuple[tuple[int, str], ...]
    winner: int | None = None

    @property
    def cards(self) -> tuple[str, ...]:
        """The cards in play order."""
        return tuple(card for _, card in self.plays)

    def to_dict(self) -> dict:
        """A JSON-ready dictionary."""
        return {
            "leader": self.leader,
            "plays": [[s, c] for s, c in self.plays],
            "winner": self.winner,
        }


@dataclass(frozen=True, slots=True)
class SeatView:
    """The information set of ``seat`` at one moment of the match."""

    seat: int
    phase: str  # "bid", "play" or "over"
    hand_number: int  # 1 for the first hand of the match
    dealer: int
    to_act: int | None
    hand: tuple[str, ...]  # this seat's cards, in card-number order
    bids: tuple[int | None, ...]  # per seat; None = not bid yet
    tricks: tuple[Trick, ...]  # completed tricks of this hand
    trick: Trick | None  # the trick in progress (None between tricks)
    tricks_won: tuple[int, int, int, int]  # per seat, this hand
    spades_broken: bool
    scores: tuple[int, int]
    bags: tuple[int, int]
    legal_bids: tuple[int | str, ...]  # empty unless it is this seat's turn to bid
    legal_cards: tuple[str, ...]  # empty unless it is this seat's turn to play
    rules: Rules = DEFAULT  # the match's house rules
    blind: tuple[bool, ...] = (False, False, False, False)  # which nil bids (0) are blind nils

    @property
    def team(self) -> int:
        """This seat's team (0 for seats 0 and 2, 1 for seats 1 and 3)."""
        return self.seat % 2

    @property
    def partner(self) -> int:
        """The partner's seat, opposite."""
        return (self.seat + 2) % 4

    @property
    def hand_mask(self) -> int:
        """This seat's hand as a card bitmask (see :mod:`spades.cards`)."""
        mask = 0
        for c in self.hand:
            mask |= 1 << ALL_CARD_INDEX[c]
        return mask

    @property
    def played(self) -> tuple[tuple[int, str], ...]:
        """Every card played in this hand so far, as ``(seat, card)`` in order."""
        plays = [p for t in self.tricks for p in t.plays]
        if self.trick is not None:
            plays.extend(self.trick.plays)
        return tuple(plays)

    def to_dict(self) -> dict:
        """A JSON-ready dictionary."""
        return {
            "seat": self.seat,
            "phase": self.phase,
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "to_act": self.to_act,
            "hand": list(self.hand),
            "bids": list(self.bids),
            "tricks": [t.to_dict() for t in self.tricks],
            "trick": self.trick.to_dict() if self.trick else None,
            "tricks_won": list(self.tricks_won),
            "spades_broken": self.spades_broken,
            "scores": list(self.scores),
            "bags": list(self.bags),
            "legal_bids": list(self.legal_bids),
            "legal_cards": list(self.legal_cards),
        } | (
            {} if self.rules.default else {"rules": self.rules.to_dict(), "blind": list(self.blind)}
        )
