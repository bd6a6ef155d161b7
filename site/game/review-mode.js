// review-mode.js: a reviewed decision shown on the game's own table, read only. Opened
// from "Review this hand" on the score sheet (review-panel.js): the live table and hand
// give way to the four hands as they were at that moment, the trick in progress, every
// legal card's value written on it (review.js) and the card played marked with its cost;
// Previous / Next step through the costly decisions, "Back to the game" brings the live
// table and the score sheet back as they were. Nothing here sends an action to the engine:
// the hand is read from its text with the read-only `review` message, and the drawing is
// the hand viewer's (lib/steps.js, lib/seat-view.js).
import { t } from "../lib/i18n.js";
import { MSG } from "../engine/protocol.js";
import { writeValues } from "../lib/review.js";
import { ERROR_TEXTS, errorText } from "../lib/errors.js";
import { decisionText } from "./review-panel.js";
import { buildSteps, positionAt } from "../lib/steps.js";
import { cardNode, drawSeat } from "../lib/seat-view.js";
import { SEATS } from "../lib/constants.js";
import { $, el } from "../lib/dom.js";
import { seatName } from "../lib/words.js";

/** The game's own seat names on the reviewed table (Partner, You…) and its dealer mark. */
const GAME_WORDS = { name: seatName, get dealer() { return t("seat.dealerShort"); } };

const BIDS = 4;            // viewer steps: 0 the deal, 1–4 the bids, then one a card
const ORDER = [2, 1, 3, 0]; // seats as the table shows them: partner, West, East, you


/** The review mode's section, built once inside <main> beside the live table. */
function build() {
  const box = el("section", { id: "review-mode", class: "review-mode", "aria-labelledby": "review-mode-title", hidden: "" });
  const head = el("h2", { id: "review-mode-title", tabindex: "-1" });
  const note = el("p", { class: "review-mode-note", "data-role": "review-note" }, t("review.modeNote"));
  const caption = el("p", { class: "review-mode-caption", "data-role": "review-caption", "aria-live": "polite" });
  const grid = el("div", { class: "review-mode-table" });
  for (const seat of ORDER) {
    if (seat === 0) {
      const centre = el("div", { class: "review-mode-trick", role: "group", "aria-label": t("trick.label"), "data-role": "review-trick" });
      for (const s of ORDER) centre.append(el("div", { class: `slot slot-${s}`, "data-slot": String(s) }));
      grid.append(centre);
    }
    grid.append(el("section", { class: `seat rv-seat rv-seat-${seat}`, "data-review-seat": String(seat) }));
  }
  const row = el("div", { class: "row review-mode-controls" });
  const button = (action, key) => {
    const b = el("button", { type: "button", "data-action": action }, t(key));
    row.append(b);
    return b;
  };
  const prev = button("review-prev", "review.prev");
  const next = button("review-next", "review.next");
  const back = button("review-back", "review.back");
  back.classList.add("primary");
  box.append(head, note, caption, grid, row);
  $("#main").append(box);
  return { box, head, note, caption, grid, prev, next, back };
}

/**
 * The review mode of the game page. `onLeave()` runs after "Back to the game" (the page
 * reopens its score sheet); `locked` are the live controls made inert meanwhile.
 */
export function createReviewMode({ engine, onLeave, locked }) {
  let ui = null;
  let view = null;     // {ctx, rec, steps, k, unlisten}
  const records = new Map(); // hand text → {rec, deckOrder}: its record from the engine and its deck's order

  async function record(text) {
    if (!records.has(text)) {
      const out = await engine.call(MSG.REVIEW, { text });
      records.set(text, { rec: out.hands[0], deckOrder: Array.isArray(out.order) ? out.order : null });
    }
    return records.get(text);
  }

  function draw() {
    const { ctx, rec, deckOrder, steps, k } = view;
    const focused = ui.box.contains(document.activeElement) ? document.activeElement : null;
    const step = BIDS + k;
    const pos = positionAt(rec, steps, step, deckOrder);
    const toAct = steps[step + 1].seat;
    for (let seat = 0; seat < SEATS; seat++) {
      drawSeat(rec, seat, pos, toAct, $(`[data-review-seat="${seat}"]`, ui.grid), GAME_WORDS);
    }
    for (const slot of ui.grid.querySelectorAll(".slot")) slot.replaceChildren();
    // the trick in progress (a finished trick is gone from the table when the next is led)
    if (pos.trick && pos.trick.plays.length < SEATS) {
      for (const [seat, card] of pos.trick.plays) $(`.slot[data-slot="${seat}"]`, ui.grid).append(cardNode(card));
    }
    const result = ctx.cache.get(k);
    const order = ctx.order();
    const at = order.indexOf(k);
    ui.head.textContent = t("review.modeTitle", { n: ctx.number, i: at + 1, total: order.length });
    ui.caption.textContent = result ? decisionText(k, result) : t("review.waiting");
    if (result) writeValues($(`[data-review-seat="${toAct}"]`, ui.grid), result);
    ui.prev.disabled = at <= 0;
    ui.next.disabled = at < 0 || at >= order.length - 1;
    ui.box.dataset.step = String(k);
    // a keyboard user on a button that just got disabled (the first or last decision) keeps
    // the focus in the review: on the other direction's button, else on "Back to the game"
    if (focused && (focused.disabled || !ui.box.contains(document.activeElement))) {
      (focused === ui.prev && !ui.next.disabled ? ui.next : focused === ui.next && !ui.prev.disabled ? ui.prev : ui.back).focus();
    }
  }

  function move(delta) {
    const order = view.ctx.order();
    const at = order.indexOf(view.k);
    const to = order[at + delta];
    if (to === undefined) return;
    view.k = to;
    draw();
  }

  function setLocked(on) {
    for (const node of locked()) node.inert = on;
    document.body.dataset.review = on ? "1" : "";
    if (!on) delete document.body.dataset.review;
  }

  /** Show decision `ctx.start` of the review `ctx` (see review-panel.js) on the table. */
  async function open(ctx) {
    if (!ui) {
      ui = build();
      ui.prev.addEventListener("click", () => move(-1));
      ui.next.addEventListener("click", () => move(1));
      ui.back.addEventListener("click", () => leave());
      // Escape is "Back to the game" wherever the focus is while the review is shown
      document.addEventListener("keydown", (ev) => {
        if (ev.key === "Escape" && view && !ev.defaultPrevented && !document.querySelector("dialog[open]")) {
          ev.preventDefault();
          leave();
        }
      });
    }
    let rec;
    let deckOrder;
    try {
      ({ rec, deckOrder } = await record(ctx.text));
    } catch (err) {
      ui.caption.textContent = errorText(err, ERROR_TEXTS.review);
      return;
    }
    if (view) view.unlisten();
    view = { ctx, rec, deckOrder, steps: buildSteps(rec), k: ctx.start, unlisten: ctx.listen(() => { if (view) draw(); }) };
    ui.note.textContent = `${t("review.modeNote")} ${t("review.legend")}`;
    ui.prev.textContent = t("review.prev");
    ui.next.textContent = t("review.next");
    ui.back.textContent = t("review.back");
    setLocked(true);
    ui.box.hidden = false;
    draw();
    ui.head.focus();
  }

  /** Back to the game: the live table as it was, then (unless `quiet`) the page's own continuation. */
  function leave(quiet = false) {
    if (!view) return;
    const { ctx, k } = view;
    view.unlisten();
    view = null;
    ui.box.hidden = true;
    setLocked(false);
    if (quiet !== true) onLeave(ctx.button(k));
  }

  return { open, leave, get active() { return view !== null; } };
}
