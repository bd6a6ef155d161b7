"""Easy: bids its aces and kings, always plays its lowest legal card."""
from __future__ import annotations

from ..cards import CARD_NAMES, lowest, mask_of
from ..view import SeatView
from .base import Bot


class EasyBot(Bot):
    """The beginner's table companion: simple, predictable, rarely clever."""

    level = "easy"

    def bid(self, view: SeatView) -> int:
        """One trick per ace and king held (at least one)."""
        return max(1, sum(c[0] in "AK" for c in view.hand))

    def play(self, view: SeatView) -> str:
        """The lowest legal card."""
        return CARD_NAMES[lowest(mask_of(view.legal_cards))]
