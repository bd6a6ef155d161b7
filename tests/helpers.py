"""Shared builders for engine tests: deals made to order."""
from __future__ import annotations

from spades.cards import RANKS

SUIT_HANDS = {s: [r + s for r in RANKS] for s in "CDHS"}


def suit_deal(order: str = "SCDH") -> list[list[str]]:
    """Seat i holds all thirteen cards of suit ``order[i]``."""
    return [list(SUIT_HANDS[s]) for s in order]


def play_out(match, choose=lambda cards: cards[0]) -> None:
    """Play the current hand to its end, choosing a card from the legal ones."""
    hands = len(match.hands_played)
    while len(match.hands_played) == hands and match.phase == "play":
        match.play(choose(match.legal_cards()))
