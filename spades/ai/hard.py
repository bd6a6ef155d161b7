"""Hard: card tracking plus a sampled search over the hidden cards.

For each decision Hard samples deals of the unseen cards consistent with what
its seat knows (hand sizes, shown voids, forced spade leads; bids bias where
the high cards sit), plays every candidate card out to the end of the hand with
a cheap Normal-like rollout policy on card masks, and scores each result with
both teams' contracts, nils, bags (each at its long-run share of the penalty)
and the match score. The iteration budget is deterministic (decisions are
reproducible); a wall-clock cap is only a safety net.
"""
from __future__ import annotations

import random
import time

from ..cards import CARD_NAMES, SPADE_MASK, SUIT_MASKS
from ..rules import legal_mask, trick_winner
from ..scoring import BAG_PENALTY, BAGS_PER_PENALTY, NIL_POINTS, match_winner
from ..view import SeatView
from .base import Bot
from .estimate import estimate_tricks, nil_ok, team_bid
from .normal import choose_card
from .tracker import Tracker, track

NONSPADE = ~SPADE_MASK & ((1 << 52) - 1)
ROLLOUTS = 16000        # card plays simulated per decision (split over candidates and samples)
PRIOR = 4.0             # points of credit for Normal's choice per sample
MIN_SAMPLES = 16
MAX_SAMPLES = 200
TIME_CAP = 0.4          # seconds: safety net only, never reached in normal play
WIN_BONUS = 600         # value of winning the match outright (points-equivalent)
# ``_ABOVE[c]``: cards of c's suit ranking above c.
_ABOVE = tuple(SUIT_MASKS[c // 13] & ~((2 << c) - 1) for c in range(52))


def _hi(m: int) -> int:
    """Highest-ranked card of a mask (non-spade first on equal rank)."""
    best, br = -1, -1
    for s in (0, 1, 2, 3):
        x = m & SUIT_MASKS[s]
        if x:
            c = x.bit_length() - 1
            r = c - 13 * s
            if r > br:
                best, br = c, r
    return best


def _lo(m: int) -> int:
    """Lowest-ranked card of a mask (non-spade first on equal rank)."""
    best, br = -1, 99
    for s in (0, 1, 2, 3):
        x = m & SUIT_MASKS[s]
        if x:
            c = (x & -x).bit_length() - 1
            r = c - 13 * s
            if r < br:
                best, br = c, r
    return best


def _policy(h: int, trick: list[int], p: int, bids: list[int], won: list[int],
            broken: bool, remaining: int) -> int:
    """Cheap rollout policy for player ``p`` holding ``h`` (sampled full information, Normal-like)."""
    if trick:
        led = trick[0] // 13
        legal = h & SUIT_MASKS[led] or h
    else:
        led = -1
        legal = h if broken or not h & NONSPADE else h & NONSPADE
    if not legal & (legal - 1):
        return legal.bit_length() - 1
    partner = p ^ 2
    nil = bids[p] == 0 and won[p] == 0
    pnil = bids[partner] == 0 and won[partner] == 0
    t = p & 1
    need = 0
    if bids[t] > 0:
        need += bids[t] - won[t]
    if bids[t + 2] > 0:
        need += bids[t + 2] - won[t + 2]
    o = 1 - t
    opp_need = 0
    if bids[o] > 0:
        opp_need += bids[o] - won[o]
    if bids[o + 2] > 0:
        opp_need += bids[o + 2] - won[o + 2]
    left = (remaining.bit_count() + len(trick)) >> 2
    # set the opponents when they need nearly every trick that is left
    want = need > 0 or pnil or (opp_need > 0 and left - opp_need <= 1)
    others = remaining & ~h
    if led < 0:
        if nil:
            return _lo(legal & NONSPADE or legal)
        if want:
            sp = legal & SPADE_MASK
            if sp and sp.bit_count() >= 3:
                c = sp.bit_length() - 1
                if not others & _ABOVE[c] and others & SPADE_MASK:
                    return c              # draw trumps with the boss spade
            for s in (0, 1, 2, 3):
                x = legal & SUIT_MASKS[s]
                if x:
                    c = x.bit_length() - 1
                    if not others & _ABOVE[c]:
                        return c
            return _lo(legal)
        return _lo(legal)
    # follow: find the card now winning
    pos = trick_winner(trick)
    best = trick[pos]
    n = len(trick)
    bsuit = best // 13
    beats = legal & _ABOVE[best]
    if bsuit != 3:
        beats |= legal & SPADE_MASK
    under = legal & ~beats
    if nil:
        if under:
            return _hi(under)
        return _hi(beats) if n == 3 else _lo(beats)
    wseat = (p - n + pos) % 4
    if wseat != partner and bids[wseat] == 0 and won[wseat] == 0 and under:
        return _hi(under)          # let the opponent's nil take this trick
    winner_is_partner = (n - pos) == 2
    if winner_is_partner:
        if pnil:
            if beats:
                return _lo(beats) if n == 3 else _hi(beats)
            return _lo(legal)
        if n == 3 or not others & _ABOVE[best]:
            if under:
                return _lo(under) if want else _hi(under)
            return _lo(legal)
    if want:
        if beats:
            if n == 3:
                return _lo(beats)
            inside = beats & SUIT_MASKS[bsuit]
            if inside:
                c = inside.bit_length() - 1
                if not others & _ABOVE[c] or n == 2:
                    return c
                return _lo(legal)
            return _lo(beats)
        return _lo(legal)
    if under:
        return _hi(under)
    return _hi(beats) if n == 3 else _lo(beats)


def _hand_parts(bids: list[int], won: list[int], t: int) -> tuple[int, int]:
    """A team's hand points before bags (contract and nils) and the bags it took
    (same arithmetic as :func:`spades.scoring.score_team`)."""
    contract = ctricks = nil_pts = nil_bags = 0
    for s in (t, t + 2):
        if bids[s] == 0:
            if won[s]:
                nil_pts -= NIL_POINTS
                nil_bags += won[s]
            else:
                nil_pts += NIL_POINTS
        else:
            contract += bids[s]
            ctricks += won[s]
    if ctricks >= contract:
        return 10 * contract + nil_pts, ctricks - contract + nil_bags
    return -10 * contract + nil_pts, nil_bags


def _with_bags(points: int, hand_bags: int, bags: int) -> tuple[int, int]:
    """Real hand delta and new bag total once this hand's bags (and any penalties) are added."""
    total = bags + hand_bags
    pen = total // BAGS_PER_PENALTY
    return points + hand_bags - BAG_PENALTY * pen, total - BAGS_PER_PENALTY * pen


def _team_delta(bids: list[int], won: list[int], t: int, score: int, bags: int) -> tuple[int, int]:
    """A team's hand points and new total bags (as :func:`spades.scoring.score_team`)."""
    return _with_bags(*_hand_parts(bids, won, t), bags)


#: Long-run value of one bag: +1 point now, a tenth of the next penalty later.
BAG_VALUE = 1 - BAG_PENALTY // BAGS_PER_PENALTY


def hand_value(bids: list[int], won: list[int], team: int, scores: tuple[int, int], bags: tuple[int, int]) -> float:
    """Value of a finished hand for ``team``: score difference gained, plus a bonus for deciding the match.

    Bags are valued at their long-run cost (each brings a tenth of the next penalty
    closer, so +1 − 10 points) rather than by whether this hand crosses ten: a bag
    costs about the same whenever it is taken. The real scores decide the match bonus.
    """
    p0, b0 = _hand_parts(bids, won, 0)
    p1, b1 = _hand_parts(bids, won, 1)
    v0, v1 = p0 + b0 * BAG_VALUE, p1 + b1 * BAG_VALUE
    value = float(v0 - v1) if team == 0 else float(v1 - v0)
    d0, _ = _with_bags(p0, b0, bags[0])
    d1, _ = _with_bags(p1, b1, bags[1])
    w = match_winner((scores[0] + d0, scores[1] + d1))
    if w is not None:
        value += WIN_BONUS if w == team else -WIN_BONUS
    return value


def rollout(hands: list[int], trick: list[int], leader: int, won: list[int], bids: list[int],
            broken: bool) -> list[int]:
    """Play the hand out from a full-information state with :func:`_policy`; returns tricks won per seat."""
    hands = hands[:]
    won = won[:]
    trick = trick[:]
    remaining = hands[0] | hands[1] | hands[2] | hands[3]
    p = (leader + len(trick)) % 4
    while remaining:
        c = _policy(hands[p], trick, p, bids, won, broken, remaining)
        bit = 1 << c
        hands[p] ^= bit
        remaining ^= bit
        trick.append(c)
        if c >= 39:
            broken = True
        if len(trick) == 4:
            leader = (leader + trick_winner(trick)) % 4
            won[leader] += 1
            trick = []
            p = leader
        else:
            p = (p + 1) % 4
    return won


def _weight(seat: int, card: int, bids: tuple[int, ...], won: list[int]) -> float:
    """How likely ``seat`` is to hold ``card`` judging from its bid (1 = no information)."""
    b = bids[seat]
    if b < 0:
        return 1.0
    rank = card % 13
    high = rank >= 11 or (card >= 39 and rank >= 9)
    if not high:
        return 1.0
    if b == 0 and won[seat] == 0:
        return 0.15
    return 0.6 + 0.2 * min(b, 6)


def sample_hands(t: Tracker, rng: random.Random, tries: int = 30) -> list[int] | None:
    """Deal the unseen cards to the other seats consistently with hand sizes and shown voids."""
    seat = t.seat
    others = [s for s in range(4) if s != seat]
    cards = []
    m = t.unseen
    while m:
        low = m & -m
        cards.append(low.bit_length() - 1)
        m ^= low
    eligible = {}
    for c in cards:
        eligible[c] = [s for s in others if not t.voids[s] >> (c // 13) & 1]
    weights = {(s, c): _weight(s, c, t.bids, t.won) for c in cards for s in eligible[c]}
    for attempt in range(tries):
        rng.shuffle(cards)
        order = sorted(cards, key=lambda c: len(eligible[c]))
        cap = {s: t.counts[s] for s in others}
        hands = [0, 0, 0, 0]
        ok = True
        for c in order:
            el = [s for s in eligible[c] if cap[s] > 0] if attempt < tries - 1 else [s for s in others if cap[s] > 0]
            if not el:
                ok = False
                break
            if len(el) == 1:
                s = el[0]
            else:
                ws = [cap[s] * weights.get((s, c), 1.0) for s in el]
                x = rng.random() * sum(ws)
                s = el[-1]
                for s_, w in zip(el, ws):
                    x -= w
                    if x < 0:
                        s = s_
                        break
            hands[s] |= 1 << c
            cap[s] -= 1
        if ok:
            hands[seat] = t.hand
            return hands
    return None


def candidates(legal: int, t: Tracker) -> list[int]:
    """Legal cards with equivalent ones merged (touching in rank once played cards are removed)."""
    out = []
    unseen = t.unseen
    for s in range(4):
        x = legal & SUIT_MASKS[s]
        prev = -1
        while x:
            low = x & -x
            c = low.bit_length() - 1
            x ^= low
            if prev >= 0 and not unseen & (((1 << c) - 1) & ~((2 << prev) - 1)):
                prev = c      # nothing unseen between prev and c: same value, keep the lowest
                continue
            out.append(c)
            prev = c
    return out


def search_card(view: SeatView, rng: random.Random, budget: int = ROLLOUTS, time_cap: float = TIME_CAP) -> int:
    """Hard's card for ``view`` by sampled play-outs, as a card number.

    ``budget`` is the number of simulated card plays, shared over the candidate
    cards and the sampled deals (at least ``MIN_SAMPLES`` deals); each deal is
    used for every candidate (common random numbers). ``time_cap`` stops early.
    """
    t = track(view)
    legal = legal_mask(t.hand, t.trick[0] // 13 if t.trick else None, t.broken)
    moves = candidates(legal, t)
    if len(moves) == 1:
        return moves[0]
    fallback = choose_card(t, view.scores, view.bags)
    # the candidate standing for Normal's card (equivalent cards are merged)
    fallback = max(c for c in moves if c // 13 == fallback // 13 and c <= fallback)
    plays_left = t.hand.bit_count() * 4 - len(t.trick)
    samples = max(MIN_SAMPLES, min(MAX_SAMPLES, budget // (len(moves) * plays_left)))
    bids = list(t.bids)
    team = t.seat % 2
    totals = dict.fromkeys(moves, 0.0)
    start = time.perf_counter()
    done = 0
    for _ in range(samples):
        hands = sample_hands(t, rng)
        if hands is None:
            break
        for c in moves:
            h = hands[:]
            h[t.seat] ^= 1 << c
            trick = t.trick + [c]
            broken = t.broken or c >= 39
            if len(trick) == 4:
                # complete the trick here so the rollout starts clean
                won = t.won[:]
                leader = (t.leader + trick_winner(trick)) % 4
                won[leader] += 1
                result = rollout(h, [], leader, won, bids, broken)
            else:
                result = rollout(h, trick, t.leader, t.won, bids, broken)
            totals[c] += hand_value(bids, result, team, view.scores, view.bags)
        done += 1
        if time.perf_counter() - start > time_cap:
            break
    if not done:
        return fallback
    totals[fallback] += PRIOR * done   # the search must beat Normal's choice clearly
    # ties (and near-ties) go to Normal's choice when it is among the best, else the lowest card
    best_val = max(totals.values())
    eps = 1e-6 * done
    good = [c for c in moves if totals[c] >= best_val - eps]
    if fallback in good:
        return fallback
    return min(good, key=lambda c: (c % 13, c))


def hard_bid(view: SeatView) -> int:
    """Normal's bid refined by the match score and the bag count."""
    seat = view.seat
    team = seat % 2
    partner_bid = view.bids[(seat + 2) % 4]
    opp = [b for s, b in enumerate(view.bids) if s % 2 != team and b is not None]
    hand = view.hand_mask
    mine, theirs = view.scores[team], view.scores[1 - team]
    desperate = theirs >= 400 and theirs - mine >= 120
    bid = team_bid(hand, partner_bid, opp)
    est = estimate_tricks(hand)
    if bid == 0:
        # a nil that fails could hand the opponents the match; keep it unless we can afford it
        if mine - 100 <= -200 + 20:
            return max(1, int(est + 0.35))
        return 0
    if desperate and partner_bid != 0 and est < 1.6 and not hand & (1 << 51) and nil_ok_loose(hand):
        return 0
    if view.bags[team] >= 7 and est - int(est) > 0.5:
        bid = max(bid, int(est) + 1)     # absorb likely overtricks into the contract
    return max(1, min(13, bid))


def nil_ok_loose(hand: int) -> bool:
    """A relaxed nil test for when only a gamble can save the match."""
    spades = (hand & SPADE_MASK) >> 39
    return nil_ok(hand) or (spades.bit_count() <= 3 and spades < (1 << 10))


class HardBot(Bot):
    """Tracks cards and searches sampled deals; plays to both contracts and the match score."""

    level = "hard"
    budget = ROLLOUTS

    def bid(self, view: SeatView) -> int:
        """Normal's estimate refined by the match score (see :func:`hard_bid`)."""
        return hard_bid(view)

    def play(self, view: SeatView) -> str:
        """The card with the best average play-out value over sampled deals."""
        return CARD_NAMES[search_card(view, self.rng(view), self.budget)]
