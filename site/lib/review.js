// review.js: double-dummy review driven from the page, one engine message per position.
//
// The engine's `analyse {text, hand, step, budget}` judges one card of a completed hand
// within a time budget; this module sends those messages one at a time to an engine, trick by
// trick (each trick's last card first: a position's tables help the earlier ones of its trick
// most), where the device has the cores to extra engines too (dedicated workers of this page,
// restoring the same snapshot; the page's own engine may be shared with other pages), from both
// ends of the hand (see runReview); so results appear early, a cancel simply stops sending and
// the game's own messages interleave between them. It also writes the values on cards and
// words what they and the decisions cost, and the review's one status line.
import { MSG } from "../engine/protocol.js";
import { startEngine } from "../engine/engine.js";
import { t } from "./i18n.js";
import { cardName } from "./words.js";

/** Cards in a hand (52), positions in a trick, and the seconds each position may take. */
export const CARDS = 52;
const PER_TRICK = 4;
const TRICKS = CARDS / PER_TRICK;
export const STEP_BUDGET = 2;
/** While other engines hold the last positions, the page's engine looks again this often (ms). */
const WAIT_MS = 50;
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

/** A position that ran out of time is judged once more, at the end, with this many seconds
 * (the positions after it are solved by then: their tables make it much cheaper). */
export const RETRY_BUDGET = 8;
/** At most this many engines judge a hand's positions side by side. */
export const MAX_REVIEW_WORKERS = 4;
/** Each engine takes this many GB of the device's memory into account (a Pyodide heap and more). */
const GB_PER_WORKER = 2;

/**
 * How many engines a review may use: the device's cores, bounded by its memory (where the
 * browser tells it) and MAX_REVIEW_WORKERS; 1 unless `engine` booted from the memory
 * snapshot (extra engines restore the same snapshot; a plain boot would cost more than it saves).
 */
export function reviewWorkers(engine) {
  if (!engine || engine.boot !== "snapshot" || typeof navigator === "undefined") return 1;
  const cores = navigator.hardwareConcurrency || 1;
  const memory = navigator.deviceMemory || 4;
  return Math.max(1, Math.min(MAX_REVIEW_WORKERS, cores, Math.floor(memory / GB_PER_WORKER)));
}

/**
 * The review's one status line: working ("Analysing… 12 of 52"), or how it ended — every
 * card judged, or how many could not be within their time limit (never both).
 */
export function statusText({ judged, total, open, running }) {
  if (running) return t("review.working", { done: judged, total });
  return open ? t("review.endedOpen", { n: open, cards: t("review.nCards", { n: judged - open }) }) : t("review.done");
}

/**
 * Analyse every card of hand `hand` of `text`, one message a position. `wanted()` names the
 * card to do next if it is not done yet (the position on screen); otherwise the next card of
 * a trick the engine took, last card first; else the engine takes a trick: with one engine,
 * from the last trick backwards; with `workers` > 1, extra engines (started here, restoring
 * the same snapshot, stopped when the review ends) go on taking tricks from the end while the
 * page's engine, after the last trick, takes them from the first onwards. Once an engine has
 * tried every card it can take, it tries once more, with RETRY_BUDGET, the ones of its own that
 * ran out of time (its tables go on from where they stopped). `shared` maps a position to the
 * promise of its analysis already asked for elsewhere (a puzzle's): that one is awaited, never
 * sent again.
 * `onResult(step, result)` and `onProgress(done, total, status)` report (status: statusText's
 * argument); `cancel()` stops before the next message.
 * Returns {cancel, done: Promise<"done"|"cancelled"|"error">}.
 */
