"""The house-rule options: :class:`Rules`, an immutable, versioned description of the options a
match plays.

"Rules" here means the options in force (which deck, blind nil, the target …), not the rules
of play themselves: what may be bid and played, and who wins a trick, is :mod:`spades.legal`.

``Rules()`` is variant 1.0.0, the rules page as it stands (``site/rules/en.html``); each
option switches on one house rule, and the named presets are :data:`PRESETS`. The
definitions chosen where sources disagree are on the rules pages ("House rules") and in
README.md; ``tests/test_house_rules.py`` works an example of each.

A rules description travels as a dictionary (:meth:`Rules.to_dict`, saves and the bridge)
or as short text (:meth:`Rules.to_text`: a preset name, or ``preset,key=value,…`` for the
command line and links). Anything malformed is refused with :class:`BadRules` and a code:
``unknown_preset``, ``bad_rules`` (not a rules description), ``bad_option`` (a value out of
range) or ``rules_conflict`` (options that cannot be played together).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from .cards import DECKS, DEUCES, JOKERS, STANDARD, Deck
from .errors import SpadesError
from .safejson import excerpt

#: Version of the rules description itself (the dictionary's ``version``).
RULES_VERSION = 1
DEFAULT_NAME = "1.0.0"
CUSTOM = "custom"
#: A blind nil is scored as a nil worth this, its tricks bags like a nil's.
BLIND_NIL_POINTS = 200
BIG_BID = 10  # "ten for two hundred": a team bid of this or more …
BIG_BID_POINTS = 200  # … scores this when made (and loses it when set)
NIL_VALUES = (100, 50)
BAG_LIMITS = (10, 5, 0)  # bags per penalty; 0 = no bag penalty
BAG_PENALTY_PER_BAG = 10  # 10 bags cost 100, 5 bags cost 50
TARGET_RANGE = (100, 1000)
FLOOR_RANGE = (-1000, -100)
TRAIL_RANGE = (0, 500)
MIN_TEAM_BID_RANGE = (0, 4)
#: A whole number in an option's text: an optional minus sign, then one to six ASCII digits.
_WHOLE = re.compile(r"-?[0-9]{1,6}")
_TRUE, _FALSE = ("yes", "true", "on", "1"), ("no", "false", "off", "0")


class BadRules(SpadesError, ValueError):
    """A rules description that cannot be played.

    Codes: ``unknown_preset``, ``bad_rules``, ``bad_option``, ``rules_conflict``.
    """


def _flag(value: Any, name: str) -> bool:
    """An option that is yes or no, else ``bad_option``."""
    if not isinstance(value, bool):
        raise BadRules(
            "bad_option", f"The option {name} is yes or no (true or false), not {excerpt(value)}."
        )
    return value


def _whole(value: Any, name: str, low: int, high: int) -> int:
    """An option that is a whole number ``low``–``high``, else ``bad_option``."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadRules(
            "bad_option",
            f"The option {name} is a whole number from {low} to {high}, not {excerpt(value)}.",
        )
    return value


def _one_of(value: Any, name: str, choices: Sequence[Any]) -> Any:
    """An option that is one of ``choices``, else ``bad_option``."""
    if isinstance(value, bool) or value not in choices:
        shown = ", ".join("none" if c is None else str(c) for c in choices)
        raise BadRules("bad_option", f"The option {name} is one of {shown}, not {excerpt(value)}.")
    return value


