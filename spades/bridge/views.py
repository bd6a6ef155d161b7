"""The JSON views the bridge's messages share: an action, and a match's hands as records.

A reply is plain JSON; these build the parts more than one message returns. The table as
one seat sees it is :meth:`spades.session.Session.state_for` (the terminal shows it too), a
completed hand's record :meth:`spades.HandRecord.to_dict`.
"""

from __future__ import annotations

from typing import Any

from ..legal import BLIND_NIL
from ..match import ACTIONS_PER_HAND, OVER, Match


def action(taken: int | str) -> dict[str, Any]:
    """A bid (a number, or the blind-nil action ``"blind"``) as ``{"bid"}``, a card as
    ``{"card"}``."""
    return {"bid": taken} if isinstance(taken, int) or taken == BLIND_NIL else {"card": taken}


def partial_record(m: Match) -> dict[str, Any]:
    """The hand in progress as a record: its deal, bids and tricks so far, ``"scores": null``."""
    tricks = [t.to_dict() for t in m.tricks]
    if m.trick is not None:
        tricks.append(m.trick.to_dict())
    return {
        "number": m.hand_number,
        "dealer": m.dealer,
        "deal": [m.dealt(s) for s in range(4)],
        "bids": list(m.bids),
        "tricks": tricks,
        "scores": None,
    } | ({"blind": list(m.blind)} if any(m.blind) else {})


def match_records(m: Match) -> list[dict[str, Any]]:
    """Every hand of ``m`` as a record, the hand in progress last (once begun, or when no hand is
    complete)."""
    records = [r.to_dict() for r in m.hands_played]
    if m.phase != OVER and (len(m.actions) > ACTIONS_PER_HAND * len(m.hands_played) or not records):
        records.append(partial_record(m))
    return records
