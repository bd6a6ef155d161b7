"""Hard's simulated bids against the table: how often a bid made in the simulation is made in play.

A measurement, not a test. Plays matches of ``--level`` (team A, both orientations of each
seed, as the arena does) against ``--against``; every bid A's players make by simulation
(reason ``bid.simulated``: the share of simulated deals in which the bid was made) is
recorded with what happened at the table: for a nil, whether the nil bidder took no trick; for
a contract, whether the team made its contract. Prints, per band of the simulated share, the
bids and the share really made, for nils and contracts apart (a well calibrated simulation
makes them close), and the nils bid per hand.

A contract of a team without a nil is also judged double-dummy at the first lead (the
solver's trick value, every card visible, best play by both teams): whether the cards held it
at all. The contract figures then split the sets into those the cards could not make (the bid
was too high for any play) and those lost in play (the cards held it; the play did not).

    python tools/calibrate_bids.py [--level hard] [--against normal] [--matches 40] [--seed 1]
        [--max-hands 60] [--json]
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from spades import HandRecord, Match
from spades.ai import bot
from spades.cli.arena import SEED_STRIDE
from spades.legal import NIL
from spades.solver import Position, Solver

BANDS = (0, 50, 60, 70, 80, 90, 95, 101)  # band edges of the simulated share, in percent


def made_at_table(rec: HandRecord, seat: int, kind: str) -> bool:
    """Whether ``seat``'s bid of ``kind`` held in the hand ``rec``: for a nil, the nil scored as
    made (its bidder took no trick); for a contract, the team's contract was made."""
    team = rec.scores[seat % 2]
    if kind == "nil":
        return next(n.made for n in team.nils if n.seat == seat)
    return team.made


def makeable_tricks(m: Match, team: int) -> int:
    """The tricks ``team`` takes with best play by both teams, every card visible, from the
    match's position in the play (the solver's trick value)."""
    pos = Position.from_match(m)
    team0 = Solver(pos.bids, pos.bags).tricks(pos)  # team 0's further tricks
    further = team0 if team == 0 else pos.hands[pos.to_act].bit_count() - team0
    return m.tricks_won[team] + m.tricks_won[team + 2] + further


def play(level: str, against: str, seed: int, orientation: int, max_hands: int) -> list[tuple]:
    """One match; (kind, simulated share, made at the table, makeable) for each of A's simulated
    bids: makeable is whether the team's contract was makeable double-dummy at the first lead
    (``None`` for a nil and for a contract beside a nil)."""
    levels = [level if s % 2 == orientation else against for s in range(4)]
    players = [bot(lv, seed=seed * 4 + s) for s, lv in enumerate(levels)]
    m = Match(seed=seed)
    rows: list[tuple] = []
    pending: list[tuple[int, str, int]] = []  # (seat, kind, simulated share) of this hand
    dd_tricks: int | None = None  # team A's double-dummy tricks at this hand's first lead
    while m.phase != "over" and len(m.hands_played) < max_hands:
        seat = m.to_act
        first_lead = m.phase == "play" and not m.tricks and m.trick is None
        judged = NIL not in (m.bids[orientation], m.bids[orientation + 2])  # no nil on team A
        if first_lead and judged and any(k == "contract" for _, k, _ in pending):
            dd_tricks = makeable_tricks(m, orientation)
        e = players[seat].explain(m.view(seat))
        if m.phase == "bid" and seat % 2 == orientation and e.reason.code == "bid.simulated":
            kind = "nil" if e.action == 0 else "contract"
            pending.append((seat, kind, e.reason.params["make"]))
        hands = len(m.hands_played)
        m.act(e.action, seat=seat)
        if len(m.hands_played) > hands:
            rec = m.hands_played[-1]
            contract = rec.scores[orientation].contract
            makeable = None if dd_tricks is None else dd_tricks >= contract
            rows.extend(
                (kind, share, made_at_table(rec, s, kind), makeable if kind == "contract" else None)
                for s, kind, share in pending
            )
            pending, dd_tricks = [], None
    return rows


def pct(part: int, whole: int) -> float | None:
    """``part`` of ``whole`` in percent, one decimal (``None`` of nothing)."""
    return round(100 * part / whole, 1) if whole else None


def summary(rows: list[tuple]) -> dict:
    """Per kind (nil, contract): the bids, the simulated and the real share made, per band of the
    simulated share; for contracts also the share makeable double-dummy and the sets split into
    not makeable and lost in play (a contract beside a nil is not judged). Every figure counts
    bids: a contract both partners bid by simulation counts twice."""
    out: dict = {}
    for kind in ("nil", "contract"):
        mine = [r for r in rows if r[0] == kind]
        table = {}
        for lo, hi in itertools.pairwise(BANDS):
            got = [r for r in mine if lo <= r[1] < hi]
            if got:
                band = {"bids": len(got), "made_pct": pct(sum(r[2] for r in got), len(got))}
                judged = [r[3] for r in got if r[3] is not None]
                if kind == "contract":
                    band["makeable_pct"] = pct(sum(judged), len(judged))
                table[f"{lo}-{min(hi, 100)}"] = band
        out[kind] = {
            "bids": len(mine),
            "simulated_pct": round(sum(r[1] for r in mine) / max(1, len(mine)), 1),
            "made_pct": pct(sum(r[2] for r in mine), len(mine)),
            "bands": table,
        }
        if kind == "contract":
            judged_rows = [r for r in mine if r[3] is not None]
            good = [r for r in judged_rows if r[3]]
            bad = [r for r in judged_rows if not r[3]]
            out[kind] |= {
                "makeable_pct": pct(len(good), len(judged_rows)),
                "made_when_makeable_pct": pct(sum(r[2] for r in good), len(good)),
                "made_when_not_makeable_pct": pct(sum(r[2] for r in bad), len(bad)),
                "sets": {
                    "not_makeable": sum(not r[2] for r in bad),
                    "lost_in_play": sum(not r[2] for r in good),
                    "beside_nil": sum(not r[2] for r in mine if r[3] is None),
                },
            }
    return out


def main() -> None:
    """Command-line entry."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--level", default="hard")
    ap.add_argument("--against", default="normal")
    ap.add_argument("--matches", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-hands", type=int, default=60)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows: list[tuple] = []
    for i in range((args.matches + 1) // 2):
        for o in (0, 1):
            got = play(args.level, args.against, args.seed * SEED_STRIDE + i, o, args.max_hands)
            rows.extend(got)
    out = {"level": args.level, "against": args.against, "matches": args.matches}
    out |= summary(rows)
    print(json.dumps(out) if args.json else json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
