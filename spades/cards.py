"""Cards, notation and the deck.

A card is written rank then suit (``AS``, ``TD``, ``2C``). Inside the engine a
card is a small integer ``suit * 13 + rank`` (clubs 0, diamonds 1, hearts 2,
spades 3; rank 0 is the two, 12 the ace), and a set of cards is a 52-bit mask,
so that the inner loop of play and of the computer players' search is cheap.
Comparing two card numbers of one suit compares their ranks.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

RANKS = "23456789TJQKA"
SUITS = "CDHS"
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
SIDE_SUITS = (CLUBS, DIAMONDS, HEARTS)  # the three suits that are not trumps
#: Rank numbers of the honours (rank 0 is the two).
TEN, JACK, QUEEN, KING, ACE = range(8, 13)
SUIT_SIZE = len(RANKS)  # 13 cards to a suit, and to a hand
DECK_SIZE = SUIT_SIZE * len(SUITS)  # 52
#: Card numbers of the spades start here: ``card >= FIRST_SPADE`` means a spade.
FIRST_SPADE = SPADES * SUIT_SIZE
ACE_OF_SPADES = FIRST_SPADE + ACE

#: Card names in card-number order: ``CARD_NAMES[n]`` is the card numbered ``n``.
CARD_NAMES: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
#: Card number of each name.
CARD_INDEX: dict[str, int] = {name: i for i, name in enumerate(CARD_NAMES)}

#: The 13 bits of one suit, for the suit numbered 0 (shift by ``13 * suit``).
SUIT_BITS = (1 << SUIT_SIZE) - 1
SUIT_MASKS: tuple[int, ...] = tuple(SUIT_BITS << (SUIT_SIZE * s) for s in range(4))
SPADE_MASK = SUIT_MASKS[SPADES]
FULL_DECK = (1 << DECK_SIZE) - 1
NON_SPADES = FULL_DECK & ~SPADE_MASK
#: ``SUIT_OF[card]`` and ``RANK_OF[card]``: the suit (0–3) and rank (0 = two … 12 = ace)
#: of a card number. Tables rather than functions: the search reads them in its inner loop.
SUIT_OF: tuple[int, ...] = tuple(c // SUIT_SIZE for c in range(DECK_SIZE))
RANK_OF: tuple[int, ...] = tuple(c % SUIT_SIZE for c in range(DECK_SIZE))
#: ``ABOVE[card]``: the cards of ``card``'s suit that outrank it.
ABOVE: tuple[int, ...] = tuple(
    SUIT_MASKS[c // SUIT_SIZE] & ~((2 << c) - 1) for c in range(DECK_SIZE)
)

RANK_WORDS = (
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
    "ace",
)
SUIT_WORDS = ("clubs", "diamonds", "hearts", "spades")


#: The jokers of the house-rule decks (see :class:`Deck`): card numbers above the 52 standard cards.
LITTLE_JOKER, BIG_JOKER = DECK_SIZE, DECK_SIZE + 1
JOKER_NAMES = ("LJ", "BJ")
#: Names of every card number any deck uses (the 52 standard cards, then the jokers).
ALL_CARD_NAMES: tuple[str, ...] = CARD_NAMES + JOKER_NAMES
#: Card number of every name any deck uses.
ALL_CARD_INDEX: dict[str, int] = {name: i for i, name in enumerate(ALL_CARD_NAMES)}


def parse_card(text: str) -> int:
    """Card number of a card name such as ``"QH"``; raises ``ValueError`` if it is not one."""
    try:
        return CARD_INDEX[text]
    except (KeyError, TypeError):
        raise ValueError(f"{text!r} is not a card: write rank then suit, e.g. AS, TD, 2C") from None


def card_name(card: int) -> str:
    """Name of a card number (``51`` → ``"AS"``)."""
    return CARD_NAMES[card]


def long_name(card: str | int) -> str:
    """Plain-English name of a card, e.g. ``"queen of hearts"``."""
    n = ALL_CARD_INDEX.get(card, -1) if isinstance(card, str) else card
    if n < 0:
        parse_card(card)  # type: ignore[arg-type]  # refuses a bad int too
    if n == BIG_JOKER or text_is(card, "BJ"):
        return "big joker"
    if n == LITTLE_JOKER or text_is(card, "LJ"):
        return "little joker"
    return f"{RANK_WORDS[RANK_OF[n]]} of {SUIT_WORDS[SUIT_OF[n]]}"


def text_is(card: str | int, name: str) -> bool:
    """Whether ``card`` is the text ``name``."""
    return isinstance(card, str) and card == name


def mask_of(cards: Iterable[str], jokers: bool = False) -> int:
    """Bitmask of a collection of card names (``jokers``: ``LJ`` and ``BJ`` are cards too)."""
    mask = 0
    for name in cards:
        if jokers and name in ALL_CARD_INDEX:
            mask |= 1 << ALL_CARD_INDEX[name]
        else:
            mask |= 1 << parse_card(name)
    return mask


def cards_of(mask: int) -> list[str]:
    """Card names in a bitmask, in card-number order (by suit, then rank; the jokers last)."""
    names = ALL_CARD_NAMES
    out = []
    while mask:
        low = mask & -mask
        out.append(names[low.bit_length() - 1])
        mask ^= low
    return out


def numbers_of(mask: int) -> list[int]:
    """Card numbers in a bitmask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def lowest(mask: int) -> int:
    """Lowest-ranked card of a mask (-1 if empty); on equal rank the lowest suit, so a side card
    before a spade."""
    ranks = (
        mask | mask >> SUIT_SIZE | mask >> 2 * SUIT_SIZE | mask >> FIRST_SPADE
    ) & SUIT_BITS  # ranks held, any suit
    if not ranks:
        return -1
    r = (ranks & -ranks).bit_length() - 1
    while not mask >> r & 1:
        r += SUIT_SIZE
    return r


