"""Hard's exact play and the deals it samples: solved deals decide, the nodes bound the work,
the deals fit the bids."""
from __future__ import annotations

import random

from spades import Match
from spades.ai.easy import EasyBot
from spades.ai.estimate import NIL_MAX_ESTIMATE, estimate_tricks
from spades.ai.exact import ExactBudget
from spades.ai.hard import HardBot
from spades.ai.sampling import bid_fit, fitted_deals
from spades.ai.tracker import track

PERCENT = 100


def played(seed: int, actions: int, bids: list[int] | None = None) -> Match:
    """Match ``seed`` after ``bids`` (Easy's if not given) and Easy's cards, ``actions`` in all."""
    m = Match(seed=seed)
    easy = EasyBot(0)
    for i in range(actions):
        m.act(bids[i] if bids is not None and i < len(bids) else easy.choose(m.view(m.to_act)))
    return m


def test_fitted_deals_fit_the_bids_better_and_respect_what_is_known() -> None:
    m = played(4, 4, bids=[0, 6, 2, 1])
    viewer = (m.dealer + 4) % 4                         # the dealer, last to bid
    t = track(m.view(viewer))
    plain = fitted_deals(t, random.Random(1), 60, pool=1)
    fitted = fitted_deals(t, random.Random(1), 60, pool=3)
    assert len(plain) == len(fitted) == 60
    for deal in fitted:
        assert deal[t.seat] == t.hand
        assert sum(deal) - t.hand == t.unseen and [h.bit_count() for h in deal] == [13] * 4

    def miss(deals: list[list[int]]) -> float:
        """Mean squared distance between each other seat's bid and its hand's estimate."""
        total = 0.0
        for d in deals:
            for s in range(4):
                if s != t.seat:
                    est = estimate_tricks(d[s])
                    total += (max(0.0, est - NIL_MAX_ESTIMATE) if t.bids[s] == 0 else est - t.bids[s]) ** 2
        return total / len(deals)

    assert miss(fitted) < 0.7 * miss(plain)
    assert sum(map(bid_fit, [t] * 60, fitted)) > sum(map(bid_fit, [t] * 60, plain))


def test_without_a_bid_the_fitted_deals_are_the_plain_ones() -> None:
    m = Match(seed=2)
    t = track(m.view(m.to_act))                         # nobody has bid yet
    assert fitted_deals(t, random.Random(3), 8) == fitted_deals(t, random.Random(3), 8, pool=1)


def test_exact_play_solves_sampled_deals_and_falls_back_to_play_outs_past_its_nodes() -> None:
    m = played(8, 4 + 28)                               # six tricks left
    view = m.view(m.to_act)
    bot = HardBot(4)
    bot.exact = ExactBudget(tricks=6, deals=8, min_deals=4, nodes=200_000)
    e = bot.explain(view)
    assert e.reason.code == "play.exact" and e.reason.params["left"] == 6
    assert e.reason.params["samples"] == 8
    assert e.action == bot.choose(view)
    tight = HardBot(4)
    tight.exact = ExactBudget(tricks=6, deals=8, min_deals=4, nodes=200)   # too few nodes
    assert tight.explain(view).reason.code in ("play.search", "play.search_rule")
    off = HardBot(4)
    off.exact = ExactBudget(tricks=5, deals=8, min_deals=4, nodes=200_000)   # not yet
    assert off.explain(view).reason.code in ("play.search", "play.search_rule")


def test_exact_reason_with_a_standing_nil_says_how_often_it_held() -> None:
    codes = []
    for seed in range(1, 30):
        m = played(seed, 4 + 36, bids=[0, 3, 3, 3])     # the first bidder's nil; four tricks left
        view = m.view(m.to_act)
        t = track(view)
        team = view.seat % 2
        standing = any(t.bids[s] == 0 and not t.won[s] for s in (team, team + 2))
        if len(view.legal_cards) < 2 or not standing:
            continue
        e = HardBot(0).explain(view)
        codes.append(e.reason.code)
        if e.reason.code == "play.exact_nil":
            assert 0 <= e.reason.params["nil"] <= PERCENT
            assert e.reason.params["card"] == e.action
            break
    assert "play.exact_nil" in codes
