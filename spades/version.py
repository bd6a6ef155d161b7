"""The engine's version, and the rules variant it plays by default (saves and the bridge name
it)."""

from __future__ import annotations

from .rules import DEFAULT_NAME

__version__ = "1.0.0"
#: The rules variant of :class:`~spades.rules.Rules` with every option at its default.
VARIANT = DEFAULT_NAME
