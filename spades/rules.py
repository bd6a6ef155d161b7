"""Legal bids and cards, and who wins a trick: pure functions over card masks.

The rules are the project's rules page, ``site/rules/en.html`` (sections "Bidding",
"Play" and "Breaking spades": following suit, trumps, leading spades).
"""
from __future__ import annotations

from collections.abc import Sequence

from .cards import (ALL_CARD_NAMES, DECKS, FIRST_SPADE, NON_SPADES, SPADES, STANDARD, SUIT_MASKS, SUIT_OF,
                    SUIT_WORDS, Deck)
from .variant import BIDS, MAX_BID, MIN_BID, NIL  # noqa: F401  (the bids, defined with the rules' options)


def legal_mask(hand: int, led_suit: int | None, spades_broken: bool,
               suit_masks: tuple[int, ...] = SUIT_MASKS, non_spades: int = NON_SPADES) -> int:
    """The cards of ``hand`` that may be played.

    ``led_suit`` is the suit led to the current trick, or ``None`` when this
    player leads. A follower must follow suit if able; a leader may lead a spade
    only once spades are broken or when holding nothing but spades. A house-rule
    deck passes its own ``suit_masks`` and ``non_spades`` (:class:`~spades.cards.Deck`).
    """
    if led_suit is None:
        if spades_broken or not hand & non_spades:
            return hand
        return hand & non_spades
    return hand & suit_masks[led_suit] or hand


def refusal(hand: int, card: int, led_suit: int | None, spades_broken: bool,
            deck: Deck = DECKS[STANDARD]) -> tuple[str, str] | None:
    """Why ``card`` may not be played from ``hand`` (a stable code and a message), or ``None`` if it may."""
    name = ALL_CARD_NAMES[card]
    if not hand >> card & 1:
        return "not_in_hand", f"{name} is not in your hand."
    suit = deck.suit_of[card]
    if led_suit is None:
        if suit == SPADES and not spades_broken and hand & deck.non_spades:
            return ("spades_not_broken",
                    f"You may not lead {name}: spades can be led only after a spade has been "
                    "played to an earlier trick, or when you hold nothing but spades.")
        return None
    if suit != led_suit and hand & deck.suit_masks[led_suit]:
        return ("must_follow_suit",
                f"You must follow suit: {SUIT_WORDS[led_suit]} were led and you hold "
                f"{SUIT_WORDS[led_suit]}, so {name} may not be played.")
    return None


def trick_winner(cards: Sequence[int]) -> int:
    """Position (0–3, in play order) of the card that wins a trick.

    The highest spade wins; without a spade, the highest card of the suit led.
    """
    best = cards[0]
    suit = SUIT_OF[best]
    at = i = 0
    for c in cards:
        if SUIT_OF[c] == suit:
            if c > best:
                best, at = c, i
        elif c >= FIRST_SPADE:  # a spade beats any other suit
            best, at, suit = c, i, SPADES
        i += 1
    return at


def ranked_winner(cards: Sequence[int], suit_of: Sequence[int], power: Sequence[int]) -> int:
    """:func:`trick_winner` for a house-rule deck: suits from ``suit_of``, order from ``power``."""
    best = cards[0]
    suit = suit_of[best]
    top = power[best]
    at = i = 0
    for c in cards:
        s = suit_of[c]
        if s == suit:
            if power[c] > top:
                top, at = power[c], i
        elif s == SPADES:
            top, at, suit = power[c], i, SPADES
        i += 1
    return at
