"""Command line: ``python -m spades play | bench | arena``.

``play``  — a game in the terminal: you (South, seat 0) and a computer partner
            against two computer opponents.
``bench`` — random legal play through the public API: full hands per second.
``arena`` — computer players against each other on duplicate deals (see :mod:`spades.ai.arena`).
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable

from . import __version__
from .ai import LEVELS, bot
from .cards import long_name, sort_hand
from .errors import IllegalAction
from .match import SEAT_NAMES, Match

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def pretty(card: str) -> str:
    """``"TH"`` → ``"10♥"``."""
    rank = "10" if card[0] == "T" else card[0]
    return rank + SUIT_SYMBOLS[card[1]]


def _bid_word(b: int | None) -> str:
    return "—" if b is None else ("nil" if b == 0 else str(b))


def _print_table(m: Match, out: Callable[[str], None]) -> None:
    out("")
    out(f"Hand {m.hand_number} · dealer {SEAT_NAMES[m.dealer]} · "
        f"score us {m.scores[0]} ({m.bags[0]} bags) – them {m.scores[1]} ({m.bags[1]} bags)")
    bids, won = m.bids, m.tricks_won
    out("  " + "  ".join(f"{SEAT_NAMES[s]}: bid {_bid_word(bids[s])}, won {won[s]}" for s in range(4)))
    if m.trick:
        out("  On the table: " + ", ".join(f"{SEAT_NAMES[s]} {pretty(c)}" for s, c in m.trick.plays))
    out("  Your hand: " + " ".join(pretty(c) for c in sort_hand(m.hand(0))))


def _print_hand_result(m: Match, out: Callable[[str], None]) -> None:
    record = m.hands_played[-1]
    for team, s in enumerate(record.scores):
        name = "Us  " if team == 0 else "Them"
        nils = "".join(f", nil by {SEAT_NAMES[n.seat]} {'made' if n.made else 'set'} ({n.points:+d})" for n in s.nils)
        out(f"  {name}: contract {s.contract}, took {s.contract_tricks} → "
            f"{'made' if s.made else 'set'} ({s.contract_points:+d}){nils}, bags +{s.bags}"
            f"{f', bag penalty {s.penalty_points}' if s.penalties else ''} → {s.delta:+d}, total {s.score_after}")


def _human_turn(m: Match, read: Callable[[str], str], out: Callable[[str], None]) -> bool:
    """Ask the player for one action until a legal one is taken; ``False`` when they leave."""
    _print_table(m, out)
    while True:
        prompt = "Your bid (0 = nil, 1–13): " if m.phase == "bid" else \
            f"Your card ({' '.join(pretty(c) for c in m.legal_cards())}): "
        try:
            text = read(prompt).strip()
        except EOFError:
            out("\nBye.")
            return False
        if text in ("q", "quit", "exit"):
            return False
        if text in ("h", "help", "?"):
            out("Bid with a number (0 is nil). Play a card such as AS, 10h or th. "
                "'undo' takes back your last action, 'quit' leaves.")
            continue
        try:
            if text == "undo":
                _undo_mine(m)
                out("  Taken back.")
                _print_table(m, out)
            elif m.phase == "bid":
                if text.lower() == "nil":
                    text = "0"
                if not text.isdigit():
                    out(f"  ✗ {text!r} is not a bid: type a number from 0 (nil) to 13.")
                    continue
                m.bid(int(text), seat=0)
                return True
            else:
                card = text.upper().replace("10", "T")
                card = card.translate(str.maketrans({"♠": "S", "♥": "H", "♦": "D", "♣": "C"}))
                m.play(card, seat=0)
                out(f"  You play {pretty(card)} ({long_name(card)}).")
                return True
        except IllegalAction as exc:
            out(f"  ✗ {exc.message}")


def _undo_mine(m: Match) -> None:
    """Take back the player's last action and everything after it (refused whole if there is none)."""
    trial = m.copy()
    steps = 0
    while True:
        trial.undo(1)  # raises nothing_to_undo at the start of the match, before m changes
        steps += 1
        if trial.to_act == 0:
            break
    m.undo(steps)


