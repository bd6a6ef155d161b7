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
import re
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from . import __version__
from .ai import LEVELS
from .cards import long_name, sort_hand
from .coach import render
from .errors import BadRequest, IllegalAction
from .match import BID, OVER, SEAT_NAMES, Match
from .safejson import excerpt
from .newmatch import parse_seed
from .session import HUMAN, Session, action_seats
from .variant import BLIND_NIL, DEFAULT, BadRules, Rules

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
    out("  Your hand: " + " ".join(pretty(c) for c in sort_hand(m.hand(HUMAN))))


def _print_hand_result(m: Match, out: Callable[[str], None]) -> None:
    record = m.hands_played[-1]
    for team, s in enumerate(record.scores):
        name = "Us  " if team == 0 else "Them"
        nils = "".join(f", nil by {SEAT_NAMES[n.seat]} {'made' if n.made else 'set'} ({n.points:+d})" for n in s.nils)
        out(f"  {name}: contract {s.contract}, took {s.contract_tricks} → "
            f"{'made' if s.made else 'set'} ({s.contract_points:+d}){nils}, bags +{s.bags}"
            f"{f', bag penalty {s.penalty_points}' if s.penalties else ''} → {s.delta:+d}, total {s.score_after}")


def _print_event(session: Session, event: dict[str, Any], out: Callable[[str], None]) -> None:
    """One action as a line (a bot's bid or card, the human's card) and the trick or hand it ended."""
    seat = event["seat"]
    if event["kind"] == "bid":
        if seat != HUMAN:
            out(f"  {SEAT_NAMES[seat]} bids {_bid_word(event['bid'])}.")
        return
    card = event["card"]
    out(f"  You play {pretty(card)} ({long_name(card)})." if seat == HUMAN else f"  {SEAT_NAMES[seat]} plays {pretty(card)}.")
    if "hand" in event:
        out(f"  {SEAT_NAMES[event['trick']['winner']]} wins the last trick. Hand {event['hand']['number']} is over.")
        _print_hand_result(session.match, out)
    elif "trick" in event:
        out(f"  {SEAT_NAMES[event['trick']['winner']]} wins the trick.")


BID_TEXT = re.compile(r"[0-9]{1,2}")
HELP = ("Bid with a number (0 is nil). Play a card such as AS, 10h or th. "
        "'hint' suggests an action and says why, 'why' explains the last computer player's action "
        "('why north', 'why west', 'why east': that player's last one), "
        "'undo' takes back your last action, 'quit' leaves.")
WHY_SEATS = {name.lower(): seat for seat, name in enumerate(SEAT_NAMES)}


def _action_words(action: int | str) -> str:
    return "bid " + _bid_word(action) if isinstance(action, int) or action == BLIND_NIL else "play " + pretty(action)


def _print_reason(reason: dict[str, Any], out: Callable[[str], None]) -> None:
    for line in render(reason, pretty):
        out("  " + line)


def _why(session: Session, words: list[str], out: Callable[[str], None]) -> None:
    """``why [north|west|east]``: a computer player's last action and its reason (default: the latest)."""
    if words:
        seat = WHY_SEATS.get(words[0].lower())
        if seat is None or seat in session.humans or len(words) > 1:
            out("  ✗ Ask 'why', or 'why' and a computer player: north, west or east.")
            return
    else:
        bots = [s for s in action_seats(session.match) if s not in session.humans]
        if not bots:
            out("  No computer player has acted yet.")
            return
        seat = bots[-1]
    found = session.why(seat)
    if found is None:
        out(f"  {SEAT_NAMES[seat]} has not acted yet.")
        return
    action, reason = found
    out(f"  {SEAT_NAMES[seat]}: {_action_words(action)}.")
    if reason is None:
        out("  (Its reason could not be recomputed.)")
    else:
        _print_reason(reason.to_dict(), out)


def _action(m: Match, text: str) -> int | str | None:
    """The bid or card a player typed (``None`` for text that is not a bid in bidding)."""
    if m.phase == BID:
        if text.lower() == BLIND_NIL:
            return BLIND_NIL
        text = "0" if text.lower() == "nil" else text
        return int(text) if BID_TEXT.fullmatch(text) else None
    card = text.upper().replace("10", "T")
    return card.translate(str.maketrans({"♠": "S", "♥": "H", "♦": "D", "♣": "C"}))


def _human_turn(session: Session, read: Callable[[str], str], out: Callable[[str], None]) -> bool:
    """Ask the player for one action until a legal one is taken; ``False`` when they leave."""
    m = session.match
    _print_table(m, out)
    while True:
        prompt = f"Your bid ({', '.join(map(str, m.legal_bids()))}; 0 = nil): " if m.phase == BID else \
            f"Your card ({' '.join(pretty(c) for c in m.legal_cards())}): "
        try:
            text = read(prompt).strip()
        except EOFError:
            out("\nBye.")
            return False
        if text in ("q", "quit", "exit"):
            return False
        if text in ("h", "help", "?"):
            out(HELP)
            continue
        try:
            if text == "undo":
                session.undo_mine()
                out("  Taken back.")
                _print_table(m, out)
            elif text == "hint":
                explained = session.explain_hint()
                out(f"  Hint: {_action_words(explained.action)}.")
                _print_reason(explained.reason.to_dict(), out)
            elif text.split()[:1] == ["why"]:
                _why(session, text.split()[1:], out)
            else:
                action = _action(m, text)
                if action is None:
                    out(f"  ✗ {excerpt(text)} is not a bid: type a number from 0 (nil) to 13.")
                    continue
                _print_event(session, session.act(action), out)
                return True
        except IllegalAction as exc:
            out(f"  ✗ {exc.message}")


