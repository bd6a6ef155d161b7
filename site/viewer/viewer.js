// viewer.js: the hand viewer. Loads a hand (or a whole match) through the engine's
// `review {text}` message, then steps through the deal, the bids, every card and the
// score, in the page's language (?lang=, else the game's setting, else the browser's).
//
// Input: ?hand=<url-encoded text>  or  ?src=<relative URL of a file on this site>
//        or the paste box / file picker. #step=N (and #hand=K) pick a position.
// Keys:  ← / → step, Home / End jump (when focus is not in a text field).
import { startEngine } from "../engine/engine.js";
import { applyStatic, has, loadLanguage, pickLanguage, t } from "../lib/i18n.js";
import { loadSettings } from "../lib/settings.js";
import { BOOT_ERROR, MSG } from "../engine/protocol.js";
import { registerOffline } from "../lib/offline.js";
import { buildSteps, caption, describe, positionAt, seatName } from "../lib/steps.js";
import { cardNode, drawSeat } from "../lib/seat-view.js";
import { drawScore } from "./score.js";
import { SEATS } from "../lib/constants.js";
import { afterDraw, firstPuzzle, handShown, quizLimit, readQuery, wireAnalyse } from "./analyse.js";
import { rulesLine } from "../lib/rules-words.js";
import { setDeck } from "../lib/words.js";
import { byId } from "../lib/dom.js";
import { ERROR_TEXTS, errorText } from "../lib/errors.js";
import { flowHeight, reportFrameSize } from "../lib/frame-size.js";


// ------------------------------------------------------------------ helpers

function showError(message, detail) {
  const box = byId("error");
  box.textContent = message;
  if (detail) {
    const more = document.createElement("span");
    more.className = "detail";
    more.lang = "en"; // the engine's own wording, for the curious
    more.textContent = ` ${t("viewer.error.detail", { detail })}`;
    box.appendChild(more);
  }
  box.hidden = false;
}

/** How long a failure reported during start-up waits for the page's language to load (ms). */
const LANGUAGE_WAIT_MS = 3000;

/** The engine could not start or stopped answering (any page's fault, when it is shared): say so,
 * with a Reload button. */
async function engineFailed(code, languageReady) {
  await Promise.race([languageReady, new Promise((resolve) => setTimeout(resolve, LANGUAGE_WAIT_MS))]);
  const key = code === BOOT_ERROR ? "viewer.status.bootFailed" : "viewer.status.stopped";
  setStatus(key, "error");
  showError(t(key));
  const reload = document.createElement("button");
  reload.type = "button";
  reload.className = "fault-reload";
  reload.dataset.role = "fault-reload";
  reload.textContent = t("fault.reload");
  reload.addEventListener("click", () => location.reload());
  byId("error").append(" ", reload);
  document.body.dataset.engine = "failed";
}

function clearError() {
  byId("error").textContent = "";
  byId("error").hidden = true;
}

function setStatus(key, state) {
  byId("status").textContent = t(key);
  byId("status").dataset.state = state;
}

/** Draw position `v.step` of hand `v.index`. `v` is the viewer's one state object. */
function draw(v) {
  const rec = v.hands[v.index];
  const { steps, step } = v;
  const pos = positionAt(rec, steps, step, v.order);
  const s = steps[step];
  const nextStep = steps[step + 1];
  const toAct = nextStep && nextStep.kind !== "score" ? nextStep.seat : null;
  for (let seat = 0; seat < SEATS; seat++) drawSeat(rec, seat, pos, toAct);
  for (const slot of document.querySelectorAll("#trick .slot")) {
    slot.textContent = "";
    slot.classList.remove("winner");
  }
  if (pos.trick && s.kind === "play") {
    for (const [seat, card] of pos.trick.plays) {
      const slot = document.querySelector(`#trick .slot[data-slot="${seat}"]`);
      slot.appendChild(cardNode(card));
      if (pos.trick.winner === seat) slot.classList.add("winner");
    }
  }
  const lastStep = steps.length - 1;
  byId("caption").textContent = caption(rec, steps, step, pos);
  byId("counter").textContent = t("viewer.counter", { n: step, total: lastStep });
  byId("first").disabled = byId("prev").disabled = step === 0;
  byId("next").disabled = byId("last").disabled = step === lastStep;
  byId("announce").textContent = describe(rec, steps, step);
  document.body.dataset.step = String(step);
  document.body.dataset.steps = String(lastStep);
  if (step === lastStep && rec.scores) drawScore(rec);
  else byId("score").hidden = true;
  const hash = v.hands.length > 1 ? `#hand=${v.index + 1}&step=${step}` : `#step=${step}`;
  if (location.hash !== hash) history.replaceState(null, "", hash);
  afterDraw(v);
}

