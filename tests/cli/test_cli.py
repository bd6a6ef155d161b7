"""The command line: ``bench`` as a subprocess, ``play`` driven by a scripted ``read``.

``spades.cli.game.play`` is given a ``read`` function that answers prompts (bids, cards, junk, undo,
hint, quit), an ``out`` that records every line, and the :class:`~spades.session.Session`
to play, so that the test can compute the engine's own refusal messages and compare
positions; the script itself only reads the prompts.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from spades import IllegalAction, Match, cli
from spades.cli import bench, game
from spades.session import Session

ROOT = Path(__file__).resolve().parents[2]
SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def test_bench_json_subprocess():
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.run([sys.executable, "-m", "spades", "bench", "--json", "--seconds", "0.2", "--repeats", "1"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert isinstance(result, dict)
    assert isinstance(result["hands_per_second"], int) and result["hands_per_second"] > 0
    assert len(result["repeats"]) == 1 and result["repeats"][0] > 0


def test_play_subprocess_quits_cleanly():
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.run([sys.executable, "-m", "spades", "play", "--seed", "crocodile", "--partner", "easy",
                           "--opponents", "easy"], input="quit\n", cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("Spades ") and "Your hand:" in proc.stdout and not proc.stderr


def test_bench_in_process_text_and_json():
    lines = []
    args = argparse.Namespace(seconds=0.05, repeats=2, seed=3, json=False)
    assert bench.bench(args, out=lines.append) == 0
    assert re.fullmatch(r"\d+ full hands per second \(median of 2: \[\d+, \d+\]\)", lines[0])
    lines.clear()
    assert bench.bench(argparse.Namespace(seconds=0.05, repeats=1, seed=3, json=True), out=lines.append) == 0
    assert json.loads(lines[0])["hands_per_second"] > 0


# -- play, scripted ------------------------------------------------------------------------------------

def prompt_cards(prompt):
    inside = re.search(r"\((.*)\)", prompt).group(1)
    cards = []
    for token in inside.split():
        rank, suit = token[:-1], SYMBOLS[token[-1]]
        cards.append(("T" if rank == "10" else rank) + suit)
    return cards


def refusal_message(m, action):
    with pytest.raises(IllegalAction) as info:
        action(m.copy())
    return info.value.message


def play_args(seed, level="easy"):
    return argparse.Namespace(seed=seed, partner=level, opponents=level)


def new_session(seed, level="easy"):
    return Session.new(seed, partner=level, opponents=level)


HAND_OVER = re.compile(r"\bHand (\d+) is over\.")


def refusals(out):
    return [line[len("  ✗ "):] for line in out if line.startswith("  ✗ ")]


def test_play_a_hand_with_refusals_and_undo():
    session = new_session(17)
    m = session.match
    out = []
    expected = []          # refusal messages the script provokes, from the engine itself
    answers: list[str] = []
    state = {"bids": 0, "cards": 0, "undone": False, "snapshot": None, "last_prompt": None,
             "junk_done": False, "after_undo_checked": False}

    def read(prompt):
        assert m.to_act == 0 and m.phase in ("bid", "play")
        if m.hands_played:
            return "quit"
        if answers:
            return answers.pop(0)
        if m.phase == "bid":
            assert prompt.startswith("Your bid")
            state["bids"] += 1
            if state["bids"] == 1:
                expected.append(refusal_message(m, lambda x: x.bid(14, seat=0)))
                answers.extend(["14", "3"])
                return "banana"
            raise AssertionError("asked for a second bid")
        legal = prompt_cards(prompt)
        assert set(legal) == set(m.legal_cards())
        if state["undone"] and not state["after_undo_checked"]:
            # back at the position before the card that was taken back
            assert m.to_json() == state["snapshot"] and prompt == state["last_prompt"]
            state["after_undo_checked"] = True
        if not state["junk_done"]:
            state["junk_done"] = True
            other = m.hand(1)[0]
            expected.append(refusal_message(m, lambda x: x.play("ZZ", seat=0)))
            expected.append(refusal_message(m, lambda x: x.play(other, seat=0)))
            answers.extend([other.lower()])
            illegal = sorted(set(m.hand(0)) - set(legal))
            if illegal:
                expected.append(refusal_message(m, lambda x: x.play(illegal[0], seat=0)))
                answers.append(illegal[0])
            answers.append("help")
            return "ZZ"
        state["cards"] += 1
        if state["cards"] == 3 and not state["undone"]:
            state["undone"] = True
            return "undo"
        state["snapshot"], state["last_prompt"] = m.to_json(), prompt
        card = legal[0]
        return ("10" + card[1].lower()) if card[0] == "T" else card

    assert game.play(play_args(17), read=read, out=out.append, session=session) == 0
    assert [int(n) for line in out for n in HAND_OVER.findall(line)] == [1]
    shown = refusals(out)
    assert any("banana" in r for r in shown)        # junk bid: refused with a message
    for message in expected:                         # the engine's own messages
        assert message in shown, message
    assert len(expected) >= 3
    assert state["after_undo_checked"]
    assert any("undo" in line and "quit" in line for line in out)  # the help text
    record = m.hands_played[0]
    assert record.bids[0] == 3
    assert sum(1 for line in out if line.startswith("  You play ")) == 13 + 1  # one card taken back
    for s in record.scores:
        assert any(f"contract {s.contract}," in line and f"{s.delta:+d}, total {s.score_after}" in line
                   for line in out), s
    assert Match.from_json(m.to_json()) == m


def test_play_to_the_end_of_a_match():
    out = []
    session = new_session(5)
    m = session.match

    def read(prompt):
        if m.phase == "bid":
            return "nil" if m.hand_number % 5 == 0 else "2"
        return prompt_cards(prompt)[-1]

    assert game.play(play_args(5), read=read, out=out.append, session=session) == 0
    assert m.phase == "over"
    assert out[-1] == (f"Match over: {'you and your partner win' if m.winner == 0 else 'the opponents win'} "
                       f"{max(m.scores)} to {min(m.scores)}.")
    numbers = [int(n) for line in out for n in HAND_OVER.findall(line)]
    assert numbers == list(range(1, len(m.hands_played) + 1))
    assert all(r.bids[0] == (0 if r.number % 5 == 0 else 2) for r in m.hands_played)
    assert not refusals(out)


def test_play_quits_on_end_of_input_and_on_quit():
    out = []

    def eof(prompt):
        raise EOFError

    assert game.play(play_args(1), read=eof, out=out.append, session=new_session(1)) == 0
    assert out[-1].strip() == "Bye."
    out.clear()
    session = new_session(1)
    assert game.play(play_args(1), read=lambda p: "q", out=out.append, session=session) == 0
    assert session.match.bids[0] is None and not refusals(out)
    assert out[0].startswith("Spades ") and "South" in out[0]


def test_undo_before_any_move_of_the_human_is_refused():
    out = []
    answers = iter(["undo", "quit"])
    session = new_session(2)
    assert game.play(play_args(2), read=lambda p: next(answers), out=out.append, session=session) == 0
    m = session.match
    assert m.phase == "bid" and m.to_act == 0 and m.bids[0] is None
    with pytest.raises(IllegalAction) as info:
        new_session(2).undo_mine()
    assert info.value.code == "nothing_to_undo"
    assert refusals(out) == [info.value.message]
    # the bots' bids before South's turn are still there
    assert all(m.bids[s] is not None for s in range(m.dealer + 1, 4))


def test_undo_at_the_start_of_a_hand_takes_back_the_last_card_of_the_previous_one():
    """The terminal and the page share one undo: the player's last action, across a hand boundary too."""
    session = new_session(4)
    m = session.match
    seen = {}

    def read(prompt):
        if m.hands_played and "undone" not in seen:
            seen["undone"] = m.to_json()
            return "undo"
        if "undone" in seen and "after" not in seen:
            seen["after"] = (len(m.hands_played), prompt)
            return "quit"
        if m.phase == "bid":
            return "2"
        seen["last"] = (m.to_json(), prompt)
        return prompt_cards(prompt)[0]

    out = []
    assert game.play(play_args(4), read=read, out=out.append, session=session) == 0
    assert seen["after"][0] == 0                      # back in hand 1, before its last card of the human
    assert m.to_json() == seen["last"][0] and seen["after"][1] == seen["last"][1]
    assert "  Taken back." in out


