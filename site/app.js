// app.js: page state and flow. Every rule, legal move, trick winner, score and
// computer move comes from the Python engine (engine.js -> worker.js -> spades.bridge);
// this file only sequences calls, animations and dialogs.
import { startEngine } from "./engine.js";
import { registerServiceWorker } from "./sw-register.js";
import { LANGUAGES, applyStatic, currentLanguage, has, loadLanguage, pickLanguage, t } from "./i18n.js";
import * as table from "./table.js";

const params = new URLSearchParams(location.search);
// Embedded (embed.html → index.html?embed=1): its own save, so a tutorial's table never
// overwrites the player's own match.
const EMBED = params.get("embed") === "1";
const SAVE_KEY = EMBED ? "spades.embed.save.v1" : "spades.save.v1";
const PENDING_KEY = EMBED ? "spades.embed.pending.v1" : "spades.pending.v1";
const SETTINGS_KEY = "spades.settings.v1";
const HUMAN = 0;

// think: pause before a computer acts; move: card flight; pause: a full trick stays this long
const SPEEDS = {
  slow: { think: 900, move: 480, pause: 1500 },
  normal: { think: 480, move: 300, pause: 950 },
  fast: { think: 180, move: 160, pause: 450 },
  instant: { think: 0, move: 0, pause: 0 },
};

const $ = (sel, root = document) => root.querySelector(sel);

let engine = null;
let levels = ["easy"];
let S = null; // the engine's latest state
let saveText = null; // the session as text, from the engine's last change (see persist)
let shownTrick = null; // the trick drawn on the table (may be a completed one)
let pendingHand = null; // a scored hand waiting for Continue
let busy = false; // computer players / animations in progress
let gen = 0; // bumps when a match is replaced, so stale loops stop
let view = null; // while a finished hand is on show: the table as it ended (see endView)
const settings = loadSettings();

// ---------------------------------------------------------------- settings

function loadSettings() {
  let s = {};
  try {
    s = JSON.parse(localStorage.getItem(SETTINGS_KEY) || "{}") || {};
  } catch {
    s = {};
  }
  return {
    speed: s.speed in SPEEDS ? s.speed : "normal",
    fourColour: Boolean(s.fourColour),
    lang: typeof s.lang === "string" ? s.lang : null,
  };
}

function saveSettings() {
  try {
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
  } catch {
    /* storage unavailable: settings last for this visit */
  }
}

function urlSpeed() {
  const v = params.get("speed");
  if (v === null) return null;
  if (v === "0" || v === "instant") return "instant";
  if (v in SPEEDS) return v;
  if (v === "1") return "fast";
  return null;
}