@dataclass(frozen=True, slots=True)
class Rules:
    """The rules of a match. Every field's default is variant 1.0.0.

    ``deck``: ``"standard"``, ``"jokers"`` or ``"deuces"`` (jokers and deuces high).
    ``blind_nil`` with ``blind_nil_trail`` (a team may bid blind nil when trailing by at least
    this; 0 = always). ``suicide``. ``target`` and ``floor`` (``None`` = no floor) end the match.
    ``nil_points`` (100 or 50). ``bag_limit``: bags per penalty (10 → −100, 5 → −50, 0 = none).
    ``ten_for_200``. ``min_team_bid`` (0–4). ``spades_any_time``: spades may be led at any time.
    """

    deck: str = STANDARD
    blind_nil: bool = False
    blind_nil_trail: int = 100
    suicide: bool = False
    target: int = 500
    floor: int | None = -200
    nil_points: int = 100
    bag_limit: int = 10
    ten_for_200: bool = False
    min_team_bid: int = 0
    spades_any_time: bool = False

    def __post_init__(self) -> None:
        _one_of(self.deck, "deck", (STANDARD, JOKERS, DEUCES))
        for name in ("blind_nil", "suicide", "ten_for_200", "spades_any_time"):
            _flag(getattr(self, name), name)
        _whole(self.blind_nil_trail, "blind_nil_trail", *TRAIL_RANGE)
        _whole(self.target, "target", *TARGET_RANGE)
        if self.floor is not None:
            _whole(self.floor, "floor", *FLOOR_RANGE)
        _one_of(self.nil_points, "nil_points", NIL_VALUES)
        _one_of(self.bag_limit, "bag_limit", BAG_LIMITS)
        _whole(self.min_team_bid, "min_team_bid", *MIN_TEAM_BID_RANGE)
        if self.suicide and self.min_team_bid:
            raise BadRules(
                "rules_conflict",
                "Suicide fixes each team's bid (one nil, the partner 4 or more), so it cannot "
                "be played with a minimum team bid: set min_team_bid to 0.",
            )

    # -- names and forms ---------------------------------------------------------------

    @classmethod
    def preset(cls, name: Any) -> Rules:
        """The named preset (see :data:`PRESETS`); :class:`BadRules` ``unknown_preset``
        otherwise."""
        if not isinstance(name, str) or name not in PRESETS:
            raise BadRules(
                "unknown_preset",
                f"{excerpt(name)} is not a rules preset: choose one of {', '.join(PRESETS)}.",
            )
        return PRESETS[name]

    @property
    def name(self) -> str:
        """The preset this is (``"1.0.0"`` for the default), or ``"custom"``."""
        for name, rules in PRESETS.items():
            if rules == self:
                return name
        return CUSTOM

    @property
    def default(self) -> bool:
        """Whether these are the rules of variant 1.0.0."""
        return self == DEFAULT

    @property
    def card_deck(self) -> Deck:
        """The deck these rules deal (:class:`~spades.cards.Deck`)."""
        return DECKS[self.deck]

    @property
    def bag_penalty(self) -> int:
        """Points lost per bag penalty (0 when bags are never penalised)."""
        return BAG_PENALTY_PER_BAG * self.bag_limit

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary: ``version``, ``name`` and every option."""
        return {"version": RULES_VERSION, "name": self.name, **asdict(self)}

    @classmethod
    def from_dict(cls, data: Any) -> Rules:
        """Rules from :meth:`to_dict` data (options left out take 1.0.0's value); :class:`BadRules`
        if invalid.

        ``name`` is informative and ignored; ``version`` must be :data:`RULES_VERSION` if given.
        """
        if not isinstance(data, dict):
            raise BadRules(
                "bad_rules", f"A rules description is a dictionary of options, not {excerpt(data)}."
            )
        known = {f.name for f in fields(cls)}
        extra = set(data) - known - {"version", "name"}
        if extra:
            raise BadRules(
                "bad_rules", f"Unknown rules option {excerpt(sorted(map(str, extra))[0])}."
            )
        if "version" in data and (
            isinstance(data["version"], bool) or data["version"] != RULES_VERSION
        ):
            raise BadRules(
                "bad_rules",
                f"Rules description version {excerpt(data['version'])}; this engine reads "
                f"{RULES_VERSION}.",
            )
        return cls(**{k: v for k, v in data.items() if k in known})

    def to_text(self) -> str:
        """Short text: the preset name, or ``1.0.0`` then ``key=value`` for each option that
        differs."""
        if self.name != CUSTOM:
            return self.name
        parts = [DEFAULT_NAME]
        for f in fields(self):
            value = getattr(self, f.name)
            if value != getattr(DEFAULT, f.name):
                parts.append(f"{f.name}={_text_value(value)}")
        return ",".join(parts)

    @classmethod
    def parse(cls, text: Any) -> Rules:
        """Rules from :meth:`to_text` text: ``[preset][,key=value]…``; :class:`BadRules` if
        invalid."""
        if not isinstance(text, str) or not text.strip() or len(text) > 400:
            raise BadRules(
                "bad_rules",
                f"Rules are a preset name or options such as 'jokers,target=300', not "
                f"{excerpt(text)}.",
            )
        tokens = [t.strip() for t in text.split(",")]
        base = cls.preset(tokens.pop(0)) if "=" not in tokens[0] else DEFAULT
        types = {f.name: f.default for f in fields(cls)}
        changes: dict[str, Any] = {}
        for token in tokens:
            key, sep, raw = token.partition("=")
            key = key.strip().replace("-", "_")
            if not sep or key not in types:
                raise BadRules(
                    "bad_rules",
                    f"{excerpt(token)} is not an option (write key=value, e.g. target=300).",
                )
            if key in changes:
                raise BadRules(
                    "bad_rules", f"The option {key} is given twice: give each option once."
                )
            changes[key] = _read_value(raw.strip(), key, types[key])
        return replace(base, **changes)

    @classmethod
    def read(cls, value: Any) -> Rules:
        """Rules from any form a caller may give: ``None`` (1.0.0), :class:`Rules`, text or a
        dictionary."""
        if value is None:
            return DEFAULT
        if isinstance(value, Rules):
            return value
        if isinstance(value, dict):
            return cls.from_dict(value)
        return cls.parse(value)


def _text_value(value: Any) -> str:
    """An option's value as :meth:`Rules.to_text` writes it (``none``, ``yes``/``no``, the
    number)."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _read_value(raw: str, key: str, default: Any) -> Any:
    """An option's value from text, typed like its default (``none`` for no floor)."""
    low = raw.lower()
    if isinstance(default, bool):
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
    elif isinstance(default, int):
        if low == "none" and key == "floor":
            return None
        if _WHOLE.fullmatch(low):
            return int(low)
    elif isinstance(default, str):
        return low
    raise BadRules("bad_option", f"{excerpt(raw)} is not a value for {key}.")


DEFAULT = Rules()
#: The named presets; any valid combination of options may be played as well.
PRESETS: dict[str, Rules] = {
    DEFAULT_NAME: DEFAULT,
    "jokers": Rules(deck=JOKERS),
    "deuces": Rules(deck=DEUCES),
    "suicide": Rules(suicide=True),
    "blind-nil": Rules(blind_nil=True),
    "quick": Rules(target=250),
}
