// table.js: draws the table from the engine's state (seats, hand, trick, bids,
// scores, score sheet, end screen). It never decides a rule: what is legal,
// who won, and every number come from the engine's state.
import { cardBack, cardFace, parseCard } from "./cards.js";
import { HAND_SIZE, HUMAN, MAX_BID, NIL, OUR_TEAM, SEATS } from "./constants.js";
import { fmt, fmtSigned, t } from "./i18n.js";

const $ = (sel, root = document) => root.querySelector(sel);

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

function cardEl(card, tag = "div") {
  const node = document.createElement(tag);
  node.className = "card";
  node.dataset.suit = parseCard(card).suit;
  node.appendChild(cardFace(card, t(`rank.short.${parseCard(card).rank}`)));
  return node;
}

// ---------------------------------------------------------------- scores

export function renderScores(S) {
  for (const team of [0, 1]) {
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
        : bids.map((b) => (b === null ? "?" : bidName(b))).join(" + ");
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
    $(".seat-bid", root).textContent = bid === null ? t("seat.noBid") : t("seat.bid", { bid: bidName(bid) });
    $(".seat-bid", root).classList.toggle("nil", bid === NIL);
    $(".seat-tricks", root).textContent = t("seat.tricks", { n: tricks });
    const isDealer = S && S.dealer === seat && S.phase !== "over";
    $(".dealer-chip", root).hidden = !isDealer;
    const toAct = S && S.phase !== "over" && S.to_act === seat;
    root.classList.toggle("to-act", Boolean(toAct));
    const turnEl = $(".seat-turn", root);
    if (turnEl) turnEl.hidden = !toAct;
    if (seat !== HUMAN) {
      const n = S ? S.cards_left[seat] : HAND_SIZE;
      const backs = $(".backs", root);
      if (backs.childElementCount !== n) {
        backs.replaceChildren();
        for (let i = 0; i < n; i++) {
          const b = document.createElement("div");
          b.className = "card back-card";
          b.appendChild(cardBack());
          backs.appendChild(b);
        }
      }
      $(".seat-cards", root).textContent = t("seat.cardsLeft", { n });
    }
  }
}

// ---------------------------------------------------------------- hand

/** The button an arrow, Home or End key moves to in a one-tab-stop group (null for other keys). */
function arrowTarget(key, buttons) {
  const i = buttons.indexOf(document.activeElement);
  if (key === "ArrowRight" || key === "ArrowDown") return buttons[Math.min(buttons.length - 1, i + 1)];
  if (key === "ArrowLeft" || key === "ArrowUp") return buttons[Math.max(0, i - 1)];
  if (key === "Home") return buttons[0];
  if (key === "End") return buttons[buttons.length - 1];
  return null;
}

/** Wire the hand: `onPlay(card)` for a playable card, `onRefused(card)` for one that is not. */
export function initHand({ onPlay, onRefused }) {
  const hand = $("#hand");
  hand.addEventListener("click", (ev) => {
    const btn = ev.target.closest("button[data-card]");
    if (btn && !btn.disabled) {
      onPlay(btn.dataset.card);
      return;
    }
    const slot = ev.target.closest(".slot");
    if (slot) onRefused(slot.dataset.slot);
  });
  hand.addEventListener("keydown", (ev) => {
    const buttons = [...hand.querySelectorAll("button[data-card]:not([disabled])")];
    if (!buttons.length) return;
    const next = arrowTarget(ev.key, buttons);
    if (next) {
      ev.preventDefault();
      setRoving(buttons, next);
      next.focus();
    }
  });
  hand.addEventListener("focusin", (ev) => {
    const btn = ev.target.closest("button[data-card]");
    if (btn) setRoving([...hand.querySelectorAll("button[data-card]")], btn);
  });
}

// The roving tab stop is kept in the DOM itself: the hand's `data-roving` names the card
// that holds it (kept across redraws), the bid grid's the bid.
function setRoving(buttons, current) {
  for (const b of buttons) b.tabIndex = b === current ? 0 : -1;
  if (current) $("#hand").dataset.roving = current.dataset.card;
  else delete $("#hand").dataset.roving;
}