const clamp = (k, list) => Math.max(0, Math.min(list.length - 1, k));

function go(v, k, redraw = false) {
  const target = quizLimit(v, v.step, clamp(k, v.steps));
  if (!redraw && target === v.step && document.body.dataset.step === String(v.step)) return;
  v.step = target;
  draw(v);
}

/** Show hand `index` at `startStep` (null: at its first puzzle when it has some, else at the deal). */
function selectHand(v, index, startStep = null) {
  v.index = clamp(index, v.hands);
  v.steps = buildSteps(v.hands[v.index]);
  const start = startStep === null ? firstPuzzle(v) ?? 0 : startStep;
  v.step = quizLimit(v, 0, clamp(start, v.steps));
  byId("hand-select").value = String(v.index);
  draw(v);
  handShown(v); // after the drawing: a puzzle's analysis is asked first, and the review awaits it
}

// ------------------------------------------------------------------ loading

/** Show `text` (any form `review` reads); false when the engine refused it (reason shown).
 * `asked`: the engine's review of `text` already asked for (null: asked here). */
async function show(v, text, { keepHash = false, asked = null } = {}) {
  clearError();
  if (!text || !text.trim()) {
    showError(t("viewer.error.empty"));
    return false;
  }
  setStatus("viewer.status.reading", "busy");
  let result;
  try {
    result = await (asked || v.engine.call(MSG.REVIEW, { text }));
  } catch (err) {
    const code = (err && err.code) || "unknown";
    setStatus("viewer.status.failed", "error");
    showError(errorText(err, ERROR_TEXTS.viewer), err && err.message);
    document.body.dataset.error = code;
    return false;
  }
  delete document.body.dataset.error;
  if (!result.hands || !result.hands.length) {
    setStatus("viewer.status.failed", "error");
    showError(t("viewer.error.noHands"));
    return false;
  }
  v.hands = result.hands;
  v.text = text;
  // the hand's house rules (1.0.0 when absent): named above the table, its deck's cards named and sorted
  setDeck(result.rules ? result.rules.deck : null);
  v.order = Array.isArray(result.order) ? result.order : null;
  byId("rules-line").textContent = rulesLine(result.rules || null);
  v.caches = new Map();
  const select = byId("hand-select");
  select.textContent = "";
  v.hands.forEach((rec, i) => {
    const opt = document.createElement("option");
    opt.value = String(i);
    opt.textContent = t(rec.scores ? "viewer.handOption" : "viewer.handUnfinished", { n: rec.number, name: seatName(rec.dealer) });
    select.appendChild(opt);
  });
  byId("hand-pick").hidden = v.hands.length < 2;
  const kind = has(`viewer.source.${result.source}`) ? result.source : "notation";
  byId("source-kind").textContent = t(`viewer.source.${kind}`, { n: v.hands.length });
  byId("viewer").hidden = false;
  const params = keepHash ? new URLSearchParams(location.hash.replace(/^#/, "")) : new URLSearchParams();
  const want = Number.parseInt(params.get("hand") || "1", 10) - 1;
  const at = params.has("step") ? Number.parseInt(params.get("step"), 10) : null;
  selectHand(v, Number.isFinite(want) ? want : 0, Number.isFinite(at) ? at : null);
  setStatus("viewer.status.ready", "ready");
  document.body.dataset.ready = "1";
  return true;
}

/** The text the address asks for: {text}, {error} (already translated) or null. */
async function fromQuery() {
  const query = new URLSearchParams(location.search);
  if (query.has("hand")) return { text: query.get("hand") };
  if (!query.has("src")) return null;
  const src = query.get("src");
  const url = new URL(src, location.href);
  if (url.origin !== location.origin) return { error: t("viewer.error.foreign") };
  try {
    const resp = await fetch(url);
    if (!resp.ok) return { error: t("viewer.error.http", { src, status: String(resp.status) }) };
    return { text: await resp.text() };
  } catch {
    return { error: t("viewer.error.offline", { src }) };
  }
}

const inTextField = (target) => target && target.closest("textarea, input, select, [contenteditable='true']") !== null;

function wire(v) {
  byId("first").addEventListener("click", () => go(v, 0));
  byId("prev").addEventListener("click", () => go(v, v.step - 1));
  byId("next").addEventListener("click", () => go(v, v.step + 1));
  byId("last").addEventListener("click", () => go(v, v.steps.length - 1));
  byId("hand-select").addEventListener("change", (e) => selectHand(v, Number(e.target.value)));
  document.addEventListener("keydown", (e) => {
    if (byId("viewer").hidden || inTextField(e.target) || e.altKey || e.ctrlKey || e.metaKey) return;
    const moves = { ArrowRight: v.step + 1, ArrowLeft: v.step - 1, Home: 0, End: v.steps.length - 1 };
    if (e.key in moves) {
      e.preventDefault();
      go(v, moves[e.key]);
    }
  });
  byId("load-form").addEventListener("submit", (e) => {
    e.preventDefault();
    if (v.ready) show(v, byId("source").value);
  });
  byId("file").addEventListener("change", async (e) => {
    const file = e.target.files && e.target.files[0];
    if (!file) return;
    const text = await file.text();
    byId("source").value = text;
    if (v.ready) show(v, text);
  });
}

async function main() {
  let languageLoaded = () => {};
  const languageReady = new Promise((resolve) => { languageLoaded = resolve; });
  const engine = startEngine({
    onProgress: ({ stage }) => {
      if (has(`viewer.loading.${stage}`)) setStatus(`viewer.loading.${stage}`, "loading");
    },
    onFail: (code) => engineFailed(code, languageReady),
  });
  const wish = readQuery(new URLSearchParams(location.search));
  const v = { engine, ready: false, hands: [], order: null, index: 0, steps: [], step: 0, text: "", caches: new Map(),
    analyse: wish.analyse, quiz: wish.quiz, answered: new Set(), unjudged: new Set(), quizRuns: new WeakMap(), right: 0, run: null, asking: null };
  wire(v);
  wireAnalyse(v, (k, redraw) => go(v, k, redraw));
  try {
    const lang = new URLSearchParams(location.search).get("lang") || loadSettings().lang;
    await loadLanguage(pickLanguage(lang));
  } catch {
    /* English text from the HTML stays */
  }
  applyStatic();
  languageLoaded();
  document.title = t("viewer.pageTitle");
  reportFrameSize(flowHeight); // in an author's frame (embed.js), the frame follows the page's height
  // the offline cache is filled once the engine is up (or gave up), in the page's language
  engine.ready.catch(() => {}).finally(registerOffline);
  // the address's hand is asked for at once: the request waits in the engine's queue while
  // Python starts, so the hand is drawn with the engine's first answers
  const source = await fromQuery();
  const early = source && source.text && source.text.trim() ? engine.call(MSG.REVIEW, { text: source.text }) : null;
  if (early) early.catch(() => {}); // answered in show (a failed boot is shown by engineFailed)
  try {
    await engine.ready;
  } catch {
    return; // engineFailed says so
  }
  v.ready = true;
  byId("show").disabled = false;
  if (source && source.error) {
    setStatus("viewer.status.failed", "error");
    showError(source.error);
    byId("loader").open = true;
  } else if (source) {
    byId("source").value = source.text;
    if (!(await show(v, source.text, { keepHash: true, asked: early }))) byId("loader").open = true;
  } else {
    setStatus("viewer.status.idle", "ready");
    byId("loader").open = true;
  }
  document.body.dataset.engine = "ready";
}

main();
