"""What a player chooses for a new match: the seed and the computer players' levels.

Checked by our own rules wherever they come from (the page's dialog and address, the
bridge, the command line); anything else is refused with a coded :class:`BadRequest`.
"""

from __future__ import annotations

import os
import re
from typing import Any

from .ai import LEVELS
from .errors import BadRequest
from .safejson import excerpt

DEFAULT_LEVEL = "normal"

#: A seed typed or linked by a player: ASCII digits (a number) or a word starting with a letter.
MAX_SEED_DIGITS = 20  # 2**64 has 20 digits: the generator keeps 64 bits
MAX_SEED_WORD = 40
_SEED_NUMBER = re.compile(rf"[0-9]{{1,{MAX_SEED_DIGITS}}}")
_SEED_WORD = re.compile(rf"[A-Za-z][A-Za-z0-9_-]{{0,{MAX_SEED_WORD - 1}}}")
#: Bits of a fresh random seed when the player gives none.
RANDOM_SEED_BYTES = 4


def parse_seed(value: Any) -> int | str:
    """A seed by our own rule: ``None``/``""`` → a fresh random number; a whole number
    0 ≤ n < 10**20 (int or ASCII digits) → that number; a word of letters, digits, ``-``
    and ``_`` starting with a letter (≤ 40 chars) → the word (the generator hashes it).
    Anything else (``"²"``, ``"--1"``, 5,000 digits, ``" 1"``, ``"1.5"``, ``true``, ``1.5``)
    raises :class:`BadRequest` ``bad_seed``.
    """
    if value is None or value == "":
        return int.from_bytes(os.urandom(RANDOM_SEED_BYTES), "big")
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 10**MAX_SEED_DIGITS:
        return value
    if isinstance(value, str):
        if _SEED_NUMBER.fullmatch(value):
            return int(value)
        if _SEED_WORD.fullmatch(value):
            return value
    raise BadRequest(
        "bad_seed",
        f"A seed is a whole number of up to {MAX_SEED_DIGITS} digits or a word "
        f"of up to {MAX_SEED_WORD} letters, digits, - and _, not {excerpt(value)}.",
    )


def check_level(value: Any, default: str = DEFAULT_LEVEL) -> str:
    """A computer player level (``None`` → ``default``); anything unknown raises ``bad_level``."""
    if value is None:
        return default
    if not isinstance(value, str) or value not in LEVELS:
        raise BadRequest(
            "bad_level",
            f"Unknown computer player level {excerpt(value)}; choose one of {', '.join(LEVELS)}.",
        )
    return value
