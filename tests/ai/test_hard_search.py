"""Hard's search: a fixed count of work (no clock), simulated bids, exact endings, the arena's baselines."""
from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest

from spades import Match
from spades.ai.easy import EasyBot
from spades.ai.exact import match_value
from spades.ai.hard import EXACT, HardBot, candidates
from spades.ai.playout import SET_SLACK, _attack_lead, _policy
from spades.ai.tracker import Tracker, track
from spades.cards import CARD_INDEX, CARD_NAMES, FULL_DECK, SUIT_OF, mask_of, numbers_of
from spades.cli import arena
from spades.cli.baseline import split_level
from spades.legal import legal_mask
from spades.rules import PRESETS
from spades.solver import Position, Solver

BASELINE = "5104c58"
PERCENT = 100


def hard(seed: int = 0, budget: int = 2000, bid_samples: int = 8) -> HardBot:
    """A Hard bot with a small budget (fast tests)."""
    b = HardBot(seed)
    b.budget, b.bid_samples = budget, bid_samples
    return b


def played_position(seed: int, actions: int) -> Match:
    """Match ``seed`` after ``actions`` bids and cards chosen by Easy (its rules stay fixed)."""
    m = Match(seed=seed)
    easy = EasyBot(0)
    for _ in range(actions):
        m.act(easy.choose(m.view(m.to_act)))
    return m


def test_hard_decides_without_reading_a_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    # a bid, a card by play-outs and a card by the exact endgame: each the same with every clock broken
    views = [m.view(m.to_act) for m in (played_position(3, 0), played_position(3, 9), played_position(24, 44))]
    before = [hard(4).explain(v) for v in views]

    def no_clock() -> float:
        raise AssertionError("a decision read the clock")

    for name in ("perf_counter", "process_time", "monotonic", "time"):
        monkeypatch.setattr(time, name, no_clock)
    after = [hard(4).explain(v) for v in views]
    assert after == before
    assert [e.reason.code for e in before] == ["bid.simulated", before[1].reason.code, "play.exact"]
    assert before[1].reason.code in ("play.search", "play.search_rule")


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_hard_bids_are_legal_under_every_preset(preset: str) -> None:
    for seed in range(3):
        m = Match(seed=seed, rules=preset)
        for _ in range(4):
            v = m.view(m.to_act)
            bid = hard(seed, bid_samples=4).choose(v)
            assert bid in v.legal_bids, (preset, seed, bid, v.legal_bids)
            m.act(bid)
        assert m.phase == "play"


def consistent_deals(t: Tracker) -> list[tuple[int, ...]]:
    """Every placement of the unseen cards that fits the hand sizes and the shown voids (brute force)."""
    others = [s for s in range(4) if s != t.seat]
    cards = numbers_of(t.unseen)
    out: list[tuple[int, ...]] = []
    hands = [0, 0, 0, 0]
    hands[t.seat] = t.hand
    cap = {s: t.counts[s] for s in others}

    def place(i: int) -> None:
        if i == len(cards):
            out.append(tuple(hands))
            return
        c = cards[i]
        for s in others:
            if cap[s] and not t.voids[s] >> SUIT_OF[c] & 1:
                hands[s] |= 1 << c
                cap[s] -= 1
                place(i + 1)
                hands[s] ^= 1 << c
                cap[s] += 1

    place(0)
    return out


@pytest.mark.parametrize("seed, actions", [(24, 44), (63, 47)])
def test_hard_plays_a_card_best_in_every_deal_of_a_three_trick_ending(seed: int, actions: int) -> None:
    # positions with three tricks left where one card is double-dummy best (by Hard's match value)
    # in every deal the seat cannot rule out (checked here by solving each deal; Normal's rules
    # play another card here)
    m = played_position(seed, actions)
    view = m.view(m.to_act)
    t = track(view)
    assert t.hand.bit_count() == 3 <= EXACT.tricks
    moves = candidates(legal_mask(t.hand, SUIT_OF[t.trick[0]] if t.trick else None, t.broken), t)
    best_in_every_deal = set(moves)
    for deal in consistent_deals(t):
        values = Solver(t.bids, view.bags, match_value(view.scores)).values(
            Position(deal, tuple(t.trick), t.leader, t.broken, t.bids, tuple(t.won), view.bags))  # type: ignore[arg-type]
        top = max(values[c].margin for c in moves)  # type: ignore[type-var]
        best_in_every_deal &= {c for c in moves if values[c].margin == top}
    assert best_in_every_deal and len(best_in_every_deal) < len(moves)
    e = HardBot(0).explain(view)
    assert e.reason.code in ("play.exact", "play.exact_nil") and e.reason.params["left"] == 3
    assert CARD_INDEX[e.action] in best_in_every_deal


