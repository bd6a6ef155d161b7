"""Computer players: each level's stated behaviour in built positions, legality, information sets."""
from __future__ import annotations

import random

import pytest

from spades import Match
from spades.ai import LEVELS, bot
from spades.ai.easy import EasyBot
from spades.ai.estimate import estimate_tricks, nil_ok
from spades.ai.hard import HardBot
from spades.ai.normal import NormalBot
from spades.ai.playout import BAG_VALUE, WIN_BONUS, hand_value
from spades.ai.sampling import sample_hands
from spades.ai.tracker import track
from spades.cards import CARD_INDEX, CARD_NAMES, mask_of
from spades.scoring import (
    BAG_PENALTY,
    BAGS_PER_PENALTY,
    add_bags,
    hand_points,
    match_winner,
    score_team,
)


def deal_with(fixed: dict[int, list[str]], avoid: dict[int, str] | None = None) -> list[list[str]]:
    """A full deal holding ``fixed`` cards per seat, the rest filled in card order, skipping ``avoid`` suits per seat."""
    avoid = avoid or {}
    hands = {s: list(fixed.get(s, [])) for s in range(4)}
    used = {c for cs in hands.values() for c in cs}
    rest = [c for c in CARD_NAMES if c not in used]
    rest.sort(key=lambda c: sum(c[1] in avoid.get(s, "") for s in range(4)), reverse=True)
    for c in rest:
        for s in sorted(range(4), key=lambda s: len(hands[s])):
            if len(hands[s]) < 13 and c[1] not in avoid.get(s, ""):
                hands[s].append(c)
                break
        else:  # pragma: no cover - test helper misuse
            raise AssertionError(f"cannot place {c}")
    return [hands[s] for s in range(4)]


def position(deal: list[list[str]], dealer: int, actions: list[int | str], **kw) -> Match:
    """A match on ``deal`` after ``actions`` (bids then cards)."""
    m = Match(seed=1, deal=deal, dealer=dealer, **kw)
    for a in actions:
        m.act(a)
    return m


# -- Easy -------------------------------------------------------------------------------

def test_easy_plays_lowest_legal_card() -> None:
    m = Match(seed=3)
    for _ in range(4):
        m.bid(3)
    v = m.view(m.to_act)
    legal = v.legal_cards
    assert EasyBot(0).choose(v) == min(legal, key=lambda c: (CARD_INDEX[c] % 13, CARD_INDEX[c] >= 39))


# -- Normal: bidding ----------------------------------------------------------------------

WEAK_NIL = ["2C", "3C", "5C", "7C", "2D", "4D", "6D", "3H", "5H", "8H", "2S", "4S", "9H"]


def test_normal_bids_nil_with_weak_hand_but_never_with_ace_of_spades() -> None:
    assert nil_ok(mask_of(WEAK_NIL))
    with_as = WEAK_NIL[:-1] + ["AS"]
    assert not nil_ok(mask_of(with_as))
    long_spades = ["2C", "3C", "5C", "2D", "4D", "6D", "3H", "5H", "2S", "3S", "4S", "5S", "6S"]
    assert not nil_ok(mask_of(long_spades))
    # seat 1 bids first (dealer 0)
    m = position(deal_with({1: WEAK_NIL}), 0, [])
    assert NormalBot(0).choose(m.view(1)) == 0
    m = position(deal_with({1: with_as}), 0, [])
    assert NormalBot(0).choose(m.view(1)) >= 1


def test_normal_estimate_counts_high_cards_and_spades() -> None:
    strong = ["AS", "KS", "QS", "JS", "9S", "AH", "KH", "AD", "KD", "AC", "2C", "3C", "4C"]
    assert estimate_tricks(mask_of(strong)) >= 8
    assert estimate_tricks(mask_of(WEAK_NIL)) < 1.5


def test_normal_bids_more_to_cover_partner_nil() -> None:
    hand = ["AS", "KS", "7S", "AH", "9H", "5H", "KD", "8D", "4D", "JC", "8C", "5C", "3C"]
    # dealer 1: bidding order 2, 3, 0, 1
    plain = NormalBot(0).choose(position(deal_with({0: hand}), 1, [3, 4]).view(0))
    cover = NormalBot(0).choose(position(deal_with({0: hand}), 1, [0, 4]).view(0))
    assert (plain, cover) == (3, 4)   # the estimate (3.6) rounds up from half a trick to cover the nil



