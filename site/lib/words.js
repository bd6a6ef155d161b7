// words.js: how the game's things are named on the page (seats, cards, bids), in the
// page's language, and a small helper for elements that hold text.
import { cardElement, isJoker, parseCard } from "./cards.js";
import { BLIND_NIL, NIL } from "./constants.js";
import { fmt, t } from "./i18n.js";

/** How the game names seats: null at the player's own table (You, Partner, West, East),
 * else `{me}` at a table of several people, where every seat has its compass name (the
 * person at the bottom, real seat `me`, is "You (North)"). Set by the page's controller. */
let seating = null;

/** Name seats for a table of several people seen from real seat `me` (null: the player's own table). */
export function setSeating(value) {
  seating = value && typeof value.me === "number" ? { me: value.me } : null;
}

/** A real seat's compass name (South, West, North, East). */
export function compassName(seat) {
  return t(`viewer.seat.${seat}`);
}

/** Whether seats are named by compass (a table of several people). */
export const namedByCompass = () => seating !== null;

/** Who team `team` (drawn: 0 is the bottom's) is: "You & Partner", or at a table of several
 * people its two seats by name ("You (North) & South"). */
export function teamMembers(team) {
  return seating ? t("team.members", { a: seatName(team), b: seatName(team + 2) }) : t(`team.${team}.members`);
}

/** The name of drawn seat `seat` (0 is the bottom). */
export function seatName(seat) {
  if (!seating) return t(`seat.${seat}`);
  const name = compassName((seat + seating.me) % 4);
  return seat === 0 ? t("seat.youAt", { seat: name }) : name;
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