def test_simulated_bid_lists_each_option_and_takes_the_best() -> None:
    m = Match(seed=5)
    m.bid(3)
    v = m.view(m.to_act)
    e = hard(1, bid_samples=16).explain(v)
    p = e.reason.params
    assert e.reason.code == "bid.simulated" and p["bid"] == e.action and p["samples"] == 16
    options = [d["params"] for d in p["details"] if d["code"].startswith("bid.option")]
    heuristic = p["details"][-1]
    assert heuristic["code"] in ("bid.tricks", "bid.nil")
    bids = [o["bid"] for o in options]
    assert e.action in bids and len(bids) == len(set(bids)) >= 3
    assert options[0]["bid"] == e.action          # listed best first (the heuristic's credit included)
    chosen = next(o for o in options if o["bid"] == e.action)
    assert (p["value"], p["make"]) == (chosen["value"], chosen["make"])


def test_play_outs_lead_low_under_an_opponents_nil() -> None:
    legal = mask_of(["3H", "9H", "4D", "KD"])
    nil_hand = mask_of(["7H", "8H", "5D", "2C"])
    # hearts: our 3 is four ranks under the nil's 7; diamonds: the 4 only one under its 5
    assert CARD_NAMES[_attack_lead(legal, nil_hand)] == "3H"
    assert _attack_lead(mask_of(["9H", "KD"]), nil_hand) == -1      # nothing under the nil's cards


def _south_follows(hand: int, legal: int, trick: list[int], remaining: int, nils: int, needs: tuple[int, int]) -> str:
    """The play-out policy's card for South (seat 0) following ``trick``; only South's hand is known."""
    return CARD_NAMES[_policy(hand, [hand, 0, 0, 0], legal, SUIT_OF[trick[0]], trick, 0, nils, remaining, needs)]


def test_play_outs_stay_under_the_led_card_when_an_opponents_nil_plays_next() -> None:
    """East led the five of hearts; South holds the boss ace and needs tricks; West plays next."""
    hand = mask_of(["AH", "2H", "3C", "4D"])
    trick = [CARD_INDEX["5H"]]
    remaining = hand | mask_of(["9H", "KH", "QH", "7C", "8D", "9D", "TC", "JC", "6S", "7S", "8S"])
    legal = mask_of(["AH", "2H"])

    def card(nils: int, legal: int = legal) -> str:
        return _south_follows(hand, legal, trick, remaining, nils=nils, needs=(3, 0))

    assert card(nils=0) == "AH"            # no nil: take the trick with the boss
    assert card(nils=1 << 1) == "2H"       # West's nil must now play over the five
    assert card(nils=1 << 3) == "2H"       # East's nil leads: leave it winning (the older rule)
    assert card(nils=1 << 1, legal=mask_of(["AH", "KH"])) == "KH"  # nothing under: the cheapest


def test_play_outs_chase_a_set_only_while_the_opponents_can_barely_spare_a_trick() -> None:
    """Our contract is made; West led, our partner and East followed; South's king would win."""
    hand = mask_of(["KH", "2H", "3C", "4C", "5C", "6D", "7D", "8D", "9S"])
    trick = [CARD_INDEX[c] for c in ("TH", "3H", "5H")]      # West, North, East
    unseen = FULL_DECK & ~hand & ~mask_of(["TH", "3H", "5H"])
    remaining = hand | sum(1 << c for c in numbers_of(unseen)[:24])  # 24 cards still in the others' hands
    left = (remaining.bit_count() + len(trick)) // 4
    assert left == 9
    legal = mask_of(["KH", "2H"])

    def card(opp_need: int) -> str:
        return _south_follows(hand, legal, trick, remaining, nils=0, needs=(0, opp_need))

    assert card(left - SET_SLACK) == "KH"       # they can spare SET_SLACK tricks: take this one
    assert card(left - SET_SLACK - 1) == "2H"   # one more to spare: duck, an overtrick is a bag


def test_baseline_levels_parse_and_refuse_bad_commits() -> None:
    assert split_level("hard@5104c58") == ("hard", "5104c58")
    assert split_level("normal") == ("normal", None)
    with pytest.raises(ValueError, match="bad commit"):
        split_level("hard@HEAD;rm")
    with pytest.raises(ValueError, match="standard rules"):
        arena.run("normal@5104c58", "normal", matches=2, seed=1, rules="jokers")


def _has_commit(commit: str) -> bool:
    root = Path(__file__).resolve().parents[2]
    return subprocess.run(["git", "-C", str(root), "cat-file", "-e", f"{commit}^{{commit}}"],
                          capture_output=True).returncode == 0


@pytest.mark.skipif(not _has_commit(BASELINE), reason="the baseline commit is not in this checkout's history")
def test_arena_plays_an_old_commits_bots_on_the_same_deals() -> None:
    rep, results = arena.run(f"easy@{BASELINE}", "easy", matches=2, seed=2, max_hands=2)
    # Easy is unchanged since then: the old and new players make the same choices, so both sides tie
    a, b = rep["sides"]["A"], rep["sides"]["B"]
    assert a["level"] == f"easy@{BASELINE}" and a["hands"] == b["hands"] == 4
    assert a["points_per_hand"] == b["points_per_hand"] and a["bags_per_hand"] == b["bags_per_hand"]
    assert results[0].first_deal == results[1].first_deal