def test_normal_keeps_its_teams_contract_within_eight_tricks() -> None:
    hand = ["AS", "KS", "7S", "AH", "9H", "5H", "KD", "8D", "4D", "JC", "8C", "5C", "3C"]   # estimate 3.6
    # dealer 1: bidding order 2, 3, 0, 1; the partner (seat 2) bid 6
    e = NormalBot(0).explain(position(deal_with({0: hand}), 1, [6, 4]).view(0))
    assert e.action == 2
    cap = [d["params"] for d in e.reason.params["details"] if d["code"] == "adj.team_cap"]
    assert cap == [{"partner_bid": 6, "cut": 1}]
    assert NormalBot(0).choose(position(deal_with({0: hand}), 1, [5, 4]).view(0)) == 3   # 5 + 3: no cut

# -- Normal: play ----------------------------------------------------------------------------

def test_normal_covers_partner_nil() -> None:
    # dealer 0: seat 1 leads; seat 2 (nil, only 9H in hearts) is winning when seat 0 plays last
    deal = deal_with({0: ["TH", "4H"], 1: ["2H"], 2: ["9H"], 3: ["3H"]}, avoid={0: "H", 2: "H"})
    m = position(deal, 0, [3, 0, 3, 3, "2H", "9H", "3H"])
    assert m.to_act == 0
    assert NormalBot(0).choose(m.view(0)) == "TH"


def test_normal_does_not_overtake_partners_sure_winner() -> None:
    deal = deal_with({0: ["KH", "5H"], 1: ["3H"], 2: ["AH"], 3: ["4H"]}, avoid={0: "H"})
    m = position(deal, 0, [3, 3, 3, 3, "3H", "AH", "4H"])
    assert NormalBot(0).choose(m.view(0)) == "5H"
    # partner ruffs with the ace of spades: no spade honour wasted on it
    deal = deal_with({0: ["KS", "QS", "5S"], 1: ["3H"], 2: ["AS", "2S"], 3: ["4H"]},
                     avoid={0: "H", 2: "H"})
    m = position(deal, 0, [3, 3, 3, 3, "3H", "AS", "4H"])
    assert NormalBot(0).choose(m.view(0)) not in ("KS", "QS")


def test_normal_wins_cheaply_when_it_needs_tricks() -> None:
    deal = deal_with({0: ["AH", "KH", "5H"], 1: ["3H"], 2: ["2H"], 3: ["QH"]}, avoid={0: "H"})
    m = position(deal, 0, [3, 3, 3, 3, "3H", "2H", "QH"])
    assert NormalBot(0).choose(m.view(0)) == "KH"


def test_normal_leaves_opponents_nil_winning() -> None:
    deal = deal_with({0: ["TH", "4H"], 1: ["9H"], 2: ["2H"], 3: ["3H"]}, avoid={0: "H", 1: "H"})
    m = position(deal, 0, [0, 3, 3, 3, "9H", "2H", "3H"])
    assert NormalBot(0).choose(m.view(0)) == "4H"


def test_normal_plays_low_before_opponents_nil() -> None:
    deal = deal_with({0: ["TH", "4H"], 1: ["9H"], 2: ["2H"], 3: ["3H"]}, avoid={0: "H", 1: "H"})
    # dealer 1: bidding order 2, 3, 0, 1 (seat 1 nil); seat 2 leads
    m = position(deal, 1, [3, 3, 3, 0, "2H", "3H"])
    assert m.to_act == 0
    assert NormalBot(0).choose(m.view(0)) == "4H"


