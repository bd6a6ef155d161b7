// review-panel.js: "Review this hand" on the game's score sheet. Judges every card of a
// completed hand in the engine's worker, one message per position (review.js), from the
// last card backwards, with a progress bar and Stop; shows the tricks North–South and
// East–West could make with best play against their bids, then the costliest decisions
// (the human's, the partner's, the opponents'), each with a link that opens it on the
// game's own table (review-mode.js) or in the viewer, with every legal card's value written
// on the card. Read-only: the game's match is never touched (the hand travels as text).
import { t } from "../lib/i18n.js";
import { cardName, seatName } from "../lib/words.js";
import { CARDS, bestOf, costText, runReview, statusText, tricksText } from "../lib/review.js";
import { ERROR_TEXTS, errorText } from "../lib/errors.js";
import { el } from "../lib/dom.js";

const BIDS = 4;                // viewer steps: 0 the deal, 1–4 the bids, then one a card
const CARDS_PER_TRICK = 4;

/** A viewer address showing card `k` of `text` analysed. */
const viewerLink = (text, k) => `viewer.html?analyse=1&hand=${encodeURIComponent(text)}#step=${BIDS + k}`;

/** Who made a decision, in the order the list shows them: the human, the partner, the opponents. */
const whose = (seat) => (seat === 0 ? 0 : seat === 2 ? 1 : 2);

/** The costly decisions found so far as [card number, result], costliest first within yours, partner's, opponents'. */
export function costlyDecisions(cache) {
  return [...cache.entries()].filter(([, r]) => (r.cost_points || 0) > 0 || (r.cost_tricks || 0) > 0)
    .sort(([, a], [, b]) => whose(a.seat) - whose(b.seat) || (b.cost_points || 0) - (a.cost_points || 0)
      || (b.cost_tricks || 0) - (a.cost_tricks || 0));
}

/** One decision's line, as the list and the review mode on the table say it. */
export function decisionText(k, r) {
  return t("review.decision", {
    trick: Math.floor(k / CARDS_PER_TRICK) + 1, name: seatName(r.seat), card: cardName(r.action),
    best: cardName(r.best), cost: costText(r),
  });
}

function drawDecisions(list, text, cache, onShow) {
  const costly = costlyDecisions(cache);
  // the list is redrawn as results arrive: a keyboard user keeps their place in it
  const active = list.contains(document.activeElement) ? document.activeElement : null;
  const held = active && { step: active.closest("li")?.dataset.step, link: active.tagName === "A" };
  list.replaceChildren();
  if (!costly.length) list.appendChild(el("li", { class: "muted" }, t("review.noCost")));
  for (const [k, r] of costly) {
    const li = el("li");
    li.dataset.step = String(k);
    // the sentence whole on its own line, the ways to look at it below it
    li.append(el("span", "review-line", decisionText(k, r)));
    const actions = el("div", "review-actions");
    li.append(actions);
    if (onShow) {
      // the decision on the game's own table, read-only (review-mode.js)
      const show = el("button", {}, t("review.showOnTable"));
      show.type = "button";
      show.dataset.action = "review-step";
      show.dataset.step = String(k);
      show.setAttribute("aria-label", `${t("review.showOnTable")}: ${t("review.showStep", { trick: Math.floor(k / CARDS_PER_TRICK) + 1, name: seatName(r.seat), card: cardName(r.action) })}`);
      show.addEventListener("click", () => onShow(k));
      actions.append(show, " ");
    }
    const a = el("a", {}, t("review.inViewer"));
    a.href = viewerLink(text, k);
    a.target = "_blank";
    a.rel = "noopener";
    actions.appendChild(a);
    list.appendChild(li);
  }
  if (held) list.querySelector(`li[data-step="${held.step}"] ${held.link ? "a" : "button"}`)?.focus();
}

/** The tricks each team could make (from the first lead's values), or why they are not known yet. */
function drawMakeable(box, first, bids, running) {
  const best = first.finished ? bestOf(first.values) : null;
  if (!best) {
    box.textContent = t(running ? "review.waiting" : "review.makeableUnknown");
    return;
  }
  const team = first.seat % 2;
  const made = [0, 0];
  made[team] = best[1].tricks;
  made[1 - team] = 13 - best[1].tricks;
  box.replaceChildren(...[0, 1].map((tm) => el("p", {}, t("review.makeable", {
    team: t(`review.team.${tm}`), bid: bids[tm] + bids[tm + 2], tricks: tricksText(made[tm]),
  }))));
}

/**
 * Show the review of hand `number` in `box` (inside the score sheet). `exportHand(number)`
 * resolves to {text, record}. Returns a function that stops the review (on closing the sheet).
 */
export function openReview(engine, box, number, exportHand, showOnTable) {
  let run = null;
  const listeners = new Set();
  box.replaceChildren();
  box.hidden = false;
  const head = el("h3", {}, t("review.title", { n: number }));
  const makeable = el("div", { class: "review-makeable" }, t("review.waiting"));
  const bar = el("progress");
  bar.max = CARDS;
  bar.value = 0;
  const status = el("p", { class: "muted" });
  status.setAttribute("aria-live", "polite");
  const stop = el("button", {}, t("review.cancel"));
  stop.type = "button";
  stop.dataset.action = "review-stop";
  const list = el("ol", { class: "review-list" });
  list.setAttribute("aria-label", t("review.costliest"));
  box.append(head, makeable, bar, stop, status, el("h4", {}, t("review.costliest")), list);
  (async () => {
    const out = await exportHand(number);
    if (!out) return;
    const cache = new Map();
    // the review mode on the table follows this review: same cache, told of each new result
    const onShow = showOnTable && ((k) => showOnTable({
      text: out.text, number, cache, start: k, order: () => costlyDecisions(cache).map(([j]) => j),
      listen: (fn) => { listeners.add(fn); return () => listeners.delete(fn); },
      button: (j) => list.querySelector(`li[data-step="${j}"] button[data-action="review-step"]`),
    }));
    run = runReview(engine, {
      text: out.text, hand: 1, cache,
      onResult: (k, r) => {
        drawDecisions(list, out.text, cache, onShow);
        for (const fn of listeners) fn(k);
        if (k === 0) drawMakeable(makeable, r, out.record.bids, true); // as soon as the first lead is judged
      },
      onProgress: (done, total, progress) => {
        bar.value = done;
        bar.setAttribute("aria-valuetext", t("review.working", { done, total }));
        status.textContent = statusText(progress);
        if (!progress.running && cache.has(0)) drawMakeable(makeable, cache.get(0), out.record.bids, false);
      },
      onError: (err) => { status.textContent = errorText(err, ERROR_TEXTS.review); },
    });
    stop.addEventListener("click", () => run.cancel());
    const how = await run.done;
    stop.hidden = true;
    if (how === "cancelled") status.textContent = t("review.cancelled");
  })();
  return () => { if (run) run.cancel(); };
}