export function renderHand(S, interactive) {
  const hand = $("#hand");
  const hadFocus = hand.contains(document.activeElement);
  const focusedCard = hadFocus ? document.activeElement.dataset.card : null;
  const cards = S ? S.hand : [];
  const legal = new Set(interactive && S && S.phase === "play" && S.to_act === HUMAN ? S.legal_cards : []);
  const nodes = [];
  for (const card of cards) {
    const slot = document.createElement("span");
    slot.className = "slot";
    slot.dataset.slot = card;
    const btn = cardEl(card, "button");
    btn.type = "button";
    btn.dataset.card = card;
    // the drawn face holds no text (see cards.js), so this is the whole accessible name
    btn.setAttribute("aria-label", cardName(card));
    btn.disabled = !legal.has(card);
    btn.tabIndex = -1;
    slot.appendChild(btn);
    nodes.push(slot);
  }
  hand.replaceChildren(...nodes);
  hand.classList.toggle("my-turn", legal.size > 0);
  const enabled = [...hand.querySelectorAll("button[data-card]:not([disabled])")];
  let current = enabled.find((b) => b.dataset.card === (focusedCard || hand.dataset.roving)) || enabled[0] || null;
  if (hadFocus && !current && focusedCard) {
    // the focused card was played: move to its neighbour
    current = enabled[0] || null;
  }
  setRoving(enabled, current);
  // one tab stop: a playable card, or the hand itself while none can be played (so the
  // player can still reach it and hear what it holds, and focus has a place to wait)
  hand.tabIndex = current ? -1 : 0;
  if (hadFocus) {
    if (current) current.focus({ preventScroll: true });
    else if (document.activeElement !== hand) hand.focus({ preventScroll: true });
  }
  hand.setAttribute("aria-label", `${t("hand.label")} (${t("seat.cardsLeft", { n: cards.length })})`);
  $("#hand-summary").textContent = cards.length ? `${t("hand.label")}: ${cards.map(cardName).join(", ")}.` : "";
}

/** Put focus on the hand (its roving card, or the hand itself). */
export function focusHand() {
  const hand = $("#hand");
  const target = $("button[data-card][tabindex='0']:enabled", hand) || hand;
  target.focus({ preventScroll: true });
  return target;
}

export function handCardRect(card) {
  const btn = $(`#hand button[data-card="${card}"]`);
  return btn ? btn.getBoundingClientRect() : null;
}

export function markHint(action) {
  clearHint();
  let node = null;
  if ("card" in action) node = $(`#hand button[data-card="${action.card}"]`);
  else if ("bid" in action) node = $(`button[data-bid="${action.bid}"]`);
  if (node) node.classList.add("hinted");
}

export function clearHint() {
  for (const n of document.querySelectorAll(".hinted")) n.classList.remove("hinted");
}

// ---------------------------------------------------------------- trick

export function renderTrick(trick) {
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
    slot.classList.toggle("winner", Boolean(trick && trick.winner === Number(slot.dataset.pos)));
  }
  if (trick && trick.plays.length) {
    trickEl.dataset.leader = String(trick.leader);
  } else {
    delete trickEl.dataset.leader;
  }
}

function centerOf(rect) {
  return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
}

function seatAnchor(seat) {
  if (seat === HUMAN) return $("#hand").getBoundingClientRect();
  return ($(`.seat[data-seat="${seat}"] .backs`) || $(`.seat[data-seat="${seat}"]`)).getBoundingClientRect();
}

/** Slide the card just put in `seat`'s trick slot in from `fromRect` (or the seat). */
export async function animatePlay(seat, fromRect, ms) {
  const node = $(`.trick-slot[data-pos="${seat}"] .card`);
  if (!node || !ms || !node.animate) return;
  const to = node.getBoundingClientRect();
  const from = fromRect || seatAnchor(seat);
  const a = centerOf(from);
  const b = centerOf(to);
  const scale = fromRect ? Math.max(0.5, Math.min(1.6, fromRect.width / to.width)) : 0.6;
  const anim = node.animate(
    [
      { transform: `translate(${a.x - b.x}px, ${a.y - b.y}px) scale(${scale})`, opacity: fromRect ? 1 : 0.4 },
      { transform: "none", opacity: 1 },
    ],
    { duration: ms, easing: "cubic-bezier(.2,.7,.3,1)" },
  );
  try {
    await anim.finished;
  } catch {
    /* cancelled */
  }
}

