"""Memo: the solver's bounded lookup tables (a page runs for a long session in a browser tab)."""

from __future__ import annotations


class Memo(dict):
    """A dict that makes a missing entry with ``make`` (a hit is a plain subscript, no call);
    emptied when it holds :data:`MEMO_SIZE` entries (the page runs in a browser tab)."""

    def __init__(self, make) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key):
        if len(self) >= MEMO_SIZE:
            self.clear()
        value = self[key] = self.make(key)
        return value


MEMO_SIZE = 1 << 15  # entries (a few MB at most)