def test_normal_ducks_when_contract_is_safe() -> None:
    deal = deal_with({0: ["4C", "AD", "6D", "KH", "5H"], 1: ["2C", "5D", "KD", "3H"],
                      2: ["AC", "3D", "7D", "2H"], 3: ["3C", "4D", "8D", "QH"]}, avoid={0: "H"})
    # dealer 0: bids 1: 3, 2: 1, 3: 3, 0: 1 (the opponents are in no danger of a set)
    m = position(deal, 0, [3, 1, 3, 1, "2C", "AC", "3C", "4C", "3D", "4D", "AD", "5D",
                           "6D", "KD", "7D", "8D", "3H", "2H", "QH"])
    assert m.tricks_won[0] + m.tricks_won[2] == 2 and m.to_act == 0
    assert NormalBot(0).choose(m.view(0)) == "5H"


# -- Hard ------------------------------------------------------------------------------------

def small_hard(seed: int = 0, budget: int = 2000) -> HardBot:
    """A Hard bot with a small search budget (fast tests)."""
    b = HardBot(seed)
    b.budget = budget
    b.bid_samples = 8
    return b


def test_hard_takes_the_set() -> None:
    # the opponents bid 13 between them: any trick sets them; Hard wins the trick with its ace
    deal = deal_with({0: ["AH", "4H"], 1: ["KH"], 2: ["2H"], 3: ["3H"]}, avoid={0: "H"})
    m = position(deal, 0, [7, 1, 6, 1, "KH", "2H", "3H"])
    assert small_hard().choose(m.view(0)) == "AH"


def test_hard_covers_partner_nil() -> None:
    deal = deal_with({0: ["TH", "4H"], 1: ["2H"], 2: ["9H"], 3: ["3H"]}, avoid={0: "H", 2: "H"})
    m = position(deal, 0, [3, 0, 3, 3, "2H", "9H", "3H"])
    assert small_hard().choose(m.view(0)) == "TH"


def reference_score(bids: tuple[int, int], won: tuple[int, int], bags_before: int) -> tuple[int, int, int]:
    """An independent reading of the scoring rules: (points before bags, bags taken, bags after)."""
    points = bags = 0
    contract = sum(b for b in bids if b)
    taken = sum(w for b, w in zip(bids, won) if b)
    for b, w in zip(bids, won):
        if b == 0:                       # nil: 100 either way; its tricks are bags
            points += 100 if w == 0 else -100
            bags += w
    if taken >= contract:
        points += 10 * contract
        bags += taken - contract
    else:
        points -= 10 * contract
    after = bags_before + bags
    while after >= 10:
        after -= 10
    return points, bags, after


def random_hands(rng: random.Random, n: int):
    """``n`` random (bids, tricks) per seat: nils frequent, 13 tricks shared out."""
    for _ in range(n):
        bids = [rng.choice([0, 0, 1, 2, 3, 4, 5, 6, 9, 13]) for _ in range(4)]
        won = [0, 0, 0, 0]
        for _ in range(13):
            won[rng.randrange(4)] += 1
        yield bids, won


def test_scoring_kernel_matches_an_independent_reading_of_the_rules() -> None:
    # the kernel is what both score_team and Hard's play-out value call
    rng = random.Random(5)
    for bids, won in random_hands(rng, 1000):
        for t in (0, 1):
            pair_bids, pair_won = (bids[t], bids[t + 2]), (won[t], won[t + 2])
            before = rng.randrange(10)
            points, bags, after = reference_score(pair_bids, pair_won, before)
            assert hand_points(pair_bids[0], pair_won[0], pair_bids[1], pair_won[1]) == (points, bags)
            penalties = (before + bags) // 10
            assert add_bags(points, bags, before) == (points + bags - 100 * penalties, after)
            ts = score_team(t, pair_bids, pair_won, 0, before)
            assert (ts.delta, ts.bags, ts.bags_after) == (points + bags - 100 * penalties, bags, after)


