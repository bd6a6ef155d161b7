// words.js: how the game's things are named on the page (seats, cards, bids), in the
// page's language, and a small helper for elements that hold text.
import { cardElement, parseCard } from "./cards.js";
import { NIL } from "./constants.js";
import { fmt, t } from "./i18n.js";

export function seatName(seat) {
  return t(`seat.${seat}`);
}

export function cardName(card) {
  const { rank, suit } = parseCard(card);
  return t("card.name", { rank: t(`rank.${rank}`), suit: t(`suit.${suit}`) });
}

export function bidName(bid) {
  return bid === NIL ? t("bid.nil") : fmt(bid);
}

/** The short rank label drawn on a card's corner ("10", "K", "D"...). */
function rankLabel(card) {
  return t(`rank.short.${parseCard(card).rank}`);
}

/** A `tag` element holding `text`, with class `cls`. */
export function textEl(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (cls) node.className = cls;
  return node;
}

/** A card's element with its face, its corner labelled in the page's language. */
export function cardEl(card, tag = "div") {
  return cardElement(card, rankLabel(card), tag);
}
