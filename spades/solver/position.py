"""A position of the play for the double-dummy solver: its checks, its errors, its value type.

What the solver is asked about and answers with; the search itself is :mod:`spades.solver.search`.
Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import CARD_INDEX, FULL_DECK, SPADE_MASK, mask_of
from ..errors import SpadesError


class SolverError(SpadesError, ValueError):
    """A position that cannot occur. Codes: ``not_play_phase``, ``unsupported_rules``,
    ``card_twice``, ``wrong_counts``, ``bad_position``."""


class NotFinished(Exception):
    """The search ran past its deadline (the caller reports "not finished")."""


@dataclass(frozen=True, slots=True)
class CardValue:
    """The value of one card: further tricks (team 0, team 1) and the score margin for the acting
    team."""

    tricks: tuple[int, int]
    margin: int | None


@dataclass(frozen=True, slots=True)
class Position:
    """A moment of the play: the four hands (card masks by seat), the trick so far (card numbers),
    its leader, whether spades are broken, the bids, the tricks won so far by seat and the teams'
    starting bags. The tuples' lengths (four, four, four, two) are checked by :meth:`check`."""

    hands: tuple[int, ...]
    trick: tuple[int, ...]
    leader: int
    broken: bool
    bids: tuple[int, ...]
    won: tuple[int, ...] = (0, 0, 0, 0)
    bags: tuple[int, ...] = (0, 0)

    @property
    def to_act(self) -> int:
        """The seat whose card is next."""
        return (self.leader + len(self.trick)) % 4

    @classmethod
    def from_match(cls, match) -> Position:
        """The position of a match in the play phase."""
        if match.phase != "play":
            raise SolverError("not_play_phase", "Only a hand being played can be solved.")
        if not match.rules.default:
            raise SolverError(
                "unsupported_rules",
                "The solver knows the standard rules (1.0.0) only, not house rules.",
            )
        t = match.trick
        trick = tuple(CARD_INDEX[c] for c in t.cards) if t else ()
        leader = t.leader if t else match.to_act
        return cls(
            tuple(mask_of(match.hand(s)) for s in range(4)),
            trick,
            leader,
            match.spades_broken,
            tuple(match.bids),
            tuple(match.tricks_won),
            tuple(match.bags),
        )

    def check(self) -> None:
        """Refuse a position that cannot occur (raises :class:`SolverError`)."""
        if (
            self.leader not in (0, 1, 2, 3)
            or len(self.trick) > 3
            or len(self.bids) != 4
            or len(self.won) != 4
        ):
            raise SolverError(
                "bad_position",
                "A position has a leader 0–3, at most 3 cards on the table, four bids and four "
                "trick counts.",
            )
        seen = 0
        for m in (*self.hands, *(1 << c for c in self.trick)):
            if m & seen or not 0 <= m < 1 << 52:
                raise SolverError("card_twice", "A card appears twice (or is not a card).")
            seen |= m
        left = self.hands[(self.leader + len(self.trick)) % 4].bit_count()
        for i in range(4):
            need = left - (1 if i < len(self.trick) else 0)
            if self.hands[(self.leader + i) % 4].bit_count() != need:
                raise SolverError(
                    "wrong_counts",
                    "The hands do not hold the right number of cards for this trick.",
                )
        if left == 0 or sum(self.won) != 13 - left or min(self.won) < 0:
            raise SolverError("wrong_counts", "The tricks won do not match the cards left.")
        if any(not 0 <= b <= 13 for b in self.bids) or any(not 0 <= b <= 9 for b in self.bags):
            raise SolverError("bad_position", "Bids are 0–13 and starting bags 0–9.")
        played = ~(self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3]) & FULL_DECK
        if played & SPADE_MASK and not self.broken:
            raise SolverError("bad_position", "A spade has been played, so spades are broken.")