function reducedMotion() {
  return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

function timing() {
  const sp = SPEEDS[urlSpeed() || settings.speed] || SPEEDS.normal;
  return reducedMotion() ? { ...sp, move: 0 } : sp;
}

function sleep(ms) {
  return ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve();
}

function defaultLevel() {
  return levels.includes("normal") ? "normal" : levels[0];
}

function hintLevel() {
  if (levels.includes("normal")) return "normal";
  if (levels.includes("hard")) return "hard";
  return levels[levels.length - 1];
}

function urlLevel(name) {
  const v = params.get(name);
  return v && levels.includes(v) ? v : null;
}

// ---------------------------------------------------------------- messages

// Announcements go to the polite live region #live (focus never moves for them).
// Messages that arrive together (a play and the trick it completes, a computer
// player's moves at instant speed) are joined into one, so none is lost.
let liveTimer = null;
let livePending = [];
function announce(text) {
  if (!text) return;
  const live = $("#live");
  livePending.push(text);
  if (liveTimer !== null) return; // joins the batch already waiting
  live.textContent = ""; // a gap lets screen readers notice a repeated message
  liveTimer = setTimeout(() => {
    live.textContent = livePending.join(" ");
    livePending = [];
    liveTimer = null;
  }, 60);
}

function bidText(seat, bid) {
  return seat === HUMAN
    ? t("announce.youBid", { bid: table.bidName(bid) })
    : t("announce.bid", { name: table.seatName(seat), bid: table.bidName(bid) });
}

function playText(seat, card) {
  return seat === HUMAN
    ? t("announce.youPlay", { card: table.cardName(card) })
    : t("announce.play", { name: table.seatName(seat), card: table.cardName(card) });
}

function trickText(winner) {
  return winner === HUMAN ? t("announce.youTrick") : t("announce.trick", { name: table.seatName(winner) });
}

/** What the computer players did (engine events), as one announcement. */
function eventsText(events) {
  const parts = [];
  for (const ev of events) {
    if (ev.kind === "bid") {
      parts.push(bidText(ev.seat, ev.bid));
    } else if (ev.kind === "play") {
      parts.push(playText(ev.seat, ev.card));
      if (ev.trick && ev.trick.winner !== null && ev.trick.winner !== undefined) {
        parts.push(trickText(ev.trick.winner));
      }
    }
  }
  return parts.join(" ");
}

function showMessage(text, kind = "info") {
  const box = $("[data-role='message']");
  box.textContent = text;
  box.dataset.kind = kind;
}

function errorText(err) {
  const code = err && err.code;
  const key = `error.${code}`;
  return code && has(key) ? t(key) : t("error.unknown");
}

function refuse(err) {
  const text = errorText(err);
  showMessage(text, "error");
  announce(text);
}

function persist() {
  if (!S || !saveText) return;
  try {
    localStorage.setItem(SAVE_KEY, saveText);
    if (pendingHand) localStorage.setItem(PENDING_KEY, String(pendingHand.number));
    else localStorage.removeItem(PENDING_KEY);
  } catch {
    showMessage(t("save.storageFull"), "error");
  }
}

function turnText() {
  if (!S) return "";
  if (S.phase === "over") return t("announce.over", { result: S.winner === 0 ? t("over.won") : t("over.lost") });
  if (S.to_act === HUMAN) {
    if (S.phase === "bid") return t("turn.youBid");
    return S.trick && S.trick.plays.length ? t("turn.youPlay") : t("turn.youLead");
  }
  return t("turn.other", { name: table.seatName(S.to_act) });
}

// ---------------------------------------------------------------- render

function setPhase(phase) {
  document.body.dataset.phase = phase;
}

// The table at the end of a scored hand (the engine has already dealt the next one):
// empty hands, that hand's bids and tricks, from the engine's score-sheet row.
function endView(row) {
  return {
    ...S, phase: S.phase === "over" ? "over" : "play", to_act: null, hand: [], legal_cards: [], legal_bids: [],
    cards_left: [0, 0, 0, 0], bids: row.bids, tricks_won: row.tricks, dealer: row.dealer,
    hand_number: row.number, trick: null,
  };
}

function render() {
  if (!S) return;
  const V = view || S;
  setPhase(V.phase === "over" ? "over" : V.phase);
  const interactive = !busy && !pendingHand && !view;
  table.renderScores(V);
  table.renderSeats(V, busy);
  table.renderTrick(shownTrick);
  table.renderHand(V, interactive);
  table.renderBidPanel(V, interactive);
  table.renderOver(V);
  $("#loading-panel").hidden = true;
  const myTurn = interactive && S.phase !== "over" && S.to_act === HUMAN;
  $("[data-action='hint']").disabled = !myTurn;
  $("[data-action='undo']").disabled = busy || S.phase === "over";
  $("[data-action='last-trick']").disabled = false;
  for (const b of document.querySelectorAll("[data-action='scores']")) b.disabled = false;
}

function afterTurnMessage() {
  if (!S || busy || pendingHand) return;
  const text = turnText();
  showMessage(text, S.to_act === HUMAN ? "turn" : "info");
  announce(text);
  restoreFocus();
}

// After the player's own card or bid, focus waits on the hand (the control used is
// gone or disabled); when it is their turn again, it goes to the hand's playable card
// or to the bids. It only moves from such a waiting place (the hand, or nowhere):
// focus the player put elsewhere (menu, dialogs) is never taken.
let userActed = false;
function focusParked() {
  const active = document.activeElement;
  return !active || active === document.body || active === $("#hand") ||
    (active.matches && active.matches("button:disabled, [hidden] *"));
}

function restoreFocus() {
  if (!userActed || !S || S.to_act !== HUMAN || busy || pendingHand || view) return;
  if (document.querySelector("dialog[open]")) return;
  if (!focusParked()) return;
  if (S.phase === "play") table.focusHand();
  else if (S.phase === "bid") table.focusBids();
}

// ---------------------------------------------------------------- engine calls

async function startMatch(opts) {
  const myGen = ++gen;
  busy = false;
  closeDialogs();
  const args = {
    partner: opts.partner || urlLevel("partner") || defaultLevel(),
    opponents: opts.opponents || urlLevel("opponents") || defaultLevel(),
  };
  if (opts.seed !== undefined && opts.seed !== null && String(opts.seed).trim() !== "") {
    args.seed = String(opts.seed).trim();
  }
  let st;
  try {
    st = await engine.call("new_match", args);
  } catch (err) {
    refuse(err);
    return;
  }
  if (myGen !== gen) return;
  adopt(st, t("announce.newMatch"));
  runBots();
}

/** Take a fresh state from the engine (new match, undo): no hand on show, saved, drawn, announced. */
function adopt(st, message) {
  S = st;
  shownTrick = S.trick;
  pendingHand = null;
  view = null;
  persist();
  table.clearHint();
  render();
  showMessage(message);
  announce(message);
}

async function resumeSaved(text) {
  const myGen = ++gen;
  const st = await engine.call("resume", { save: text });
  if (myGen !== gen) return;
  S = st;
  shownTrick = S.trick;
  pendingHand = null;
  view = null;
  let pendingNo = null;
  try {
    pendingNo = Number(localStorage.getItem(PENDING_KEY));
  } catch {
    pendingNo = null;
  }
  render();
  announce(t("announce.resumed"));
  if (pendingNo && S.sheet.length && S.sheet[S.sheet.length - 1].number === pendingNo && S.phase !== "over") {
    view = endView(S.sheet[S.sheet.length - 1]);
    pauseForHand(S.sheet[S.sheet.length - 1]);
    return;
  }
  if (S.phase !== "over" && S.to_act !== HUMAN) runBots();
  else afterTurnMessage();
}

async function humanBid(n) {
  if (busy || !S || pendingHand) return;
  userActed = true;
  table.clearHint();
  let st;
  try {
    st = await engine.call("bid", { n });
  } catch (err) {
    refuse(err);
    return;
  }
  S = st;
  shownTrick = S.trick;
  const bidFocused = $("#bid-panel").contains(document.activeElement);
  persist();
  render();
  // the bid buttons are now disabled (or hidden): focus waits on the hand
  if (bidFocused) table.focusHand();
  announce(bidText(HUMAN, n));
  runBots();
}

async function humanPlay(card) {
  if (busy || !S || pendingHand) return;
  userActed = true;
  table.clearHint();
  const myGen = gen;
  const from = table.handCardRect(card);
  const before = S;
  let st;
  busy = true;
  try {
    st = await engine.call("play", { card });
  } catch (err) {
    busy = false;
    render();
    refuse(err);
    return;
  }
  if (myGen !== gen) return;
  S = st;
  const handDone = S.sheet.length > before.sheet.length;
  let completed = null;
  if (handDone) {
    try {
      const rec = await engine.call("hand", { number: S.sheet.length });
      completed = rec.tricks[rec.tricks.length - 1];
    } catch {
      completed = null;
    }
  } else if (!S.trick) {
    completed = S.last_trick;
  }
  if (handDone) {
    pendingHand = S.sheet[S.sheet.length - 1];
    view = endView(pendingHand);
  }
  persist();
  showMessage("");
  try {
    await showPlay(HUMAN, card, completed, from, myGen);
  } finally {
    if (myGen === gen) busy = false;
  }
  if (myGen !== gen) return;
  if (handDone) {
    pauseForHand(pendingHand);
    return;
  }
  render();
  runBots();
}

// Show one card being played; if it completed a trick, show the trick, then sweep it away.
async function showPlay(seat, card, completed, fromRect, myGen) {
  const tm = timing();
  shownTrick = completed || S.trick;
  // draw the table around the new trick (hand shrinks, counts update)
  const keep = busy;
  busy = true;
  render();
  busy = keep;
  announce(playText(seat, card));
  await table.animatePlay(seat, fromRect, tm.move);
  if (completed && completed.winner !== null && completed.winner !== undefined) {
    const msg = trickText(completed.winner);
    showMessage(msg);
    announce(msg);
    await sleep(tm.pause);
    if (myGen !== gen) return;
    await table.animateCollect(completed.winner, tm.move);
    if (myGen !== gen) return;
    shownTrick = S.trick;
    table.renderTrick(shownTrick);
  }
}

async function showEvent(ev, myGen) {
  if (ev.kind === "bid") {
    const msg = bidText(ev.seat, ev.bid);
    showMessage(msg);
    announce(msg);
    render();
    return;
  }
  await showPlay(ev.seat, ev.card, ev.trick || null, null, myGen);
}

// Computer players act until it's the human's turn, a hand is scored, or the match ends.
async function runBots() {
  if (!S) return;
  const myGen = gen;
  busy = true;
  render();
  try {
    while (S && S.phase !== "over" && S.to_act !== HUMAN && S.to_act !== null) {
      const tm = timing();
      if (tm.think === 0 && tm.move === 0 && tm.pause === 0) {
        const r = await engine.call("run_bots");
        if (myGen !== gen) return;
        const handEv = r.events.find((e) => e.hand);
        S = r.state;
        shownTrick = S.trick;
        if (handEv) {
          announce(eventsText(r.events.slice(0, r.events.indexOf(handEv) + 1)));
          pendingHand = handEv.hand;
          view = endView(handEv.hand);
          // the next hand may already have started: show the scored hand's row
          persist();
          busy = false;
          pauseForHand(handEv.hand);
          return;
        }
        persist();
        // nothing was animated: say what each computer player did
        announce(eventsText(r.events));
        break;
      }
      render();
      await sleep(tm.think);
      if (myGen !== gen) return;
      const r = await engine.call("bot_step");
      if (myGen !== gen) return;
      S = r.state;
      if (r.event.hand) {
        pendingHand = r.event.hand;
        view = endView(r.event.hand);
      }
      persist();
      await showEvent(r.event, myGen);
      if (myGen !== gen) return;
      if (r.event.hand) {
        busy = false;
        pauseForHand(r.event.hand);
        return;
      }
    }
  } catch (err) {
    if (myGen !== gen) return;
    refuse(err);
  }
  if (myGen !== gen) return;
  busy = false;
  render();
  afterTurnMessage();
}

// ---------------------------------------------------------------- score sheet

let sheetSelected = null;

function fillSheet(selectedNumber, afterHand) {
  const body = $("[data-role='sheet-body']");
  body.replaceChildren();
  const sheet = S ? S.sheet : [];
  if (!sheet.length) {
    const p = document.createElement("p");
    p.textContent = t("sheet.empty");
    body.appendChild(p);
    return;
  }
  const row = sheet.find((r) => r.number === selectedNumber) || sheet[sheet.length - 1];
  sheetSelected = row.number;
  const dealer = document.createElement("p");
  dealer.className = "muted small";
  dealer.textContent = t("sheet.dealer", { name: table.seatName(row.dealer) });
  body.appendChild(table.breakdownTable(row));
  body.appendChild(dealer);
  const exportBtn = document.createElement("button");
  exportBtn.type = "button";
  exportBtn.dataset.action = "export-hand";
  exportBtn.textContent = t("sheet.export");
  exportBtn.addEventListener("click", () => exportHand(row.number, exportBtn));
  body.appendChild(exportBtn);
  body.appendChild(
    table.historyTable(sheet, row.number, (n) => {
      fillSheet(n, afterHand);
      const btn = $(`[data-role='sheet-body'] .history tr.selected button`);
      if (btn) btn.focus();
    }),
  );
  $("#sheet-title").textContent = afterHand ? t("sheet.handTitle", { n: row.number }) : t("sheet.title");
}

/** Show a completed hand in hand notation, with a link that opens it in the hand viewer. */
async function exportHand(number, btn) {
  let out;
  try {
    out = await engine.call("export", { number });
  } catch (err) {
    refuse(err);
    return;
  }
  const box = document.createElement("div");
  box.className = "export";
  const label = document.createElement("label");
  label.textContent = t("sheet.exportLabel");
  const area = document.createElement("textarea");
  area.readOnly = true;
  area.rows = 9;
  area.value = out.text;
  area.dataset.role = "export-text";
  label.appendChild(area);
  const link = document.createElement("a");
  link.href = `viewer.html?hand=${encodeURIComponent(out.text)}`;
  link.target = "_blank";
  link.rel = "noopener";
  link.dataset.role = "export-link";
  link.textContent = t("sheet.openViewer");
  box.append(label, link);
  btn.replaceWith(box);
  area.focus();
  area.select();
}

// ---------------------------------------------------------------- dialogs

// Modal dialogs: the page behind is inert, Tab cycles inside, Escape closes (native
// `cancel`), and on closing focus goes back to the control that opened the dialog (or,
// when that is gone, to the hand / bids).
const openers = new WeakMap();

function showDialog(dlg, focusEl) {
  if (!dlg.open) {
    const active = document.activeElement;
    openers.set(dlg, active && active !== document.body && !active.closest("dialog") ? active : null);
    dlg.showModal();
  }
  if (focusEl) focusEl.focus();
}

function focusable(el) {
  return el && el.isConnected && !el.disabled && !el.closest("[hidden]") && el.getClientRects().length > 0;
}

function onDialogClosed(dlg) {
  const opener = openers.get(dlg);
  openers.delete(dlg);
  setTimeout(() => {
    if (document.querySelector("dialog[open]")) return;
    if (!focusParked() && !dlg.contains(document.activeElement)) return;
    if (focusable(opener)) {
      opener.focus({ preventScroll: true });
      // a card or bid that can no longer be used: fall back to the hand / bids
      if (opener.closest("#hand, #bid-panel") && !opener.matches(":enabled, #hand")) table.focusHand();
    } else if (S && S.to_act === HUMAN && S.phase === "bid" && !pendingHand && table.focusBids()) {
      /* focused the bids */
    } else {
      table.focusHand();
    }
    restoreFocus();
  }, 0);
}

function trapTab(dlg, ev) {
  if (ev.key !== "Tab") return;
  const items = [...dlg.querySelectorAll("button, [href], input, select, textarea, [tabindex]")]
    .filter((el) => el.tabIndex >= 0 && focusable(el) && !(el.type === "radio" && !el.checked && el.name &&
      dlg.querySelector(`input[type="radio"][name="${el.name}"]:checked`)));
  if (!items.length) return;
  const first = items[0];
  const last = items[items.length - 1];
  if (ev.shiftKey && document.activeElement === first) {
    ev.preventDefault();
    last.focus();
  } else if (!ev.shiftKey && document.activeElement === last) {
    ev.preventDefault();
    first.focus();
  }
}

function openSheet(afterHand) {
  const dlg = $("#sheet-dialog");
  fillSheet(afterHand && pendingHand ? pendingHand.number : null, afterHand);
  $("[data-action='continue']", dlg).hidden = !afterHand;
  $("[data-action='close-sheet']", dlg).hidden = Boolean(afterHand);
  const focus = afterHand ? $("[data-action='continue']", dlg) : $("[data-action='close-sheet']", dlg);
  showDialog(dlg, focus);
}

function pauseForHand(row) {
  pendingHand = row;
  persist();
  render();
  const team = row.teams;
  const msg = t("announce.hand", { n: row.number, us: team[0].score_after, them: team[1].score_after });
  showMessage(msg);
  announce(msg);
  if (S.phase === "over") {
    // the end screen takes over; the sheet stays available from its button
    pendingHand = null;
    view = null;
    persist();
    render();
    afterTurnMessage();
    return;
  }
  openSheet(true);
}

function continueAfterHand() {
  userActed = true;
  const dlg = $("#sheet-dialog");
  if (dlg.open) dlg.close();
  if (!pendingHand) return;
  pendingHand = null;
  view = null;
  persist();
  shownTrick = S.trick;
  render();
  announce(t("announce.newHand", { n: S.hand_number, dealer: table.seatName(S.dealer) }));
  if (S.phase !== "over" && S.to_act !== HUMAN) runBots();
  else afterTurnMessage();
}

// ---------------------------------------------------------------- tools

async function doHint() {
  if (busy || !S || S.to_act !== HUMAN) return;
  try {
    const r = await engine.call("hint", { level: hintLevel() });
    const level = t(`level.${r.level}`);
    table.markHint(r.action);
    const msg = "card" in r.action
      ? t("hint.card", { level, card: table.cardName(r.action.card) })
      : t("hint.bid", { level, bid: table.bidName(r.action.bid) });
    showMessage(msg, "hint");
    announce(msg);
  } catch (err) {
    refuse(err);
  }
}

async function doUndo() {
  if (!S || busy) return;
  const myGen = ++gen;
  let st;
  try {
    st = await engine.call("undo");
  } catch (err) {
    gen = myGen; // nothing changed
    refuse(err);
    return;
  }
  if (myGen !== gen) return;
  closeDialogs();
  busy = false;
  adopt(st, t("announce.undone"));
  if (S.phase !== "over" && S.to_act !== HUMAN) runBots();
}

function showLastTrick() {
  const dlg = $("#trick-dialog");
  const body = $("[data-role='trick-body']", dlg);
  body.replaceChildren(table.trickView(S ? S.last_trick : null));
  showDialog(dlg, $("[data-action='close-trick']", dlg));
}

function closeDialogs() {
  for (const d of document.querySelectorAll("dialog[open]")) d.close();
}

function fillLevelSelect(select, value) {
  select.replaceChildren();
  for (const lv of levels) {
    const o = document.createElement("option");
    o.value = lv;
    o.textContent = has(`level.${lv}`) ? t(`level.${lv}`) : lv;
    select.appendChild(o);
  }
  select.value = levels.includes(value) ? value : defaultLevel();
}

function openNewMatch(notice) {
  const dlg = $("#new-dialog");
  fillLevelSelect($("#new-partner"), (S && S.levels.partner) || urlLevel("partner") || defaultLevel());
  fillLevelSelect($("#new-opponents"), (S && S.levels.opponents) || urlLevel("opponents") || defaultLevel());
  $("#new-seed").value = "";
  const n = $("[data-role='new-notice']", dlg);
  n.hidden = !notice;
  n.textContent = notice || "";
  $("[data-role='new-confirm']", dlg).hidden = !(S && S.phase !== "over");
  const opener = document.activeElement;
  closeDialogs();
  if (opener && opener !== document.body && !opener.closest("dialog")) opener.focus({ preventScroll: true });
  showDialog(dlg, $("[data-action='start-match']", dlg));
}

function openSettings() {
  const dlg = $("#settings-dialog");
  fillSettings();
  showDialog(dlg, dlg.querySelector("input[name='speed']:checked") || $("#four-colour"));
}

function fillSettings() {
  const dlg = $("#settings-dialog");
  for (const r of dlg.querySelectorAll("input[name='speed']")) r.checked = r.value === settings.speed;
  $("#four-colour").checked = settings.fourColour;
  const sel = $("#lang-select");
  sel.replaceChildren();
  for (const [code, name] of Object.entries(LANGUAGES)) {
    const o = document.createElement("option");
    o.value = code;
    o.textContent = name;
    o.lang = code;
    sel.appendChild(o);
  }
  sel.value = currentLanguage();
  $("[data-role='levels-info']", dlg).textContent = S
    ? t("settings.levels", { partner: t(`level.${S.levels.partner}`), opponents: t(`level.${S.levels.opponents}`) })
    : "";
}

function applyDeck() {
  document.body.classList.toggle("four-colour", settings.fourColour);
}

async function applyLanguage(code) {
  await loadLanguage(code);
  applyStatic();
  const link = $("[data-role='rules-link']");
  link.setAttribute("href", `rules/${currentLanguage()}.html`);
  document.title = t("app.title");
  table.buildBidButtons(humanBid);
  if (S) render();
}

// ---------------------------------------------------------------- wiring

function wire() {
  table.initHand({
    onPlay: humanPlay,
    onRefused: async (card) => {
      // a disabled (not playable) card was tapped: let the engine say why
      if (!engine || !S || busy || pendingHand) return;
      try {
        const st = await engine.call("play", { card });
        // the engine accepted it after all (should not happen): follow the state
        S = st;
        shownTrick = S.trick || S.last_trick;
        persist();
        render();
        runBots();
      } catch (err) {
        refuse(err);
      }
    },
  });
  document.addEventListener("click", (ev) => {
    const btn = ev.target.closest("[data-action]");
    if (!btn || btn.disabled) return;
    switch (btn.dataset.action) {
      case "hint": doHint(); break;
      case "undo": doUndo(); break;
      case "last-trick": showLastTrick(); break;
      case "scores": openSheet(false); break;
      case "settings": openSettings(); break;
      case "new-match": if (engine && levels.length) openNewMatch(null); break;
      case "continue": continueAfterHand(); break;
      case "close-sheet": $("#sheet-dialog").close(); break;
      case "close-trick": $("#trick-dialog").close(); break;
      case "cancel-new": $("#new-dialog").close(); break;
      default: break;
    }
  });
  for (const dlg of document.querySelectorAll("dialog")) {
    dlg.addEventListener("close", () => onDialogClosed(dlg));
    dlg.addEventListener("keydown", (ev) => trapTab(dlg, ev));
  }
  // Escape on the after-hand sheet means Continue
  $("#sheet-dialog").addEventListener("cancel", (ev) => {
    if (pendingHand) {
      ev.preventDefault();
      continueAfterHand();
    }
  });
  $("#new-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const f = ev.target;
    $("#new-dialog").close();
    startMatch({ partner: f.partner.value, opponents: f.opponents.value, seed: f.seed.value });
  });
  const sd = $("#settings-dialog");
  sd.addEventListener("change", async (ev) => {
    const el = ev.target;
    if (el.name === "speed") settings.speed = el.value;
    else if (el.name === "fourColour") {
      settings.fourColour = el.checked;
      applyDeck();
    } else if (el.name === "lang") {
      settings.lang = el.value;
      await applyLanguage(el.value);
      openSettingsRefresh();
    }
    saveSettings();
  });
}

