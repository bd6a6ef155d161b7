"""Hard's simulated bids against the table: how often a bid made in the simulation is made in play.

A measurement, not a test. Plays matches of ``--level`` (team A, both orientations of each
seed, as the arena does) against ``--against``; every bid A's players make by simulation
(reason ``bid.simulated``: the share of simulated deals in which the bid was made) is
recorded with what happened at the table: for a nil, whether the nil bidder took no trick; for
a contract, whether the team made its contract. Prints, per band of the simulated share, the
bids and the share really made, for nils and contracts apart (a well calibrated simulation
makes them close), and the nils bid per hand.

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

BANDS = (0, 50, 60, 70, 80, 90, 95, 101)  # band edges of the simulated share, in percent


def made_at_table(rec: HandRecord, seat: int, kind: str) -> bool:
    """Whether ``seat``'s bid of ``kind`` held in the hand ``rec``: for a nil, the nil scored as
    made (its bidder took no trick); for a contract, the team's contract was made."""
    team = rec.scores[seat % 2]
    if kind == "nil":
        return next(n.made for n in team.nils if n.seat == seat)
    return team.made


def play(level: str, against: str, seed: int, orientation: int, max_hands: int) -> list[tuple]:
    """One match; (kind, simulated share, made at the table) for each of A's simulated bids."""
    levels = [level if s % 2 == orientation else against for s in range(4)]
    players = [bot(lv, seed=seed * 4 + s) for s, lv in enumerate(levels)]
    m = Match(seed=seed)
    rows: list[tuple] = []
    pending: list[tuple[int, str, int]] = []  # (seat, kind, simulated share) of this hand
    while m.phase != "over" and len(m.hands_played) < max_hands:
        seat = m.to_act
        e = players[seat].explain(m.view(seat))
        if m.phase == "bid" and seat % 2 == orientation and e.reason.code == "bid.simulated":
            kind = "nil" if e.action == 0 else "contract"
            pending.append((seat, kind, e.reason.params["make"]))
        hands = len(m.hands_played)
        m.act(e.action, seat=seat)
        if len(m.hands_played) > hands:
            rec = m.hands_played[-1]
            rows.extend((kind, share, made_at_table(rec, s, kind)) for s, kind, share in pending)
            pending = []
    return rows


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
    out: dict = {"level": args.level, "against": args.against, "matches": args.matches}
    for kind in ("nil", "contract"):
        mine = [r for r in rows if r[0] == kind]
        table = {}
        for lo, hi in itertools.pairwise(BANDS):
            name = f"{lo}-{min(hi, 100)}"
            got = [made for _, share, made in mine if lo <= share < hi]
            if got:
                table[name] = {"bids": len(got), "made_pct": round(100 * sum(got) / len(got), 1)}
        out[kind] = {
            "bids": len(mine),
            "simulated_pct": round(sum(r[1] for r in mine) / max(1, len(mine)), 1),
            "made_pct": round(100 * sum(r[2] for r in mine) / max(1, len(mine)), 1),
            "bands": table,
        }
    print(json.dumps(out) if args.json else json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
