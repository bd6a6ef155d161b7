"""Hand review: decisions, costs against a brute-force oracle, the end-first order, the CLI."""
from __future__ import annotations

import json

import pytest
from oracles import brute_values

import spades
from spades.ai import bot
from spades.cli import main
from spades.notation import format_hand
from spades.solver import Position, Solver
from spades.solver.review import Decision, ReviewError, iter_review, leader_table, review

BUDGET = 0.2                 # seconds per position: the late positions always finish in it
CLI_BUDGET = 0.05            # the CLI test reads the last decision only (one trick left)
ORACLE_CARDS = 12            # the last three tricks are checked against brute force


@pytest.fixture(scope="module")
def record() -> spades.HandRecord:
    m = spades.Match(seed=11)
    bots = [bot("easy", s) for s in range(4)]
    while not m.hands_played:
        m.act(bots[m.to_act].choose(m.view(m.to_act)))
    return m.hands_played[0]


@pytest.fixture(scope="module")
def result(record):
    return review(record, BUDGET)


def _positions(record):
    m = spades.Match(seed=0, dealer=record.dealer, deal=[list(h) for h in record.deal])
    for i in range(4):
        m.bid(record.bids[(record.dealer + 1 + i) % 4])
    out = []
    for t in record.tricks:
        for _, card in t.plays:
            out.append(Position.from_match(m))
            m.play(card)
    return out


def test_every_decision_in_order(record, result):
    ds = result.decisions
    assert [d.index for d in ds] == list(range(56))
    assert [d.kind for d in ds] == ["bid"] * 4 + ["card"] * 52
    assert [d.action for d in ds[4:]] == [c for t in record.tricks for c in t.cards]
    assert [d.seat for d in ds[4:]] == [s for t in record.tricks for s, _ in t.plays]
    assert [d.seat for d in ds[:4]] == [(record.dealer + 1 + i) % 4 for i in range(4)]


def test_late_costs_match_brute_force(record, result):
    positions = _positions(record)
    for i in range(52 - ORACLE_CARDS, 52):
        d = result.decisions[4 + i]
        left = positions[i].hands[d.seat].bit_count()
        team = d.seat & 1
        want = {c: (t if team == 0 else left - t, m) for c, (t, m) in brute_values(positions[i]).items()}
        assert d.finished
        best_tricks = max(t for t, _ in want.values())
        best_points = max(m for _, m in want.values())
        assert d.cost_tricks == best_tricks - want[d.action][0]
        assert d.cost_points == best_points - want[d.action][1]
        assert want[d.best][1] == best_points
        assert {c: v.tricks[team] for c, v in d.values.items()} == {c: t for c, (t, _) in want.items()}


def test_results_come_from_the_end_of_the_hand(record):
    first = next(iter_review(record, BUDGET))
    assert isinstance(first, Decision)
    assert (first.index, first.cost_tricks, first.cost_points) == (55, 0, 0)


def test_a_position_past_its_budget_says_not_finished(record):
    items = list(iter_review(record, 0.0))
    cards = [d for d in items if isinstance(d, Decision) and d.kind == "card"]
    early = cards[-1]             # the opening lead: 13 tricks cannot be solved in no time
    assert (early.index, early.finished, early.cost_tricks, early.best) == (4, False, None, None)


def test_table_for_each_leader_matches_brute_force(record):
    late = _positions(record)[40]                   # the start of trick 11: three tricks left
    assert late.trick == ()
    table = leader_table(late, Solver(late.bids, late.bags), BUDGET)
    for leader in range(4):
        pos = Position(late.hands, (), leader, late.broken, late.bids, late.won, late.bags)
        pick = max if leader % 2 == 0 else min
        want = pick(t for t, _ in brute_values(pos).values())
        assert table[leader] == (want, 3 - want)


def test_refuses_an_unfinished_hand():
    with pytest.raises(ReviewError) as e:
        next(iter_review("not a hand"))  # type: ignore[arg-type]
    assert e.value.code == "not_complete"


def test_cli_review_json(record, tmp_path, capsys):
    path = tmp_path / "hand.txt"
    path.write_text(format_hand(record))
    assert main(["review", str(path), "--json", "--budget", str(CLI_BUDGET)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out) == 56
    assert {"seat", "action", "best", "cost_tricks", "cost_points"} <= set(out[-1])
    assert (out[-1]["action"], out[-1]["cost_tricks"], out[-1]["cost_points"]) == (record.tricks[-1].cards[-1], 0, 0)


def test_cli_review_refuses_a_bad_file(tmp_path, capsys):
    path = tmp_path / "bad.txt"
    path.write_text("Dealer: Q\n")
    assert main(["review", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("Cannot review") and "Traceback" not in err


class _SlowSolver:
    """A solver that spends ``cost`` seconds of a fake clock on each leader, and gives up past the deadline."""

    def __init__(self, clock: list[float], cost: float) -> None:
        self.clock, self.cost, self.deadlines = clock, cost, []

    def tricks(self, pos, *, deadline):
        self.deadlines.append(deadline)
        self.clock[0] += self.cost
        if self.clock[0] > deadline:
            raise spades.solver.NotFinished("past the deadline")
        return 0


def test_the_table_shares_one_budget_among_the_four_leaders(record, monkeypatch):
    """One ``dd_table`` message may not run four budgets back to back (issue 30, case 9): a fake
    clock where each leader costs 12 s of a 30 s budget solves two leaders and gives up on the rest."""
    from types import SimpleNamespace

    from spades.solver import review as module
    clock = [1000.0]
    monkeypatch.setattr(module, "time", SimpleNamespace(perf_counter=lambda: clock[0]))
    solver = _SlowSolver(clock, 12.0)
    table = leader_table(_positions(record)[0], solver, 30.0)
    assert solver.deadlines == [1030.0] * 4
    assert [table[s] is None for s in range(4)] == [False, False, True, True]


def test_step_wise_review_keeps_the_tables_of_several_hands(record):
    """Pages sharing one engine analyse different hands one message at a time, in turns: each
    hand keeps its solver (its tables) while others are analysed, up to STEPWISE_KEPT hands."""
    from spades.solver import review as analysis

    others = []
    for seed in range(20, 20 + analysis.STEPWISE_KEPT):
        m = spades.Match(seed=seed)
        bots = [bot("easy", s) for s in range(4)]
        while not m.hands_played:
            m.act(bots[m.to_act].choose(m.view(m.to_act)))
        others.append(m.hands_played[0])
    analysis._stepwise.cache_clear()
    first = analysis.decision_at(record, 51, BUDGET)
    solver = analysis._stepwise(record)[2]
    for other in others[:-1]:                       # as many hands as are kept, counting this one
        analysis.decision_at(other, 51, BUDGET)
    assert analysis._stepwise(record)[2] is solver  # still kept: the same tables
    assert analysis.decision_at(record, 51, BUDGET).to_dict() == first.to_dict()
    for other in others:                            # one hand too many since it was last used
        analysis.decision_at(other, 51, BUDGET)
    assert analysis._stepwise.cache_info().currsize == analysis.STEPWISE_KEPT
    assert analysis._stepwise(record)[2] is not solver