// after a language change the open dialog is re-filled in place (focus stays on the select)
function openSettingsRefresh() {
  if ($("#settings-dialog").open) fillSettings();
}

// The worker reports coarse stages; between reports the bar creeps toward the
// stage's end so the page never looks frozen.
const STAGES = { runtime: [0, 70], micropip: [70, 10], engine: [80, 20], ready: [100, 0] };
let progressStage = "runtime";
let progressPct = 0;
let creepTimer = null;

function showProgress() {
  $("#progress").value = progressPct;
  const key = progressStage === "ready" ? "loading.ready" : `loading.${progressStage}`;
  $("[data-role='loading-text']").textContent = has(key) ? t(key, { percent: Math.round(progressPct) }) : "";
}

function onProgress({ stage, fraction }) {
  const [base, span] = STAGES[stage] || [0, 0];
  progressStage = stage in STAGES ? stage : progressStage;
  progressPct = Math.max(progressPct, base + span * (fraction || 0));
  if (stage === "ready") {
    clearInterval(creepTimer);
    progressPct = 100;
  } else if (!creepTimer) {
    creepTimer = setInterval(() => {
      const [b, sp] = STAGES[progressStage] || [0, 0];
      const cap = b + sp * 0.92;
      if (progressPct < cap) {
        progressPct = Math.min(cap, progressPct + Math.max(0.2, (cap - progressPct) * 0.04));
        showProgress();
      }
    }, 150);
  }
  showProgress();
}

