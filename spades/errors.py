"""The engine's exceptions: refused actions and refused saves."""

from __future__ import annotations


class SpadesError(Exception):
    """Base class of the engine's errors; ``code`` is stable, ``message`` is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


class IllegalAction(SpadesError, ValueError):
    """An action the rules do not allow now; the match is left exactly as it was.

    Codes: ``not_your_turn``, ``wrong_phase``, ``match_over``, ``not_in_hand``,
    ``must_follow_suit``, ``spades_not_broken``, ``bad_bid``, ``bad_card``,
    ``nothing_to_undo``.
    """


class BadSave(SpadesError, ValueError):
    """A save that is malformed, truncated, tampered with or from another format.

    Codes: ``not_json``, ``wrong_format``, ``wrong_version``, ``malformed``,
    ``bad_deal``, ``illegal_history``, ``inconsistent``.
    """


class BadRequest(SpadesError):
    """A request that cannot be served as asked: bad arguments, seed or level, no match.

    Codes: ``bad_request``, ``bad_args``, ``unknown_message``, ``no_match``, ``bad_seed``,
    ``bad_level``, ``bad_hand``, ``not_bot_turn``.
    """


class BadInput(SpadesError, ValueError):
    """Text refused before it is read: too long, nested too deeply, or not JSON.

    Codes: ``too_large``, ``too_deep``, ``not_json``. The message never quotes more
    than a short excerpt of the input (see :func:`spades.safejson.excerpt`).
    """
