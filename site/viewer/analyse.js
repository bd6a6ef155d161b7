// analyse.js: the hand viewer's "Analyse" switch (?analyse=1) and its puzzles
// (?quiz=STEP[,STEP…]). Analysis runs one engine message per position (review.js): the
// position on screen first, then from the last card backwards, with a progress bar and a
// Stop button. A puzzle step hides the next card until the reader has chosen one, then
// says whether it was a best card (the double-dummy verdict) with the values, and goes on.
import { reasonText } from "../lib/coach.js";
import { t } from "../lib/i18n.js";
import { cardName } from "../lib/words.js";
import { MSG } from "../engine/protocol.js";
import { CARDS, QUIZ_BUDGET, bestOf, costlyText, isBest, runReview, statusText, valueText, writeValues } from "../lib/review.js";
import { ERROR_TEXTS, errorText } from "../lib/errors.js";
import { byId } from "../lib/dom.js";
import { NIL } from "../lib/constants.js";
import { bidText, seatName } from "../lib/steps.js";


/** The card number (0–51) of viewer step `j` when it is a card, else null. */
export function cardIndex(steps, j) {
  const s = steps[j];
  if (!s || s.kind !== "play") return null;
  return steps.slice(1, j).filter((x) => x.kind === "play").length;
}

/** The viewer's query: {analyse, quiz: Set of steps}. */
export function readQuery(query) {
  const quiz = new Set((query.get("quiz") || "").split(",").map((x) => Number.parseInt(x, 10))
    .filter((n) => Number.isInteger(n) && n >= 0));
  return { analyse: query.get("analyse") === "1", quiz };
}

/** Whether step `q` is a puzzle: asked for, before a bid or a card of a completed hand. */
function isPuzzle(v, q) {
  const next = v.steps[q + 1];
  return v.quiz.has(q) && next !== undefined && (next.kind === "bid" || next.kind === "play")
    && v.hands[v.index].scores !== null;
}

/** Whether step `q` is a puzzle still to answer (not one the engine could not judge: the reader goes on past it). */
const pendingPuzzle = (v, q) => isPuzzle(v, q) && !v.answered.has(q) && !v.unjudged.has(q);

/** The first unanswered puzzle step in [from, to): where stepping forward must stop. */
export function quizLimit(v, from, to) {
  for (let q = from; q < to; q++) if (pendingPuzzle(v, q)) return q;
  return to;
}

const completed = (v) => v.hands.length > 0 && v.hands[v.index].scores !== null;
const cacheOf = (v) => {
  if (!v.caches.has(v.index)) v.caches.set(v.index, new Map());
  return v.caches.get(v.index);
};

function showProgress(done, total, status) {
  const bar = byId("analyse-progress");
  bar.hidden = false;
  bar.max = total;
  bar.value = done;
  bar.setAttribute("aria-valuetext", t("review.working", { done, total }));
  byId("analyse-status").textContent = statusText(status);
  byId("analyse-stop").hidden = !status.running;
}

/** Write the values of the position on screen on the cards of the seat to act. */
function paint(v) {
  if (!v.analyse && !v.answered.has(v.step)) return;
  const k = cardIndex(v.steps, v.step + 1);
  const result = k === null ? null : cacheOf(v).get(k);
  const note = byId("analyse-note");
  note.textContent = "";
  if (!result) return;
  // a position that ran out of time: judged again while the review runs, else unknown
  const open = v.run && !v.run.ended ? t("review.notYet") : t("review.notFinished");
  if (!result.finished && !Object.keys(result.values).length) {
    note.textContent = open;
    return;
  }
  if (v.quiz.has(v.step) && !v.answered.has(v.step)) return; // the puzzle's answer stays hidden
  const box = document.querySelector(`.seat[data-seat="${result.seat}"]`);
  writeValues(box, result);
  box.querySelector(".hand").classList.add("spread"); // each card's value under it, none covering another
  if (!result.finished) note.textContent = open;
  else {
    note.textContent = result.cost_points > 0 || result.cost_tricks > 0
      ? costlyText(result)
      : t("review.playedBest", { card: cardName(result.action) });
  }
}