async function main() {
  // Boot Python first: language, deck and table set-up all overlap the runtime's download.
  engine = startEngine({ onProgress, onSave: (text) => { saveText = text; } });
  document.body.classList.toggle("embed", EMBED);
  document.body.classList.toggle("compact", EMBED || params.get("compact") === "1");
  applyDeck();
  const wish = params.get("lang") || settings.lang;
  try {
    await applyLanguage(pickLanguage(wish));
  } catch {
    /* English text from the HTML stays */
  }
  registerServiceWorker({
    labels: { message: t("update.ready"), reload: t("update.reload"), dismiss: t("update.dismiss") },
  });
  wire();
  setPhase("loading");
  table.renderSeats(null, false);
  table.renderScores(null); // "0 bags" etc. in the page's language while Python loads
  onProgress({ stage: "runtime", fraction: 0 });
  try {
    await engine.ready;
    const hello = await engine.call("hello");
    if (Array.isArray(hello.levels) && hello.levels.length) levels = hello.levels;
  } catch (err) {
    clearInterval(creepTimer);
    const text = t("loading.failed");
    $("[data-role='loading-text']").textContent = text;
    showMessage(text, "error");
    announce(text);
    engine = null;
    return;
  }

  if (params.has("seed")) {
    const seed = params.get("seed");
    // a reload should resume this match, not deal it again
    const url = new URL(location.href);
    url.searchParams.delete("seed");
    history.replaceState(null, "", url.pathname + url.search + url.hash);
    await startMatch({ seed });
    return;
  }
  let saved = null;
  try {
    saved = localStorage.getItem(SAVE_KEY);
  } catch {
    saved = null;
  }
  if (saved) {
    try {
      await resumeSaved(saved);
      return;
    } catch (err) {
      const code = err && err.code;
      const reason = has(`save.${code}`) ? t(`save.${code}`) : t("save.internal");
      const text = `${t("save.failed", { reason })} ${t("save.offer")}`;
      try {
        localStorage.removeItem(SAVE_KEY);
        localStorage.removeItem(PENDING_KEY);
      } catch {
        /* ignore */
      }
      $("[data-role='loading-text']").textContent = t("loading.choose");
      showMessage(text, "error");
      announce(text);
      openNewMatch(text);
      return;
    }
  }
  await startMatch({});
}

main();
