"""The double-dummy solver: exact search over a hand with every card visible, split as DDS splits
it.

``solve(match)`` gives each legal card of the seat to act its further tricks and hand-score
margin with best play by both teams; :class:`Solver` keeps its tables over many positions of
one hand. The modules, bottom to top:

* :mod:`~spades.solver.memo` — bounded lookup tables;
* :mod:`~spades.solver.position` — the position asked about, its checks and errors, the value type;
* :mod:`~spades.solver.quick` — sure (quick) tricks read off the cards, without search;
* :mod:`~spades.solver.table` — the transposition table (relative ranks, shared by relevance);
* :mod:`~spades.solver.moves` — move generation and ordering;
* :mod:`~spades.solver.state` — the search state, played and unplayed in place;
* :mod:`~spades.solver.margin` — the margin search (the score value);
* :mod:`~spades.solver.search` — the trick search and :class:`Solver`, the public entry;
* :mod:`~spades.solver.review` — every decision of a completed hand against the solver.

Standard library only (runs unchanged in Pyodide).
"""

from __future__ import annotations

from .position import CardValue, NotFinished, Position, SolverError
from .search import MatchValue, Solver, hand_margin, solve, solve_position

__all__ = [
    "CardValue",
    "MatchValue",
    "NotFinished",
    "Position",
    "Solver",
    "SolverError",
    "hand_margin",
    "solve",
    "solve_position",
]