def play(args: argparse.Namespace, read: Callable[[str], str] = input, out: Callable[[str], None] = print) -> int:
    """An interactive game in the terminal."""
    m = Match(seed=args.seed)
    bots = {1: bot(args.opponents, 1), 2: bot(args.partner, 2), 3: bot(args.opponents, 3)}
    out(f"Spades {__version__}: you are South with {SEAT_NAMES[2]} ({args.partner}) as partner, "
        f"against {args.opponents} opponents. Type 'help' for commands.")
    while m.phase != "over":
        hands_before, tricks_before = len(m.hands_played), len(m.tricks)
        if m.to_act != 0:
            seat = m.to_act
            action = bots[seat].choose(m.view(seat))  # type: ignore[index]
            m.act(action, seat=seat)
            verb = f"bids {_bid_word(action)}" if isinstance(action, int) else f"plays {pretty(action)}"
            out(f"  {SEAT_NAMES[seat]} {verb}.")
        elif not _human_turn(m, read, out):
            return 0
        if len(m.hands_played) > hands_before:
            record = m.hands_played[-1]
            out(f"  {SEAT_NAMES[record.tricks[-1].winner]} wins the last trick. Hand {record.number} is over.")
            _print_hand_result(m, out)
        elif len(m.tricks) > tricks_before:
            out(f"  {SEAT_NAMES[m.tricks[-1].winner]} wins the trick.")
    out(f"Match over: {'you and your partner win' if m.winner == 0 else 'the opponents win'} "
        f"{max(m.scores)} to {min(m.scores)}.")
    return 0


def bench(args: argparse.Namespace, out: Callable[[str], None] = print) -> int:
    """Random legal play through the public API; prints full hands per second (median of repeats)."""
    rng = random.Random(args.seed)
    rates = []
    for _ in range(args.repeats):
        hands = 0
        start = time.perf_counter()
        while time.perf_counter() - start < args.seconds:
            m = Match(seed=rng.getrandbits(32))
            while m.phase != "over" and len(m.hands_played) < 50:
                if m.phase == "bid":
                    m.bid(rng.choice(m.legal_bids()))
                else:
                    m.play(rng.choice(m.legal_cards()))
            hands += len(m.hands_played)
        rates.append(hands / (time.perf_counter() - start))
    result = {"hands_per_second": round(statistics.median(rates)), "repeats": [round(r) for r in rates],
              "python": sys.version.split()[0]}
    out(json.dumps(result) if args.json else
        f"{result['hands_per_second']} full hands per second (median of {args.repeats}: {result['repeats']})")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``python -m spades``."""
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "arena":
        from .ai.arena import main as arena_main
        return arena_main(argv[1:])
    parser = argparse.ArgumentParser(prog="python -m spades", description="Partnership Spades (variant 1.0.0).")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play", help="play a match in the terminal")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--partner", choices=LEVELS, default=LEVELS[-1])
    p.add_argument("--opponents", choices=LEVELS, default=LEVELS[-1])
    b = sub.add_parser("bench", help="random full hands per second through the public API")
    b.add_argument("--json", action="store_true")
    b.add_argument("--seconds", type=float, default=2.0)
    b.add_argument("--repeats", type=int, default=5)
    b.add_argument("--seed", type=int, default=1)
    b.add_argument("--solver", action="store_true", help="double-dummy solve times instead (see spades.analysis)")
    b.add_argument("--deals", type=int, default=50, help="with --solver: random deals to time")
    # -- hand review (spades.analysis) --
    r = sub.add_parser("review", help="judge every decision of a hand against double-dummy play")
    r.add_argument("file", help="hand notation or a save")
    r.add_argument("--json", action="store_true")
    r.add_argument("--hand", type=int, default=None, help="which completed hand of a save (default: the last)")
    r.add_argument("--budget", type=float, default=2.0, help="seconds per position before 'not finished'")
    sub.add_parser("arena", help="bots against bots on duplicate deals (see --help after arena)")
    args = parser.parse_args(argv)
    if args.command == "play":
        return play(args)
    if args.command == "review" or args.solver:
        from .analysis import bench_solver, review_command
        return review_command(args) if args.command == "review" else bench_solver(args)
    return bench(args)