/** Start (or restart) the whole-hand analysis for the hand on screen. */
function start(v) {
  stop(v);
  byId("analyse-status").textContent = v.analyse && !completed(v) ? t("error.not_complete") : "";
  if (!v.analyse || !completed(v)) return;
  const index = v.index;
  v.run = runReview(v.engine, {
    text: v.text,
    hand: index + 1,
    cache: cacheOf(v),
    // the position on screen first, unless it is a puzzle's: the puzzle asks for it (with more
    // time), and the review awaits that analysis when it comes to it (never sent twice)
    wanted: () => (pendingPuzzle(v, v.step) ? null : cardIndex(v.steps, v.step + 1)),
    shared: quizRunsOf(v),
    onResult: () => { if (v.index === index) paint(v); },
    onProgress: showProgress,
    onError: (err) => { byId("analyse-status").textContent = errorText(err, ERROR_TEXTS.review); },
  });
  const run = v.run;
  run.done.then((how) => {
    run.ended = true;
    if (how === "cancelled") byId("analyse-status").textContent = t("review.cancelled");
    byId("analyse-stop").hidden = true;
    if (v.run === run) paint(v);
  });
}

function stop(v) {
  if (v.run) v.run.cancel();
  v.run = null;
}

// ------------------------------------------------------------------ puzzles

/** The hand's puzzles: the asked-for steps that are puzzles in it, in order. */
function puzzles(v) {
  return [...v.quiz].filter((q) => isPuzzle(v, q)).sort((a, b) => a - b);
}

/** The step a quiz link opens at: the hand's first puzzle still to answer, else null. */
export function firstPuzzle(v) {
  return puzzles(v).find((q) => !v.answered.has(q)) ?? null;
}

/** The line above a hand's puzzles: how many there are; once each is answered or found to have
 * no verdict, the result ("Result: 2 of 2 right. 1 puzzle had no verdict."). */
function intro(v) {
  const all = puzzles(v);
  const box = byId("quiz");
  box.hidden = all.length === 0;
  const answered = all.filter((q) => v.answered.has(q)).length;
  const open = all.filter((q) => v.unjudged.has(q)).length;
  let text = t("quiz.count", { n: all.length });
  if (all.length && answered + open === all.length) {
    const parts = answered ? [t("quiz.result", { right: v.right, total: answered })] : [];
    if (open) parts.push(t("quiz.noVerdict", { n: open }));
    text = parts.join(" ");
  }
  byId("quiz-intro").textContent = text;
}

/** Buttons in the puzzle's answer group, one per choice (a bid puzzle); the first gets the focus. */
function offer(choices, labels, onPick) {
  const group = byId("quiz-choices");
  group.textContent = "";
  choices.forEach((choice, i) => {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.choice = String(choice);
    b.textContent = labels[i];
    b.addEventListener("click", () => onPick(choice));
    group.appendChild(b);
  });
  const first = group.querySelector("button");
  if (first) first.focus({ preventScroll: true });
}

/**
 * A card puzzle is answered on the table: each legal card of `seat` becomes a button named
 * by the card (Tab, or ←/→ between them, and Enter; or a click or tap), the others are dimmed,
 * and the hand is spread so that every card is easy to hit. The first card gets the focus.
 */
function offerCards(seat, legal, onPick, focus = true) {
  const box = document.querySelector(`.seat[data-seat="${seat}"]`);
  const hand = box.querySelector(".hand");
  hand.classList.add("spread", "choosing");
  const buttons = [];
  for (const node of hand.querySelectorAll("[data-card]")) {
    const card = node.dataset.card;
    if (!legal.includes(card)) {
      node.parentElement.classList.add("not-legal");
      continue;
    }
    const b = document.createElement("button");
    b.type = "button";
    b.className = "quiz-card";
    b.dataset.choice = card;
    b.setAttribute("aria-label", cardName(card));
    node.replaceWith(b);
    node.setAttribute("aria-hidden", "true");
    b.appendChild(node);
    b.addEventListener("click", () => onPick(card));
    buttons.push(b);
  }
  hand.addEventListener("keydown", (e) => {
    const at = buttons.indexOf(e.target);
    const step = { ArrowRight: 1, ArrowLeft: -1 }[e.key];
    if (at < 0 || !step) return;
    e.preventDefault();
    e.stopPropagation(); // the arrows move between the cards here, not through the hand
    buttons[(at + step + buttons.length) % buttons.length].focus();
  });
  if (!focus) return;
  // the question and the cards to choose from both in view (the table is below the question)
  byId("quiz").scrollIntoView({ block: "nearest" });
  box.scrollIntoView({ block: "nearest" });
  if (buttons.length) buttons[0].focus({ preventScroll: true });
}

