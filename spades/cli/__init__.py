"""Command line: ``python -m spades play | review | bench | arena``.

``play``   — a game in the terminal (:mod:`spades.cli.game`).
``review`` — every decision of a hand against double-dummy play (:mod:`spades.cli.review`).
``bench``  — random legal play through the public API, or the solver's times
(:mod:`spades.cli.bench`).
``arena``  — computer players against each other on duplicate deals (:mod:`spades.cli.arena`;
             a tool of the repository: it is not in the installed package).

The terminal's English sentences of a bot's reasons are :mod:`spades.cli.reasons`. Nothing
here is in the wheel the game boots.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from .bench import add_bench
from .game import add_play
from .review import add_review

#: One function per subcommand, each adding its own subparser (``arena`` parses its own options).
COMMANDS: list[Callable[[Any], None]] = [add_play, add_bench, add_review]


def parser() -> argparse.ArgumentParser:
    """The command line parser: one subparser per command in :data:`COMMANDS`, plus ``arena``."""
    root = argparse.ArgumentParser(
        prog="python -m spades", description="Partnership Spades (variant 1.0.0)."
    )
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
            from .arena import main as arena_main
        except ImportError:  # an installed wheel: the arena is a tool of the repository
            print(
                "error [no_arena]: the arena runs from a checkout of the repository "
                "(it is not part of the installed package)",
                file=sys.stderr,
            )
            return 2
        return arena_main(argv[1:])
    args = parser().parse_args(argv)
    return args.run(args)
