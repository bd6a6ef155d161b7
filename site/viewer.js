// viewer.js: the hand viewer. Loads a hand (or a whole match) through the
// engine's `review {text}` message, then steps through the deal, the bids, every
// card and the score.
//
// Input: ?hand=<url-encoded text>  or  ?src=<relative URL of a file on this site>
//        or the paste box / file picker. #step=N (and #hand=K) pick a position.
// Keys:  ← / → step, Home / End jump (when focus is not in a text field).
import { startEngine } from "./engine.js";
import { registerServiceWorker } from "./sw-register.js";

const SEATS = ["South", "West", "North", "East"];
const TEAMS = ["North–South", "East–West"];
const RANK_WORDS = { 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
  9: "nine", T: "ten", J: "jack", Q: "queen", K: "king", A: "ace" };
const RANK_LABEL = { T: "10" };
const SUIT_WORDS = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const SUIT_SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };
const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 };
const RANK_ORDER = "23456789TJQKA";

const $ = (id) => document.getElementById(id);
const status = $("status");
const errorBox = $("error");

let cards = null; // site/cards.js module when present
let engine = null;
let hands = [];
let handIndex = 0;
let steps = [];
let step = 0;

// ------------------------------------------------------------------ helpers

export function cardName(card) {
  return `${RANK_WORDS[card.slice(0, -1)]} of ${SUIT_WORDS[card.slice(-1)]}`;
}

function sortCards(list) {
  return list.slice().sort((a, b) => (SUIT_ORDER[a.slice(-1)] - SUIT_ORDER[b.slice(-1)])
    || (RANK_ORDER.indexOf(b[0]) - RANK_ORDER.indexOf(a[0])));
}

function bidText(bid) {
  return bid === 0 ? "nil" : String(bid);
}

function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0";
}

function cardNode(card, tag = "span") {
  const node = document.createElement(tag);
  const suit = card.slice(-1);
  node.className = `card suit-${suit}`;
  node.dataset.card = card;
  node.setAttribute("role", "img");
  node.setAttribute("aria-label", cardName(card));
  node.title = cardName(card);
  const label = RANK_LABEL[card[0]] || card[0];
  let face = null;
  if (cards && typeof cards.cardFace === "function") {
    try {
      face = cards.cardFace(card, label);
    } catch {
      face = null;
    }
  }
  if (face) {
    node.appendChild(face);
  } else {
    node.classList.add("text-card");
    const r = document.createElement("span");
    r.className = "rank";
    r.textContent = label;
    const s = document.createElement("span");
    s.className = "suit";
    s.textContent = SUIT_SYMBOL[suit];
    node.append(r, s);
  }
  return node;
}

function showError(message) {
  errorBox.textContent = message;
  errorBox.hidden = false;
}

function clearError() {
  errorBox.textContent = "";
  errorBox.hidden = true;
}

function setStatus(text, state) {
  status.textContent = text;
  status.dataset.state = state;
}

// ------------------------------------------------------------------ steps

/** The actions of one hand record as steps: deal, bids, cards, score. */
function buildSteps(rec) {
  const out = [{ kind: "deal" }];
  for (let i = 0; i < 4; i++) {
    const seat = (rec.dealer + 1 + i) % 4;
    if (rec.bids[seat] === null || rec.bids[seat] === undefined) break;
    out.push({ kind: "bid", seat, bid: rec.bids[seat] });
  }
  rec.tricks.forEach((trick, t) => {
    trick.plays.forEach(([seat, card], p) => {
      const done = p === 3 && trick.plays.length === 4;
      out.push({ kind: "play", seat, card, trick: t, pos: p, winner: done ? trick.winner : null });
    });
  });
  if (rec.scores) out.push({ kind: "score" });
  return out;
}

