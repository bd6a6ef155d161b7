"""A completed hand's record: the deal, bids, tricks and both teams' score breakdowns."""

from __future__ import annotations

from dataclasses import dataclass

from .scoring import TeamScore
from .view import Trick


@dataclass(frozen=True, slots=True)
class HandRecord:
    """A completed hand: the deal, the bids, every trick and both teams' score breakdowns."""

    number: int
    dealer: int
    deal: tuple[tuple[str, ...], ...]  # four hands as dealt, indexed by seat
    bids: tuple[int, int, int, int]  # indexed by seat
    tricks: tuple[Trick, ...]  # the 13 tricks in order
    scores: tuple[TeamScore, TeamScore]  # per team
    blind: tuple[bool, bool, bool, bool] = (False, False, False, False)  # which nils were blind

    @property
    def trick_winners(self) -> tuple[int, ...]:
        """The seat that won each of the 13 tricks, in order."""
        return tuple(t.winner for t in self.tricks)  # type: ignore[misc]  # all tricks complete

    @property
    def score_delta(self) -> tuple[int, int]:
        """Points each team gained or lost in this hand."""
        return self.scores[0].delta, self.scores[1].delta

    def to_dict(self) -> dict:
        """A JSON-ready dictionary (for tutorials, the bridge and the hand viewer)."""
        return {
            "number": self.number,
            "dealer": self.dealer,
            "deal": [list(h) for h in self.deal],
            "bids": list(self.bids),
            "tricks": [t.to_dict() for t in self.tricks],
            "scores": [s.to_dict() for s in self.scores],
        } | ({"blind": list(self.blind)} if any(self.blind) else {})
