"""The bot interface: a bot decides from one seat's view and the legal actions in it.

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


class Bot:
    """Base class of the computer players; subclasses define :meth:`bid` and :meth:`play`."""

    level = "base"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: SeatView) -> int | str:
        """The bot's action for ``view``: a bid (int) in bidding, a card name in play."""
        if view.to_act != view.seat:
            raise ValueError(f"seat {view.seat} is not to act")
        return self.bid(view) if view.phase == "bid" else self.play(view)

    def bid(self, view: SeatView) -> int:
        """A bid, 0–13 (0 = nil)."""
        raise NotImplementedError

    def play(self, view: SeatView) -> str:
        """One of ``view.legal_cards``."""
        raise NotImplementedError

    def rng(self, view: SeatView) -> random.Random:
        """A generator for this decision, from the seed and the public position only."""
        key = f"{self.seed}|{view.seat}|{view.hand_number}|{view.scores}|{len(view.played)}|{view.bids}"
        return random.Random(zlib.crc32(key.encode()))

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed})"
