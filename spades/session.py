"""One match with its human seat and computer players (work in progress: see below)."""
from __future__ import annotations

from .cards import CARD_INDEX, mask_of
from .match import OVER, PLAY
from .rules import refusal
from .view import SeatView


def refusal_code(view: SeatView, card: object) -> str | None:
    """Why the seat of ``view`` may not play ``card`` now (an ``IllegalAction`` code), or ``None``.

    Checked in the order the human's ``play`` checks: the match is over, not this seat's
    turn, not the play phase, not a card, then the rules (not held, spades not broken,
    must follow suit). A pure function of the view: nothing is played.
    """
    if view.phase == OVER:
        return "match_over"
    if view.to_act != view.seat:
        return "not_your_turn"
    if view.phase != PLAY:
        return "wrong_phase"
    c = CARD_INDEX.get(card) if isinstance(card, str) else None
    if c is None:
        return "bad_card"
    led = CARD_INDEX[view.trick.plays[0][1]] // 13 if view.trick else None
    found = refusal(mask_of(view.hand), c, led, view.spades_broken)
    return found[0] if found else None