/** What the table shows after the first k steps. */
function positionAt(rec, k) {
  const held = rec.deal.map((h) => new Set(h));
  const bids = [null, null, null, null];
  const won = [0, 0, 0, 0];
  let trick = null;
  for (let i = 1; i <= k; i++) {
    const s = steps[i];
    if (s.kind === "bid") bids[s.seat] = s.bid;
    else if (s.kind === "play") {
      held[s.seat].delete(s.card);
      if (s.pos === 0) trick = { index: s.trick, plays: [], winner: null, leader: s.seat };
      trick.plays.push([s.seat, s.card]);
      if (s.winner !== null) {
        trick.winner = s.winner;
        won[s.winner] += 1;
      }
    }
  }
  return { held: held.map((h) => sortCards([...h])), bids, won, trick };
}

function describe(rec, k) {
  const s = steps[k];
  if (s.kind === "deal") {
    const first = SEATS[(rec.dealer + 1) % 4];
    return `Hand ${rec.number}: the deal. ${SEATS[rec.dealer]} deals; ${first} bids first.`;
  }
  if (s.kind === "bid") return `${SEATS[s.seat]} bids ${bidText(s.bid)}.`;
  if (s.kind === "play") {
    let text = `${SEATS[s.seat]} ${s.pos === 0 ? "leads" : "plays"} the ${cardName(s.card)}.`;
    if (s.winner !== null) text += ` ${SEATS[s.winner]} wins trick ${s.trick + 1}.`;
    return text;
  }
  const [a, b] = rec.scores;
  return `Hand scored: ${TEAMS[0]} ${signed(a.delta)} (total ${a.score_after}), ${TEAMS[1]} ${signed(b.delta)} (total ${b.score_after}).`;
}

// ------------------------------------------------------------------ drawing

function drawSeat(rec, seat, pos, playing) {
  const box = document.querySelector(`.seat[data-seat="${seat}"]`);
  box.textContent = "";
  const head = document.createElement("h2");
  head.className = "seat-name";
  head.textContent = SEATS[seat];
  if (rec.dealer === seat) {
    const d = document.createElement("span");
    d.className = "tag dealer";
    d.textContent = "dealer";
    head.append(" ", d);
  }
  const info = document.createElement("p");
  info.className = "seat-info";
  const bid = pos.bids[seat];
  info.innerHTML = "";
  const b = document.createElement("span");
  b.dataset.bid = seat;
  b.textContent = bid === null ? "bid: —" : `bid: ${bidText(bid)}`;
  const w = document.createElement("span");
  w.dataset.won = seat;
  w.textContent = `tricks: ${pos.won[seat]}`;
  info.append(b, " · ", w);
  const list = document.createElement("ul");
  list.className = "hand";
  list.setAttribute("aria-label", `${SEATS[seat]}'s cards (${pos.held[seat].length})`);
  for (const card of pos.held[seat]) {
    const li = document.createElement("li");
    li.appendChild(cardNode(card));
    list.appendChild(li);
  }
  box.classList.toggle("to-act", playing === seat);
  box.append(head, info, list);
}

function drawScore(rec) {
  const box = $("score");
  const body = $("score-body");
  body.textContent = "";
  if (!rec.scores) {
    box.hidden = true;
    return;
  }
  const rows = [
    ["Contract (non-nil bids)", "contract", (t) => String(t.contract)],
    ["Tricks toward it", "contract_tricks", (t) => String(t.contract_tricks)],
    ["Contract points", "contract_points", (t) => `${signed(t.contract_points)} (${t.made ? "made" : "set"})`],
    ["Overtricks", "overtricks", (t) => String(t.overtricks)],
    ["Nil", "nil_points", (t) => (t.nils.length
      ? t.nils.map((n) => `${SEATS[n.seat]} ${n.made ? "made" : "lost"} ${signed(n.points)}`).join(", ")
      : "—")],
    ["Bags this hand", "bags", (t) => String(t.bags)],
    ["Bag penalty", "penalty_points", (t) => (t.penalties ? `${signed(t.penalty_points)} (${t.penalties}×)` : "—")],
    ["Hand total", "delta", (t) => signed(t.delta)],
    ["Score", "score_after", (t) => `${t.score_before} → ${t.score_after}`],
    ["Bags", "bags_after", (t) => `${t.bags_before} → ${t.bags_after}`],
  ];
  for (const [label, field, fmt] of rows) {
    const tr = document.createElement("tr");
    if (field === "delta") tr.className = "total";
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = label;
    tr.appendChild(th);
    rec.scores.forEach((team, i) => {
      const td = document.createElement("td");
      const key = field.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
      td.dataset[`team${key[0].toUpperCase()}${key.slice(1)}`] = String(i);
      const value = field === "nil_points" ? team.nils.reduce((s, n) => s + n.points, 0) : team[field];
      td.dataset.value = String(typeof value === "boolean" ? Number(value) : value);
      td.textContent = fmt(team);
      tr.appendChild(td);
    });
    body.appendChild(tr);
  }
  box.hidden = false;
}