def test_hard_hand_value_is_the_engine_score_with_bags_at_long_run_cost() -> None:
    rng = random.Random(6)
    assert BAG_VALUE == 1 - BAG_PENALTY // BAGS_PER_PENALTY == -9
    for bids, won in random_hands(rng, 1000):
        scores = (rng.randrange(-150, 450), rng.randrange(-150, 450))
        bags = (rng.randrange(10), rng.randrange(10))
        ts = [score_team(t, (bids[t], bids[t + 2]), (won[t], won[t + 2]), scores[t], bags[t]) for t in (0, 1)]
        # points before bags, each bag at its long-run value
        long_run = [s.contract_points + sum(n.points for n in s.nils) + s.bags * BAG_VALUE for s in ts]
        winner = match_winner((ts[0].score_after, ts[1].score_after))
        for team in (0, 1):
            bonus = 0 if winner is None else WIN_BONUS if winner == team else -WIN_BONUS
            assert hand_value(bids, won, team, scores, bags) == long_run[team] - long_run[1 - team] + bonus


def test_hard_values_deciding_the_match_above_points() -> None:
    # team 0 makes 6 with one bag (60, and the bag at −9), team 1 makes 6 (60): −9 for team 0 …
    assert hand_value([3, 3, 3, 3], [4, 3, 3, 3], 0, (100, 100), (0, 0)) == -9
    # … plus the match bonus when its real +61 reaches the target, minus it when the other team's does
    assert hand_value([3, 3, 3, 3], [4, 3, 3, 3], 0, (480, 100), (0, 0)) == -9 + WIN_BONUS
    assert hand_value([3, 3, 3, 3], [4, 3, 3, 3], 0, (100, 480), (0, 0)) == -9 - WIN_BONUS


def test_hard_samples_respect_voids_and_sizes() -> None:
    m = Match(seed=11)
    for _ in range(4):
        m.bid(3)
    rng = random.Random(0)
    easy = EasyBot(0)
    for _ in range(23):
        m.act(easy.choose(m.view(m.to_act)))
    t = track(m.view(0))
    for _ in range(20):
        hands = sample_hands(t, rng)
        assert hands is not None
        for s in range(4):
            assert hands[s].bit_count() == t.counts[s]
            for suit in range(4):
                if s != 0 and t.voids[s] >> suit & 1:
                    assert not hands[s] & (0x1FFF << 13 * suit)
        assert hands[0] == t.hand
        assert not (hands[1] & hands[2]) and not (hands[1] & hands[3]) and not (hands[2] & hands[3])


def test_hard_is_deterministic() -> None:
    m = Match(seed=21)
    for _ in range(4):
        m.bid(3)
    v = m.view(m.to_act)
    assert small_hard(4).choose(v) == small_hard(4).choose(v)


# -- every level, every position ---------------------------------------------------------------

def _legal_run(level_bots: list, matches: int, max_hands: int, seed: int) -> int:
    checked = 0
    for i in range(matches):
        m = Match(seed=seed + i)
        while m.phase != "over" and len(m.hands_played) < max_hands:
            seat = m.to_act
            v = m.view(seat)
            actions = [b.choose(v) for b in level_bots]
            for a in actions:
                if v.phase == "bid":
                    assert a in v.legal_bids
                else:
                    assert a in v.legal_cards
            checked += 1
            m.act(actions[(seat + i) % len(actions)])
    return checked


def test_easy_and_normal_never_return_illegal_actions() -> None:
    assert _legal_run([EasyBot(1), NormalBot(2)], matches=40, max_hands=6, seed=100) > 5000


def test_hard_never_returns_illegal_actions() -> None:
    assert _legal_run([small_hard(3, 300), NormalBot(4)], matches=3, max_hands=2, seed=500) > 200


# -- information sets --------------------------------------------------------------------------------

@pytest.mark.parametrize("level", ["normal", "hard"])
def test_hidden_cards_do_not_change_decisions(level: str) -> None:
    base = Match(seed=77)
    deal = [base.dealt(s) for s in range(4)]
    swapped = [deal[0], deal[3], deal[2], deal[1]]   # seats 1 and 3 exchange their hands
    decisions = []
    for d in (deal, swapped):
        m = Match(seed=77, deal=d, dealer=3)   # seat 0 bids first and leads
        b = bot(level, seed=9)
        if level == "hard":
            b.budget = 3000  # type: ignore[attr-defined]
            b.bid_samples = 8  # type: ignore[attr-defined]
        out = [b.choose(m.view(0))]
        m.bid(out[0])
        for bid in (3, 2, 4):
            m.bid(bid)
        out.append(b.choose(m.view(0)))
        decisions.append(out)
    assert decisions[0] == decisions[1]


