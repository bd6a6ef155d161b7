"""Partnership Spades (rules variant 1.0.0): a pure-Python rules engine.

>>> import spades
>>> m = spades.Match(seed=1)
>>> m.bid(3)            # the seat to act bids three tricks
>>> m.view(0).phase
'bid'

:class:`Match` runs a match; :class:`IllegalAction` explains a refused action
(``.code``, ``.message``) and leaves the match unchanged; :class:`BadSave`
refuses a broken save whole. ``Match.to_json()`` / ``Match.from_json()`` save and restore
a match (as functions: :mod:`spades.save`). :class:`Rules` describes house rules
(``Match(rules=Rules.preset("jokers"))``); ``Rules()`` is variant 1.0.0. Cards are written rank then
suit: ``AS``, ``TD``, ``2C``.
"""

from .cards import long_name, sort_hand
from .errors import BadSave, IllegalAction, SpadesError
from .legal import BLIND_NIL
from .match import HandRecord, Match
from .rules import PRESETS, BadRules, Rules
from .scoring import NilResult, TeamScore, match_winner, score_team
from .start import MatchStart
from .version import VARIANT, __version__
from .view import SeatView, Trick

__all__ = [
    "BLIND_NIL",
    "PRESETS",
    "VARIANT",
    "BadRules",
    "BadSave",
    "HandRecord",
    "IllegalAction",
    "Match",
    "MatchStart",
    "NilResult",
    "Rules",
    "SeatView",
    "SpadesError",
    "TeamScore",
    "Trick",
    "__version__",
    "long_name",
    "match_winner",
    "score_team",
    "sort_hand",
]
