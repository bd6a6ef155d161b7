"""No hidden card in a reason: "why" and the hint, asked through the bridge at every decision.

Matches are played through the bridge under every house-rules preset; before each decision
the page asks ``why`` for every computer seat (and, at the human's turns, a hint) and every
reply is searched for card names. While a hand is being played, a card name may be only one
the human may know: a card played in this hand or one of the human's own (during the bidding:
only the human's own; none while its cards are face down). Once the seat's last action
belongs to a completed hand, every card of that hand has been shown and any may be named.
The reasons' params are checked too, part by part: no part that describes a computer seat's
hidden hand (``HAND_CODES``) reaches the human.
"""
from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from spades import bridge
from spades.ai.explain import CODES, HAND_CODES, card_names
from spades.cards import ALL_CARD_NAMES
from spades.rules import PRESETS
from spades.session import Session, action_seats

SID = "leak-test"
CARDS = frozenset(ALL_CARD_NAMES)
#: Bot levels the fast test cycles through (Hard's search is slow: it plays in a few hands only).
FAST_LEVELS = (("easy", "normal"), ("normal", "easy"), ("normal", "normal"), ("easy", "easy"))


def call(fn: str, **args: Any) -> dict[str, Any]:
    reply = json.loads(bridge.handle(json.dumps({"fn": fn, "args": args}), sid=SID))
    assert reply["ok"], reply
    return reply["result"]


def strings(value: Any) -> list[str]:
    """Every string anywhere in a JSON value (keys and values)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in strings(k) + strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def parts(reason: dict[str, Any]) -> list[dict[str, Any]]:
    """A reason and its nested details, depth first."""
    kinds = CODES[reason["code"]]
    found = [reason]
    for name, value in reason["params"].items():
        if kinds[name] == "details":
            for detail in value:
                found += parts(detail)
    return found


def last_in_play(session: Session, seat: int) -> bool:
    """Whether ``seat``'s last action is in the hand still being played."""
    seats = action_seats(session.match)
    last = max((i for i, s in enumerate(seats) if s == seat), default=None)
    return last is not None and last >= session.completed_actions()


def check(reply: dict[str, Any], reason: dict[str, Any] | None, known: frozenset[str], counts: Counter,
          hand_hidden: bool = False) -> None:
    """Count the reply and its reason; no card name outside ``known``, and no part describing the
    deciding seat's hand when that hand is hidden from the listener (``hand_hidden``)."""
    counts["replies"] += 1
    outside = [s for s in strings(reply) if s in CARDS and s not in known]
    counts["outside"] += len(outside)
    assert outside == [], (reply, sorted(known))
    if reason is None:
        return
    for part in parts(reason):
        counts["reasons"] += 1
        assert set(part["params"]) <= set(CODES[part["code"]]), part
        assert all(c in known for c in card_names(part)), (part, sorted(known))
        counts["hand_parts"] += hand_hidden and part["code"] in HAND_CODES
        assert not (hand_hidden and part["code"] in HAND_CODES), part


def play_matches(presets: list[str], seeds: range, levels: list[tuple[str, str]], hands: int,
                 rnd: random.Random) -> Counter:
    """Play ``hands`` hands of a match per (preset, seed) through the bridge, asking why and hints everywhere."""
    counts: Counter = Counter()
    for preset in presets:
        for i, seed in enumerate(seeds):
            partner, opponents = levels[i % len(levels)]
            call("new_match", seed=seed, partner=partner, opponents=opponents, rules=preset)
            session = bridge.SESSIONS[SID]
            m = session.match
            counts["matches"] += 1
            while m.phase != "over" and m.hand_number <= hands:
                for seat in (1, 2, 3):
                    why = call("why", seat=seat)
                    counts["whys"] += 1
                    if last_in_play(session, seat):
                        check(why, why["reason"], session.known_cards(0), counts, hand_hidden=True)
                    else:
                        check(why, why["reason"], CARDS, counts)      # that hand is over: all shown
                if m.to_act == 0:
                    if not session.cards_hidden(0):
                        hint = call("hint", level=rnd.choice(("easy", "normal")))
                        check(hint, hint["reason"], session.known_cards(0), counts)
                    action = rnd.choice(m.legal_bids() if m.phase == "bid" else m.legal_cards())
                    if isinstance(action, str) and action != "blind":
                        call("play", card=action)
                    else:
                        call("bid", n=action)
                else:
                    call("bot_step")
                counts["decisions"] += 1
    bridge.SESSIONS.pop(SID, None)
    return counts


def report(counts: Counter) -> None:
    print(f"\nleaks: {counts['matches']} matches, {counts['decisions']} decisions, {counts['whys']} why calls, "
          f"{counts['replies']} replies and {counts['reasons']} reasons checked, "
          f"{counts['outside']} card names outside what the listener may know, "
          f"{counts['hand_parts']} parts describing a hidden hand")


def test_no_reason_or_reply_names_a_hidden_card() -> None:
    """24 matches (4 per preset, Easy and Normal seats), the first hand of each; then a Hard match's first hand."""
    presets = sorted(PRESETS)
    assert len(presets) * 4 >= 24
    counts = play_matches(presets, range(1, 5), list(FAST_LEVELS), hands=1, rnd=random.Random(30))
    counts += play_matches(["1.0.0"], range(7, 8), [("hard", "hard")], hands=1, rnd=random.Random(31))
    report(counts)
    assert counts["matches"] == 25 and counts["outside"] == counts["hand_parts"] == 0
    assert counts["reasons"] > 1000 and counts["replies"] > 1000


@pytest.mark.slow
def test_no_hidden_card_over_whole_matches_slow() -> None:
    """Whole matches under every preset, with Hard seats as well."""
    levels = list(FAST_LEVELS) + [("hard", "normal"), ("normal", "hard")]
    counts = play_matches(sorted(PRESETS), range(1, 7), levels, hands=99, rnd=random.Random(32))
    report(counts)
    assert counts["outside"] == counts["hand_parts"] == 0 and counts["matches"] == 6 * len(PRESETS)
