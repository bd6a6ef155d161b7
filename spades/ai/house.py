"""House rules for the computer players: one adapter in front of every level.

Card decks: the bots reason about the standard 52-card deck (13 cards a suit, bit masks).
A jokers or deuces deck has 15 or 16 spades, so :func:`proxy` renames the cards of a view
for each decision: side cards keep their names, 13 of the spades become the standard spades
in their order, and the two or three others stand in for the standard side cards the deck
leaves out. Those are never our own cards or the trick's (spades played in earlier tricks
first, else the lowest spades still out), so a level counts its own spades and reads the
trick right (a nil with 3♠ sees a spade, not a 2♣); the jokers and high deuces count at
their full value in the trick estimate and in Hard's play-outs. The level decides on that
proxy view and :func:`unproxy` names its card (and every card in its reason) back.

Bids: :func:`adjust_bid` turns the level's own bid into one the house rules allow, with a
reason code each: blind nil from the score alone (decided before the hand is read),
suicide's nil or cover, the minimum team bid and the ten-for-two-hundred raise.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..cards import (
    ALL_CARD_INDEX,
    ALL_CARD_NAMES,
    CARD_NAMES,
    DECK_SIZE,
    FIRST_SPADE,
    SPADES,
    SUIT_SIZE,
    Deck,
)
from ..legal import BIDS, BLIND_NIL, NIL, SUICIDE_PARTNER_MIN
from ..rules import BIG_BID, BLIND_NIL_POINTS, Rules
from ..view import SeatView, Trick
from .explain import Explanation, Reason, reason

#: A blind nil is bid when the team trails by at least this much (or the rules' own threshold,
#: if higher): +200 is worth the risk only when normal play cannot catch up.
BLIND_NIL_GAP = 200
#: … and only as a last chance: the opponents are within this many points of the target.
BLIND_NIL_LAST_CHANCE = 100
#: Under suicide, the first of the partners bids nil when its own estimate is at most this.
SUICIDE_NIL_MAX = 3
#: Ten for two hundred: a team bid this close to ten (one short) is raised to ten.
BIG_BID_REACH = 1

#: A house rules' scoring for the play-outs: each seat's nil value, the big-bid threshold,
#: bags per penalty and the penalty, a bag's long-run value, the target and the floor.
HouseScoring = tuple[tuple[int, ...], int, int, int, float, int, "int | None"]


def house_scoring(view: SeatView) -> HouseScoring:
    """The house rules' scoring as Hard's ``hand_value`` reads it (blind nils count double)."""
    r = view.rules
    nils = tuple(BLIND_NIL_POINTS if b else r.nil_points for b in view.blind)
    bag_value = 1 - r.bag_penalty / r.bag_limit if r.bag_limit else 1.0
    return (
        nils,
        BIG_BID if r.ten_for_200 else 0,
        r.bag_limit,
        r.bag_penalty,
        bag_value,
        r.target,
        r.floor,
    )


#: Per house deck: its spades from lowest to highest, and the standard side cards it leaves out.
_DECK_PARTS: dict[str, tuple[tuple[int, ...], tuple[int, ...]]] = {}


def _deck_parts(deck: Deck) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A house deck's spades (lowest first) and the free standard side slots (cached per deck)."""
    if deck.name not in _DECK_PARTS:
        spades = tuple(
            sorted((c for c in deck.cards if deck.suit_of[c] == SPADES), key=deck.power.__getitem__)
        )
        sides = {c for c in deck.cards if deck.suit_of[c] != SPADES}
        _DECK_PARTS[deck.name] = spades, tuple(c for c in range(FIRST_SPADE) if c not in sides)
    return _DECK_PARTS[deck.name]


#: How much a spade needs to stay a spade in the proxy (higher keeps it): our hand and the
#: trick in progress, the cards still out, then played cards of spade-led tricks, then the rest.
_MINE, _OUT, _SPADE_TRICK, _PLAYED = 3, 2, 1, 0


