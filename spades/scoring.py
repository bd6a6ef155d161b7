"""Scoring a hand and deciding the end of the match: pure functions.

The rules are the project's rules page, ``site/rules/en.html`` (sections
"Scoring a hand" and "End of the match"). :func:`hand_points` and :func:`add_bags`
are the one scoring kernel, on plain integers: :func:`score_team` builds the
readable breakdown from them and the Hard player's play-outs call them directly.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .rules import NIL

TARGET = 500
FLOOR = -200
TRICK_POINTS = 10          # per trick of a contract: won when it is made, lost when it is set
NIL_POINTS = 100
BAGS_PER_PENALTY = 10
BAG_PENALTY = 100


@dataclass(frozen=True, slots=True)
class NilResult:
    """One nil bid's outcome: made if the bidder took no trick."""

    seat: int
    tricks: int
    made: bool
    points: int


@dataclass(frozen=True, slots=True)
class TeamScore:
    """A team's score breakdown for one hand."""

    team: int
    seats: tuple[int, int]
    bids: tuple[int, int]
    tricks: tuple[int, int]
    contract: int            # sum of the non-nil bids
    contract_tricks: int     # tricks won by the non-nil bidders
    made: bool               # contract made (always true for a contract of 0)
    contract_points: int     # +10 × contract or −10 × contract
    overtricks: int          # tricks over the contract (0 when set)
    nils: tuple[NilResult, ...]
    nil_bags: int            # tricks won by nil bidders, each a bag
    bags: int                # bags taken this hand
    bags_before: int
    penalties: int           # how many bag penalties this hand
    penalty_points: int      # −100 per penalty
    bags_after: int
    delta: int               # this hand's points for the team
    score_before: int
    score_after: int

    def to_dict(self) -> dict:
        """A JSON-ready dictionary (used by saves, the bridge and the CLI)."""
        d = {k: getattr(self, k) for k in self.__dataclass_fields__}
        d["seats"] = list(self.seats)
        d["bids"] = list(self.bids)
        d["tricks"] = list(self.tricks)
        d["nils"] = [{"seat": n.seat, "tricks": n.tricks, "made": n.made, "points": n.points}
                     for n in self.nils]
        return d


def hand_points(bid_a: int, won_a: int, bid_b: int, won_b: int) -> tuple[int, int]:
    """A team's points for one hand before its bags are added (contract and nils), and the bags it took.

    The two players' bids and tricks are given apart (plain integers: the play-out
    search calls this for every simulated hand). Tricks won on a nil are bags.
    """
    contract = taken = nil_points = bags = 0
    if bid_a == NIL:
        if won_a:
            nil_points = -NIL_POINTS
            bags = won_a
        else:
            nil_points = NIL_POINTS
    else:
        contract = bid_a
        taken = won_a
    if bid_b == NIL:
        if won_b:
            nil_points -= NIL_POINTS
            bags += won_b
        else:
            nil_points += NIL_POINTS
    else:
        contract += bid_b
        taken += won_b
    if taken >= contract:
        return TRICK_POINTS * contract + nil_points, bags + taken - contract
    return nil_points - TRICK_POINTS * contract, bags


def add_bags(points: int, hand_bags: int, bags_before: int) -> tuple[int, int]:
    """The hand's full points (+1 per bag, −100 per ten bags reached) and the team's bag count after it."""
    total = bags_before + hand_bags
    penalties = total // BAGS_PER_PENALTY
    return points + hand_bags - BAG_PENALTY * penalties, total - BAGS_PER_PENALTY * penalties


def score_team(team: int, bids: tuple[int, int], tricks: tuple[int, int],
               score_before: int = 0, bags_before: int = 0) -> TeamScore:
    """Score one team's hand from its two players' bids and tricks (seats ``team`` and ``team + 2``)."""
    seats = (team, team + 2)
    points, bags = hand_points(bids[0], tricks[0], bids[1], tricks[1])
    delta, bags_after = add_bags(points, bags, bags_before)
    nils = tuple(NilResult(seat, won, won == 0, NIL_POINTS if won == 0 else -NIL_POINTS)
                 for seat, bid, won in zip(seats, bids, tricks) if bid == NIL)
    contract = sum(bid for bid in bids if bid != NIL)
    nil_bags = sum(n.tricks for n in nils)
    contract_points = points - sum(n.points for n in nils)
    penalties = (bags_before + bags - bags_after) // BAGS_PER_PENALTY
    return TeamScore(
        team=team, seats=seats, bids=bids, tricks=tricks, contract=contract,
        contract_tricks=sum(won for bid, won in zip(bids, tricks) if bid != NIL),
        made=contract_points >= 0, contract_points=contract_points,
        overtricks=bags - nil_bags, nils=nils, nil_bags=nil_bags, bags=bags,
        bags_before=bags_before, penalties=penalties, penalty_points=-BAG_PENALTY * penalties,
        bags_after=bags_after, delta=delta, score_before=score_before, score_after=score_before + delta)


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


def match_winner(scores: tuple[int, int]) -> int | None:
    """The winning team after a hand, or ``None`` if the match goes on.

    The match ends when a team reaches the target or falls to the floor; the higher
    score wins, and equal scores mean another hand.
    """
    a, b = scores
    if a == b:
        return None
    if max(a, b) >= TARGET or min(a, b) <= FLOOR:
        return 0 if a > b else 1
    return None
