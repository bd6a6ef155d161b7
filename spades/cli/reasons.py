"""The English sentences of reasons, for the terminal: a bot's reason (code and parameters) as
English sentences.

The reasons come from :mod:`spades.ai.explain`; the page renders them from its catalogues
(``site/i18n/*.json``, keys ``reason.<code>``). The terminal has no catalogue, so the English
sentences are kept here, and a test holds them equal to ``site/i18n/en.json``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..ai.explain import CODES, STRUCTURED_KINDS
from ..cards import SUIT_WORDS, SUITS
from ..match import SEAT_NAMES

#: The English sentence of each reason code (placeholders are the code's text parameters).
TEXTS: dict[str, str] = {
    "bid.easy": "Bid {bid}: one trick for each ace and king held ({cards}).",
    "bid.easy_count": "Bid {bid}: counted the sure winners, one trick for each ace and king.",
    "bid.tricks": "Bid {bid}: the hand is worth about {estimate} tricks.",
    "bid.nil": (
        "Bid nil: this hand can stay under the others (about {estimate} tricks of strength)."
    ),
    "bid.nil_gamble": (
        "Bid nil as a gamble: the opponents have {them} points and lead by {gap}, so "
        "only a nil can still turn the match."
    ),
    "est.ace": "{card}: a sure trick ({tricks}).",
    "est.ace_long": "{card}: {tricks} of a trick, as a long suit of {length} cards may be trumped.",
    "est.king_guarded": "{card}: a probable trick ({tricks}), guarded by smaller cards.",
    "est.king_weak": "{card}: only {tricks} of a trick with {length} cards in the suit.",
    "est.queen": "{card}: {tricks} of a trick, guarded in a short suit.",
    "est.spade_honour": "{card}: a high trump, worth {tricks}.",
    "est.spade_length": "Long spades: {count} beyond the fourth, worth {tricks}.",
    "est.ruff": "Short suits ({suits}) to trump with spare spades ({spades}): worth {tricks}.",
    "est.nothing": "No high cards, long spades or short suits to count.",
    "nil.fits": (
        "No ace and no high spade ({spades} spades, all low), low cards to duck with in "
        "every suit, and only {estimate} tricks of strength."
    ),
    "adj.partner_nil": "Your partner bid nil: bid {bid} to cover it, as you will play high anyway.",
    "adj.team_cap": (
        "Your partner bid {partner_bid}: {cut} fewer, so the team bids at most eight "
        "tricks (bigger team contracts fail far more often)."
    ),
    "adj.table_total": (
        "{total} tricks bid round the table is more than there are: {cut} fewer to be safe."
    ),
    "adj.minimum": "At least {bid}: a contract cannot be lower.",
    "adj.maximum": "At most {bid}: there are no more tricks to bid.",
    "adj.nil_unsafe": (
        "No nil at a score of {score}: a failed nil could sink the team to the −200 floor."
    ),
    "adj.bags": "Already {bags} bags: bid {bid} to turn likely overtricks into contract tricks.",
    "play.lowest": "Play {card}: the lowest legal card.",
    "play.only_card": "Play {card}: the only legal card.",
    "play.nil_duck": "Play {card}: the highest card that still loses, to keep the nil safe.",
    "play.nil_forced": (
        "Play {card}: no card stays under this trick, so this is the nil's best chance."
    ),
    "play.cover_overtake": (
        "Play {card}: take the trick away from your nil partner's {partner_card}."
    ),
    "play.cover_high": "Play {card}: play high so that your nil partner can stay under it.",
    "play.cover_cannot": "Play {card}: nothing here helps your nil partner, so play low.",
    "play.attack_leave": (
        "Play {card}: {seat} bid nil and is winning this trick, so leave it there."
    ),
    "play.attack_under": (
        "Play {card}: stay low so that {seat}, who bid nil, may have to win the trick."
    ),
    "play.partner_winning": "Play {card}: your partner's {partner_card} is winning this trick.",
    "play.partner_winning_keep": (
        "Play {card}: your partner's {partner_card} is winning this trick, so keep {keep}"
        " for later."
    ),
    "play.partner_winning_save": (
        "Play {card}: your partner's {partner_card} is winning this trick, so keep a "
        "higher card for later."
    ),
    "play.partner_winning_shed": (
        "Play {card}: your partner's {partner_card} is winning and your contract is safe,"
        " so get rid of a high card."
    ),
    "play.win_last": "Play {card}: the cheapest card that wins, as you play last.",
    "play.win_boss": "Play {card}: the highest card left in its suit, a sure winner.",
    "play.ruff": (
        "Play {card}: you have no {suit} left, so trump with the cheapest spade that wins."
    ),
    "play.second_low": "Play {card}: second hand low, as your partner still plays after you.",
    "play.win_cheap": "Play {card}: beat {over} as cheaply as possible.",
    "play.keep_spades": (
        "Play {card}: it cannot win this trick; throw from short {suit} and keep "
        "your spades to trump with."
    ),
    "play.cannot_win": "Play {card}: nothing wins this trick, so play the lowest.",
    "play.duck": (
        "Play {card}: your contract is safe, so duck with the highest card that loses and "
        "take no bag."
    ),
    "play.duck_discard": (
        "Play {card}: your contract is safe, so throw away a high card rather than take a bag."
    ),
    "play.forced_win": "Play {card}: no card of yours can lose this trick.",
    "lead.nil_low": "Lead {card}: a low card, to keep your nil safe.",
    "lead.cover_boss": "Lead {card}: a sure winner, so that your nil partner takes no trick.",
    "lead.cover_high": "Lead {card}: a high card, so that your nil partner can play under it.",
    "lead.attack": "Lead {card}: a low card that {seat}, who bid nil, has to follow.",
    "lead.boss": (
        "Lead {card}: the highest card left in its suit, while the opponents still follow."
    ),
    "lead.draw_trumps": "Lead {card}: the highest spade left, to draw the opponents' trumps.",
    "lead.short_suit": "Lead {card}: from your short {suit}, to trump that suit later.",
    "lead.long_suit": "Lead {card}: from your longest suit, {suit}.",
    "lead.low": "Lead {card}: the lowest card.",
    "lead.duck": "Lead {card}: your contract is safe, so lead low and take no bag.",
    "play.equivalent": "Play {card}: all your legal cards are worth the same here.",
    "play.search": (
        "Play {card}: in {make}% of the {samples} deals I tried, this card made our bid "
        "(about {value} points a hand)."
    ),
    "play.search_rule": (
        "Play {card}: the usual card here, and it held up: in {make}% of the {samples} "
        "deals I tried it made our bid (about {value} points a hand)."
    ),
    "play.exact": (
        "Play {card}: with {left} tricks left I worked out {samples} deals of the hidden "
        "cards that fit the bids and the play so far, each with the best play on both sides; "
        "with this card our bid was made in {make}% of them (about {value} points a hand)."
    ),
    "play.exact_nil": (
        "Play {card}: with {left} tricks left I worked out {samples} deals of the hidden "
        "cards that fit the bids and the play so far, each with the best play on both sides; "
        "with this card the nil held in {nil}% of them and our bid was made in {make}% (about "
        "{value} points a hand)."
    ),
    "bid.simulated": (
        "Bid {bid}: I played this hand out {samples} times; the bid was made in {make}% "
        "of them, about {value} points on average."
    ),
    "bid.option": (
        "Bidding {bid}: made in {make}% of the deals I tried, about {value} points on average."
    ),
    "bid.option_risky": (
        "Bidding {bid}: about {value} points on average, but made in only {make}% of the deals "
        "I tried; I take that risk only at {need}% or more."
    ),
    "bid.option_unsure": (
        "Bidding {bid}: made in {make}% of the deals I tried, about {value} points on average, "
        "but its gain over bidding {base} is too small to tell from the luck of the deals, so I "
        "do not raise to it."
    ),
    "adj.table_room": (
        "Only {total} tricks are bid round the table: {add} more, as spare tricks would "
        "only turn into bags."
    ),
    # house rules (spades.ai.house)
    "bid.blind_nil": "Bid blind nil before looking at the cards: the team is {gap} points behind.",
    "bid.suicide_nil": (
        "Bid nil, as suicide asks one partner to do (the hand was worth about {bid})."
    ),
    "bid.suicide_cover": "Bid {bid}: under suicide the nil bidder's partner bids at least 4.",
    "adj.ten_for_two_hundred": (
        "Bid {bid} so the team reaches ten tricks, which score 200 when made."
    ),
    "adj.min_team": "Bid {bid} so the team's bid reaches the table's minimum of {minimum}.",
    "play.house_lowest": "Play {card}, the lowest card allowed here.",
}

NONE = "none"


def _value(kind: str, value: Any, card: Callable[[str], str]) -> str:
    """One parameter as the sentence shows it."""
    if kind == "card":
        return card(value)
    if kind == "cards":
        return ", ".join(card(c) for c in value) or NONE
    if kind == "suit":
        return SUIT_WORDS[SUITS.index(value)]
    if kind == "suits":
        return ", ".join(SUIT_WORDS[SUITS.index(s)] for s in value)
    if kind == "seat":
        return SEAT_NAMES[value]
    if kind == "bid":
        return "nil" if value == 0 else str(value)
    if kind in ("tricks", "points"):
        return f"{value:g}"
    return str(value)


def sentence(reason: dict[str, Any], card: Callable[[str], str]) -> str:
    """The sentence of one reason ``{code, params}``; ``card`` shows a card name (e.g. ``10♥``)."""
    kinds = CODES[reason["code"]]
    params = {
        k: _value(kinds[k], v, card)
        for k, v in reason["params"].items()
        if kinds[k] not in STRUCTURED_KINDS
    }
    return TEXTS[reason["code"]].format(**params)


def render(reason: dict[str, Any], card: Callable[[str], str]) -> list[str]:
    """A reason as lines: its sentence, then its details (each a sentence) and the search's
    table."""
    lines = [sentence(reason, card)]
    params = reason["params"]
    for detail in params.get("details", ()):
        lines.append("  · " + sentence(detail, card))
    if "candidates" in params:
        lines.append(
            "  · "
            + "; ".join(
                f"{card(r['card'])}: {r['value']:g} points, contract {r['make']}%"
                for r in params["candidates"]
            )
        )
    return lines