function draw() {
  const rec = hands[handIndex];
  const pos = positionAt(rec, step);
  const s = steps[step];
  let toAct = null;
  if (step + 1 < steps.length && steps[step + 1].kind !== "score") toAct = steps[step + 1].seat;
  for (let seat = 0; seat < 4; seat++) drawSeat(rec, seat, pos, toAct);

  for (const slot of document.querySelectorAll("#trick .slot")) {
    slot.textContent = "";
    slot.classList.remove("winner");
  }
  let caption = "";
  if (s.kind === "deal") caption = `${SEATS[(rec.dealer + 1) % 4]} bids first.`;
  else if (s.kind === "bid") caption = `Bidding: ${SEATS[s.seat]} bids ${bidText(s.bid)}.`;
  if (pos.trick && s.kind === "play") {
    for (const [seat, card] of pos.trick.plays) {
      const slot = document.querySelector(`#trick .slot[data-slot="${seat}"]`);
      slot.appendChild(cardNode(card));
      if (pos.trick.winner === seat) slot.classList.add("winner");
    }
    caption = `Trick ${pos.trick.index + 1} of 13`;
    if (pos.trick.winner !== null) caption += ` — ${SEATS[pos.trick.winner]} wins`;
  } else if (s.kind === "score") {
    caption = "Hand over.";
  }
  if (step === steps.length - 1 && !rec.scores) caption += " (The hand is unfinished.)";
  $("caption").textContent = caption;
  $("counter").textContent = `Step ${step} of ${steps.length - 1}`;
  $("first").disabled = $("prev").disabled = step === 0;
  $("next").disabled = $("last").disabled = step === steps.length - 1;
  $("announce").textContent = describe(rec, step);
  document.body.dataset.step = String(step);
  document.body.dataset.steps = String(steps.length - 1);
  if (step === steps.length - 1 && rec.scores) drawScore(rec);
  else $("score").hidden = true;

  const hash = hands.length > 1 ? `#hand=${handIndex + 1}&step=${step}` : `#step=${step}`;
  if (location.hash !== hash) history.replaceState(null, "", hash);
}

function go(k) {
  const target = Math.max(0, Math.min(steps.length - 1, k));
  if (target === step && document.body.dataset.step === String(step)) return;
  step = target;
  draw();
}

function selectHand(index, startStep = 0) {
  handIndex = Math.max(0, Math.min(hands.length - 1, index));
  steps = buildSteps(hands[handIndex]);
  step = Math.max(0, Math.min(steps.length - 1, startStep));
  $("hand-select").value = String(handIndex);
  draw();
}

// ------------------------------------------------------------------ loading