def play(args: argparse.Namespace, read: Callable[[str], str] = input, out: Callable[[str], None] = print,
         session: Session | None = None) -> int:
    """An interactive game in the terminal (``session`` defaults to a new one from ``args``)."""
    if session is None:
        session = Session.new(args.seed, partner=args.partner, opponents=args.opponents,
                              rules=getattr(args, "rules", DEFAULT))
    m = session.match
    out(f"Spades {__version__}: you are South with {SEAT_NAMES[2]} ({session.partner}) as partner, "
        f"against {session.opponents} opponents. Type 'help' for commands.")
    while m.phase != OVER:
        for event in session.run_bots():
            _print_event(session, event, out)
        if m.phase != OVER and not _human_turn(session, read, out):
            return 0
    out(f"Match over: {'you and your partner win' if m.winner == 0 else 'the opponents win'} "
        f"{max(m.scores)} to {min(m.scores)}.")
    return 0


def bench(args: argparse.Namespace, out: Callable[[str], None] = print) -> int:
    """Random legal play through the public API; prints full hands per second (median of repeats)."""
    rng = random.Random(args.seed)
    rules = getattr(args, "rules", DEFAULT)
    rates = []
    for _ in range(args.repeats):
        hands = 0
        start = time.perf_counter()
        while time.perf_counter() - start < args.seconds:
            m = Match(seed=rng.getrandbits(32), rules=rules)
            while m.phase != OVER and len(m.hands_played) < 50:
                if m.phase == BID:
                    m.bid(rng.choice(m.legal_bids()))
                else:
                    m.play(rng.choice(m.legal_cards()))
            hands += len(m.hands_played)
        rates.append(hands / (time.perf_counter() - start))
    result = {"hands_per_second": round(statistics.median(rates)), "repeats": [round(r) for r in rates],
              "python": sys.version.split()[0], "rules": rules.to_text()}
    out(json.dumps(result) if args.json else
        f"{result['hands_per_second']} full hands per second (median of {args.repeats}: {result['repeats']})")
    return 0


def _seed(text: str) -> int | str:
    """``--seed``: digits or a word, by the same rule as the page (:func:`spades.newmatch.parse_seed`)."""
    try:
        return parse_seed(text)
    except BadRequest as exc:
        raise argparse.ArgumentTypeError(exc.message) from None


RULES_HELP = "house rules: a preset (1.0.0, jokers, deuces, suicide, blind-nil, quick) or preset,key=value,…"


def _rules(text: str) -> Rules:
    """``--rules``: a preset name or ``preset,key=value,…`` (:meth:`spades.Rules.parse`)."""
    try:
        return Rules.parse(text)
    except BadRules as exc:
        raise argparse.ArgumentTypeError(exc.message) from None


def _add_play(sub: Any) -> None:
    p = sub.add_parser("play", help="play a match in the terminal")
    p.add_argument("--seed", type=_seed, default=None, help="digits or a word (default: random)")
    p.add_argument("--partner", choices=LEVELS, default=LEVELS[-1])
    p.add_argument("--opponents", choices=LEVELS, default=LEVELS[-1])
    p.add_argument("--rules", type=_rules, default=DEFAULT, help=RULES_HELP)
    p.set_defaults(run=play)


def _add_bench(sub: Any) -> None:
    b = sub.add_parser("bench", help="random full hands per second through the public API")
    b.add_argument("--json", action="store_true")
    b.add_argument("--seconds", type=float, default=2.0)
    b.add_argument("--repeats", type=int, default=5)
    b.add_argument("--seed", type=int, default=1)
    b.add_argument("--rules", type=_rules, default=DEFAULT, help=RULES_HELP)
    b.add_argument("--solver", action="store_true", help="double-dummy solve times instead (see spades.analysis)")
    b.add_argument("--deals", type=int, default=50, help="with --solver: random deals to time")
    b.add_argument("--cap", type=float, default=30.0, help="with --solver: CPU seconds per solve, past it 'not finished'")
    b.set_defaults(run=_bench_or_solver)


def _bench_or_solver(args: Any) -> int:
    if args.solver:
        from .analysis import bench_solver
        return bench_solver(args)
    return bench(args)


def _review(args: Any) -> int:
    from .analysis import review_command
    return review_command(args)


def _add_review(sub: Any) -> None:
    r = sub.add_parser("review", help="judge every decision of a hand against double-dummy play")
    r.add_argument("file", help="hand notation or a save")
    r.add_argument("--json", action="store_true")
    r.add_argument("--hand", type=int, default=None, help="which completed hand of a save (default: the last)")
    r.add_argument("--budget", type=float, default=2.0, help="seconds per position before 'not finished'")
    r.set_defaults(run=_review)


#: One function per subcommand, each adding its own subparser (``arena`` parses its own options).
COMMANDS: list[Callable[[Any], None]] = [_add_play, _add_bench, _add_review]


def parser() -> argparse.ArgumentParser:
    """The command line parser: one subparser per command in :data:`COMMANDS`, plus ``arena``."""
    root = argparse.ArgumentParser(prog="python -m spades", description="Partnership Spades (variant 1.0.0).")
    sub = root.add_subparsers(dest="command", required=True)
    for add in COMMANDS:
        add(sub)
    sub.add_parser("arena", help="bots against bots on duplicate deals (see --help after arena)")
    return root


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``python -m spades``."""
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "arena":
        try:
            from .ai.arena import main as arena_main
        except ImportError:  # an installed wheel: the arena is a tool of the repository
            print("error [no_arena]: the arena runs from a checkout of the repository "
                  "(it is not part of the installed package)", file=sys.stderr)
            return 2
        return arena_main(argv[1:])
    args = parser().parse_args(argv)
    return args.run(args)
