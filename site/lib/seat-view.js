// seat-view.js: a seat of a hand record as the viewer and the game's review mode draw it
// (name, dealer, bid, tricks, cards), and card elements with their names in the page's
// language.
import { cardEl, cardName } from "./words.js";
import { t } from "./i18n.js";
import { bidText, seatName } from "./steps.js";

/** A card as an image with its name (a viewer card is looked at, never pressed). */
export function cardNode(card) {
  const node = cardEl(card, "span");
  node.classList.add(`suit-${card.slice(-1)}`);
  node.dataset.card = card;
  node.setAttribute("role", "img");
  node.setAttribute("aria-label", cardName(card));
  node.title = cardName(card);
  return node;
}

/** The viewer's words for a seat: compass names and the word "dealer". */
const VIEWER_WORDS = { name: seatName, dealer: null };

/**
 * Draw `seat` at position `pos` into `box` (the viewer's own seat box unless the game's review
 * mode gives one). `words`: how seats are named ({name(seat), dealer: the short dealer mark
 * or null for the viewer's word}); the game's review passes its own (Partner, You, "D").
 */
export function drawSeat(rec, seat, pos, toAct, box = document.querySelector(`.seat[data-seat="${seat}"]`), words = VIEWER_WORDS) {
  const nameOf = words.name;
  box.textContent = "";
  box.setAttribute("aria-label", nameOf(seat));
  const head = document.createElement("h2");
  head.className = "seat-name";
  head.textContent = nameOf(seat);
  if (rec.dealer === seat) {
    const d = document.createElement("span");
    d.className = "tag dealer";
    if (words.dealer) {
      // the game's mark: "D" seen, "Dealer" heard
      const seen = document.createElement("span");
      seen.setAttribute("aria-hidden", "true");
      seen.textContent = words.dealer;
      const heard = document.createElement("span");
      heard.className = "sr-only";
      heard.textContent = t("seat.dealer");
      d.append(seen, heard);
    } else {
      d.textContent = t("viewer.dealer");
    }
    head.append(" ", d);
  }
  const info = document.createElement("p");
  info.className = "seat-info";
  const bid = pos.bids[seat];
  const b = document.createElement("span");
  b.dataset.bid = seat;
  b.textContent = bid === null ? t("viewer.noBid") : t("viewer.bid", { bid: bidText(bid) });
  const w = document.createElement("span");
  w.dataset.won = seat;
  w.textContent = t("viewer.tricks", { n: pos.won[seat] });
  info.append(b, " · ", w);
  const list = document.createElement("ul");
  list.className = "hand";
  list.setAttribute("aria-label", t("viewer.cardsOf", { name: nameOf(seat), n: pos.held[seat].length }));
  for (const card of pos.held[seat]) {
    const li = document.createElement("li");
    li.appendChild(cardNode(card));
    list.appendChild(li);
  }
  box.classList.toggle("to-act", toAct === seat);
  box.append(head, info, list);
}