function hashParams() {
  return new URLSearchParams(location.hash.replace(/^#/, ""));
}

async function show(text, { keepHash = false } = {}) {
  clearError();
  if (!text || !text.trim()) {
    showError("Nothing to show: paste a hand or choose a file.");
    return false;
  }
  setStatus("Reading the hand…", "busy");
  let result;
  try {
    result = await engine.call("review", { text });
  } catch (err) {
    setStatus("Could not show that hand.", "error");
    showError(err && err.message ? err.message : String(err));
    document.body.dataset.error = (err && err.code) || "error";
    return false;
  }
  delete document.body.dataset.error;
  hands = result.hands || [];
  if (!hands.length) {
    setStatus("Could not show that hand.", "error");
    showError("The text holds no hand.");
    return false;
  }
  const select = $("hand-select");
  select.textContent = "";
  hands.forEach((rec, i) => {
    const opt = document.createElement("option");
    opt.value = String(i);
    opt.textContent = `${rec.number} — ${SEATS[rec.dealer]} deals${rec.scores ? "" : " (unfinished)"}`;
    select.appendChild(opt);
  });
  $("hand-pick").hidden = hands.length < 2;
  const kinds = { notation: "hand notation", session: "saved game", match: "saved match", hand: "hand record" };
  $("source-kind").textContent = `From a ${kinds[result.source] || result.source}, ${hands.length} hand${hands.length === 1 ? "" : "s"}.`;
  $("viewer").hidden = false;
  const params = keepHash ? hashParams() : new URLSearchParams();
  const want = Number.parseInt(params.get("hand") || "1", 10) - 1;
  const at = Number.parseInt(params.get("step") || "0", 10);
  selectHand(Number.isFinite(want) ? want : 0, Number.isFinite(at) ? at : 0);
  setStatus("Ready.", "ready");
  document.body.dataset.ready = "1";
  return true;
}

async function fromQuery() {
  const query = new URLSearchParams(location.search);
  if (query.has("hand")) return { text: query.get("hand") };
  if (query.has("src")) {
    const src = query.get("src");
    const url = new URL(src, location.href);
    if (url.origin !== location.origin) {
      return { error: "The viewer only opens files from this site (give ?src= a relative address)." };
    }
    try {
      const resp = await fetch(url);
      if (!resp.ok) return { error: `Could not load ${src}: HTTP ${resp.status}.` };
      return { text: await resp.text() };
    } catch {
      return { error: `Could not load ${src} (offline?).` };
    }
  }
  return null;
}

function inTextField(target) {
  return target && (target.closest("textarea, input, select, [contenteditable='true']") !== null);
}

function wire() {
  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => go(step - 1));
  $("next").addEventListener("click", () => go(step + 1));
  $("last").addEventListener("click", () => go(steps.length - 1));
  $("hand-select").addEventListener("change", (e) => selectHand(Number(e.target.value), 0));
  document.addEventListener("keydown", (e) => {
    if ($("viewer").hidden || inTextField(e.target) || e.altKey || e.ctrlKey || e.metaKey) return;
    const moves = { ArrowRight: step + 1, ArrowLeft: step - 1, Home: 0, End: steps.length - 1 };
    if (e.key in moves) {
      e.preventDefault();
      go(moves[e.key]);
    }
  });
  $("load-form").addEventListener("submit", (e) => {
    e.preventDefault();
    if (engine) show($("source").value);
  });
  $("file").addEventListener("change", async (e) => {
    const file = e.target.files && e.target.files[0];
    if (!file) return;
    const text = await file.text();
    $("source").value = text;
    if (engine) show(text);
  });
}

async function main() {
  wire();
  registerServiceWorker();
  try {
    cards = await import("./cards.js");
  } catch {
    cards = null; // text cards
  }
  const started = startEngine({
    onProgress: ({ stage }) => {
      const words = { runtime: "Loading Python…", micropip: "Loading the installer…", engine: "Loading the engine…" };
      if (words[stage]) setStatus(words[stage], "loading");
    },
  });
  try {
    await started.ready;
  } catch (err) {
    setStatus("The engine could not start.", "error");
    showError(err && err.message ? err.message : String(err));
    return;
  }
  engine = started;
  window.viewerEngine = engine;
  $("show").disabled = false;
  const source = await fromQuery();
  if (source && source.error) {
    setStatus("Could not show that hand.", "error");
    showError(source.error);
    $("loader").open = true;
    document.body.dataset.engine = "ready";
    return;
  }
  if (source) {
    $("source").value = source.text;
    const ok = await show(source.text, { keepHash: true });
    if (!ok) $("loader").open = true;
  } else {
    setStatus("Engine ready: open a hand.", "ready");
    $("loader").open = true;
  }
  document.body.dataset.engine = "ready";
}

main();