/** Sweep the trick's cards to the winner's seat. */
export async function animateCollect(winner, ms) {
  const nodes = [...document.querySelectorAll(".trick-slot .card")];
  if (!ms || !nodes.length || !nodes[0].animate) return;
  const target = centerOf(seatAnchor(winner));
  const anims = nodes.map((node) => {
    const c = centerOf(node.getBoundingClientRect());
    return node.animate(
      [
        { transform: "none", opacity: 1 },
        { transform: `translate(${target.x - c.x}px, ${target.y - c.y}px) scale(0.4)`, opacity: 0 },
      ],
      { duration: ms, easing: "ease-in", fill: "forwards" },
    );
  });
  try {
    await Promise.all(anims.map((a) => a.finished));
  } catch {
    /* cancelled */
  }
}

// ---------------------------------------------------------------- bidding

export function renderBidPanel(S, interactive) {
  const panel = $("#bid-panel");
  const show = Boolean(S && S.phase === "bid");
  panel.hidden = !show;
  if (!show) {
    for (const btn of panel.querySelectorAll("button[data-bid]")) btn.disabled = true;
    return;
  }
  const legal = new Set(interactive && S.to_act === HUMAN ? S.legal_bids : []);
  const hadFocus = panel.contains(document.activeElement);
  for (const btn of panel.querySelectorAll("button[data-bid]")) {
    const n = Number(btn.dataset.bid);
    btn.disabled = !legal.has(n);
  }
  const enabled = [...panel.querySelectorAll("button[data-bid]:enabled")];
  // one tab stop in the bids: the last one chosen with the arrows, else 1 (nil is a
  // deliberate choice, never the default)
  const current = enabled.find((b) => Number(b.dataset.bid) === rovingBid())
    || enabled.find((b) => b.dataset.bid === "1") || enabled[0] || null;
  setBidRoving(current);
  if (hadFocus && current && document.activeElement !== current) current.focus({ preventScroll: true });
  const partner = S.bids[2];
  $("[data-role='partner-bid']", panel).textContent =
    partner === null ? t("bid.partnerWaiting") : t("bid.partner", { bid: bidName(partner) });
  const team = (S.bids[0] || 0) + (partner || 0);
  $("[data-role='team-bid']", panel).textContent = t("bid.teamSoFar", { n: team });
  const opp = [S.bids[1], S.bids[3]].filter((b) => b !== null);
  $("[data-role='opp-bid']", panel).textContent = t("bid.opponents", {
    n: opp.length ? opp.reduce((a, b) => a + b, 0) : "–",
  });
  $("[data-role='bid-prompt']", panel).textContent =
    S.to_act === HUMAN ? t("bid.prompt") : t("turn.other", { name: seatName(S.to_act) });
}

function setBidRoving(current) {
  for (const b of document.querySelectorAll("#bid-grid button[data-bid]")) b.tabIndex = b === current ? 0 : -1;
  if (current) $("#bid-grid").dataset.roving = current.dataset.bid;
}

/** The bid that last held the bids' tab stop (NaN before any). */
const rovingBid = () => Number($("#bid-grid").dataset.roving ?? NaN);

/** Focus the bid panel's current bid; false when no bid can be made. */
export function focusBids() {
  const btn = $("#bid-grid button[data-bid][tabindex='0']:enabled") || $("#bid-grid button[data-bid]:enabled");
  if (!btn) return false;
  btn.focus({ preventScroll: true });
  return true;
}

