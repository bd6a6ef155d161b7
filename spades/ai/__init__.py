"""Computer players. ``bot(level, seed=…)`` makes one; ``LEVELS`` names them.

Bots decide from a seat's view only (see :mod:`spades.ai.base`), and each decision
explains itself: ``bot(level).explain(view)`` gives the action (what ``choose`` returns)
and a :class:`~spades.ai.explain.Reason` of stable codes and parameters.
"""

from __future__ import annotations

from .base import Bot
from .easy import EasyBot
from .explain import CODES, Explanation, Reason
from .hard import HardBot
from .normal import NormalBot

REGISTRY: dict[str, type[Bot]] = {"easy": EasyBot, "normal": NormalBot, "hard": HardBot}

LEVELS: tuple[str, ...] = tuple(REGISTRY)


def bot(level: str, seed: int = 0) -> Bot:
    """A computer player of ``level`` ("easy", "normal", "hard"), deterministic for ``seed``."""
    try:
        cls = REGISTRY[level]
    except KeyError:
        raise ValueError(
            f"unknown bot level {level!r}; choose one of {', '.join(LEVELS)}"
        ) from None
    return cls(seed)


__all__ = [
    "CODES",
    "LEVELS",
    "REGISTRY",
    "Bot",
    "EasyBot",
    "Explanation",
    "HardBot",
    "NormalBot",
    "Reason",
    "bot",
]
