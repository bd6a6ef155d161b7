// seat-view.js: a hand record drawn as the viewer and the game's review mode show it: a seat
// (name, dealer, bid, tricks, cards), the score table, and card elements with their names
// in the page's language.
import { cardEl, cardName } from "./words.js";
import { fmtSigned, t } from "./i18n.js";
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

/** The score table's rows: label key, the record's field, and how a team's cell reads. */
const SCORE_ROWS = [
  ["contract", "contract", (s) => String(s.contract)],
  ["contractTricks", "contract_tricks", (s) => String(s.contract_tricks)],
  ["contractPoints", "contract_points", (s) => `${fmtSigned(s.contract_points)} (${t(s.made ? "viewer.made" : "viewer.set")})`],
  ["overtricks", "overtricks", (s) => String(s.overtricks)],
  ["nil", "nil_points", (s) => (s.nils.length
    ? s.nils.map((n) => t(n.made ? "viewer.nilMade" : "viewer.nilLost",
      { name: n.blind ? `${seatName(n.seat)} (${t("bid.blindNil")})` : seatName(n.seat), points: fmtSigned(n.points) })).join(", ")
    : "—")],
  ["bags", "bags", (s) => String(s.bags)],
  ["penalty", "penalty_points", (s) => (s.penalties
    ? t("viewer.penaltyTimes", { points: fmtSigned(s.penalty_points), n: s.penalties }) : "—")],
  ["delta", "delta", (s) => fmtSigned(s.delta)],
  ["score", "score_after", (s) => `${s.score_before} → ${s.score_after}`],
  ["bagsTotal", "bags_after", (s) => `${s.bags_before} → ${s.bags_after}`],
];

export function drawScore(rec) {
  const body = document.getElementById("score-body");
  body.textContent = "";
  for (const [label, field, fmt] of SCORE_ROWS) {
    const tr = document.createElement("tr");
    if (field === "delta") tr.className = "total";
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = t(`viewer.row.${label}`);
    tr.appendChild(th);
    rec.scores.forEach((team, i) => {
      const td = document.createElement("td");
      const key = field.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
      td.dataset[`team${key[0].toUpperCase()}${key.slice(1)}`] = String(i);
      const value = field === "nil_points" ? team.nils.reduce((sum, n) => sum + n.points, 0) : team[field];
      td.dataset.value = String(typeof value === "boolean" ? Number(value) : value);
      td.textContent = fmt(team);
      tr.appendChild(td);
    });
    body.appendChild(tr);
  }
  document.getElementById("score").hidden = false;
}
