"""Partnership Spades (rules variant 1.0.0): a pure-Python rules engine.

>>> import spades
>>> m = spades.Match(seed=1)
>>> m.bid(3)            # the seat to act bids three tricks
>>> m.view(0).phase
'bid'

:class:`Match` runs a match; :class:`IllegalAction` explains a refused action
(``.code``, ``.message``) and leaves the match unchanged; :class:`BadSave`
refuses a broken save whole. ``Match.to_json()`` / ``Match.from_json()`` come from
:mod:`spades.save`, which this package imports. :class:`Rules` describes house rules
(``Match(rules=Rules.preset("jokers"))``); ``Rules()`` is variant 1.0.0. Cards are written rank then suit: ``AS``, ``TD``, ``2C``.
"""
__version__ = "1.0.0"
VARIANT = "1.0.0"

from .cards import long_name, sort_hand  # noqa: E402
from .errors import BadSave, IllegalAction, SpadesError  # noqa: E402
from .match import HandRecord, Match  # noqa: E402
from .start import MatchStart  # noqa: E402
from .variant import BLIND_NIL, PRESETS, BadRules, Rules  # noqa: E402
from . import save  # noqa: E402,F401  # gives Match its to_json / from_json
from .scoring import NilResult, TeamScore, match_winner, score_team  # noqa: E402
from .view import SeatView, Trick  # noqa: E402

__all__ = ["Match", "MatchStart", "HandRecord", "SeatView", "Trick", "TeamScore", "NilResult",
           "IllegalAction", "BadSave", "SpadesError", "score_team", "match_winner",
           "long_name", "sort_hand", "VARIANT", "__version__", "Rules", "BadRules", "PRESETS", "BLIND_NIL"]
