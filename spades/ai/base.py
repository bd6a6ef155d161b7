"""The bot interface: a bot decides from one seat's view and the legal actions in it, and says why.

A bot never sees the match: :meth:`Bot.choose` gets a :class:`~spades.SeatView`,
which holds that seat's hand, everything public and the legal actions. Decisions
are deterministic for a given bot seed and view: the random generator a bot uses
for one decision is derived from its seed and the public position, so taking an
action back and asking again gives the same answer.
"""

from __future__ import annotations

import random
import zlib

from ..view import SeatView
from .explain import Explanation
from .house import adjust_bid, blind_choice, legal_or_lowest, proxy, unproxy


class Bot:
    """Base class of the computer players; subclasses define :meth:`explain_bid` and
    :meth:`explain_play`.

    :meth:`choose` is :meth:`explain`'s action: one code path decides and gives the reason.
    """

    level = "base"
    #: Whether this level ever bids blind nil (see :func:`spades.ai.house.blind_choice`).
    blind_nil = True

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: SeatView) -> int | str:
        """The bot's action for ``view``: a bid (int) in bidding, a card name in play."""
        return self.explain(view).action

    def explain(self, view: SeatView) -> Explanation:
        """The bot's action for ``view`` with the reason that chose it (the one decision path)."""
        if view.to_act != view.seat:
            raise ValueError(f"seat {view.seat} is not to act")
        if view.rules.default:
            return self.explain_bid(view) if view.phase == "bid" else self.explain_play(view)
        if view.phase == "bid":  # house rules: see spades.ai.house
            return (self.blind_nil and blind_choice(view)) or adjust_bid(
                view, unproxy(view, self.explain_bid(proxy(view)))
            )
        return legal_or_lowest(view, unproxy(view, self.explain_play(proxy(view))))

    def explain_bid(self, view: SeatView) -> Explanation:
        """A bid, 0–13 (0 = nil), with its reason."""
        raise NotImplementedError

    def explain_play(self, view: SeatView) -> Explanation:
        """One of ``view.legal_cards``, with its reason."""
        raise NotImplementedError

    def rng(self, view: SeatView) -> random.Random:
        """A generator for this decision, from the seed and the public position only."""
        parts = (self.seed, view.seat, view.hand_number, view.scores, len(view.played), view.bids)
        key = "|".join(map(str, parts))
        return random.Random(zlib.crc32(key.encode()))

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed})"
