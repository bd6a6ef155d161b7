"""Normal: bids from a hand estimate (partner-aware), plays by solid table heuristics.

Play heuristics: win cheaply when the side needs tricks, duck when it need not,
never overtake a partner's sure winner, cover a partner's nil, attack an
opponent's nil, and manage bags (stop winning once the contract is safe and
bags are costly; let opponents near ten bags take the overtricks).
"""
from __future__ import annotations

from ..cards import (ABOVE, SIDE_SUITS, CARD_NAMES, KING, NON_SPADES, RANK_OF, SPADE_MASK, SPADES, SUIT_MASKS, SUIT_OF,
                     SUIT_SIZE, highest, lowest, suit_top)
from ..rules import NIL, legal_mask, trick_winner
from ..scoring import team_need
from ..view import SeatView
from .base import Bot
from .estimate import team_bid
from .tracker import Tracker, track


def beating(legal: int, best: int) -> int:
    """Cards of ``legal`` that would beat ``best``, the card now winning the trick."""
    higher = legal & ABOVE[best]
    if SUIT_OF[best] != SPADES:
        higher |= legal & SPADE_MASK
    return higher


def boss_mask(legal: int, unseen: int) -> int:
    """Cards of ``legal`` that no unseen card of their suit outranks."""
    out = 0
    for s in range(4):
        top = suit_top(legal, s)
        if top >= 0 and not unseen & ABOVE[top]:
            out |= 1 << top
    return out


class Plan:
    """What the seat wants from the rest of the hand, derived from bids, tricks and scores."""

    __slots__ = ("nil", "cover", "attack", "want", "setting")

    def __init__(self, t: Tracker, scores: tuple[int, int], bags: tuple[int, int]) -> None:
        seat, bids, won = t.seat, t.bids, t.won
        team = seat % 2
        partner = (seat + 2) % 4
        left = SUIT_SIZE - t.tricks_done      # thirteen tricks to a hand
        self.nil = bids[seat] == NIL and won[seat] == 0
        self.cover = bids[partner] == NIL and won[partner] == 0
        self.attack = [s for s in ((seat + 1) % 4, (seat + 3) % 4) if bids[s] == NIL and won[s] == 0]
        need = team_need(bids, won, team)
        opp_need = team_need(bids, won, 1 - team)
        # setting the opponents: they need nearly every trick that is left; with few bags
        # of our own we can afford to chase the set a little further
        slack = 3 if bags[team] <= 4 and need <= 0 else 2
        self.setting = opp_need > 0 and left - opp_need <= slack
        # otherwise, once our contract is safe, overtricks are bags: duck (which also
        # hands the overtricks to opponents, who may be near ten bags themselves)
        self.want = need > 0 or self.setting


def choose_card(t: Tracker, scores: tuple[int, int], bags: tuple[int, int]) -> int:
    """Normal's card, as a card number, for the tracked position (``t`` must be the seat to act)."""
    seat = t.seat
    trick = t.trick
    led = SUIT_OF[trick[0]] if trick else None
    legal = legal_mask(t.hand, led, t.broken)
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    plan = Plan(t, scores, bags)
    unseen = t.unseen
    if not trick:
        return _lead(t, plan, legal, unseen)
    pos = trick_winner(trick)
    best = trick[pos]
    winner = (t.leader + pos) % 4
    partner = (seat + 2) % 4
    n = len(trick)
    last = n == 3
    beats = beating(legal, best)
    under = legal & ~beats
    later = [(t.leader + i) % 4 for i in range(n + 1, 4)]  # seats still to play after us

    if plan.nil:
        if under:
            # shed the highest card that still loses (void: the most dangerous card)
            return highest(under)
        return highest(beats) if last else lowest(beats)
    if plan.cover:
        if winner == partner:
            if beats:
                return lowest(beats) if last else highest(beats)
            return lowest(legal)
        if partner in later:
            # play high so the nil partner can duck under us
            if beats:
                return highest(beats)
            return highest(legal) if led is not None and legal & SUIT_MASKS[led] else lowest(legal)
    if plan.attack:
        nil_seat = plan.attack[0]
        if winner == nil_seat and under:
            return highest(under)   # leave the nil bidder winning
        if nil_seat in later:
            return lowest(under) if under else lowest(legal)
    if winner == partner:
        card = trick[pos]
        sure = last or not (t.outstanding_above(card) & _may_hold_any(t, later)) and (
            SUIT_OF[card] == SPADES or not any(t.voids[s] >> SUIT_OF[card] & 1 for s in later))
        if sure or RANK_OF[card] >= KING or not plan.want:
            if not plan.want and under:
                return highest(under)
            return lowest(under) if under else lowest(legal)
    if plan.want:
        if beats:
            if last:
                return lowest(beats)
            bosses = boss_mask(beats, unseen) & beats
            if bosses and not (bosses & NON_SPADES == 0 and led != SPADES and beats & NON_SPADES):
                return lowest(bosses)
            if led is not None and not legal & SUIT_MASKS[led]:
                return lowest(beats)          # ruff as cheaply as possible
            if n == 1:
                return lowest(legal)          # second hand low
            inside = beats & SUIT_MASKS[SUIT_OF[best]]
            return highest(inside) if inside else lowest(beats)
        return _discard(legal, keep_spades=True)
    # contract safe: duck, dumping the highest card that loses
    if under:
        if led is not None and not legal & SUIT_MASKS[led]:
            return _discard(under, keep_spades=False)
        return highest(under)
    return highest(beats) if last else lowest(beats)