def test_hint_is_one_of_the_legal_actions_and_changes_nothing():
    session = new_session(3)
    m = session.match
    hints = []

    def read(prompt):
        if len(hints) < 6:
            before = m.to_json()
            hints.append((before, m.phase, list(m.legal_cards())))
            return "hint"
        return "quit"

    out = []
    assert game.play(play_args(3), read=read, out=out.append, session=session) == 0
    shown = [line for line in out if line.startswith("  Hint: ")]
    assert len(shown) == 6
    assert len({h[0] for h in hints}) == 1  # the position never changed
    phase = hints[0][1]
    assert phase == "bid"
    expected = session.hint()
    assert all(line == f"  Hint: bid {game._bid_word(expected)}." for line in shown)


@pytest.mark.parametrize("typed", ["²", "9" * 5000, "1.5", "-1", " 14x"])
def test_bids_in_odd_digits_are_refused_without_a_crash(typed):
    session = new_session(6)
    answers = iter([typed, "quit"])
    out = []
    assert game.play(play_args(6), read=lambda p: next(answers), out=out.append, session=session) == 0
    shown = refusals(out)
    assert len(shown) == 1 and shown[0].endswith("is not a bid: type a number from 0 (nil) to 13.")
    assert len(shown[0]) < 120
    assert session.match.bids[0] is None


@pytest.mark.parametrize("argv,seed", [(["play", "--seed", "12"], 12), (["play", "--seed", "crocodile"], "crocodile")])
def test_seed_option_follows_the_pages_rule(argv, seed):
    assert cli.parser().parse_args(argv).seed == seed


@pytest.mark.parametrize("bad", ["--1", "²", "1.5", "9" * 30])
def test_bad_seed_options_are_refused_by_argparse(bad, capsys):
    with pytest.raises(SystemExit) as info:
        cli.parser().parse_args(["play", "--seed", bad])
    assert info.value.code == 2
    assert "seed" in capsys.readouterr().err
