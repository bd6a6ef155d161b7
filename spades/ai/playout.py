"""Hard's play-outs: a cheap full-information policy, the hand played out with it, and its value.

Hard's card search (:mod:`spades.ai.hard`) and its simulated bids (:mod:`spades.ai.hardbid`)
play sampled deals to the end of the hand with :func:`rollout` and value each result with
:func:`hand_value` (the scoring kernel's points, bags at their long-run cost, and a bonus
for deciding the match).
"""

from __future__ import annotations

from ..cards import (
    ABOVE,
    FIRST_SPADE,
    NON_SPADES,
    SPADE_MASK,
    SPADES,
    SUIT_MASKS,
    SUIT_OF,
    highest,
    lowest,
)
from ..legal import NIL, legal_mask, trick_winner
from ..scoring import BAG_PENALTY, BAGS_PER_PENALTY, add_bags, hand_points, match_winner, team_need
from .house import HouseScoring

WIN_BONUS = 600  # value of winning the match outright (points-equivalent)
#: A play-out's seat chases a set while the opponents can spare at most this many of the tricks
#: left (this one included). Wider than Normal's own rule (:data:`spades.ai.normal.SET_SLACK`):
#: a play-out sees every card, and a search that never meets a set misjudges contracts.
SET_SLACK = 3


def _attack_lead(legal: int, nil_hand: int) -> int:
    """A low lead under an opponent's nil: our lowest card of the suit where the nil's lowest card
    stands highest above it (the nil must play over it); ``-1`` if no suit allows that."""
    best, gap = -1, 0
    for suit in SUIT_MASKS:
        ours, theirs = legal & suit, nil_hand & suit
        if ours and theirs:
            c = lowest(ours)
            g = lowest(theirs) - c
            if g > gap:
                best, gap = c, g
    return best


def _policy(
    h: int,
    hands: list[int],
    legal: int,
    led: int | None,
    trick: list[int],
    p: int,
    nils: int,
    remaining: int,
    needs: tuple[int, int],
) -> int:
    """Cheap rollout policy for player ``p`` holding ``h`` (sampled full information, Normal-like):
    ``hands`` are every seat's cards, so an opponent's nil can be attacked where it is weakest;
    ``nils`` has bit ``s`` set while seat ``s``'s nil stands.

    The caller gives the ``legal`` cards (at least two: a forced card needs no policy), the
    suit ``led`` (``None`` when leading) and each team's :func:`~spades.scoring.team_need`
    (``needs``, computed once a trick).
    """
    partner = p ^ 2
    nil = nils >> p & 1
    pnil = nils >> partner & 1
    t = p & 1
    need = needs[t]
    opp_need = needs[1 - t]
    # set the opponents while they can spare at most SET_SLACK of the tricks left (this one too)
    want = (
        need > 0
        or pnil
        or (opp_need > 0 and ((remaining.bit_count() + len(trick)) >> 2) - opp_need <= SET_SLACK)
    )
    others = remaining & ~h
    if led is None:
        if nil:
            return lowest(legal & NON_SPADES or legal)
        attack = nils & ~(5 << (p & 1))  # an opponent's nil still standing
        if attack and not pnil:
            c = _attack_lead(legal, hands[(attack & -attack).bit_length() - 1])
            if c >= 0:
                return c
        if want:
            sp = legal & SPADE_MASK
            if sp and sp.bit_count() >= 3:
                c = sp.bit_length() - 1
                if not others & ABOVE[c] and others & SPADE_MASK:
                    return c  # draw trumps with the boss spade
            for suit in SUIT_MASKS:
                x = legal & suit
                if x:
                    c = x.bit_length() - 1
                    if not others & ABOVE[c]:
                        return c
            return lowest(legal)
        return lowest(legal)
    # follow: find the card now winning
    pos = trick_winner(trick)
    best = trick[pos]
    n = len(trick)
    bsuit = SUIT_OF[best]
    beats = legal & ABOVE[best]
    if bsuit != SPADES:
        beats |= legal & SPADE_MASK
    under = legal & ~beats
    if nil:
        if under:
            return highest(under)
        return highest(beats) if n == 3 else lowest(beats)
    wseat = (p - n + pos) % 4
    if wseat != partner and nils >> wseat & 1 and under:
        return highest(under)  # let the opponent's nil take this trick
    if n < 3 and nils >> ((p + 1) & 3) & 1 and not pnil:
        return lowest(under or legal)  # stay low: the opponent's nil, next to play, must go over
    winner_is_partner = (n - pos) == 2
    if winner_is_partner:
        if pnil:
            if beats:
                return lowest(beats) if n == 3 else highest(beats)
            return lowest(legal)
        if n == 3 or not others & ABOVE[best]:
            if under:
                return lowest(under) if want else highest(under)
            return lowest(legal)
    if want:
        if beats:
            if n == 3:
                return lowest(beats)
            inside = beats & SUIT_MASKS[bsuit]
            if inside:
                c = inside.bit_length() - 1
                if not others & ABOVE[c] or n == 2:
                    return c
                return lowest(legal)
            return lowest(beats)
        return lowest(legal)
    if under:
        return highest(under)
    return highest(beats) if n == 3 else lowest(beats)