/** The table's cards are pictures again once the puzzle is answered. */
function unofferCards() {
  for (const b of document.querySelectorAll("#table .quiz-card")) {
    const node = b.firstElementChild;
    node.removeAttribute("aria-hidden");
    b.replaceWith(node);
  }
  for (const li of document.querySelectorAll("#table .not-legal")) li.classList.remove("not-legal");
  for (const hand of document.querySelectorAll("#table .hand.choosing")) hand.classList.remove("choosing");
}

/** "Puzzle 2 of 3: …" for puzzle step `step`, a card or a bid to choose for `seat`. */
function prompt(v, step, bidding, seat) {
  const all = puzzles(v);
  return t(bidding ? "quiz.promptBidOf" : "quiz.promptOf",
    { i: all.indexOf(step) + 1, total: all.length, name: seatName(seat) });
}

/** A puzzle the engine could not judge (its analysis did not finish, or was refused): say why and
 * let the reader go on; stepping back to it later shows the position as any other. */
function unjudged(v, step, text) {
  v.unjudged.add(step);
  unofferCards();
  intro(v);
  const feedback = byId("quiz-feedback");
  feedback.dataset.verdict = "none";
  feedback.textContent = `${text} ${t("quiz.goOn")}`;
  byId("quiz-choices").textContent = "";
  byId("next").disabled = byId("last").disabled = false;
  const go = byId("quiz-continue");
  go.hidden = false;
  go.focus({ preventScroll: true });
}

/** The puzzles' analyses of the hand shown: card number → the promise of its result. */
function quizRunsOf(v) {
  const cache = cacheOf(v);
  if (!v.quizRuns.has(cache)) v.quizRuns.set(cache, new Map());
  return v.quizRuns.get(cache);
}

/** The quiz's analysis of card `k` of the hand shown: one promise per card and hand (v.quizRuns,
 * keyed by the hand's cache). Asked again (Back, then Next), the same analysis is awaited, never
 * queued a second time; one that did not finish within QUIZ_BUDGET is not run again. */
function quizAnalysis(v, k) {
  const cache = cacheOf(v);
  const runs = quizRunsOf(v);
  if (!runs.has(k)) {
    runs.set(k, v.engine.call(MSG.ANALYSE, { text: v.text, hand: v.index + 1, step: k, budget: QUIZ_BUDGET })
      .then((result) => {
        if (!cache.has(k) || !cache.get(k).finished) cache.set(k, result);
        return result;
      }));
  }
  return runs.get(k);
}

/** A bid puzzle: the Hard computer player's bid is the answer, given with its reason. */
async function askBid(v, step, current) {
  let advice;
  try {
    advice = await v.engine.call(MSG.BID_ADVICE, { text: v.text, hand: v.index + 1, step });
  } catch (err) {
    if (current()) unjudged(v, step, errorText(err, ERROR_TEXTS.review));
    return;
  }
  if (!current()) return;
  byId("quiz-feedback").textContent = "";
  // only the bids the match's rules allowed at that moment (the engine's list: suicide, blind nil, …),
  // labelled as the game's bid buttons are ("Nil", "4"…)
  const label = (bid) => (bid === NIL ? t("bid.nilButton") : bidText(bid));
  offer(advice.legal, advice.legal.map(label), (bid) => {
    const right = bid === advice.best;
    const said = right ? t("quiz.bidRight", { bid: bidText(bid) })
      : t("quiz.bidWrong", { bid: bidText(bid), best: bidText(advice.best) });
    const atTable = t("quiz.atTable", { name: seatName(advice.seat), card: bidText(advice.action) });
    verdict(v, step, right, `${said} ${reasonText(advice.reason)} ${atTable}`);
  });
}

/** Record the answer, say the verdict (and above it, after the last puzzle, the result) and offer Continue. */
function verdict(v, step, right, text) {
  v.answered.add(step);
  if (right) v.right += 1;
  unofferCards();
  intro(v);
  const feedback = byId("quiz-feedback");
  feedback.dataset.verdict = right ? "right" : "wrong";
  feedback.textContent = text; // after the last puzzle the line above says the result (a polite live region)
  byId("quiz-choices").textContent = "";
  byId("next").disabled = byId("last").disabled = false;
  paint(v);
  const go = byId("quiz-continue");
  go.hidden = false;
  go.focus({ preventScroll: true });
}

