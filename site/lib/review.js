// review.js: double-dummy review driven from the page, one engine message per position.
//
// The engine's `analyse {text, hand, step, budget}` judges one card of a completed hand
// within a time budget; this module sends those messages one at a time, the current
// position first and then from the last card backwards (cheap positions first, their
// tables help earlier ones), so results appear early, a cancel simply stops sending and
// the game's own messages interleave between them. It also writes the values on cards.
import { MSG } from "../engine/protocol.js";
import { t } from "./i18n.js";
import { cardName } from "./words.js";

/** Cards in a hand (52) and the seconds each position may take. */
export const CARDS = 52;
export const STEP_BUDGET = 2;
/** A puzzle's verdict must be exact, so its one position gets longer. */
export const QUIZ_BUDGET = 20;

/** A signed number as the page shows margins. */
const signed = (n) => (n > 0 ? `+${n}` : String(n));

/** The best option of an analysed position: by margin when known, else by tricks. */
export function bestOf(values) {
  const entries = Object.entries(values);
  if (!entries.length) return null;
  const byMargin = entries.every(([, v]) => v.margin !== null);
  const score = ([, v]) => (byMargin ? v.margin * 100 + v.tricks : v.tricks);
  return entries.reduce((a, b) => (score(b) > score(a) ? b : a));
}

/** Whether `card` is as good as the best card of `values`. */
export function isBest(values, card) {
  const best = bestOf(values);
  const v = values[card];
  if (!best || !v) return false;
  return best[1].margin !== null ? v.margin === best[1].margin : v.tricks === best[1].tricks;
}

/** "1 trick", "3 tricks": a count of tricks in a sentence (the language's plural rules). */
export const tricksText = (n) => t("review.nTricks", { n });
/** "1 point", "12 points". */
export const pointsText = (n) => t("review.nPoints", { n });
/** A margin with its sign: "+43 points", "−1 point". */
const marginText = (m) => t("review.marginPoints", { n: Math.abs(m), margin: signed(m) });

/** What a card is worth, in words: "4 tricks, +43 points" (or the tricks alone when no margin is known). */
export function valueText(v) {
  return v.margin === null ? tricksText(v.tricks) : t("review.valuePair", { tricks: tricksText(v.tricks), margin: marginText(v.margin) });
}

/** What a decision cost, in words: "1 trick and 12 points", "12 points", "1 trick". */
export function costText(r) {
  const tricks = r.cost_tricks || 0;
  const points = r.cost_points || 0;
  if (tricks && points) return t("review.costBoth", { tricks: tricksText(tricks), points: pointsText(points) });
  return tricks ? tricksText(tricks) : pointsText(points);
}

/** What a card's value says, for its label and for screen readers. */
export function valueLabel(card, v) {
  return t("review.valueOf", { card: cardName(card), value: valueText(v) });
}

/** "9♥ was played and cost 1 trick and 2 points; best was 8♠." for a costly decision `r`. */
export function costlyText(r) {
  return t("review.costly", { card: cardName(r.action), cost: costText(r), best: cardName(r.best) });
}

/**
 * Write each analysed card's value on its element inside `root` (elements with data-card),
 * mark the best ones and, when it cost something, the card actually played.
 */
export function writeValues(root, result) {
  for (const node of root.querySelectorAll("[data-card]")) {
    const card = node.dataset.card;
    const v = result.values[card];
    const holder = node.parentElement;
    holder.querySelectorAll(".card-value").forEach((el) => el.remove());
    node.classList.remove("best-card", "costly-card");
    if (!v) continue;
    const badge = document.createElement("span");
    badge.className = "card-value";
    badge.setAttribute("aria-hidden", "true");
    badge.dataset.tricks = String(v.tricks);
    badge.dataset.margin = v.margin === null ? "" : String(v.margin);
    // "4/+43" (the viewer's style sheet stacks the two numbers under the card)
    const part = (cls, text) => Object.assign(document.createElement("span"), { className: cls, textContent: text });
    badge.append(part("value-tricks", String(v.tricks)));
    if (v.margin !== null) badge.append(part("value-sep", "/"), part("value-margin", signed(v.margin)));
    holder.appendChild(badge);
    let label = valueLabel(card, v);
    if (isBest(result.values, card)) node.classList.add("best-card");
    if (card === result.action && (result.cost_points > 0 || result.cost_tricks > 0)) {
      node.classList.add("costly-card");
      label += `. ${costlyText(result)}`;
    }
    node.setAttribute("aria-label", label);
    node.title = label;
  }
}

/**
 * Analyse every card of hand `hand` of `text`, one message at a time. `wanted()` names the
 * card to do next if it is not done yet (the position on screen); otherwise the last card
 * not yet done. `onResult(step, result)` and `onProgress(done, total)` report; `cancel()`
 * stops before the next message. Returns {cancel, done: Promise<"done"|"cancelled"|"error">}.
 */
export function runReview(engine, { text, hand, cache, wanted = () => null, onResult, onProgress, onError }) {
  let stopped = false;
  const pick = () => {
    const w = wanted();
    if (w !== null && w !== undefined && !cache.has(w)) return w;
    for (let k = CARDS - 1; k >= 0; k--) if (!cache.has(k)) return k;
    return null;
  };
  const done = (async () => {
    onProgress(cache.size, CARDS);
    for (let step = pick(); step !== null; step = pick()) {
      if (stopped) return "cancelled";
      let result;
      try {
        result = await engine.call(MSG.ANALYSE, { text, hand, step, budget: STEP_BUDGET });
      } catch (err) {
        if (onError) onError(err);
        return "error";
      }
      cache.set(step, result);
      if (!stopped) {
        onResult(step, result);
        onProgress(cache.size, CARDS);
      }
    }
    return stopped ? "cancelled" : "done";
  })();
  return { cancel: () => { stopped = true; }, done };
}