#: Long-run value of one bag: +1 point now, a tenth of the next penalty later.
BAG_VALUE = 1 - BAG_PENALTY // BAGS_PER_PENALTY


def hand_value(
    bids: list[int],
    won: list[int],
    team: int,
    scores: tuple[int, int],
    bags: tuple[int, int],
    house: HouseScoring | None = None,
) -> float:
    """Value of a finished hand for ``team``: score difference gained, plus a bonus for deciding the
    match.

    Bags are valued at their long-run cost (each brings a tenth of the next penalty
    closer, so +1 − 10 points) rather than by whether this hand crosses ten: a bag
    costs about the same whenever it is taken. The real scores decide the match bonus.
    ``house``: the house rules' scoring (:func:`house_scoring`), ``None`` for 1.0.0.
    """
    v0: float
    v1: float
    if house is None:
        p0, b0 = hand_points(bids[0], won[0], bids[2], won[2])
        p1, b1 = hand_points(bids[1], won[1], bids[3], won[3])
        v0, v1 = p0 + b0 * BAG_VALUE, p1 + b1 * BAG_VALUE
        d0, _ = add_bags(p0, b0, bags[0])
        d1, _ = add_bags(p1, b1, bags[1])
        w = match_winner((scores[0] + d0, scores[1] + d1))
    else:
        nils, big, per, penalty, bag_value, target, floor = house
        p0, b0 = hand_points(bids[0], won[0], bids[2], won[2], nils[0], nils[2], big)
        p1, b1 = hand_points(bids[1], won[1], bids[3], won[3], nils[1], nils[3], big)
        v0, v1 = p0 + b0 * bag_value, p1 + b1 * bag_value
        d0, _ = add_bags(p0, b0, bags[0], per, penalty)
        d1, _ = add_bags(p1, b1, bags[1], per, penalty)
        w = match_winner((scores[0] + d0, scores[1] + d1), target, floor)
    value = float(v0 - v1) if team == 0 else float(v1 - v0)
    if w is not None:
        value += WIN_BONUS if w == team else -WIN_BONUS
    return value


def rollout(
    hands: list[int], trick: list[int], leader: int, won: list[int], bids: list[int], broken: bool
) -> list[int]:
    """Play the hand out from a full-information state with :func:`_policy`; returns tricks won per
    seat."""
    hands = hands[:]
    won = won[:]
    trick = trick[:]
    remaining = hands[0] | hands[1] | hands[2] | hands[3]
    p = (leader + len(trick)) % 4
    needs = team_need(bids, won, 0), team_need(bids, won, 1)
    nils = 0  # nils still standing, a bit a seat
    for s in range(4):
        if bids[s] == NIL and not won[s]:
            nils |= 1 << s
    while remaining:
        h = hands[p]
        led = SUIT_OF[trick[0]] if trick else None
        legal = legal_mask(h, led, broken)
        if legal & (legal - 1):
            c = _policy(h, hands, legal, led, trick, p, nils, remaining, needs)
        else:
            c = legal.bit_length() - 1  # the only legal card
        bit = 1 << c
        hands[p] ^= bit
        remaining ^= bit
        trick.append(c)
        if c >= FIRST_SPADE:
            broken = True
        if len(trick) == 4:
            p = leader = (leader + trick_winner(trick)) & 3  # seats are 0–3: & 3 is % 4
            won[leader] += 1
            needs = team_need(bids, won, 0), team_need(bids, won, 1)
            nils &= ~(1 << leader)
            trick = []
        else:
            p = (p + 1) & 3
    return won
