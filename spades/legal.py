"""The rules of play: legal bids and cards, and who wins a trick. Pure functions over card masks.

The rules are the project's rules page, ``site/rules/en.html`` (sections "Bidding",
"Play" and "Breaking spades": following suit, trumps, leading spades). Named "legal"
rather than "rules" because :class:`~spades.rules.Rules` is the house-rule options a
match is played with; the functions here take those options where they matter.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import (
    ALL_CARD_NAMES,
    DECKS,
    FIRST_SPADE,
    NON_SPADES,
    SPADES,
    STANDARD,
    SUIT_MASKS,
    SUIT_OF,
    SUIT_SIZE,
    SUIT_WORDS,
    Deck,
)
from .rules import Rules

NIL = 0  # the bid of no tricks at all
MIN_BID = NIL
MAX_BID = SUIT_SIZE  # all thirteen tricks
#: Every bid is open to every player: 0 (nil) to 13 tricks.
BIDS: tuple[int, ...] = tuple(range(MIN_BID, MAX_BID + 1))
# : The bid action of a blind nil (in ``Match.bid``, saves, :func:`legal_bids`); scored as a nil
# worth
#: :data:`~spades.rules.BLIND_NIL_POINTS`, its tricks bags like a nil's.
BLIND_NIL = "blind"
SUICIDE_PARTNER_MIN = 4  # under suicide the nil bidder's partner bids at least this


def legal_mask(
    hand: int,
    led_suit: int | None,
    spades_broken: bool,
    suit_masks: tuple[int, ...] = SUIT_MASKS,
    non_spades: int = NON_SPADES,
) -> int:
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


def refusal(
    hand: int, card: int, led_suit: int | None, spades_broken: bool, deck: Deck = DECKS[STANDARD]
) -> tuple[str, str] | None:
    """Why ``card`` may not be played from ``hand`` (a stable code and a message), or ``None`` if it
    may."""
    name = ALL_CARD_NAMES[card]
    if not hand >> card & 1:
        return "not_in_hand", f"{name} is not in your hand."
    suit = deck.suit_of[card]
    if led_suit is None:
        if suit == SPADES and not spades_broken and hand & deck.non_spades:
            return (
                "spades_not_broken",
                f"You may not lead {name}: spades can be led only after a spade has been "
                "played to an earlier trick, or when you hold nothing but spades.",
            )
        return None
    if suit != led_suit and hand & deck.suit_masks[led_suit]:
        return (
            "must_follow_suit",
            f"You must follow suit: {SUIT_WORDS[led_suit]} were led and you hold "
            f"{SUIT_WORDS[led_suit]}, so {name} may not be played.",
        )
    return None


def trick_winner(cards: Sequence[int]) -> int:
    """Position (0–3, in play order) of the card that wins a trick.

    The highest spade wins; without a spade, the highest card of the suit led.
    """
    best = cards[0]
    suit = SUIT_OF[best]
    at = 0
    for i, c in enumerate(cards):
        if SUIT_OF[c] == suit:
            if c > best:
                best, at = c, i
        elif c >= FIRST_SPADE:  # a spade beats any other suit
            best, at, suit = c, i, SPADES
    return at


def ranked_winner(cards: Sequence[int], suit_of: Sequence[int], power: Sequence[int]) -> int:
    """:func:`trick_winner` for a house-rule deck: suits from ``suit_of``, order from ``power``."""
    best = cards[0]
    suit = suit_of[best]
    top = power[best]
    at = 0
    for i, c in enumerate(cards):
        s = suit_of[c]
        if s == suit:
            if power[c] > top:
                top, at = power[c], i
        elif s == SPADES:
            top, at, suit = power[c], i, SPADES
    return at


# -- bidding --------------------------------------------------------------------------------


def blind_nil_open(
    rules: Rules,
    seat: int,
    bids: Sequence[int | None],
    blind: Sequence[bool],
    scores: Sequence[int],
) -> bool:
    """Whether ``seat`` may bid blind nil now: the option is on, its partner has not, and its
    team trails by at least ``rules.blind_nil_trail`` points."""
    if not rules.blind_nil or blind[(seat + 2) % 4]:
        return False
    team = seat % 2
    return scores[1 - team] - scores[team] >= rules.blind_nil_trail


def legal_bids(
    rules: Rules,
    seat: int,
    bids: Sequence[int | None],
    blind: Sequence[bool],
    scores: Sequence[int],
) -> tuple[int | str, ...]:
    """Bids open to ``seat`` (0–13, and :data:`BLIND_NIL` when open), given the bids so far.

    Suicide: the first of the partners to bid chooses nil or 4+, the second must bid the
    other. A minimum team bid: the second partner must bring the team's contract (its
    non-nil bids) to the minimum. Blind nil counts as a nil for both.
    """
    partner = bids[(seat + 2) % 4]
    nil_ok = True
    if rules.suicide:
        if partner is None:
            out: tuple[int, ...] = (NIL,) + tuple(range(SUICIDE_PARTNER_MIN, MAX_BID + 1))
        elif partner == NIL:
            out, nil_ok = tuple(range(SUICIDE_PARTNER_MIN, MAX_BID + 1)), False
        else:
            out = (NIL,)
    elif partner is None or not rules.min_team_bid:
        out = BIDS
    else:
        need = rules.min_team_bid - partner
        nil_ok = need <= 0
        out = tuple(b for b in BIDS if b >= need and (b or nil_ok))
    if nil_ok and blind_nil_open(rules, seat, bids, blind, scores):
        return out + (BLIND_NIL,)
    return out