def highest(mask: int) -> int:
    """Highest-ranked card of a mask (-1 if empty); on equal rank the lowest suit, so a side card
    before a spade."""
    ranks = (
        mask | mask >> SUIT_SIZE | mask >> 2 * SUIT_SIZE | mask >> FIRST_SPADE
    ) & SUIT_BITS  # ranks held, any suit
    if not ranks:
        return -1
    r = ranks.bit_length() - 1
    while not mask >> r & 1:
        r += SUIT_SIZE
    return r


def suit_top(mask: int, suit: int) -> int:
    """Highest card of ``suit`` in a mask, or -1."""
    return (mask & SUIT_MASKS[suit]).bit_length() - 1


def sort_hand(cards: Iterable[str], deck: Deck | None = None) -> list[str]:
    """Cards sorted for display: spades, hearts, clubs, diamonds (colours alternate), high to low.

    With a house-rule ``deck`` each card sits in the suit it counts as, by its power there
    (the jokers and, in the deuces deck, 2♦ and 2♠ head the spades)."""
    order = {SPADES: 0, HEARTS: 1, CLUBS: 2, DIAMONDS: 3}
    if deck is not None:
        return sorted(
            cards,
            key=lambda c: (order[deck.suit_of[ALL_CARD_INDEX[c]]], -deck.power[ALL_CARD_INDEX[c]]),
        )
    return sorted(
        cards,
        key=lambda c: (
            (order[SUIT_OF[CARD_INDEX[c]]], -CARD_INDEX[c])
            if c in CARD_INDEX
            else (-1, -ALL_CARD_INDEX[c])
        ),
    )


STANDARD, JOKERS, DEUCES = "standard", "jokers", "deuces"
TWO_CLUBS, TWO_DIAMONDS, TWO_HEARTS, TWO_SPADES = (s * SUIT_SIZE for s in range(4))


