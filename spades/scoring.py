"""Scoring a hand and deciding the end of the match: pure functions.

The rules are the project's rules page, ``site/rules/en.html`` (sections
"Scoring a hand" and "End of the match"). :func:`hand_points` and :func:`add_bags`
are the one scoring kernel, on plain integers: :func:`score_team` builds the
readable breakdown from them and the Hard player's play-outs call them directly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .legal import NIL
from .rules import BIG_BID, BIG_BID_POINTS, BLIND_NIL_POINTS, DEFAULT, Rules

TRICK_POINTS = 10  # per trick of a contract: won when it is made, lost when it is set
#: Variant 1.0.0's numbers, the defaults of these functions: read from the default rules,
#: their one home (:class:`~spades.rules.Rules`), never written twice.
TARGET = DEFAULT.target  # 500
FLOOR = DEFAULT.floor  # -200
NIL_POINTS = DEFAULT.nil_points  # 100
BAGS_PER_PENALTY = DEFAULT.bag_limit  # 10 bags …
BAG_PENALTY = DEFAULT.bag_penalty  # … cost 100


@dataclass(frozen=True, slots=True)
class NilResult:
    """One nil bid's outcome: made if the bidder took no trick."""

    seat: int
    tricks: int
    made: bool
    points: int
    blind: bool = False


@dataclass(frozen=True, slots=True)
class TeamScore:
    """A team's score breakdown for one hand."""

    team: int
    seats: tuple[int, int]
    bids: tuple[int, int]
    tricks: tuple[int, int]
    contract: int  # sum of the non-nil bids
    contract_tricks: int  # tricks won by the non-nil bidders
    made: bool  # contract made (always true for a contract of 0)
    contract_points: int  # +10 × contract or −10 × contract
    overtricks: int  # tricks over the contract (0 when set)
    nils: tuple[NilResult, ...]
    nil_bags: int  # tricks won by nil bidders, each a bag
    bags: int  # bags taken this hand
    bags_before: int
    penalties: int  # how many bag penalties this hand
    penalty_points: int  # −100 per penalty
    bags_after: int
    delta: int  # this hand's points for the team
    score_before: int
    score_after: int

    def to_dict(self) -> dict:
        """A JSON-ready dictionary (used by saves, the bridge and the CLI)."""
        d = {k: getattr(self, k) for k in self.__dataclass_fields__}
        d["seats"] = list(self.seats)
        d["bids"] = list(self.bids)
        d["tricks"] = list(self.tricks)
        d["nils"] = [
            {"seat": n.seat, "tricks": n.tricks, "made": n.made, "points": n.points}
            | ({"blind": True} if n.blind else {})
            for n in self.nils
        ]
        return d


def hand_points(
    bid_a: int,
    won_a: int,
    bid_b: int,
    won_b: int,
    nil_a: int = NIL_POINTS,
    nil_b: int = NIL_POINTS,
    big_bid: int = 0,
) -> tuple[int, int]:
    """A team's points for one hand before its bags are added (contract and nils), and the bags it
    took.

    The two players' bids and tricks are given apart (plain integers: the play-out
    search calls this for every simulated hand). Tricks won on a nil are bags. House
    rules: ``nil_a``/``nil_b`` are what each nil is worth (a blind nil 200, a half-value
    nil 50); ``big_bid`` > 0 scores a contract of that many tricks or more as ±200.
    """
    contract = taken = nil_points = bags = 0
    if bid_a == NIL:
        if won_a:
            nil_points = -nil_a
            bags = won_a
        else:
            nil_points = nil_a
    else:
        contract = bid_a
        taken = won_a
    if bid_b == NIL:
        if won_b:
            nil_points -= nil_b
            bags += won_b
        else:
            nil_points += nil_b
    else:
        contract += bid_b
        taken += won_b
    value = BIG_BID_POINTS if big_bid and contract >= big_bid else TRICK_POINTS * contract
    if taken >= contract:
        return value + nil_points, bags + taken - contract
    return nil_points - value, bags


def add_bags(
    points: int,
    hand_bags: int,
    bags_before: int,
    per_penalty: int = BAGS_PER_PENALTY,
    penalty: int = BAG_PENALTY,
) -> tuple[int, int]:
    """The hand's full points (+1 per bag, −``penalty`` per ``per_penalty`` bags reached; 0 = never)
    and the team's bag count after it."""
    total = bags_before + hand_bags
    if not per_penalty:
        return points + hand_bags, total
    penalties = total // per_penalty
    return points + hand_bags - penalty * penalties, total - per_penalty * penalties


def score_team(
    team: int,
    bids: tuple[int, int],
    tricks: tuple[int, int],
    score_before: int = 0,
    bags_before: int = 0,
    rules: Rules = DEFAULT,
    blind: tuple[bool, bool] = (False, False),
) -> TeamScore:
    """Score one team's hand from its two players' bids and tricks (seats ``team`` and ``team +
    2``).

    ``rules`` are the match's house rules; ``blind`` says which of the two nils were blind.
    """
    seats = (team, team + 2)
    values = tuple(BLIND_NIL_POINTS if b else rules.nil_points for b in blind)
    points, bags = hand_points(
        bids[0],
        tricks[0],
        bids[1],
        tricks[1],
        values[0],
        values[1],
        BIG_BID if rules.ten_for_200 else 0,
    )
    per = rules.bag_limit
    delta, bags_after = add_bags(points, bags, bags_before, per, rules.bag_penalty)
    nils = tuple(
        NilResult(seat, won, won == 0, value if won == 0 else -value, b)
        for seat, bid, won, value, b in zip(seats, bids, tricks, values, blind)
        if bid == NIL
    )
    contract = sum(bid for bid in bids if bid != NIL)
    nil_bags = sum(n.tricks for n in nils)
    contract_points = points - sum(n.points for n in nils)
    penalties = (bags_before + bags - bags_after) // per if per else 0
    return TeamScore(
        team=team,
        seats=seats,
        bids=bids,
        tricks=tricks,
        contract=contract,
        contract_tricks=sum(won for bid, won in zip(bids, tricks) if bid != NIL),
        made=contract_points >= 0,
        contract_points=contract_points,
        overtricks=bags - nil_bags,
        nils=nils,
        nil_bags=nil_bags,
        bags=bags,
        bags_before=bags_before,
        penalties=penalties,
        penalty_points=-rules.bag_penalty * penalties,
        bags_after=bags_after,
        delta=delta,
        score_before=score_before,
        score_after=score_before + delta,
    )


def team_need(bids: Sequence[int], won: Sequence[int], team: int) -> int:
    """Tricks a team's contract bidders still need this hand (≤ 0 once made).

    ``bids`` and ``won`` are per seat; nil bids and seats yet to bid (negative) need nothing.
    """
    need = 0
    bid = bids[team]
    if bid > NIL:
        need = bid - won[team]
    bid = bids[team + 2]
    if bid > NIL:
        need += bid - won[team + 2]
    return need


def match_winner(
    scores: tuple[int, int], target: int = TARGET, floor: int | None = FLOOR
) -> int | None:
    """The winning team after a hand, or ``None`` if the match goes on.

    The match ends when a team reaches the target or falls to the floor (``None``: no
    floor); the higher score wins, and equal scores mean another hand.
    """
    a, b = scores
    if a == b:
        return None
    if max(a, b) >= target or (floor is not None and min(a, b) <= floor):
        return 0 if a > b else 1
    return None
