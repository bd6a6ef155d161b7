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

/** Draw `seat` at position `pos` into `box` (the viewer's own seat box unless the game's review mode gives one). */
export function drawSeat(rec, seat, pos, toAct, box = document.querySelector(`.seat[data-seat="${seat}"]`)) {
  box.textContent = "";
  box.setAttribute("aria-label", seatName(seat));
  const head = document.createElement("h2");
  head.className = "seat-name";
  head.textContent = seatName(seat);
  if (rec.dealer === seat) {
    const d = document.createElement("span");
    d.className = "tag dealer";
    d.textContent = t("viewer.dealer");
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
  list.setAttribute("aria-label", t("viewer.cardsOf", { name: seatName(seat), n: pos.held[seat].length }));
  for (const card of pos.held[seat]) {
    const li = document.createElement("li");
    li.appendChild(cardNode(card));
    list.appendChild(li);
  }
  box.classList.toggle("to-act", toAct === seat);
  box.append(head, info, list);
}
