"""The coach in the terminal: ``hint`` with its reason, ``why`` on a computer player's last action."""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from spades.ai.explain import CODES, text_params
from spades.cli import game
from spades.cli.reasons import TEXTS, render, sentence
from spades.match import SEAT_NAMES
from spades.session import Session

EN = Path(__file__).resolve().parents[2] / "site" / "i18n" / "en.json"
SAMPLE = {"card": "TH", "cards": ["AS", "KD"], "suit": "D", "suits": ["C", "H"], "seat": 1, "count": 2,
          "tricks": 0.65, "points": -12.5, "percent": 40, "bid": 0,
          "details": [{"code": "est.ace", "params": {"card": "AH", "tricks": 1.0}}],
          "candidates": [{"card": "TH", "value": 3.5, "make": 70}, {"card": "2C", "value": -1.0, "make": 55}]}


def test_terminal_sentences_are_the_english_catalogue() -> None:
    en = json.loads(EN.read_text(encoding="utf-8"))
    assert {k[len("reason."):]: v for k, v in en.items() if k.startswith("reason.")} == TEXTS


def test_every_code_renders_with_its_parameters_filled() -> None:
    for code, kinds in CODES.items():
        reason = {"code": code, "params": {name: SAMPLE[kind] for name, kind in kinds.items()}}
        lines = render(reason, game.pretty)
        assert "{" not in lines[0] and "}" not in lines[0], lines[0]
        if "card" in text_params(code):
            assert "10♥" in lines[0]
        if "details" in kinds:
            assert lines[1] == "  · A♥: a sure trick (1)."
        if "candidates" in kinds:
            assert lines[-1] == "  · 10♥: 3.5 points, contract 70%; 2♣: -1 points, contract 55%"
    assert sentence({"code": "bid.easy", "params": {"bid": 0, "cards": []}}, game.pretty) == \
        "Bid nil: one trick for each ace and king held (none)."
    assert sentence({"code": "lead.attack", "params": {"card": "2C", "seat": 3}}, game.pretty) == \
        "Lead 2♣: a low card that East, who bid nil, has to follow."


def run(session: Session, script: list[str]) -> list[str]:
    """Play ``script`` (then quit) in the terminal; the printed lines."""
    out: list[str] = []
    answers = iter(script)
    args = argparse.Namespace(seed=None, partner=session.partner, opponents=session.opponents)
    assert game.play(args, read=lambda prompt: next(answers, "quit"), out=out.append, session=session) == 0
    return out


def after(out: list[str], marker: str) -> list[str]:
    """The lines printed after the first line containing ``marker``."""
    i = next(i for i, line in enumerate(out) if marker in line)
    return out[i + 1:]


def test_hint_prints_the_action_and_its_reason() -> None:
    session = Session.new(31, partner="normal", opponents="normal")
    twin = Session.from_json(session.to_json())
    for _ in twin.run_bots():
        pass
    expected = twin.explain_hint()                 # the same position, computed apart
    out = run(session, ["hint"])
    hint = after(out, "Your hand:")
    word = "nil" if expected.action == 0 else str(expected.action)
    assert hint[0] == f"  Hint: bid {word}."
    lines = render(expected.reason.to_dict(), game.pretty)
    assert hint[1:1 + len(lines)] == ["  " + line for line in lines]
    assert hint[1].startswith(f"  Bid {word}: ")


def why_block(seat: int, found: tuple) -> list[str]:
    """What ``why`` prints for ``seat``'s last action and reason (as :meth:`Session.why` found them)."""
    action, reason = found
    words = ("bid " + ("nil" if action == 0 else str(action))) if isinstance(action, int) else "play " + game.pretty(action)
    return [f"  {SEAT_NAMES[seat]}: {words}."] + ["  " + line for line in render(reason.to_dict(), game.pretty)]


def test_why_explains_the_last_computer_action_and_a_named_players() -> None:
    session = Session.new(8, partner="normal", opponents="easy")
    twin = Session.from_json(session.to_json())     # the same moves, computed apart
    events = list(twin.run_bots())
    first = why_block(events[-1]["seat"], twin.why(events[-1]["seat"])) if events else \
        ["  No computer player has acted yet."]
    twin.act(2)
    replies = list(twin.run_bots())
    north = why_block(2, twin.why(2))
    latest = replies[-1]["seat"] if replies else events[-1]["seat"]
    final = why_block(latest, twin.why(latest))
    out = run(session, ["why", "2", "why north", "why south", "why x y", "why"])
    start = next(i for i, line in enumerate(out) if "Your hand:" in line) + 1
    assert out[start:start + len(first)] == first
    i = out.index(north[0])
    assert out[i:i + len(north)] == north
    refusals = [line for line in out if line.startswith("  ✗ Ask 'why'")]
    assert len(refusals) == 2                       # 'why south' (the human) and 'why x y'
    j = max(k for k, line in enumerate(out) if line == final[0])      # the last 'why': the latest action
    assert j > i and out[j:j + len(final)] == final
