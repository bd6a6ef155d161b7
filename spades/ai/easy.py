"""Easy: bids its aces and kings, always plays its lowest legal card."""
from __future__ import annotations

from ..cards import CARD_INDEX
from ..view import SeatView
from .base import Bot


def lowest(cards: tuple[str, ...] | list[str]) -> str:
    """The lowest card by rank; among equal ranks a non-spade before a spade."""
    return min(cards, key=lambda c: (CARD_INDEX[c] % 13, CARD_INDEX[c] // 13 == 3, CARD_INDEX[c]))


class EasyBot(Bot):
    """The beginner's table companion: simple, predictable, rarely clever."""

    level = "easy"

    def bid(self, view: SeatView) -> int:
        """One trick per ace and king held (at least one)."""
        return max(1, sum(c[0] in "AK" for c in view.hand))

    def play(self, view: SeatView) -> str:
        """The lowest legal card."""
        return lowest(view.legal_cards)
