"""Expert: Hard's search and play with bolder bids.

Expert plays every card as Hard does (:mod:`spades.ai.hard`) and simulates its bids the same
way (:mod:`spades.ai.hardbid`), but takes a raise over its heuristic bid whenever the raise
has the better average over the sampled deals, not only when the gain is clear of the deals'
noise. It sets more of its own contracts than Hard and wins more matches: the partner for a
player who wants the strongest side, where Hard is the partner whose bids hold.
"""

from __future__ import annotations

from .hard import HardBot


class ExpertBot(HardBot):
    """Hard with bolder simulated bids (no clear-gain test on raises)."""

    level = "expert"
    cautious = False
