"""Easy: bids its aces and kings, always plays its lowest legal card."""

from __future__ import annotations

from ..cards import CARD_NAMES, lowest, mask_of
from ..view import SeatView
from .base import Bot
from .explain import Explanation, reason

HIGH_RANKS = "AK"


class EasyBot(Bot):
    """The beginner's table companion: simple, predictable, rarely clever."""

    level = "easy"
    blind_nil = False  # a beginner's companion never gambles blind

    def explain_bid(self, view: SeatView) -> Explanation:
        """One trick per ace and king held (at least one)."""
        high = [c for c in view.hand if c[0] in HIGH_RANKS]
        bid = max(1, len(high))
        return Explanation(bid, reason("bid.easy", bid=bid, cards=high))

    def explain_play(self, view: SeatView) -> Explanation:
        """The lowest legal card."""
        card = CARD_NAMES[lowest(mask_of(view.legal_cards))]
        return Explanation(card, reason("play.lowest", card=card))