#: The last view :func:`_maps` was asked about and its answer: :func:`proxy` and :func:`unproxy`
#: of one decision ask about the same view, so the maps are worked out once a decision.
_LAST_MAPS: list[Any] = [None, None]


def _maps(view: SeatView) -> tuple[dict[str, str], dict[str, str]]:
    """:func:`_work_out_maps` for ``view``, remembered for the decision's second call."""
    if _LAST_MAPS[0] is not view:
        _LAST_MAPS[:] = [view, _work_out_maps(view)]
    return _LAST_MAPS[1]


def _work_out_maps(view: SeatView) -> tuple[dict[str, str], dict[str, str]]:
    """Real → proxy and proxy → real card names for one decision's view of a house deck.

    The house deck has more than 13 spades, so a few must stand in for the standard side cards
    it leaves out (the 2♣ … slots). Which ones is chosen per decision: never a card of our hand
    or of the trick in progress (so the level reads its own spades, its nil and the trick
    right), first spades already played in tricks that were not led with a spade (their
    trick is over), then the lowest spades still out. The other spades keep their order.
    """
    deck = view.rules.card_deck
    index = ALL_CARD_INDEX
    spades, free = _deck_parts(deck)
    need = dict.fromkeys(spades, _OUT)
    led_with: dict[int, int] = {}
    for t in view.tricks:
        led = deck.suit_of[index[t.plays[0][1]]]
        for _, name in t.plays:
            c = index[name]
            led_with[c] = led
            if c in need:
                need[c] = _SPADE_TRICK if led == SPADES else _PLAYED
    mine = list(view.hand) + (
        [name for _, name in view.trick.plays] if view.trick is not None else []
    )
    for name in mine:
        if index[name] in need:
            need[index[name]] = _MINE
    extra = len(spades) - SUIT_SIZE
    out = set(sorted(spades, key=lambda c: (need[c], deck.power[c]))[:extra])
    to_proxy = {ALL_CARD_NAMES[c]: CARD_NAMES[c] for c in deck.cards if deck.suit_of[c] != SPADES}
    to_proxy |= {
        ALL_CARD_NAMES[c]: CARD_NAMES[FIRST_SPADE + i]
        for i, c in enumerate(c for c in spades if c not in out)
    }
    slots = list(free)
    for c in sorted(out, key=deck.power.__getitem__):
        # a played spade shown as a side card of another suit than its trick's: still a void shown
        slot = next((f for f in slots if f // SUIT_SIZE != led_with.get(c, -1)), slots[0])
        slots.remove(slot)
        to_proxy[ALL_CARD_NAMES[c]] = CARD_NAMES[slot]
    assert len(set(to_proxy.values())) == DECK_SIZE
    return to_proxy, {v: k for k, v in to_proxy.items()}


def _trick(t: Trick | None, names: dict[str, str]) -> Trick | None:
    """A trick with its cards renamed by ``names`` (the house deck's cards as standard ones, or
    back)."""
    if t is None:
        return None
    return Trick(t.leader, tuple((s, names[c]) for s, c in t.plays), t.winner)


def proxy(view: SeatView) -> SeatView:
    """The view the levels decide on: standard-deck names, and every bid open to their own logic."""
    deck = view.rules.card_deck
    changes: dict[str, Any] = {}
    if view.phase == "bid" and view.legal_bids:
        changes["legal_bids"] = BIDS
    if not deck.standard:
        names = _maps(view)[0]
        changes |= {
            "hand": tuple(sorted((names[c] for c in view.hand), key=CARD_NAMES.index)),
            "tricks": tuple(_trick(t, names) for t in view.tricks),
            "trick": _trick(view.trick, names),
            "legal_cards": tuple(names[c] for c in view.legal_cards),
        }
    return replace(view, **changes) if changes else view


def _rename(value: Any, names: dict[str, str]) -> Any:
    """A reason's parameters with card names renamed by ``names`` (codes and suits left as they
    are)."""
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [_rename(v, names) for v in value]
    if isinstance(value, dict):
        return {
            k: (v if k in ("code", "suit", "suits") else _rename(v, names))
            for k, v in value.items()
        }
    return value


def unproxy(view: SeatView, explanation: Explanation) -> Explanation:
    """The decision in the real deck's names (the action and every card its reason names)."""
    deck = view.rules.card_deck
    if deck.standard:
        return explanation
    names = _maps(view)[1]
    r = explanation.reason
    action = (
        names.get(explanation.action, explanation.action)
        if isinstance(explanation.action, str)
        else explanation.action
    )
    return Explanation(action, Reason(r.code, _rename(r.params, names)))


def legal_or_lowest(view: SeatView, explanation: Explanation) -> Explanation:
    """The decision if its card is legal; else the lowest legal card (side suits first).

    A level may misread a trick led with one of the lowest spades (mis-suited in the proxy).
    """
    if explanation.action in view.legal_cards:
        return explanation
    deck = view.rules.card_deck
    index = ALL_CARD_NAMES.index
    card = min(
        view.legal_cards,
        key=lambda c: (
            deck.suit_of[index(c)] == SPADES,
            deck.power[index(c)] % 13,
            deck.power[index(c)],
        ),
    )
    return Explanation(card, reason("play.house_lowest", card=card))


# -- bids ---------------------------------------------------------------------------------------


def blind_choice(view: SeatView) -> Explanation | None:
    """Blind nil, decided from the scores only (before the hand is read), or ``None``.

    A blind nil fails more often than not, so it is a last-chance gamble: far behind, with
    the opponents close to the target.
    """
    if BLIND_NIL not in view.legal_bids:
        return None
    rules = view.rules
    them = view.scores[1 - view.team]
    gap = them - view.scores[view.team]
    if (
        gap >= max(BLIND_NIL_GAP, rules.blind_nil_trail)
        and them >= rules.target - BLIND_NIL_LAST_CHANCE
        and view.bids[view.partner] != NIL
    ):
        return Explanation(BLIND_NIL, reason("bid.blind_nil", gap=gap))
    return None


def adjust_bid(view: SeatView, own: Explanation) -> Explanation:
    """The level's bid ``own`` made legal under the house rules, with the reason that changed it."""
    rules: Rules = view.rules
    legal = [b for b in view.legal_bids if isinstance(b, int)]  # blind nil is chosen apart
    bid = own.action
    assert isinstance(bid, int), "a level's own bid is a number (blind nil is chosen apart)"
    partner = view.bids[view.partner]
    if rules.suicide:
        if partner is None:
            if bid == NIL or bid <= SUICIDE_NIL_MAX:
                return Explanation(NIL, reason("bid.suicide_nil", bid=bid))
            return (
                own
                if bid in legal
                else Explanation(
                    max(bid, SUICIDE_PARTNER_MIN),
                    reason("bid.suicide_cover", bid=max(bid, SUICIDE_PARTNER_MIN)),
                )
            )
        if partner == NIL:
            up = max(bid, SUICIDE_PARTNER_MIN)
            return own if up == bid else Explanation(up, reason("bid.suicide_cover", bid=up))
        return own if bid == NIL else Explanation(NIL, reason("bid.suicide_nil", bid=bid))
    if rules.ten_for_200 and partner not in (None, NIL) and bid != NIL:
        total = partner + bid
        if BIG_BID - BIG_BID_REACH <= total < BIG_BID and BIG_BID - partner in legal:
            return Explanation(
                BIG_BID - partner, reason("adj.ten_for_two_hundred", bid=BIG_BID - partner)
            )
    if bid in legal:
        return own
    up = min((b for b in legal if b != NIL and b >= bid), default=max(legal))
    return Explanation(up, reason("adj.min_team", bid=up, minimum=rules.min_team_bid))
