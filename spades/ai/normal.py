"""Normal: bids from a hand estimate (partner-aware), plays by solid table heuristics.

Play heuristics: win cheaply when the side needs tricks, duck when it need not,
never overtake a partner's sure winner, cover a partner's nil, attack an
opponent's nil, and manage bags (stop winning once the contract is safe and
bags are costly; let opponents near ten bags take the overtricks).
"""

from __future__ import annotations

from typing import Any

from ..cards import (
    ABOVE,
    CARD_NAMES,
    KING,
    NON_SPADES,
    RANK_OF,
    SIDE_SUITS,
    SPADE_MASK,
    SPADES,
    SUIT_MASKS,
    SUIT_OF,
    SUIT_SIZE,
    SUITS,
    highest,
    lowest,
    suit_top,
)
from ..legal import NIL, legal_mask, trick_winner
from ..scoring import team_need
from ..view import SeatView
from .base import Bot
from .estimate import explain_team_bid
from .explain import Explanation, Reason
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


#: Chase a set while the opponents can spare at most this many of the tricks left: a set chased
#: further mostly wins overtricks (bags) instead (measured in the arena against 5104c58's Normal).
SET_SLACK = 1


class Plan:
    """What the seat wants from the rest of the hand, derived from bids, tricks and scores."""

    __slots__ = ("attack", "cover", "nil", "setting", "want")

    def __init__(self, t: Tracker, scores: tuple[int, int], bags: tuple[int, int]) -> None:
        seat, bids, won = t.seat, t.bids, t.won
        team = seat % 2
        partner = (seat + 2) % 4
        left = SUIT_SIZE - t.tricks_done  # thirteen tricks to a hand
        self.nil = bids[seat] == NIL and won[seat] == 0
        self.cover = bids[partner] == NIL and won[partner] == 0
        self.attack = [
            s for s in ((seat + 1) % 4, (seat + 3) % 4) if bids[s] == NIL and won[s] == 0
        ]
        need = team_need(bids, won, team)
        opp_need = team_need(bids, won, 1 - team)
        # setting the opponents: they need nearly every trick that is left
        self.setting = opp_need > 0 and left - opp_need <= SET_SLACK
        # otherwise, once our contract is safe, overtricks are bags: duck (which also
        # hands the overtricks to opponents, who may be near ten bags themselves)
        self.want = need > 0 or self.setting


Choice = tuple[int, Reason]


def _why(card: int, code: str, **params: Any) -> Choice:
    """The card with its reason (the card's name is always the ``card`` parameter)."""
    return card, Reason(code, {"card": CARD_NAMES[card], **params})


def choose_card(t: Tracker, scores: tuple[int, int], bags: tuple[int, int]) -> int:
    """Normal's card, as a card number, for the tracked position (``t`` must be the seat to act)."""
    return explain_card(t, scores, bags)[0]


def explain_card(t: Tracker, scores: tuple[int, int], bags: tuple[int, int]) -> Choice:
    """Normal's card with the rule that chose it (``t`` must be the seat to act)."""
    seat = t.seat
    trick = t.trick
    led = SUIT_OF[trick[0]] if trick else None
    legal = legal_mask(t.hand, led, t.broken)
    if legal & (legal - 1) == 0:
        return _why(legal.bit_length() - 1, "play.only_card")
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
            return _why(highest(under), "play.nil_duck")
        return _why(highest(beats) if last else lowest(beats), "play.nil_forced")
    if plan.cover:
        if winner == partner:
            if beats:
                return _why(
                    lowest(beats) if last else highest(beats),
                    "play.cover_overtake",
                    partner_card=CARD_NAMES[best],
                )
            return _why(lowest(legal), "play.cover_cannot")
        if partner in later:
            # play high so the nil partner can duck under us
            if beats:
                return _why(highest(beats), "play.cover_high")
            if led is not None and legal & SUIT_MASKS[led]:
                return _why(highest(legal), "play.cover_high")
            return _why(lowest(legal), "play.cover_cannot")
    if plan.attack:
        nil_seat = plan.attack[0]
        if winner == nil_seat and under:
            return _why(
                highest(under), "play.attack_leave", seat=nil_seat
            )  # leave the nil bidder winning
        if nil_seat in later:
            return _why(
                lowest(under) if under else lowest(legal), "play.attack_under", seat=nil_seat
            )
    if winner == partner:
        card = trick[pos]
        sure = last or (
            not (t.outstanding_above(card) & _may_hold_any(t, later))
            and (SUIT_OF[card] == SPADES or not any(t.voids[s] >> SUIT_OF[card] & 1 for s in later))
        )
        if sure or RANK_OF[card] >= KING or not plan.want:
            if not plan.want and under:
                return _why(
                    highest(under), "play.partner_winning_shed", partner_card=CARD_NAMES[card]
                )
            chosen = lowest(under) if under else lowest(legal)
            keep = legal & ABOVE[chosen]  # our higher cards of that suit, saved for later
            if keep:
                return _why(
                    chosen,
                    "play.partner_winning_keep",
                    partner_card=CARD_NAMES[card],
                    keep=CARD_NAMES[highest(keep)],
                )
            return _why(chosen, "play.partner_winning", partner_card=CARD_NAMES[card])
    if plan.want:
        if beats:
            if last:
                return _why(lowest(beats), "play.win_last")
            bosses = boss_mask(beats, unseen) & beats
            if bosses and not (bosses & NON_SPADES == 0 and led != SPADES and beats & NON_SPADES):
                return _why(lowest(bosses), "play.win_boss")
            if led is not None and not legal & SUIT_MASKS[led]:
                return _why(
                    lowest(beats), "play.ruff", suit=SUITS[led]
                )  # ruff as cheaply as possible
            if n == 1:
                return _why(lowest(legal), "play.second_low")  # second hand low
            inside = beats & SUIT_MASKS[SUIT_OF[best]]
            return _why(
                highest(inside) if inside else lowest(beats),
                "play.win_cheap",
                over=CARD_NAMES[best],
            )
        return _discard(legal, keep_spades=True)
    # contract safe: duck, dumping the highest card that loses
    if under:
        if led is not None and not legal & SUIT_MASKS[led]:
            return _discard(under, keep_spades=False)
        return _why(highest(under), "play.duck")
    return _why(highest(beats) if last else lowest(beats), "play.forced_win")


