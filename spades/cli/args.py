"""Argument types the commands share: a seed and house rules, read by the engine's own rules."""

from __future__ import annotations

import argparse

from ..errors import BadRequest
from ..newmatch import parse_seed
from ..rules import BadRules, Rules


def seed_arg(text: str) -> int | str:
    """``--seed``: digits or a word, by the same rule as the page
    (:func:`spades.newmatch.parse_seed`)."""
    try:
        return parse_seed(text)
    except BadRequest as exc:
        raise argparse.ArgumentTypeError(exc.message) from None


RULES_HELP = (
    "house rules: a preset (1.0.0, jokers, deuces, suicide, blind-nil, quick) or preset,key=value,…"
)


def rules_arg(text: str) -> Rules:
    """``--rules``: a preset name or ``preset,key=value,…`` (:meth:`spades.Rules.parse`)."""
    try:
        return Rules.parse(text)
    except BadRules as exc:
        raise argparse.ArgumentTypeError(exc.message) from None