/** Ask the puzzle of step `asked.step` of the hand whose cache is `asked.cache`; `asked` is
 * v.asking while this ask is the current one (a reader who steps away and back, or to another
 * hand, starts a new ask; one back at the same position awaits the same analysis). */
async function ask(v, asked) {
  const step = asked.step;
  const current = () => v.asking === asked && v.step === step;
  const bidding = v.steps[step + 1].kind === "bid";
  const seat = v.steps[step + 1].seat;
  intro(v);
  byId("quiz-ask").hidden = false;
  byId("quiz-prompt").textContent = prompt(v, step, bidding, seat);
  byId("quiz-feedback").textContent = t("quiz.checking");
  delete byId("quiz-feedback").dataset.verdict;
  byId("quiz-continue").hidden = true;
  byId("quiz-choices").textContent = "";
  if (bidding) {
    await askBid(v, step, current);
    return;
  }
  const k = cardIndex(v.steps, step + 1);
  let result = cacheOf(v).get(k);
  if (!result || !result.finished) {
    try {
      result = await quizAnalysis(v, k);
    } catch (err) {
      if (current()) unjudged(v, step, errorText(err, ERROR_TEXTS.review));
      return;
    }
  }
  if (!current()) return;
  const order = [...document.querySelectorAll(`.seat[data-seat="${seat}"] [data-card]`)].map((n) => n.dataset.card);
  const legal = order.filter((c) => c in result.values);
  // a verdict must be exact: an analysis cut short by its time limit judges nothing
  if (!result.finished || !legal.length) {
    unjudged(v, step, t("review.notFinished"));
    return;
  }
  byId("quiz-feedback").textContent = "";
  // kept, so that a redrawn table (Analyse switched, the hand chosen again) offers its cards again
  asked.offer = (focus) => offerCards(seat, legal, (card) => answer(v, step, result, card), focus);
  asked.offer(true);
}

function answer(v, step, result, card) {
  const right = isBest(result.values, card);
  const mine = result.values[card];
  const [best, bv] = bestOf(result.values);
  const said = right
    ? t("quiz.right", { card: cardName(card), value: valueText(mine) })
    : t("quiz.wrong", { card: cardName(card), value: valueText(mine), best: cardName(best), bestValue: valueText(bv) });
  const played = t("quiz.atTable", { name: seatName(v.steps[step + 1].seat), card: cardName(result.action) });
  verdict(v, step, right, `${said} ${played}`);
}

/** After each drawing: values on the cards, and a puzzle when this step is one. */
export function afterDraw(v) {
  if (pendingPuzzle(v, v.step)) {
    byId("next").disabled = byId("last").disabled = true;
    const cache = cacheOf(v);
    if (!v.asking || v.asking.step !== v.step || v.asking.cache !== cache) {
      v.asking = { step: v.step, cache };
      ask(v, v.asking);
    } else if (v.asking.offer) {
      v.asking.offer(false); // the table was drawn afresh: its cards are the answers again
    }
  } else if (!(v.quiz.has(v.step) && (v.answered.has(v.step) || v.unjudged.has(v.step)))) {
    byId("quiz-ask").hidden = true;
    v.asking = null;
  }
  if (v.asking === null) intro(v);
  paint(v);
}

/** Wire the switch, the Stop and Continue buttons; `go(k)` moves the viewer. */
export function wireAnalyse(v, go) {
  const box = byId("analyse");
  box.checked = v.analyse;
  box.addEventListener("change", () => {
    v.analyse = box.checked;
    if (v.analyse) start(v);
    else {
      stop(v);
      byId("analyse-progress").hidden = true;
      byId("analyse-stop").hidden = true;
      byId("analyse-status").textContent = "";
    }
    go(v.step, true);
  });
  byId("analyse-stop").addEventListener("click", () => stop(v));
  byId("quiz-continue").addEventListener("click", () => {
    byId("quiz-ask").hidden = true;
    go(v.step + 1);
    byId("next").focus();
  });
}

/** A hand was (re)selected and drawn (its puzzle, if it opens at one, already asked): start
 * its analysis when the switch is on. */
export function handShown(v) {
  start(v);
}

export { CARDS };
