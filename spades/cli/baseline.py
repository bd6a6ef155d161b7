"""Bots of an older commit beside today's, for the arena's baseline levels (``hard@5104c58``).

:func:`load` extracts the ``spades`` package of a commit from this checkout's git history
(``git archive``) into a cache folder under the system's temporary directory, renamed to
``spades_<commit>`` so that both packages import side by side (the engine and the bots use
relative imports only). :class:`Shadow` keeps that old engine's own match in step with the
arena's: every action is fed to both, and an old bot decides from the old engine's view.

Only the arena uses this (never the game): it needs git and the repository's history.
"""

from __future__ import annotations

import importlib
import inspect
import io
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

#: ``level@commit`` names a level of an older commit (e.g. ``hard@5104c58``).
SEPARATOR = "@"
_COMMIT = re.compile(r"[0-9a-f]{7,40}")
# : Hard's wall-clock safety net, off for old Hard players (their decisions then depend on the
# position only).
NO_TIME_CAP = float("inf")


def split_level(level: str) -> tuple[str, str | None]:
    """``"hard@5104c58"`` → ``("hard", "5104c58")``; a plain level → ``(level, None)``."""
    name, sep, commit = level.partition(SEPARATOR)
    if not sep:
        return level, None
    if not _COMMIT.fullmatch(commit):
        raise ValueError(
            f"bad commit {commit!r} in level {level!r}: give 7–40 lower-case hex digits"
        )
    return name, commit


def _repo() -> Path:
    """The checkout this package lives in (its git history holds the old commits)."""
    return Path(__file__).resolve().parents[2]


def load(commit: str) -> ModuleType:
    """The ``spades`` package of ``commit``, imported as ``spades_<commit>`` (cached, extracted
    once)."""
    name = f"spades_{commit}"
    if name in sys.modules:
        return sys.modules[name]
    root = (
        Path(tempfile.gettempdir())
        / f"spades_baseline_{os.getuid() if hasattr(os, 'getuid') else 0}"
    )
    target = root / name
    if not target.is_dir():
        try:
            tar = subprocess.run(
                ["git", "-C", str(_repo()), "archive", "--format=tar", commit, "spades"],
                check=True,
                capture_output=True,
            ).stdout
        except (OSError, subprocess.CalledProcessError) as exc:
            raise ValueError(f"cannot read commit {commit!r} from git history: {exc}") from None
        root.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(dir=root))
        with tarfile.open(fileobj=io.BytesIO(tar)) as t:
            t.extractall(work)  # our own repository's files, paths under spades/
        try:
            (work / "spades").rename(target)  # atomic: a parallel worker may have won the race
        except OSError:
            if not target.is_dir():
                raise
        shutil.rmtree(work, ignore_errors=True)
    if str(root) not in sys.path:
        sys.path.append(str(root))
    return importlib.import_module(name)


class OldBot:
    """A bot of an old package deciding from that package's own view (Hard without its time cap,
    in the commits whose Hard had one)."""

    def __init__(self, package: ModuleType, level: str, seed: int) -> None:
        ai = importlib.import_module(f"{package.__name__}.ai")
        self.bot = ai.bot(level, seed=seed)
        hard = importlib.import_module(f"{package.__name__}.ai.hard") if level == "hard" else None
        capped = hard is not None and "time_cap" in inspect.signature(hard.search_card).parameters
        self.hard = hard if capped else None

    def choose(self, view: Any) -> int | str:
        """The old bot's action for the old engine's ``view``."""
        if self.hard is not None and view.phase == "play":
            b = self.bot
            card = self.hard.search_card(view, b.rng(view), b.budget, time_cap=NO_TIME_CAP)
            return self.hard.CARD_NAMES[card]
        return self.bot.choose(view)


class Shadow:
    """The old engines' matches beside the arena's match, fed the same actions."""

    def __init__(
        self,
        levels: list[str],
        seed: int,
        deal: list[list[str]],
        dealer: int,
        bot_seeds: list[int] | None = None,
    ) -> None:
        """``levels`` by seat (the old ones ``LEVEL@COMMIT``); each old bot's seed is
        ``bot_seeds[seat]`` (by default ``seed * 4 + seat``, the arena's)."""
        self.matches: dict[str, Any] = {}
        self.bots: dict[int, tuple[str, OldBot]] = {}
        for seat, level in enumerate(levels):
            name, commit = split_level(level)
            if commit is None:
                continue
            if commit not in self.matches:
                m = load(commit).Match(seed=seed)
                if [m.dealt(s) for s in range(4)] != deal or m.dealer != dealer:
                    raise ValueError(
                        f"commit {commit} deals seed {seed} differently: no duplicate deals"
                    )
                self.matches[commit] = m
            bot_seed = seed * 4 + seat if bot_seeds is None else bot_seeds[seat]
            self.bots[seat] = commit, OldBot(load(commit), name, bot_seed)

    def choose(self, seat: int) -> int | str | None:
        """The old bot's action if ``seat`` is an old bot, else ``None``."""
        if seat not in self.bots:
            return None
        commit, b = self.bots[seat]
        return b.choose(self.matches[commit].view(seat))

    def act(self, action: int | str, seat: int) -> None:
        """Feed an action to every old match."""
        for m in self.matches.values():
            m.act(action, seat=seat)
