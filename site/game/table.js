// table.js: draws the table from the engine's state (scores, seats, the trick, the end
// screen, the last trick; its movement is motion.js). It never decides a rule: what is legal,
// who won, and every number come from the engine's state. The hand is hand.js, the
// bids bids.js, the score sheet scoresheet.js.
import { cardBack } from "../lib/cards.js";
import { HAND_SIZE, HUMAN, NIL, OUR_TEAM, SEATS } from "../lib/constants.js";
import { t } from "../lib/i18n.js";
import { bidName, cardEl, cardName, namedByCompass, seatName, teamMembers } from "../lib/words.js";
import { $, textEl } from "../lib/dom.js";


// ---------------------------------------------------------------- scores

export function renderScores(S) {
  for (const team of [0, 1]) {
    $(`.team-${team} .team-members`).textContent = teamMembers(team);
    const score = S ? S.scores[team] : 0;
    const bags = S ? S.bags[team] : 0;
    $(`[data-score="${team}"]`).textContent = String(score);
    const bagsEl = $(`[data-bags="${team}"]`);
    bagsEl.textContent = t("team.bags", { n: bags });
    const bidEl = $(`[data-teambid="${team}"]`);
    if (S && S.phase !== "over") {
      const seats = [team, team + 2];
      const bids = seats.map((s) => S.bids[s]);
      const won = seats.reduce((a, s) => a + S.tricks_won[s], 0);
      const bidTxt = bids.every((b) => b === null)
        ? "–"
        : bids.map((b, i) => (b === null ? "?" : bidName(b, S.blind && S.blind[seats[i]]))).join(" + ");
      bidEl.textContent = t("team.bidLine", { bid: bidTxt, won });
    } else {
      bidEl.textContent = "";
    }
  }
  const hn = $("[data-role='hand-number']");
  hn.textContent = S ? t("status.handNumber", { n: S.hand_number }) : "";
}

// ---------------------------------------------------------------- seats

export function renderSeats(S, busy) {
  for (let seat = 0; seat < SEATS; seat++) {
    const root = $(`.seat[data-seat="${seat}"]`);
    if (!root) continue;
    const bid = S ? S.bids[seat] : null;
    const tricks = S ? S.tricks_won[seat] : 0;
    $(".seat-name", root).textContent = seatName(seat);
    const blind = Boolean(S && S.blind && S.blind[seat]);
    $(".seat-bid", root).textContent = bid === null ? t("seat.noBid") : t("seat.bid", { bid: bidName(bid, blind) });
    $(".seat-bid", root).classList.toggle("nil", bid === NIL);
    $(".seat-tricks", root).textContent = t("seat.tricks", { n: tricks });
    const isDealer = S && S.dealer === seat && S.phase !== "over";
    $(".dealer-chip", root).hidden = !isDealer;
    const toAct = S && S.phase !== "over" && S.to_act === seat;
    root.classList.toggle("to-act", Boolean(toAct));
    const turnEl = $(".seat-turn", root);
    if (turnEl) turnEl.hidden = !toAct;
    // "Why?" is offered once a computer seat has acted in this hand (its bid, then its
    // cards); a person's seat has no reasons to give
    const why = $("[data-action='why']", root);
    const person = Boolean(S && Array.isArray(S.humans) && S.humans.includes(seat));
    if (why) {
      why.hidden = !(S && S.phase !== "over" && S.bids[seat] !== null) || person;
      // named by compass at a table of several people ("Why? East's last bid or card")
      why.setAttribute("aria-label", namedByCompass() ? t("coach.whyLabelOf", { name: seatName(seat) }) : t(`coach.whyLabel.${seat}`));
    }
    if (seat !== HUMAN) {
      const n = S ? S.cards_left[seat] : HAND_SIZE;
      const backs = $(".backs", root);
      // as many backs as the seat holds: a card played takes one away, a deal adds them
      while (backs.childElementCount > n) backs.lastElementChild.remove();
      while (backs.childElementCount < n) {
        const b = document.createElement("div");
        b.className = "card back-card";
        b.appendChild(cardBack());
        backs.appendChild(b);
      }
      $(".seat-cards", root).textContent = t("seat.cardsLeft", { n });
    }
  }
}

// ---------------------------------------------------------------- trick

/** Draw `trick` in the centre; the empty place of `toAct` (the seat to play, or null) is lit. */
export function renderTrick(trick, toAct = null) {
  const slots = document.querySelectorAll(".trick-slot");
  const plays = new Map(trick ? trick.plays.map(([s, c]) => [s, c]) : []);
  for (const slot of slots) {
    const seat = Number(slot.dataset.pos);
    const card = plays.get(seat);
    const existing = slot.firstElementChild;
    if (!card) {
      slot.replaceChildren();
      slot.removeAttribute("aria-label");
      continue;
    }
    if (existing && existing.dataset.card === card) continue;
    const node = cardEl(card);
    node.dataset.card = card;
    node.setAttribute("role", "img");
    node.setAttribute("aria-label", t("trick.played", { name: seatName(seat), card: cardName(card) }));
    slot.replaceChildren(node);
  }
  const trickEl = $("#trick");
  trickEl.classList.toggle("complete", Boolean(trick && trick.winner !== null && trick.winner !== undefined));
  for (const slot of slots) {
    const seat = Number(slot.dataset.pos);
    slot.classList.toggle("winner", Boolean(trick && trick.winner === seat));
    slot.classList.toggle("awaiting", toAct === seat && !slot.firstElementChild);
  }
  if (trick && trick.plays.length) {
    trickEl.dataset.leader = String(trick.leader);
  } else {
    delete trickEl.dataset.leader;
  }
}

// ---------------------------------------------------------------- end screen

export function renderOver(S) {
  const panel = $("#over-panel");
  const show = Boolean(S && S.phase === "over");
  panel.hidden = !show;
  if (!show) return;
  const won = S.winner === OUR_TEAM;
  $("[data-role='over-result']", panel).textContent = won ? t("over.won")
    : namedByCompass() ? t("over.theyWin", { a: seatName(1), b: seatName(3) }) : t("over.lost");
  panel.classList.toggle("won", won);
  $("[data-role='over-score']", panel).textContent = t("over.final", { us: S.scores[0], them: S.scores[1] });
  $("[data-role='over-hands']", panel).textContent = t("over.hands", { n: S.sheet.length });
}

// ---------------------------------------------------------------- last trick dialog

export function trickView(trick) {
  const wrap = document.createElement("div");
  wrap.className = "trick-view";
  if (!trick) {
    wrap.appendChild(textEl("p", t("lastTrick.none")));
    return wrap;
  }
  const list = document.createElement("ol");
  list.className = "trick-list";
  for (const [seat, card] of trick.plays) {
    const li = document.createElement("li");
    if (seat === trick.winner) li.className = "winner";
    const c = cardEl(card);
    c.setAttribute("aria-hidden", "true");
    li.append(c, textEl("span", seatName(seat), "who"), textEl("span", cardName(card), "sr-only"));
    list.appendChild(li);
  }
  wrap.appendChild(list);
  if (trick.winner !== null && trick.winner !== undefined) {
    wrap.appendChild(textEl("p", t("trick.winner", { name: seatName(trick.winner) }), "trick-winner"));
  }
  return wrap;
}
