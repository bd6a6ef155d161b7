"""Where a match starts from, and the strict checks on every number given to the engine.

A :class:`MatchStart` (random state, first dealer, optional first deal, starting totals)
and the list of actions taken determine a whole match (see :meth:`spades.Match.from_start`).
Seats, dealers, scores and bags must be real integers in range: ``True`` and ``1.0`` are
refused like ``5``, with :class:`~spades.IllegalAction` code ``bad_argument``, and no
message quotes more than a short excerpt of what it refuses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import DECK_SIZE, SUIT_SIZE, mask_of
from .errors import IllegalAction
from .rules import DEFAULT, Rules
from .safejson import excerpt
from .scoring import match_winner

# : The seats, clockwise: team 0 is seats 0 and 2, team 1 seats 1 and 3 (names:
# ``Match.SEAT_NAMES``).
SEATS: tuple[int, ...] = (0, 1, 2, 3)
SEAT_COUNT = len(SEATS)
#: Each hand is four bids, then the 52 cards: the position of an action in its hand tells its kind.
ACTIONS_PER_HAND = SEAT_COUNT + DECK_SIZE
#: Largest starting total (either sign) a match accepts: far beyond any real match, and it keeps
#: every number a save holds short.
SCORE_LIMIT = 100_000
MAX_BAGS = 9  # a tenth bag is a penalty at once, so a running count stays below ten
RNG_STATES = 1 << 64  # the random state is a 64-bit number


def _whole(value: Any, what: str, low: int, high: int) -> int:
    """``value`` if it is a real integer (not a bool or a float) from ``low`` to ``high``."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise IllegalAction(
            "bad_argument",
            f"{what} must be a whole number from {low:,} to {high:,}, not {excerpt(value)}.",
        )
    return value


def check_seat(seat: Any, what: str = "a seat") -> int:
    """``seat`` if it is a seat number 0–3, else :class:`~spades.IllegalAction` ``bad_argument``."""
    return _whole(seat, what, 0, SEAT_COUNT - 1)


def _pair(value: Any, what: str, low: int, high: int) -> tuple[int, int]:
    """A team pair of whole numbers ``low``–``high`` (scores, bags), else ``bad_argument``."""
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        raise IllegalAction(
            "bad_argument",
            f"{what} must be two whole numbers (team 0, team 1), not {excerpt(value)}.",
        )
    return _whole(value[0], what, low, high), _whole(value[1], what, low, high)


def check_deal(deal: Any, jokers: bool = False) -> tuple[int, int, int, int]:
    """Card masks of a deal given as four lists of 13 card names; ``bad_argument`` unless it holds
    52 distinct cards.

    ``jokers``: ``LJ`` and ``BJ`` are cards too (whether the deck holds them is
    :class:`MatchStart`'s check).
    """
    if not isinstance(deal, (list, tuple)) or len(deal) != SEAT_COUNT:
        raise IllegalAction(
            "bad_argument", "A deal is four hands (one list of card names per seat)."
        )
    masks = []
    seen = 0
    for seat, hand in enumerate(deal):
        if not isinstance(hand, (list, tuple)) or len(hand) != SUIT_SIZE:
            raise IllegalAction("bad_argument", f"Seat {seat} must be dealt exactly 13 cards.")
        try:
            mask = mask_of(hand, jokers)
        except ValueError:
            raise IllegalAction(
                "bad_argument", f"Seat {seat}'s hand holds something that is not a card."
            ) from None
        if mask.bit_count() != SUIT_SIZE or mask & seen:
            raise IllegalAction(
                "bad_argument",
                f"Seat {seat}'s cards repeat a card: a deal holds 52 distinct cards.",
            )
        seen |= mask
        masks.append(mask)
    return masks[0], masks[1], masks[2], masks[3]


@dataclass(frozen=True, slots=True)
class MatchStart:
    """Everything a match starts from; with the actions taken it determines the whole match.

    ``rng`` is the random state (a seed: ``Match(seed=n)`` for a whole number ``n`` starts
    from ``n mod 2**64``, a text seed from its hash). ``dealer`` is the first dealer, or
    ``None`` to draw it from the random state as the rules say. ``deal`` is a first deal
    (four card masks) or ``None`` for a fresh shuffle. ``scores`` and ``bags`` are the
    starting totals. ``rules`` are the house rules (:class:`~spades.Rules`; 1.0.0 by default),
    which decide the deck a deal must hold. Invalid values raise :class:`~spades.IllegalAction`
    ``bad_argument``.
    """

    rng: int
    dealer: int | None = None
    deal: tuple[int, int, int, int] | None = None
    scores: tuple[int, int] = (0, 0)
    bags: tuple[int, int] = (0, 0)
    rules: Rules = DEFAULT

    def __post_init__(self) -> None:
        if not isinstance(self.rules, Rules):
            raise IllegalAction(
                "bad_argument", f"The rules are a Rules description, not {excerpt(self.rules)}."
            )
        deck = self.rules.card_deck.mask
        _whole(self.rng, "the random state", 0, RNG_STATES - 1)
        if self.dealer is not None:
            check_seat(self.dealer, "the dealer")
        if self.deal is not None:
            masks = self.deal
            if (
                not isinstance(masks, tuple)
                or len(masks) != SEAT_COUNT
                or any(
                    isinstance(m, bool) or not isinstance(m, int) or m.bit_count() != SUIT_SIZE
                    for m in masks
                )
                or masks[0] | masks[1] | masks[2] | masks[3] != deck
            ):
                raise IllegalAction(
                    "bad_argument",
                    "A deal is four masks of 13 distinct cards of the rules' deck (see "
                    "check_deal).",
                )
        scores = _pair(self.scores, "a starting score", -SCORE_LIMIT, SCORE_LIMIT)
        if match_winner(scores, self.rules.target, self.rules.floor) is not None:
            raise IllegalAction(
                "bad_argument",
                f"Starting scores {scores[0]} and {scores[1]} would already end the match.",
            )
        object.__setattr__(self, "scores", scores)
        most = self.rules.bag_limit - 1 if self.rules.bag_limit else SCORE_LIMIT
        object.__setattr__(self, "bags", _pair(self.bags, "a starting bag count", 0, most))

    @property
    def custom(self) -> bool:
        """Whether this is a custom position: a chosen first deal, or starting totals other than 0
        and 0.

        A start that is not custom is a fresh shuffle of its own random state from nothing,
        as any new match is; the first dealer may be chosen without making it custom.
        """
        return self.deal is not None or self.scores != (0, 0) or self.bags != (0, 0)