function wireBidKeys(grid) {
  if (grid.dataset.wired) return;
  grid.dataset.wired = "1";
  grid.addEventListener("keydown", (ev) => {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const buttons = [...grid.querySelectorAll("button[data-bid]:enabled")];
    if (!buttons.length) return;
    const next = /^[0-9]$/.test(ev.key)
      ? buttons.find((b) => b.dataset.bid === ev.key) || null
      : arrowTarget(ev.key, buttons);
    if (next) {
      ev.preventDefault();
      setBidRoving(next);
      next.focus();
    }
  });
  grid.addEventListener("focusin", (ev) => {
    const btn = ev.target.closest("button[data-bid]");
    if (btn) setBidRoving(btn);
  });
}

export function buildBidButtons(onBid) {
  const grid = $("#bid-grid");
  const hadFocus = grid.contains(document.activeElement) ? document.activeElement.dataset.bid : null;
  wireBidKeys(grid);
  grid.replaceChildren();
  for (let n = NIL; n <= MAX_BID; n++) {
    const btn = document.createElement("button");
    btn.type = "button";
    btn.dataset.bid = String(n);
    btn.className = n === NIL ? "bid-btn nil" : "bid-btn";
    if (n === NIL) {
      const big = document.createElement("span");
      big.className = "bid-main";
      big.textContent = t("bid.nilButton");
      const small = document.createElement("span");
      small.className = "bid-sub";
      small.textContent = t("bid.nilHint");
      // named by its text ("Nil 0 tricks"), so what is seen is what is heard
      btn.append(big, " ", small);
    } else {
      btn.textContent = fmt(n);
      btn.setAttribute("aria-label", t("bid.aria", { n }));
    }
    btn.addEventListener("click", () => onBid(n));
    btn.tabIndex = n === rovingBid() ? 0 : -1;
    grid.appendChild(btn);
  }
  if (hadFocus !== null) {
    const again = $(`button[data-bid="${hadFocus}"]`, grid);
    if (again) again.focus({ preventScroll: true });
  }
}

// ---------------------------------------------------------------- score sheet

function cell(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (cls) node.className = cls;
  return node;
}

function teamHeader(corner) {
  const tr = document.createElement("tr");
  if (corner) {
    const th = cell("th", corner, "corner");
    th.scope = "col";
    tr.appendChild(th);
  } else {
    tr.appendChild(cell("td", "", "corner"));
  }
  for (const team of [0, 1]) {
    const th = cell("th", "", `team-col team-${team}`);
    th.scope = "col";
    th.append(cell("span", "", `team-mark team-mark-${team}`), cell("span", t(`team.${team}`)));
    th.appendChild(cell("small", t(`team.${team}.members`)));
    tr.appendChild(th);
  }
  return tr;
}

/** The breakdown of one hand (a sheet row from the engine). */
export function breakdownTable(row) {
  const table = document.createElement("table");
  table.className = "breakdown";
  const cap = cell("caption", t("sheet.handTitle", { n: row.number }), "sr-only");
  table.appendChild(cap);
  const thead = document.createElement("thead");
  thead.appendChild(teamHeader());
  table.appendChild(thead);
  const tbody = document.createElement("tbody");
  const line = (label, f, cls) => {
    const tr = document.createElement("tr");
    if (cls) tr.className = cls;
    const th = cell("th", label);
    th.scope = "row";
    tr.appendChild(th);
    for (const team of [0, 1]) tr.appendChild(cell("td", f(row.teams[team], team)));
    tbody.appendChild(tr);
  };
  line(t("sheet.bids"), (s) => s.bids.map((b, i) => `${seatName(s.seats[i])} ${bidName(b)}`).join(", "));
  line(t("sheet.tricks"), (s) => s.tricks.map((n, i) => `${seatName(s.seats[i])} ${fmt(n)}`).join(", "));
  line(t("sheet.contract"), (s) => (s.contract ? fmt(s.contract) : t("sheet.noContract")));
  line(t("sheet.contractTricks"), (s) => (s.contract ? fmt(s.contract_tricks) : t("sheet.none")));
  line(t("sheet.result"), (s) => (s.contract ? (s.made ? t("sheet.made") : t("sheet.set")) : t("sheet.none")), "result");
  line(t("sheet.contractPoints"), (s) => (s.contract ? fmtSigned(s.contract_points) : t("sheet.none")));
  const maxNils = Math.max(row.teams[0].nils.length, row.teams[1].nils.length);
  for (let i = 0; i < maxNils; i++) {
    const tr = document.createElement("tr");
    const th = cell("th", t("bid.nilButton"));
    th.scope = "row";
    tr.appendChild(th);
    for (const team of [0, 1]) {
      const nil = row.teams[team].nils[i];
      tr.appendChild(
        cell(
          "td",
          nil
            ? `${seatName(nil.seat)}: ${nil.made ? t("sheet.nilMade", { points: fmtSigned(nil.points) }) : t("sheet.nilFailed", { n: nil.tricks, points: fmtSigned(nil.points) })}`
            : t("sheet.none"),
        ),
      );
    }
    tbody.appendChild(tr);
  }
  line(t("sheet.bags"), (s) => (s.bags ? fmtSigned(s.bags) : fmt(0)));
  line(t("sheet.penalty"), (s) => (s.penalty_points ? fmtSigned(-Math.abs(s.penalty_points)) : t("sheet.none")));
  line(t("sheet.delta"), (s) => fmtSigned(s.delta), "delta");
  line(t("sheet.total"), (s) => fmt(s.score_after), "total");
  line(t("sheet.bagsTotal"), (s) => fmt(s.bags_after));
  table.appendChild(tbody);
  return table;
}