def _may_hold_any(t: Tracker, seats: list[int]) -> int:
    """The cards any of ``seats`` may still hold."""
    m = 0
    for s in seats:
        m |= t.may_hold(s)
    return m


def _discard(mask: int, keep_spades: bool) -> Choice:
    """A card to throw when not following suit: low side cards when winning matters, high ones when
    ducking."""
    side = mask & NON_SPADES
    if side:
        if keep_spades:
            # throw from the shortest side suit to make a void
            best, best_len = -1, 99
            for s in SIDE_SUITS:
                m = side & SUIT_MASKS[s]
                if m and m.bit_count() < best_len:
                    best, best_len = lowest(m), m.bit_count()
            return _why(best, "play.keep_spades", suit=SUITS[SUIT_OF[best]])
        return _why(highest(side), "play.duck_discard")
    return (
        _why(lowest(mask), "play.cannot_win")
        if keep_spades
        else _why(highest(mask), "play.duck_discard")
    )


def _lead(t: Tracker, plan: Plan, legal: int, unseen: int) -> Choice:
    """Choose a card to lead, with the rule that chose it."""
    side = legal & NON_SPADES
    if plan.nil:
        return _why(lowest(side or legal), "lead.nil_low")
    if plan.cover:
        bosses = boss_mask(legal, unseen)
        if bosses:
            return _why(highest(bosses), "lead.cover_boss")
        return _why(highest(side or legal), "lead.cover_high")
    if plan.attack:
        nil_seat = plan.attack[0]
        ok = side & ~sum(SUIT_MASKS[s] for s in SIDE_SUITS if t.voids[nil_seat] >> s & 1)
        return _why(lowest(ok or side or legal), "lead.attack", seat=nil_seat)
    if plan.want:
        bosses = boss_mask(legal, unseen)
        side_boss = bosses & NON_SPADES
        # lead side winners while opponents still follow
        for s in SIDE_SUITS:
            b = side_boss & SUIT_MASKS[s]
            if b and not any(t.voids[o] >> s & 1 for o in ((t.seat + 1) % 4, (t.seat + 3) % 4)):
                return _why(b.bit_length() - 1, "lead.boss")
        if bosses & SPADE_MASK and (t.hand & SPADE_MASK).bit_count() >= 2:
            return _why(highest(bosses & SPADE_MASK), "lead.draw_trumps")
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
            return _why(
                best,
                "lead.short_suit" if has_spades else "lead.long_suit",
                suit=SUITS[SUIT_OF[best]],
            )
        return _why(lowest(legal), "lead.low")
    # duck: lead low where we hold the lowest card, avoiding our winners
    return _why(lowest(side or legal), "lead.duck")


def explain_view_card(view: SeatView) -> Choice:
    """Normal's card for ``view`` with its reason."""
    return explain_card(track(view), view.scores, view.bags)


def decide_card(view: SeatView) -> str:
    """Normal's card for ``view``, by name."""
    return CARD_NAMES[explain_view_card(view)[0]]


def explain_bid(view: SeatView) -> tuple[int, Reason]:
    """Normal's bid for ``view`` with its reason."""
    seat = view.seat
    partner = view.bids[(seat + 2) % 4]
    opp = [b for s, b in enumerate(view.bids) if s % 2 != seat % 2 and b is not None]
    return explain_team_bid(view.hand_mask, partner, opp)


def decide_bid(view: SeatView) -> int:
    """Normal's bid for ``view``."""
    return explain_bid(view)[0]


class NormalBot(Bot):
    """A steady partner: sensible bids, sound play, covers nils and manages bags."""

    level = "normal"

    def explain_bid(self, view: SeatView) -> Explanation:
        """Estimated tricks, adjusted for the partner's bid (nil with a fitting hand), with the
        parts."""
        return Explanation(*explain_bid(view))

    def explain_play(self, view: SeatView) -> Explanation:
        """A heuristic card (see module doc) with the rule that chose it."""
        card, why = explain_view_card(view)
        return Explanation(CARD_NAMES[card], why)
