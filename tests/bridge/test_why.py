"""The coach in a session and at the bridge: the hint's reason, and "why" on a computer player's last action."""
from __future__ import annotations

import json
import random

import pytest

from spades import IllegalAction, bridge
from spades.ai import bot
from spades.ai.explain import param_kinds
from spades.errors import BadRequest
from spades.session import Session
from tests.ai.test_explain import check_reason


def drive(session: Session, rnd: random.Random, steps: int, record: dict) -> None:
    """Play ``steps`` actions: bots one at a time (recording each one's explanation just before it
    acts, from a separately made twin of its bot), the human at random."""
    m = session.match
    for _ in range(steps):
        if m.phase == "over":
            return
        seat = m.to_act
        if seat in session.humans:
            session.act(rnd.choice(m.legal_bids() if m.phase == "bid" else m.legal_cards()))
            continue
        b = session.bots[seat]
        twin = bot(b.level, seed=b.seed)
        record[seat] = twin.explain(m.view(seat))
        event = session.bot_step()
        assert event.get("bid", event.get("card")) == record[seat].action


@pytest.mark.parametrize("partner, opponents, steps", [("normal", "easy", 400), ("hard", "normal", 60)])
def test_why_gives_the_reason_the_bot_had_when_it_acted(partner: str, opponents: str, steps: int) -> None:
    session = Session.new(11, partner=partner, opponents=opponents)
    rnd = random.Random(3)
    record: dict = {}
    for _ in range(steps // 20):
        drive(session, rnd, 20, record)
        before = session.to_json()
        # the session that played, and the same session restored from its save (no reasons kept:
        # each is recomputed from the view the seat had before it acted)
        restored = Session.from_json(before)
        assert not restored.explained
        for s in (session, restored):
            for seat in (1, 2, 3):
                found = s.why(seat)
                if seat not in record:
                    assert found is None
                    continue
                action, reason = found
                assert action == record[seat].action
                assert reason == record[seat].reason
                check_reason(reason.to_dict())
        assert session.to_json() == restored.to_json() == before          # asking changes nothing


def test_why_after_undo_explains_the_new_last_action() -> None:
    session = Session.new(4, partner="normal", opponents="normal")
    m = session.match
    record: dict = {}
    drive(session, random.Random(1), 12, record)     # the bids and a few cards
    while m.to_act != 0:
        drive(session, random.Random(1), 1, record)
    mine = dict(record)
    session.act(m.legal_cards()[0])
    while m.to_act != 0:                             # the bots answer the human's card
        drive(session, random.Random(1), 1, record)
    assert record[1] is not mine[1]                  # seat 1 acted after the human
    assert session.why(1) == (record[1].action, record[1].reason)
    session.undo_mine()
    # the bots' replies are taken back: seat 1's last action is from before the human's card again
    assert session.why(1) == (mine[1].action, mine[1].reason)
    assert max(session.explained) < len(m.actions)


def test_why_refuses_human_and_non_seats() -> None:
    session = Session.new(2)
    with pytest.raises(BadRequest) as human:
        session.why(0)
    assert human.value.code == "bad_args"
    for bad in (4, -1, "1", True, None, 1.0):
        with pytest.raises(IllegalAction) as info:
            session.why(bad)
        assert info.value.code == "bad_argument"


def test_hint_reason_is_the_hint_bots_own() -> None:
    session = Session.new(9, partner="normal", opponents="normal")
    for _ in session.run_bots():
        pass
    explained = session.explain_hint("normal")
    assert explained.action == session.hint("normal")
    assert explained == bot("normal", session.hint_seed()).explain(session.match.view(0))


def call(fn: str, **args) -> dict:
    reply = json.loads(bridge.handle(json.dumps({"fn": fn, "args": args}), sid="why-test"))
    return reply


def test_bridge_hint_and_why_replies() -> None:
    assert "why" in bridge.HANDLERS and "``why {seat}``" in bridge.__doc__
    assert call("hello")["result"]["reason_kinds"] == param_kinds()
    assert call("new_match", seed=21, partner="normal", opponents="easy")["ok"]
    assert call("why", seat=2)["result"] == {"seat": 2, "action": None, "reason": None}
    events = call("run_bots")["result"]["events"]
    hint = call("hint", level="normal")["result"]
    assert set(hint) == {"level", "action", "reason"} and hint["level"] == "normal"
    check_reason(hint["reason"])
    expected = bridge.SESSIONS["why-test"].hint("normal")
    assert hint["action"] == ({"bid": expected} if isinstance(expected, int) else {"card": expected})
    if "bid" in hint["action"]:
        assert call("bid", n=hint["action"]["bid"])["ok"]
    else:
        assert call("play", card=hint["action"]["card"])["ok"]
    events += call("run_bots")["result"]["events"]
    last = {e["seat"]: ({"bid": e["bid"]} if e["kind"] == "bid" else {"card": e["card"]}) for e in events}
    assert set(last) == {1, 2, 3}
    for seat, action in last.items():
        why = call("why", seat=seat)["result"]
        assert why["seat"] == seat and why["action"] == action
        check_reason(why["reason"])
    refused = call("why", seat=0)
    assert refused == {"ok": False, "error": {"code": "bad_args", "message": refused["error"]["message"]}}
    assert call("why", seat="x")["error"]["code"] == "bad_argument"
    assert call("why")["error"]["code"] == "bad_argument"
    bridge.SESSIONS.pop("why-test", None)
