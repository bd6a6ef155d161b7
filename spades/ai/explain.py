"""Reason codes: why a computer player chose its bid or card, as stable codes and parameters.

Every bot level decides through ``explain(view)``, which returns an :class:`Explanation`:
the action and a :class:`Reason` made of a stable ``code`` and JSON-ready ``params``
(never an English sentence: the page renders the text from ``site/i18n/*.json``, key
``reason.<code>``, and the terminal from :mod:`spades.cli`). ``choose(view)`` is
``explain(view).action``, so a reason is always the true one: it comes from the code
path that decided.

:data:`CODES` is the registry: each code with its parameters and their kinds. The
kinds tell a renderer how to show a value:

=============  =====================================================================
kind           value
=============  =====================================================================
``card``       a card name (``"KD"``): show it as rank and suit symbol (K♦)
``cards``      a list of card names
``suit``       a suit letter (``"S"``, ``"H"``, ``"D"``, ``"C"``)
``suits``      a list of suit letters
``seat``       a seat number 0–3 (0 is the human's seat in the game)
``count``      a whole number
``tricks``     a number of tricks, possibly fractional (up to two decimals)
``points``     points, possibly fractional (up to two decimals)
``percent``    a whole percentage 0–100
``bid``        a bid, 0 meaning nil
``details``    a list of nested reasons ``{code, params}`` (not in the sentence: shown after it)
``candidates`` a list of ``{card, value, make}`` (the search's table: not in the sentence)
=============  =====================================================================

A reason is the deciding seat's own account and may name its hidden cards. Told to another
seat while the hand is still being played, it goes through :func:`told_to`, which keeps only
what that listener may know (the cards played and its own): the parts describing the hidden
hand (:data:`HAND_CODES`) are left out, a code naming a hidden card becomes its public form
(:data:`PUBLIC_FORM`), and the search's table keeps only rows of known cards.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

#: Kinds of parameter that are not placeholders of the code's sentence (shown apart).
STRUCTURED_KINDS = frozenset({"details", "candidates"})
#: Every parameter kind (see the module docstring).
KINDS = (
    frozenset(
        {"card", "cards", "suit", "suits", "seat", "count", "tricks", "points", "percent", "bid"}
    )
    | STRUCTURED_KINDS
)

_CARD = {"card": "card"}

#: Every reason code with its parameters and their kinds.
CODES: dict[str, dict[str, str]] = {
    # -- bids: the decision ------------------------------------------------------------------
    "bid.easy": {"bid": "bid", "cards": "cards"},
    "bid.easy_count": {"bid": "bid"},
    "bid.tricks": {"bid": "bid", "estimate": "tricks", "details": "details"},
    "bid.nil": {"estimate": "tricks", "details": "details"},
    "bid.nil_gamble": {"them": "points", "gap": "points"},
    "bid.simulated": {
        "bid": "bid",
        "samples": "count",
        "value": "points",
        "make": "percent",
        "details": "details",
    },
    "bid.option": {"bid": "bid", "value": "points", "make": "percent"},
    "bid.option_risky": {"bid": "bid", "value": "points", "make": "percent", "need": "percent"},
    "bid.option_unsure": {"bid": "bid", "value": "points", "make": "percent", "base": "bid"},
    # -- bids: the trick estimate, part by part --------------------------------------------------
    "est.ace": {"card": "card", "tricks": "tricks"},
    "est.ace_long": {"card": "card", "tricks": "tricks", "length": "count"},
    "est.king_guarded": {"card": "card", "tricks": "tricks"},
    "est.king_weak": {"card": "card", "tricks": "tricks", "length": "count"},
    "est.queen": {"card": "card", "tricks": "tricks"},
    "est.spade_honour": {"card": "card", "tricks": "tricks"},
    "est.spade_length": {"count": "count", "tricks": "tricks"},
    "est.ruff": {"suits": "suits", "spades": "count", "tricks": "tricks"},
    "est.nothing": {},
    # -- bids: the nil decision and the adjustments -------------------------------------------
    "nil.fits": {"spades": "count", "estimate": "tricks"},
    "adj.partner_nil": {"bid": "bid"},
    "adj.team_cap": {"partner_bid": "bid", "cut": "count"},
    "adj.table_total": {"total": "count", "cut": "count"},
    "adj.table_room": {"total": "count", "add": "count"},
    "adj.minimum": {"bid": "bid"},
    "adj.maximum": {"bid": "bid"},
    "adj.nil_unsafe": {"score": "points"},
    "adj.bags": {"bags": "count", "bid": "bid"},
    # -- bids: house rules (spades.ai.house) ------------------------------------------------------
    "bid.blind_nil": {"gap": "points"},
    "bid.suicide_nil": {"bid": "bid"},
    "bid.suicide_cover": {"bid": "bid"},
    "adj.ten_for_two_hundred": {"bid": "bid"},
    "adj.min_team": {"bid": "bid", "minimum": "count"},
    # -- cards: Easy ----------------------------------------------------------------------------
    "play.lowest": _CARD,
    # -- cards: Normal's rules (and Hard when its search has nothing better) ----------------------
    "play.only_card": _CARD,
    "play.nil_duck": _CARD,
    "play.nil_forced": _CARD,
    "play.cover_overtake": {"card": "card", "partner_card": "card"},
    "play.cover_high": _CARD,
    "play.cover_cannot": _CARD,
    "play.attack_leave": {"card": "card", "seat": "seat"},
    "play.attack_under": {"card": "card", "seat": "seat"},
    "play.partner_winning": {"card": "card", "partner_card": "card"},
    "play.partner_winning_keep": {"card": "card", "partner_card": "card", "keep": "card"},
    "play.partner_winning_save": {"card": "card", "partner_card": "card"},
    "play.partner_winning_shed": {"card": "card", "partner_card": "card"},
    "play.win_last": _CARD,
    "play.win_boss": _CARD,
    "play.ruff": {"card": "card", "suit": "suit"},
    "play.second_low": _CARD,
    "play.win_cheap": {"card": "card", "over": "card"},
    "play.keep_spades": {"card": "card", "suit": "suit"},
    "play.cannot_win": _CARD,
    "play.duck": _CARD,
    "play.duck_discard": _CARD,
    "play.forced_win": _CARD,
    "lead.nil_low": _CARD,
    "lead.cover_boss": _CARD,
    "lead.cover_high": _CARD,
    "lead.attack": {"card": "card", "seat": "seat"},
    "lead.boss": _CARD,
    "lead.draw_trumps": _CARD,
    "lead.short_suit": {"card": "card", "suit": "suit"},
    "lead.long_suit": {"card": "card", "suit": "suit"},
    "lead.low": _CARD,
    "lead.duck": _CARD,
    # -- cards: Hard's search -------------------------------------------------------------------
    "play.equivalent": _CARD,
    # -- cards: house rules (spades.ai.house) -----------------------------------------------------
    "play.house_lowest": _CARD,
    "play.search": {
        "card": "card",
        "samples": "count",
        "value": "points",
        "make": "percent",
        "candidates": "candidates",
    },
    "play.exact": {
        "card": "card",
        "left": "count",
        "samples": "count",
        "value": "points",
        "make": "percent",
        "candidates": "candidates",
    },
    "play.exact_nil": {
        "card": "card",
        "left": "count",
        "samples": "count",
        "value": "points",
        "make": "percent",
        "nil": "percent",
        "candidates": "candidates",
    },
    "play.search_rule": {
        "card": "card",
        "samples": "count",
        "value": "points",
        "make": "percent",
        "candidates": "candidates",
        "details": "details",
    },
}


#: Codes that describe the deciding seat's hand part by part (its strength, its low spades):
#: only a listener who knows that hand hears them (even one naming no card tells what it holds).
HAND_CODES = frozenset({code for code in CODES if code.startswith("est.")} | {"nil.fits"})
#: Each code whose sentence names the deciding seat's unplayed cards, and the code saying the
#: same without them.
PUBLIC_FORM: dict[str, str] = {
    "bid.easy": "bid.easy_count",
    "play.partner_winning_keep": "play.partner_winning_save",
}
#: Parameter kinds whose values are card names.
CARD_KINDS = frozenset({"card", "cards"})


def card_names(reason: dict[str, Any]) -> list[str]:
    """Every card name in ``reason`` (a ``{code, params}`` dictionary): its sentence, details
    and table."""
    names: list[str] = []
    for name, kind in CODES[reason["code"]].items():
        value = reason["params"].get(name)
        if value is None:
            continue
        if kind == "card":
            names.append(value)
        elif kind == "cards":
            names.extend(value)
        elif kind == "details":
            for detail in value:
                names.extend(card_names(detail))
        elif kind == "candidates":
            names.extend(row["card"] for row in value)
    return names


def _told(reason: dict[str, Any], known: Collection[str]) -> dict[str, Any] | None:
    code, params = reason["code"], reason["params"]
    if code in HAND_CODES:
        return None
    code = PUBLIC_FORM.get(code, code)
    told: dict[str, Any] = {}
    for name, kind in CODES[code].items():
        if name not in params:
            continue
        value = params[name]
        if kind == "details":
            value = [d for d in (_told(detail, known) for detail in value) if d is not None]
        elif kind == "candidates":
            value = [row for row in value if row["card"] in known]
        elif kind in CARD_KINDS and any(
            c not in known for c in ([value] if kind == "card" else value)
        ):
            return None  # a hidden card with no public form: say nothing rather than tell it
        told[name] = value
    return {"code": code, "params": told}


def told_to(reason: Reason, known: Collection[str]) -> Reason | None:
    """``reason`` as another seat may hear it while the hand is being played: naming only the
    cards in ``known`` (those played and the listener's own) and nothing of the hidden hand.

    ``None`` if the reason cannot be told without a hidden card (no code does so today: the
    leak property test, ``tests/bridge/test_leaks.py``, holds every level to it).
    """
    told = _told(reason.to_dict(), known)
    return None if told is None else Reason(told["code"], told["params"])


def param_kinds() -> dict[str, str]:
    """Each parameter name with its kind: a name has one kind in every code, so a renderer may go by
    name."""
    kinds: dict[str, str] = {}
    for params in CODES.values():
        for name, kind in params.items():
            if kinds.setdefault(name, kind) != kind:
                raise ValueError(f"parameter {name!r} has two kinds: {kinds[name]} and {kind}")
    return kinds


def text_params(code: str) -> set[str]:
    """The parameters of ``code`` that its sentence shows (placeholders in the catalogue)."""
    return {name for name, kind in CODES[code].items() if kind not in STRUCTURED_KINDS}


@dataclass(frozen=True, slots=True)
class Reason:
    """Why an action was chosen: a stable ``code`` (a key of :data:`CODES`) and JSON-ready
    ``params``."""

    code: str
    params: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        """``{"code", "params"}``, as the bridge sends it and as ``details`` nest it."""
        return {"code": self.code, "params": self.params}


@dataclass(frozen=True, slots=True)
class Explanation:
    """A bot's decision with its reason: ``action`` is exactly what ``choose`` returns."""

    action: int | str
    reason: Reason


def reason(code: str, **params: Any) -> Reason:
    """A :class:`Reason` (the code is checked against the registry by the tests, not here: it is
    hot)."""
    return Reason(code, params)


#: Decimals kept in a trick or point figure (a guarded king is 0.65 of a trick).
SHOWN_DECIMALS = 2


def shown(x: float) -> float:
    """A trick or point figure as a reason carries it: rounded to :data:`SHOWN_DECIMALS`
    decimals."""
    return round(x, SHOWN_DECIMALS)


__all__ = [
    "CARD_KINDS",
    "CODES",
    "HAND_CODES",
    "KINDS",
    "PUBLIC_FORM",
    "STRUCTURED_KINDS",
    "Explanation",
    "Reason",
    "card_names",
    "param_kinds",
    "reason",
    "shown",
    "text_params",
    "told_to",
]