def test_a_simulated_nil_must_survive_most_deals() -> None:
    # seed 58: the heuristic bids 2, the play-outs prefer nil, which survived 15 of the 16 deals
    from spades.ai import hardbid

    v = Match(seed=58).view(Match(seed=58).to_act)
    e = hard(1, bid_samples=16).explain(v)
    nil = next(d["params"] for d in e.reason.params["details"] if d["code"] == "bid.option" and d["params"]["bid"] == 0)
    assert e.action == 0 and nil["make"] == 94 >= PERCENT * hardbid.NIL_MIN_MAKE
    strict = hardbid.NIL_MIN_MAKE
    try:
        hardbid.NIL_MIN_MAKE = 0.95               # 15 of 16 deals is now too few
        e = hard(1, bid_samples=16).explain(v)
    finally:
        hardbid.NIL_MIN_MAKE = strict
    rows = [(d["code"], d["params"]) for d in e.reason.params["details"] if d["code"].startswith("bid.option")]
    # the nil, worth the most, is not chosen: it is listed last, with the share it needed
    assert e.action == 2 and [(c, r["bid"]) for c, r in rows] == [
        ("bid.option", 2), ("bid.option", 1), ("bid.option", 3), ("bid.option_risky", 0)
    ]
    nil = rows[3][1]
    assert (nil["make"], nil["need"]) == (94, 95) and nil["value"] > rows[0][1]["value"]


def test_the_heuristics_own_nil_must_survive_most_deals_too() -> None:
    # deal 173: the estimate bids nil (0.46 tricks) and the play-outs value nil above 1, but it
    # survived 11 of 16 deals (69 %): a bar above that makes Hard bid 1, a bar below keeps the nil
    from spades.ai import hardbid
    from spades.ai.hard import explain_hard_bid

    v = Match(seed=173).view(Match(seed=173).to_act)
    assert explain_hard_bid(v)[0] == 0
    shipped = hardbid.NIL_MIN_MAKE
    chosen = {}
    try:
        for bar in (0.75, 0.6):
            hardbid.NIL_MIN_MAKE = bar
            chosen[bar] = hard(1, bid_samples=16).explain(v)
    finally:
        hardbid.NIL_MIN_MAKE = shipped
    rows = {d["params"]["bid"]: d["params"] for d in chosen[0.75].reason.params["details"] if d["code"].startswith("bid.option")}
    assert chosen[0.75].action == 1 and (rows[0]["make"], rows[0]["need"]) == (69, 75) and "need" not in rows[1]
    assert rows[0]["value"] > rows[1]["value"]         # chosen by the make share, not the value
    assert chosen[0.6].action == 0


def test_a_clear_gain_is_more_than_one_standard_error() -> None:
    from spades.ai.hardbid import clear_gain

    assert clear_gain([1.0, 1.0, 1.0, 1.0])                # the same gain on every deal
    assert not clear_gain([5.0, -3.0, 5.0, -3.0])          # mean 1, standard error 2.3
    assert clear_gain([9.0, 1.0, 9.0, 1.0])                # mean 5, standard error 2.3
    assert not clear_gain([-1.0, -1.0, -1.0])              # a loss is never a gain
    assert not clear_gain([4.0])                           # one deal says nothing of the noise


def test_hard_raises_its_bid_only_on_a_clear_gain(monkeypatch: pytest.MonkeyPatch) -> None:
    # deal 5, the first bid: the heuristic bids 3; over the same 16 deals 4 averages 15.17
    # points against 3's 8.78 (+3 credit), a gain the deals' noise explains: Hard stays at 3
    # and says why; with every gain taken as clear it would raise to 4
    from spades.ai import hardbid

    v = Match(seed=5).view(Match(seed=5).to_act)
    e = hard(1, bid_samples=16).explain(v)
    rows = [(d["code"], d["params"]) for d in e.reason.params["details"] if d["code"].startswith("bid.option")]
    assert e.action == 3
    assert [(c, r["bid"]) for c, r in rows] == [("bid.option", 3), ("bid.option", 2), ("bid.option_unsure", 4)]
    unsure = rows[2][1]
    assert (unsure["value"], unsure["make"], unsure["base"]) == (15.17, 94, 3)
    assert unsure["value"] > rows[0][1]["value"] + hardbid.BID_PRIOR     # the better average, not taken
    monkeypatch.setattr(hardbid, "clear_gain", lambda gains: True)
    bold = hard(1, bid_samples=16).explain(v)
    assert bold.action == 4
    assert [d["params"]["bid"] for d in bold.reason.params["details"] if d["code"] == "bid.option"] == [4, 3, 2]


def test_bid_play_outs_also_count_one_trick_of_ours_lost() -> None:
    from spades.ai.hardbid import _one_less

    # a contract bidder's trick goes to the next opponent; a nil bidder's trick is never moved
    assert _one_less([3, 4, 2, 4], [3, 4, 2, 4], 0) == [2, 5, 2, 4]
    assert _one_less([0, 4, 2, 7], [0, 4, 2, 7], 0) == [0, 4, 1, 8]
    assert _one_less([1, 4, 0, 8], [0, 4, 3, 7], 0) == [1, 4, 0, 8]
