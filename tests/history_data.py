"""Real matches for the history tests: played through the bridge by computer players.

The human's seat is played by taking the ``hint`` of a bot level, so every save and
state comes from the engine exactly as the page would get them.
"""
from __future__ import annotations

from typing import Any

from spades import bridge


def play_match(seed: int, partner: str = "normal", opponents: str = "normal",
               me: str = "normal", hands: int | None = None) -> tuple[str, dict[str, Any]]:
    """Play a match (or its first ``hands`` hands: then it is unfinished); return (save, state)."""
    state = bridge.call("new_match", {"seed": seed, "partner": partner, "opponents": opponents})
    while True:
        state = bridge.call("run_bots")["state"]
        if state["phase"] == "over" or (hands is not None and len(state["sheet"]) >= hands):
            break
        action = bridge.call("hint", {"level": me})["action"]
        if "bid" in action:
            state = bridge.call("bid", {"n": action["bid"]})
        else:
            state = bridge.call("play", {"card": action["card"]})
    return bridge.call("save")["save"], bridge.state()