@dataclass(frozen=True, slots=True)
class Deck:
    """One deck of 52 cards and how its cards rank: the standard deck or a house-rule deck.

    ``suit_of[c]`` is the suit card ``c`` counts as (the jokers, and the two of diamonds
    in the deuces deck, are spades); ``power[c]`` orders cards of one suit (higher wins);
    ``suit_masks`` are the cards of each suit as it counts. Tables, because the play loop reads
    them.
    """

    name: str
    cards: tuple[int, ...]
    mask: int
    suit_masks: tuple[int, int, int, int]
    non_spades: int
    suit_of: tuple[int, ...]
    power: tuple[int, ...]

    @property
    def standard(self) -> bool:
        """Whether this is the standard deck (the engine's fast paths)."""
        return self.name == STANDARD


def _deck(name: str, out: tuple[int, ...], spade_order: tuple[int, ...]) -> Deck:
    """A deck without the cards ``out``, whose spades rank low to high as ``spade_order``."""
    cards = tuple(
        c
        for c in range(DECK_SIZE + len(JOKER_NAMES))
        if c not in out and (c < DECK_SIZE or name != STANDARD)
    )
    suit_of = [c // SUIT_SIZE for c in range(DECK_SIZE)] + [SPADES] * len(JOKER_NAMES)
    power = list(range(DECK_SIZE + len(JOKER_NAMES)))
    for i, c in enumerate(spade_order):
        suit_of[c] = SPADES
        power[c] = FIRST_SPADE + i
    masks = [0, 0, 0, 0]
    for c in cards:
        masks[suit_of[c]] |= 1 << c
    mask = masks[0] | masks[1] | masks[2] | masks[3]
    return Deck(
        name,
        cards,
        mask,
        (masks[0], masks[1], masks[2], masks[3]),
        mask & ~masks[SPADES],
        tuple(suit_of),
        tuple(power),
    )


_PLAIN_SPADES = tuple(range(FIRST_SPADE, DECK_SIZE))
#: The three decks by name: standard; jokers (2♣ 2♦ out, BJ > LJ > A♠); deuces (2♣ 2♥ out,
#: BJ > LJ > 2♦ > 2♠ > A♠ … > 3♠, the 2♦ a spade).
DECKS: dict[str, Deck] = {
    STANDARD: _deck(STANDARD, (), _PLAIN_SPADES),
    JOKERS: _deck(JOKERS, (TWO_CLUBS, TWO_DIAMONDS), _PLAIN_SPADES + (LITTLE_JOKER, BIG_JOKER)),
    DEUCES: _deck(
        DEUCES,
        (TWO_CLUBS, TWO_HEARTS),
        _PLAIN_SPADES[1:] + (TWO_SPADES, TWO_DIAMONDS, LITTLE_JOKER, BIG_JOKER),
    ),
}

_MASK64 = (1 << 64) - 1


class Rng:
    """A tiny seeded generator (splitmix64) whose whole state is one integer.

    It gives the same numbers on every Python (CPython, Pyodide), and its state
    fits in a save file as a short hex string.
    """

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK64

    @classmethod
    def from_seed(cls, seed: int | str) -> Rng:
        """Generator for a seed: an integer, or any text (hashed with SHA-256)."""
        if isinstance(seed, bool) or not isinstance(seed, (int, str)):
            raise ValueError(f"a seed is an integer or a string, not {seed!r}")
        if isinstance(seed, str):
            seed = int.from_bytes(hashlib.sha256(seed.encode()).digest()[:8], "big")
        return cls(seed)

    def next64(self) -> int:
        """Next 64-bit output."""
        self.state = s = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in ``range(n)`` (rejection sampling, no modulo bias)."""
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def deal(self, cards: tuple[int, ...] | None = None) -> tuple[int, int, int, int]:
        """Shuffle a fresh deck (Fisher–Yates) and deal 13 cards to each seat, as masks.

        ``cards`` are the deck's 52 card numbers (a house-rule deck); the standard deck by default.
        """
        deck = list(range(52)) if cards is None else list(cards)
        for i in range(51, 0, -1):
            j = self.below(i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        hands = [0, 0, 0, 0]
        for i, card in enumerate(deck):
            hands[i % 4] |= 1 << card
        return hands[0], hands[1], hands[2], hands[3]
