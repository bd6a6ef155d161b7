"""Scoring a hand and deciding the end of the match: pure functions.

See RULES.md "Scoring a hand" and "End of the match".
"""
from __future__ import annotations

from dataclasses import dataclass

TARGET = 500
FLOOR = -200
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


def score_team(team: int, bids: tuple[int, int], tricks: tuple[int, int],
               score_before: int = 0, bags_before: int = 0) -> TeamScore:
    """Score one team's hand from its two players' bids and tricks (seats ``team`` and ``team + 2``)."""
    seats = (team, team + 2)
    contract = 0
    contract_tricks = 0
    nils = []
    nil_bags = 0
    for seat, bid, won in zip(seats, bids, tricks):
        if bid == 0:
            made = won == 0
            nils.append(NilResult(seat, won, made, NIL_POINTS if made else -NIL_POINTS))
            nil_bags += won
        else:
            contract += bid
            contract_tricks += won
    made = contract_tricks >= contract
    if made:
        contract_points = 10 * contract
        overtricks = contract_tricks - contract
    else:
        contract_points = -10 * contract
        overtricks = 0
    bags = overtricks + nil_bags
    total_bags = bags_before + bags
    penalties = total_bags // BAGS_PER_PENALTY
    penalty_points = -BAG_PENALTY * penalties
    delta = contract_points + bags + sum(n.points for n in nils) + penalty_points
    return TeamScore(
        team=team, seats=seats, bids=bids, tricks=tricks, contract=contract,
        contract_tricks=contract_tricks, made=made, contract_points=contract_points,
        overtricks=overtricks, nils=tuple(nils), nil_bags=nil_bags, bags=bags,
        bags_before=bags_before, penalties=penalties, penalty_points=penalty_points,
        bags_after=total_bags - BAGS_PER_PENALTY * penalties, delta=delta,
        score_before=score_before, score_after=score_before + delta)


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