def _may_hold_any(t: Tracker, seats: list[int]) -> int:
    m = 0
    for s in seats:
        m |= t.may_hold(s)
    return m


def _discard(mask: int, keep_spades: bool) -> int:
    """A card to throw when not following suit: low side cards when winning matters, high ones when ducking."""
    side = mask & NON_SPADES
    if side:
        if keep_spades:
            # throw from the shortest side suit to make a void
            best, best_len = -1, 99
            for s in SIDE_SUITS:
                m = side & SUIT_MASKS[s]
                if m and m.bit_count() < best_len:
                    best, best_len = lowest(m), m.bit_count()
            return best
        return highest(side)
    return lowest(mask) if keep_spades else highest(mask)


def _lead(t: Tracker, plan: Plan, legal: int, unseen: int) -> int:
    """Choose a card to lead."""
    side = legal & NON_SPADES
    if plan.nil:
        return lowest(side or legal)
    if plan.cover:
        bosses = boss_mask(legal, unseen)
        if bosses:
            return highest(bosses)
        return highest(side or legal)
    if plan.attack:
        nil_seat = plan.attack[0]
        ok = side & ~sum(SUIT_MASKS[s] for s in SIDE_SUITS if t.voids[nil_seat] >> s & 1)
        return lowest(ok or side or legal)
    if plan.want:
        bosses = boss_mask(legal, unseen)
        side_boss = bosses & NON_SPADES
        # lead side winners while opponents still follow
        for s in SIDE_SUITS:
            b = side_boss & SUIT_MASKS[s]
            if b and not any(t.voids[o] >> s & 1 for o in ((t.seat + 1) % 4, (t.seat + 3) % 4)):
                return b.bit_length() - 1
        if bosses & SPADE_MASK and (t.hand & SPADE_MASK).bit_count() >= 2:
            return highest(bosses & SPADE_MASK)
        if side:
            # short suit (not singleton honour) to set up ruffs, else lowest of the longest
            has_spades = bool(t.hand & SPADE_MASK)
            best, key = -1, None
            for s in SIDE_SUITS:
                m = side & SUIT_MASKS[s]
                if not m:
                    continue
                length = m.bit_count()
                k = (length if has_spades else -length, RANK_OF[lowest(m)])
                if key is None or k < key:
                    best, key = lowest(m), k
            return best
        return lowest(legal)
    # duck: lead low where we hold the lowest card, avoiding our winners
    return lowest(side or legal)


def decide_card(view: SeatView) -> str:
    """Normal's card for ``view``, by name."""
    t = track(view)
    return CARD_NAMES[choose_card(t, view.scores, view.bags)]


def decide_bid(view: SeatView) -> int:
    """Normal's bid for ``view``."""
    seat = view.seat
    partner = view.bids[(seat + 2) % 4]
    opp = [b for s, b in enumerate(view.bids) if s % 2 != seat % 2 and b is not None]
    return team_bid(view.hand_mask, partner, opp)


class NormalBot(Bot):
    """A steady partner: sensible bids, sound play, covers nils and manages bags."""

    level = "normal"

    def bid(self, view: SeatView) -> int:
        """Estimated tricks, adjusted for the partner's bid (nil with a fitting hand)."""
        return decide_bid(view)

    def play(self, view: SeatView) -> str:
        """A heuristic card (see module doc)."""
        card = decide_card(view)
        assert card in view.legal_cards
        return card
