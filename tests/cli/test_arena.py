"""Arena: a tiny duplicate run checks the report fields and the seat swap."""
from __future__ import annotations

from spades.cli import arena


def test_tiny_arena_report_and_duplicate_orientation(capsys) -> None:
    rep, results = arena.run("normal", "easy", matches=4, seed=3, jobs=1, max_hands=3)
    assert rep["matches"] == 4 and rep["seeds"] == 2
    for key in ("a_win_rate", "a_win_rate_ci95", "draws", "capped", "sides", "decision_time"):
        assert key in rep
    for side in ("A", "B"):
        s = rep["sides"][side]
        for key in ("match_wins", "points_per_hand", "contracts_made_pct", "nil_bids",
                    "nil_success_pct", "bags_per_hand"):
            assert key in s
    assert set(rep["decision_time"]) == {"normal", "easy"}
    assert rep["decision_time"]["normal"]["p95_ms"] is not None
    lo, hi = rep["a_win_rate_ci95"]
    assert 0 <= lo <= rep["a_win_rate"] <= hi <= 1
    # every seed is played twice, once per orientation, on the same deals
    by_seed: dict[int, list] = {}
    for r in results:
        by_seed.setdefault(r.seed, []).append(r)
    assert len(by_seed) == 2
    for pair in by_seed.values():
        assert sorted(r.orientation for r in pair) == [0, 1]
        assert pair[0].first_deal == pair[1].first_deal
    assert sum(r.capped for r in results) == rep["capped"]
    # the CLI entry point prints the report
    assert arena.main(["easy", "easy", "--matches", "2", "--seed", "1", "--max-hands", "2", "--json"]) == 0
    assert '"a_win_rate"' in capsys.readouterr().out
    assert arena.main(["easy", "nobody", "--matches", "2"]) == 2


def test_wilson_interval() -> None:
    lo, hi = arena.wilson(80, 100)
    assert 0.70 < lo < 0.80 < hi < 0.88
    assert arena.wilson(0, 0) == (0.0, 1.0)
