"""JSON from untrusted text, bounded in size and nesting before it is parsed.

``json.loads`` recurses once per nesting level, so a 100,000-deep array overflows the
stack (a fatal error inside Pyodide). :func:`loads` first checks the length and then the
nesting depth with a flat scan of the brackets outside strings — no recursion — and only
then hands the text to ``json.loads``. Every refusal is a :class:`~spades.errors.BadInput`
with a stable code; no message quotes more than :data:`EXCERPT_CHARS` of the input.
"""

from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any

from .errors import BadInput

#: The most characters of an input any message quotes.
EXCERPT_CHARS = 40
#: Bits above which a number is described, not written out (its decimal text would be long).
_BIG_INT_BITS = 128
#: A complete JSON string: quote, then runs of plain characters or escapes, then quote.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
#: Everything but the characters that open or close a level of nesting.
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def excerpt(value: Any, limit: int = EXCERPT_CHARS) -> str:
    """A short, safe description of ``value`` for a message: at most ``limit`` characters."""
    if isinstance(value, str):
        text = repr(value[:limit])
        if len(value) > limit:
            text = text[: limit - 1] + "…"
    elif isinstance(value, bool) or value is None:
        text = json.dumps(value)
    elif isinstance(value, int):
        text = str(value) if value.bit_length() <= _BIG_INT_BITS else "a very large number"
    elif isinstance(value, float):
        text = repr(value)
    elif isinstance(value, dict):
        text = "an object"
    elif isinstance(value, (list, tuple)):
        text = "a list"
    else:
        text = f"a value of type {type(value).__name__}"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def depth(text: str) -> int:
    """The deepest nesting of ``[`` / ``{`` outside strings in ``text``, found without recursion.

    Brackets inside complete strings are ignored; the count runs from the start of the
    text (a closer with no opener lowers it below zero, which only happens in text that is
    not JSON, where the parser stops at that closer). A stray quote leaves the rest counted
    as it stands, which is harmless for the same reason. Runs in C-level loops.
    """
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    if not brackets:
        return 0
    return max(0, max(accumulate(map(_STEP.__getitem__, brackets))))


def _no_constants(name: str) -> Any:
    """Refuse ``NaN`` and ``Infinity``, which Python's parser would accept and JSON has not."""
    raise BadInput("not_json", f"The text is not valid JSON ({name} is not a JSON number).")


def loads(text: str, *, max_chars: int, max_depth: int) -> Any:
    """Parse JSON ``text`` of at most ``max_chars`` characters and ``max_depth`` levels.

    Raises :class:`BadInput`: ``too_large``, ``too_deep``, or ``not_json`` (also for a
    non-string, ``NaN``/``Infinity``, and numbers too long for Python to read).
    """
    if not isinstance(text, str):
        raise BadInput("not_json", f"Expected JSON text, got {excerpt(text)}.")
    if len(text) > max_chars:
        raise BadInput(
            "too_large", f"The text is too long: {len(text):,} characters, at most {max_chars:,}."
        )
    if depth(text) > max_depth:
        raise BadInput("too_deep", f"The text is nested too deeply: more than {max_depth} levels.")
    try:
        return json.loads(text, parse_constant=_no_constants)
    except json.JSONDecodeError as exc:
        raise BadInput(
            "not_json", f"The text is not valid JSON (at character {exc.pos:,})."
        ) from None
    except (ValueError, RecursionError):  # e.g. an integer longer than Python's digit limit
        raise BadInput("not_json", "The text is not valid JSON that this game can read.") from None