def test_registry_makes_each_level_and_refuses_others() -> None:
    assert LEVELS == ("easy", "normal", "hard")
    for level, cls in zip(LEVELS, (EasyBot, NormalBot, HardBot)):
        made = bot(level, seed=5)
        assert type(made) is cls and made.level == level and made.seed == 5
    with pytest.raises(ValueError, match="unknown bot level 'expert'"):
        bot("expert")


def test_hard_charges_bags_their_long_run_cost() -> None:
    # an overtrick costs a tenth of the bag penalty (net −9) whatever the bag count, away from the match end
    made = hand_value([3, 3, 3, 3], [3, 3, 3, 4], 0, (100, 100), (0, 0))
    assert made == hand_value([3, 3, 3, 3], [3, 3, 3, 4], 0, (100, 100), (9, 9)) == 9.0
    assert hand_value([3, 3, 3, 3], [4, 3, 3, 3], 0, (100, 100), (0, 0)) == -9.0


# -- house decks: the proxy the levels decide on -------------------------------------------------


def _spade_in(deck, name: str) -> bool:
    from spades.cards import ALL_CARD_INDEX, SPADES
    return deck.suit_of[ALL_CARD_INDEX[name]] == SPADES


def _real_rank(deck, led: str, card: str) -> tuple[int, int]:
    """How ``card`` ranks in a trick led with ``led`` in a house deck: spades, then the led suit."""
    from spades.cards import ALL_CARD_INDEX
    c, lc = ALL_CARD_INDEX[card], ALL_CARD_INDEX[led]
    if _spade_in(deck, card):
        return 2, deck.power[c]
    return (1, deck.power[c]) if deck.suit_of[c] == deck.suit_of[lc] else (0, 0)


@pytest.mark.parametrize("preset", ["deuces", "jokers"])
def test_house_proxy_keeps_every_own_spade_a_spade(preset):
    """The house deck's extra spades never stand in for side cards in our own hand (a nil counts them)."""
    from spades.ai.explain import Explanation, reason
    from spades.ai.house import proxy, unproxy
    for seed in range(12):
        m = Match(seed=seed, rules=preset)
        view = m.view(m.to_act)
        deck = view.rules.card_deck
        p = proxy(view)
        assert sum(c.endswith("S") for c in p.hand) == sum(_spade_in(deck, c) for c in view.hand)
        for real in view.hand:        # side cards keep their names; each card names back to itself
            if not _spade_in(deck, real):
                assert real in p.hand
        back = {unproxy(view, Explanation(c, reason("play.only_card", card=c))).action for c in p.hand}
        assert back == set(view.hand)


def test_deuces_proxy_reads_a_low_spade_ruff_as_a_spade():
    """A trick led with a side suit and ruffed with 3♠, 4♠ or 5♠: the proxy shows a spade winning."""
    from spades.ai.house import proxy
    from spades.legal import trick_winner
    found = 0
    for seed in range(40):
        m = Match(seed=seed, rules="deuces")
        bots = [bot("normal", seed=s) for s in range(4)]
        deck = m.rules.card_deck
        while m.phase != "over" and len(m.hands_played) < 1 and found < 3:
            view = m.view(m.to_act)
            t = view.trick
            if t is not None and len(t.plays) >= 2 and not _spade_in(deck, t.plays[0][1]) and any(
                    c in ("3S", "4S", "5S") for _, c in t.plays[1:]):
                cards = [CARD_INDEX[c] for _, c in proxy(view).trick.plays]
                low = next(i for i, (_, c) in enumerate(t.plays) if c in ("3S", "4S", "5S"))
                assert CARD_NAMES[cards[low]].endswith("S")
                real_best = max(range(len(t.plays)), key=lambda i: _real_rank(deck, t.plays[0][1], t.plays[i][1]))
                assert trick_winner(cards) == real_best
                found += 1
            m.act(bots[m.to_act].choose(view), seat=m.to_act)
    assert found == 3