/** All hands: number, each team's hand score and running total; rows select the breakdown. */
export function historyTable(sheet, selected, onSelect) {
  const table = document.createElement("table");
  table.className = "history";
  table.appendChild(cell("caption", t("sheet.history")));
  const thead = document.createElement("thead");
  const tr = teamHeader(t("sheet.hand"));
  thead.appendChild(tr);
  table.appendChild(thead);
  const tbody = document.createElement("tbody");
  for (const row of sheet) {
    const r = document.createElement("tr");
    if (row.number === selected) r.className = "selected";
    const th = document.createElement("th");
    th.scope = "row";
    const btn = cell("button", fmt(row.number), "link");
    btn.type = "button";
    btn.setAttribute("aria-label", `${t("sheet.details")}: ${t("status.handNumber", { n: row.number })}`);
    if (row.number === selected) btn.setAttribute("aria-current", "true");
    btn.addEventListener("click", () => onSelect(row.number));
    th.appendChild(btn);
    r.appendChild(th);
    for (const team of [0, 1]) {
      const s = row.teams[team];
      const td = document.createElement("td");
      td.append(cell("span", fmtSigned(s.delta), "delta"), cell("span", fmt(s.score_after), "total"));
      r.appendChild(td);
    }
    tbody.appendChild(r);
  }
  table.appendChild(tbody);
  return table;
}

// ---------------------------------------------------------------- end screen

export function renderOver(S) {
  const panel = $("#over-panel");
  const show = Boolean(S && S.phase === "over");
  panel.hidden = !show;
  if (!show) return;
  const won = S.winner === OUR_TEAM;
  $("[data-role='over-result']", panel).textContent = won ? t("over.won") : t("over.lost");
  panel.classList.toggle("won", won);
  $("[data-role='over-score']", panel).textContent = t("over.final", { us: S.scores[0], them: S.scores[1] });
  $("[data-role='over-hands']", panel).textContent = t("over.hands", { n: S.sheet.length });
}

// ---------------------------------------------------------------- last trick dialog

export function trickView(trick) {
  const wrap = document.createElement("div");
  wrap.className = "trick-view";
  if (!trick) {
    wrap.appendChild(cell("p", t("lastTrick.none")));
    return wrap;
  }
  const list = document.createElement("ol");
  list.className = "trick-list";
  for (const [seat, card] of trick.plays) {
    const li = document.createElement("li");
    if (seat === trick.winner) li.className = "winner";
    const c = cardEl(card);
    c.setAttribute("aria-hidden", "true");
    li.append(c, cell("span", seatName(seat), "who"), cell("span", cardName(card), "sr-only"));
    list.appendChild(li);
  }
  wrap.appendChild(list);
  if (trick.winner !== null && trick.winner !== undefined) {
    wrap.appendChild(cell("p", t("trick.winner", { name: seatName(trick.winner) }), "trick-winner"));
  }
  return wrap;
}
