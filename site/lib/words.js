// words.js: how the game's things are named on the page (seats, cards, bids), in the
// page's language, and a small helper for elements that hold text.
import { cardElement, isJoker, parseCard } from "./cards.js";
import { BLIND_NIL, NIL } from "./constants.js";
import { fmt, t } from "./i18n.js";

export function seatName(seat) {
  return t(`seat.${seat}`);
}

/** The deck of the cards on show (the engine's `rules.deck`: standard, jokers or deuces). */
let deck = "standard";
/** The card the engine's deuces-high deck counts as a spade (spades/cards.py DECKS): named and marked so. */
const DEUCE_SPADE = "2D";

/** Name cards as cards of `name`'s deck from now on (the match's or the hand's `rules.deck`). */
export function setDeck(name) {
  deck = typeof name === "string" ? name : "standard";
}

const deuceSpade = (card) => deck === "deuces" && card === DEUCE_SPADE;

export function cardName(card) {
  if (isJoker(card)) return t(`card.${card}`);
  const { rank, suit } = parseCard(card);
  const name = t("card.name", { rank: t(`rank.${rank}`), suit: t(`suit.${suit}`) });
  return deuceSpade(card) ? t("card.asSpade", { card: name }) : name;
}

/** A bid's name: "blind" (the engine's blind-nil action) or a nil marked `blind` is a blind nil. */
export function bidName(bid, blind = false) {
  if (bid === BLIND_NIL || (blind && bid === NIL)) return t("bid.blindNil");
  return bid === NIL ? t("bid.nil") : fmt(bid);
}

/** The short rank label drawn on a card's corner ("10", "K", "D", "BJ"...). */
function rankLabel(card) {
  return t(`rank.short.${isJoker(card) ? card : parseCard(card).rank}`);
}

/** A card's element with its face, its corner labelled in the page's language. */
export function cardEl(card, tag = "div") {
  const node = cardElement(card, rankLabel(card), tag);
  if (deuceSpade(card)) node.classList.add("as-spade");
  return node;
}
