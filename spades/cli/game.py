"""``python -m spades play``: a game in the terminal, you (South, seat 0) and a computer partner
against two computer opponents, with hints, "why" and undo."""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from typing import Any

from ..ai import LEVELS
from ..cards import long_name, sort_hand
from ..errors import IllegalAction
from ..legal import BLIND_NIL
from ..match import BID, OVER, SEAT_NAMES, Match
from ..rules import DEFAULT
from ..safejson import excerpt
from ..session import HUMAN, Session, action_seats
from ..version import __version__
from .args import RULES_HELP, rules_arg, seed_arg
from .reasons import render

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def pretty(card: str) -> str:
    """``"TH"`` → ``"10♥"``."""
    rank = "10" if card[0] == "T" else card[0]
    return rank + SUIT_SYMBOLS[card[1]]


def _bid_word(b: int | str | None) -> str:
    """A bid as the table shows it: ``—`` before it is made, ``nil`` or the number."""
    return "—" if b is None else ("nil" if b == 0 else str(b))


def _print_table(m: Match, out: Callable[[str], None]) -> None:
    """The table as the human sees it: scores, bids, tricks, the trick on the table, the hand."""
    out("")
    out(
        f"Hand {m.hand_number} · dealer {SEAT_NAMES[m.dealer]} · "
        f"score us {m.scores[0]} ({m.bags[0]} bags) – them {m.scores[1]} ({m.bags[1]} bags)"
    )
    bids, won = m.bids, m.tricks_won
    out(
        "  "
        + "  ".join(f"{SEAT_NAMES[s]}: bid {_bid_word(bids[s])}, won {won[s]}" for s in range(4))
    )
    if m.trick:
        out(
            "  On the table: " + ", ".join(f"{SEAT_NAMES[s]} {pretty(c)}" for s, c in m.trick.plays)
        )
    out("  Your hand: " + " ".join(pretty(c) for c in sort_hand(m.hand(HUMAN))))


def _print_hand_result(m: Match, out: Callable[[str], None]) -> None:
    """Each team's score breakdown for the hand just finished."""
    record = m.hands_played[-1]
    for team, s in enumerate(record.scores):
        name = "Us  " if team == 0 else "Them"
        nils = "".join(
            f", nil by {SEAT_NAMES[n.seat]} {'made' if n.made else 'set'} ({n.points:+d})"
            for n in s.nils
        )
        out(
            f"  {name}: contract {s.contract}, took {s.contract_tricks} → "
            f"{'made' if s.made else 'set'} ({s.contract_points:+d}){nils}, bags +{s.bags}"
            f"{f', bag penalty {s.penalty_points}' if s.penalties else ''} → {s.delta:+d}, total "
            f"{s.score_after}"
        )


def _print_event(session: Session, event: dict[str, Any], out: Callable[[str], None]) -> None:
    """One action as a line (a bot's bid or card, the human's card) and the trick or hand it
    ended."""
    seat = event["seat"]
    if event["kind"] == "bid":
        if seat != HUMAN:
            out(f"  {SEAT_NAMES[seat]} bids {_bid_word(event['bid'])}.")
        return
    card = event["card"]
    out(
        f"  You play {pretty(card)} ({long_name(card)})."
        if seat == HUMAN
        else f"  {SEAT_NAMES[seat]} plays {pretty(card)}."
    )
    if "hand" in event:
        out(
            f"  {SEAT_NAMES[event['trick']['winner']]} wins the last trick. Hand "
            f"{event['hand']['number']} is over."
        )
        _print_hand_result(session.match, out)
    elif "trick" in event:
        out(f"  {SEAT_NAMES[event['trick']['winner']]} wins the trick.")


BID_TEXT = re.compile(r"[0-9]{1,2}")
HELP = (
    "Bid with a number (0 is nil). Play a card such as AS, 10h or th. "
    "'hint' suggests an action and says why, 'why' explains the last computer player's action "
    "('why north', 'why west', 'why east': that player's last one), "
    "'undo' takes back your last action, 'quit' leaves."
)
WHY_SEATS = {name.lower(): seat for seat, name in enumerate(SEAT_NAMES)}


def _action_words(action: int | str) -> str:
    """An action as words: ``bid 3`` or ``play 10♥``."""
    return (
        "bid " + _bid_word(action)
        if isinstance(action, int) or action == BLIND_NIL
        else "play " + pretty(action)
    )


def _print_reason(reason: dict[str, Any], out: Callable[[str], None]) -> None:
    """A reason as indented English sentences."""
    for line in render(reason, pretty):
        out("  " + line)


def _why(session: Session, words: list[str], out: Callable[[str], None]) -> None:
    """``why [north|west|east]``: a computer player's last action and its reason (default: the
    latest)."""
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
    return card.translate(str.maketrans("♠♥♦♣", "SHDC"))


def _human_turn(session: Session, read: Callable[[str], str], out: Callable[[str], None]) -> bool:
    """Ask the player for one action until a legal one is taken; ``False`` when they leave."""
    m = session.match
    _print_table(m, out)
    while True:
        prompt = (
            f"Your bid ({', '.join(map(str, m.legal_bids()))}; 0 = nil): "
            if m.phase == BID
            else f"Your card ({' '.join(pretty(c) for c in m.legal_cards())}): "
        )
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


def play(
    args: argparse.Namespace,
    read: Callable[[str], str] = input,
    out: Callable[[str], None] = print,
    session: Session | None = None,
) -> int:
    """An interactive game in the terminal (``session`` defaults to a new one from ``args``)."""
    if session is None:
        session = Session.new(
            args.seed,
            partner=args.partner,
            opponents=args.opponents,
            rules=getattr(args, "rules", DEFAULT),
        )
    m = session.match
    out(
        f"Spades {__version__}: you are South with {SEAT_NAMES[2]} ({session.partner}) as partner, "
        f"against {session.opponents} opponents. Type 'help' for commands."
    )
    while m.phase != OVER:
        for event in session.run_bots():
            _print_event(session, event, out)
        if m.phase != OVER and not _human_turn(session, read, out):
            return 0
    out(
        f"Match over: {'you and your partner win' if m.winner == 0 else 'the opponents win'} "
        f"{max(m.scores)} to {min(m.scores)}."
    )
    return 0


def add_play(sub: Any) -> None:
    """The ``play`` subcommand."""
    p = sub.add_parser("play", help="play a match in the terminal")
    p.add_argument("--seed", type=seed_arg, default=None, help="digits or a word (default: random)")
    p.add_argument("--partner", choices=LEVELS, default=LEVELS[-1])
    p.add_argument("--opponents", choices=LEVELS, default=LEVELS[-1])
    p.add_argument("--rules", type=rules_arg, default=DEFAULT, help=RULES_HELP)
    p.set_defaults(run=play)
