"""Card tracking from one seat's view: what is played, what is still out, who is void.

Everything here is derived from a :class:`~spades.SeatView` only (public plays,
bids and the seat's own hand), so it never leaks hidden information.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import ABOVE, CARD_INDEX, FULL_DECK, SIDE_SUITS, SPADES, SUIT_MASKS, SUIT_OF, SUIT_SIZE
from ..view import SeatView


@dataclass(slots=True)
class Tracker:
    """Public knowledge of a hand in progress, as card masks, from ``seat``'s point of view."""

    seat: int
    hand: int  # the seat's own cards now
    played: int  # every card played so far (this trick included)
    played_by: list[int]  # per seat: cards that seat has played
    voids: list[int]  # per seat: bit s set when the seat has shown a void in suit s
    counts: list[int]  # per seat: cards it still holds
    trick: list[int]  # cards of the trick in progress, in play order
    leader: int  # who led (or leads) the trick in progress
    broken: bool
    bids: tuple[int, ...]  # per seat, -1 before its bid
    won: list[int]  # tricks won per seat this hand
    tricks_done: int

    @property
    def unseen(self) -> int:
        """Cards held by the other three seats (not ours, not played)."""
        return FULL_DECK & ~self.played & ~self.hand

    def outstanding_above(self, card: int) -> int:
        """Unseen cards of ``card``'s suit ranking above it."""
        return self.unseen & ABOVE[card]

    def may_hold(self, seat: int) -> int:
        """Unseen cards that ``seat`` could still hold, given its shown voids."""
        if seat == self.seat:
            return self.hand
        mask = self.unseen
        v = self.voids[seat]
        for s in range(4):
            if v >> s & 1:
                mask &= ~SUIT_MASKS[s]
        return mask


def track(view: SeatView) -> Tracker:
    """Build the :class:`Tracker` for ``view`` (voids from failures to follow suit and forced spade
    leads)."""
    played = 0
    played_by = [0, 0, 0, 0]
    voids = [0, 0, 0, 0]
    broken = False
    tricks = list(view.tricks)
    if view.trick is not None:
        tricks.append(view.trick)
    for t in tricks:
        led = -1  # the suit led, from the trick's first card
        for i, (seat, name) in enumerate(t.plays):
            c = CARD_INDEX[name]
            suit = SUIT_OF[c]
            if i == 0:
                led = suit
                if suit == SPADES and not broken:
                    for side in SIDE_SUITS:  # led a spade before they broke: held nothing else
                        voids[seat] |= 1 << side
            elif suit != led:
                voids[seat] |= 1 << led
            if suit == SPADES:
                broken = True
            played |= 1 << c
            played_by[seat] |= 1 << c
    counts = [SUIT_SIZE - m.bit_count() for m in played_by]  # thirteen cards dealt to each seat
    hand = view.hand_mask
    voids[view.seat] = sum(1 << s for s in range(4) if not hand & SUIT_MASKS[s])
    cur = view.trick
    trick = [CARD_INDEX[n] for _, n in cur.plays] if cur is not None else []
    if cur is not None:
        leader = cur.leader
    elif view.tricks:
        leader = view.tricks[-1].winner  # type: ignore[assignment]  # a finished trick has one
    else:
        leader = (view.dealer + 1) % 4
    bids = tuple(b if b is not None else -1 for b in view.bids)
    return Tracker(
        seat=view.seat,
        hand=hand,
        played=played,
        played_by=played_by,
        voids=voids,
        counts=counts,
        trick=trick,
        leader=leader,
        broken=view.spades_broken,
        bids=bids,
        won=list(view.tricks_won),
        tricks_done=len(view.tricks),
    )


__all__ = ["Tracker", "track"]