export function runReview(engine, { text, hand, cache, wanted = () => null, onResult, onProgress, onError,
  shared = new Map(), workers = reviewWorkers(engine) }) {
  let stopped = false;
  let closed = false;
  const busy = new Set();      // positions being judged now
  const retried = new Set();   // positions judged a second time
  const takenBy = new Map();   // trick → the engine judging its positions
  const triedBy = new Map();   // position → the engine that judged it first (its tables)
  const gone = new Set();      // extra engines that failed: their positions go to the others
  const extras = [];
  const untried = (k) => !cache.has(k) && !busy.has(k);
  /** Trick `i`'s next position not tried yet, its last card first (null: none). */
  const nextOf = (i) => {
    for (let k = PER_TRICK * i + PER_TRICK - 1; k >= PER_TRICK * i; k--) if (untried(k)) return k;
    return null;
  };
  const backwards = [...Array(TRICKS).keys()].reverse();
  // the page's engine's order when it shares the work: the last trick (a few milliseconds: the
  // first values show at once), then from the first trick onwards
  const forwards = [TRICKS - 1, ...Array(TRICKS - 1).keys()];
  /** Whether engine `eng` may retry position `k`: its own, or one no living engine has tables for. */
  const retriable = (eng, k) => !triedBy.has(k) || triedBy.get(k) === eng || gone.has(triedBy.get(k));
  /** The next position for engine `eng`, which takes new tricks in the order `tricks`. */
  const pick = (eng, tricks) => {
    const w = wanted();
    if (w !== null && w !== undefined && untried(w)) return w;
    for (const [i, owner] of takenBy) {
      const k = owner === eng || gone.has(owner) ? nextOf(i) : null;
      if (k !== null) return k;
    }
    for (const i of tricks) {
      const k = takenBy.has(i) ? null : nextOf(i);
      if (k !== null) {
        takenBy.set(i, eng);
        return k;
      }
    }
    for (let k = CARDS - 1; k >= 0; k--) {
      if (!busy.has(k) && cache.has(k) && !cache.get(k).finished && !retried.has(k) && retriable(eng, k)) return k;
    }
    return null;
  };
  const status = () => {
    const open = [...cache.values()].filter((r) => !r.finished).length;
    return { judged: cache.size, total: CARDS, open, running: !closed };
  };
  const report = () => onProgress(cache.size, CARDS, status());

  /** One engine's share: positions until none is left for it (or the review stops). */
  async function work(eng, tricks) {
    for (let k = pick(eng, tricks); k !== null && !stopped; k = pick(eng, tricks)) {
      const budget = cache.has(k) ? RETRY_BUDGET : STEP_BUDGET;
      busy.add(k);
      if (budget === RETRY_BUDGET) retried.add(k);
      else triedBy.set(k, eng);
      let result;
      try {
        result = await (shared.has(k) ? shared.get(k) : eng.call(MSG.ANALYSE, { text, hand, step: k, budget }));
      } finally {
        busy.delete(k);
      }
      if (cache.has(k) && cache.get(k).finished && !result.finished) continue;
      cache.set(k, result);
      if (!stopped) {
        onResult(k, result);
        report();
      }
    }
  }

  /** An extra engine's share; its failure only hands its positions back to the others. */
  async function helper(eng) {
    try {
      await eng.ready;
      if (!closed && !stopped) await work(eng, backwards);
    } catch {
      /* an extra engine that failed or was stopped: the others go on */
      gone.add(eng);
    }
  }

  const done = (async () => {
    report();
    const helpers = [];
    for (let i = 1; i < workers && !stopped; i++) {
      const eng = startEngine({ dedicated: true });
      extras.push(eng);
      helpers.push(helper(eng));
    }
    try {
      // the page's own engine works until nothing is left for it; positions an extra engine
      // still holds are waited for, and any it gave back (it failed) are done here
      const tricks = workers > 1 ? forwards : backwards;
      for (;;) {
        await work(engine, tricks);
        if (stopped || (pick(engine, tricks) === null && busy.size === 0)) break;
        await Promise.race([Promise.all(helpers), new Promise((resolve) => setTimeout(resolve, WAIT_MS))]);
      }
    } catch (err) {
      if (onError) onError(err);
      return "error";
    } finally {
      closed = true;
      for (const eng of extras) eng.stop();
    }
    if (!stopped) report();
    return stopped ? "cancelled" : "done";
  })();
  return {
    cancel: () => {
      stopped = true;
      for (const eng of extras) eng.stop();
    },
    done,
  };
}
