"""Saves as functions: ``spades.save.dumps(match)`` and ``spades.save.loads(text)``.

The same as :meth:`spades.Match.to_json` and :meth:`spades.Match.from_json`, kept apart from
the match the way python-chess keeps ``chess.pgn`` apart from ``Board``. The format, its checks
and its limits are :mod:`spades.saveformat`.
"""

from __future__ import annotations

from typing import Any

from .match import Match
from .saveformat import FORMAT, MAX_DEPTH, MAX_TEXT, VERSION, dumps, to_dict


def from_dict(data: Any) -> Match:
    """A match from :func:`to_dict` data, checked by replay (:meth:`spades.Match.from_dict`)."""
    return Match.from_dict(data)


def loads(text: str | bytes) -> Match:
    """A match from :func:`dumps` text, checked by replay (:meth:`spades.Match.from_json`)."""
    return Match.from_json(text)


__all__ = ["FORMAT", "MAX_DEPTH", "MAX_TEXT", "VERSION", "dumps", "from_dict", "loads", "to_dict"]
