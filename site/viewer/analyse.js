// analyse.js: the hand viewer's "Analyse" switch (?analyse=1) and its puzzles
// (?quiz=STEP[,STEP…]). Analysis runs one engine message per position (review.js): the
// position on screen first, then from the last card backwards, with a progress bar and a
// Stop button. A puzzle step hides the next card until the reader has chosen one, then
// says whether it was a best card (the double-dummy verdict) with the values, and goes on.
import { reasonText } from "../lib/coach.js";
import { t } from "../lib/i18n.js";
import { cardName } from "../lib/words.js";
import { MSG } from "../engine/protocol.js";
import { CARDS, QUIZ_BUDGET, bestOf, errorText, isBest, runReview, writeValues } from "../lib/review.js";
import { bidText, seatName } from "../lib/steps.js";

const $ = (id) => document.getElementById(id);
const signed = (n) => (n > 0 ? `+${n}` : String(n));

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

/** Whether step `q` is a puzzle still to answer: asked for, before a bid or a card of a completed hand. */
function pendingPuzzle(v, q) {
  const next = v.steps[q + 1];
  return v.quiz.has(q) && !v.answered.has(q) && next !== undefined
    && (next.kind === "bid" || next.kind === "play") && v.hands[v.index].scores !== null;
}

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

function showProgress(done, total) {
  const bar = $("analyse-progress");
  bar.hidden = false;
  bar.max = total;
  bar.value = done;
  bar.setAttribute("aria-valuetext", t("review.working", { done, total }));
  $("analyse-status").textContent = done < total ? t("review.working", { done, total }) : t("review.done");
  $("analyse-stop").hidden = done >= total;
}

/** Write the values of the position on screen on the cards of the seat to act. */
function paint(v) {
  if (!v.analyse && !v.answered.has(v.step)) return;
  const k = cardIndex(v.steps, v.step + 1);
  const result = k === null ? null : cacheOf(v).get(k);
  const note = $("analyse-note");
  note.textContent = "";
  if (!result) return;
  if (!result.finished && !Object.keys(result.values).length) {
    note.textContent = t("review.notFinished");
    return;
  }
  if (v.quiz.has(v.step) && !v.answered.has(v.step)) return; // the puzzle's answer stays hidden
  writeValues(document.querySelector(`.seat[data-seat="${result.seat}"]`), result);
  if (!result.finished) note.textContent = t("review.notFinished");
  else {
    note.textContent = result.cost_points > 0 || result.cost_tricks > 0
      ? t("review.costly", { card: cardName(result.action), tricks: result.cost_tricks, points: result.cost_points, best: cardName(result.best) })
      : t("review.playedBest", { card: cardName(result.action) });
  }
}

/** Start (or restart) the whole-hand analysis for the hand on screen. */
function start(v) {
  stop(v);
  $("analyse-status").textContent = v.analyse && !completed(v) ? t("error.not_complete") : "";
  if (!v.analyse || !completed(v)) return;
  const index = v.index;
  v.run = runReview(v.engine, {
    text: v.text,
    hand: index + 1,
    cache: cacheOf(v),
    wanted: () => cardIndex(v.steps, v.step + 1),
    onResult: () => { if (v.index === index) paint(v); },
    onProgress: showProgress,
    onError: (err) => { $("analyse-status").textContent = errorText(err); },
  });
  v.run.done.then((how) => {
    if (how === "cancelled") $("analyse-status").textContent = t("review.cancelled");
    $("analyse-stop").hidden = true;
  });
}

function stop(v) {
  if (v.run) v.run.cancel();
  v.run = null;
}

// ------------------------------------------------------------------ puzzles

/** Buttons in the puzzle's answer group, one per choice; the first gets the focus. */
function offer(choices, labels, onPick) {
  const group = $("quiz-choices");
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
  if (first) first.focus();
}

/** A bid puzzle: the Hard computer player's bid is the answer, given with its reason. */
async function askBid(v, step) {
  let advice;
  try {
    advice = await v.engine.call(MSG.BID_ADVICE, { text: v.text, hand: v.index + 1, step });
  } catch (err) {
    $("quiz-feedback").textContent = errorText(err);
    return;
  }
  if (v.step !== step) return;
  $("quiz-feedback").textContent = "";
  // only the bids the match's rules allowed at that moment (the engine's list: suicide, blind nil, …)
  offer(advice.legal, advice.legal.map(bidText), (bid) => {
    const right = bid === advice.best;
    const said = right ? t("quiz.bidRight", { bid: bidText(bid) })
      : t("quiz.bidWrong", { bid: bidText(bid), best: bidText(advice.best) });
    const atTable = t("quiz.atTable", { name: seatName(advice.seat), card: bidText(advice.action) });
    verdict(v, step, right, `${said} ${reasonText(advice.reason)} ${atTable}`);
  });
}

/** Record the answer, say the verdict and offer Continue. */
function verdict(v, step, right, text) {
  v.answered.add(step);
  if (right) v.right += 1;
  const feedback = $("quiz-feedback");
  feedback.dataset.verdict = right ? "right" : "wrong";
  feedback.textContent = `${text} ${t("quiz.score", { right: v.right, total: v.answered.size })}`;
  $("quiz-choices").textContent = "";
  $("next").disabled = $("last").disabled = false;
  paint(v);
  const go = $("quiz-continue");
  go.hidden = false;
  go.focus();
}

async function ask(v) {
  const step = v.step;
  const bidding = v.steps[step + 1].kind === "bid";
  $("quiz").hidden = false;
  $("quiz-prompt").textContent = t(bidding ? "quiz.promptBid" : "quiz.prompt", { name: seatName(v.steps[step + 1].seat) });
  $("quiz-feedback").textContent = t("quiz.checking");
  $("quiz-continue").hidden = true;
  $("quiz-choices").textContent = "";
  if (bidding) {
    await askBid(v, step);
    return;
  }
  const k = cardIndex(v.steps, step + 1);
  const seat = v.steps[step + 1].seat;
  let result = cacheOf(v).get(k);
  if (!result || !result.finished) {
    try {
      result = await v.engine.call(MSG.ANALYSE, { text: v.text, hand: v.index + 1, step: k, budget: QUIZ_BUDGET });
    } catch (err) {
      $("quiz-feedback").textContent = errorText(err);
      return;
    }
    cacheOf(v).set(k, result);
  }
  if (v.step !== step) return;
  $("quiz-feedback").textContent = "";
  const order = [...document.querySelectorAll(`.seat[data-seat="${seat}"] [data-card]`)].map((n) => n.dataset.card);
  const legal = order.filter((c) => c in result.values);
  offer(legal, legal.map(cardName), (card) => answer(v, step, result, card));
}

function answer(v, step, result, card) {
  const right = isBest(result.values, card);
  const mine = result.values[card];
  const [best, bv] = bestOf(result.values);
  const said = right
    ? t("quiz.right", { card: cardName(card), tricks: mine.tricks, margin: signed(mine.margin ?? 0) })
    : t("quiz.wrong", { card: cardName(card), tricks: mine.tricks, margin: signed(mine.margin ?? 0),
      best: cardName(best), bestTricks: bv.tricks, bestMargin: signed(bv.margin ?? 0) });
  const played = t("quiz.atTable", { name: seatName(v.steps[step + 1].seat), card: cardName(result.action) });
  verdict(v, step, right, `${said} ${played}`);
}

/** After each drawing: values on the cards, and a puzzle when this step is one. */
export function afterDraw(v) {
  if (pendingPuzzle(v, v.step)) {
    $("next").disabled = $("last").disabled = true;
    if (v.asking !== v.step) {
      v.asking = v.step;
      ask(v);
    }
  } else if (v.answered.has(v.step) === false || !v.quiz.has(v.step)) {
    $("quiz").hidden = true;
    v.asking = null;
  }
  paint(v);
}

/** Wire the switch, the Stop and Continue buttons; `go(k)` moves the viewer. */
export function wireAnalyse(v, go) {
  const box = $("analyse");
  box.checked = v.analyse;
  box.addEventListener("change", () => {
    v.analyse = box.checked;
    if (v.analyse) start(v);
    else {
      stop(v);
      $("analyse-progress").hidden = true;
      $("analyse-stop").hidden = true;
      $("analyse-status").textContent = "";
    }
    go(v.step, true);
  });
  $("analyse-stop").addEventListener("click", () => stop(v));
  $("quiz-continue").addEventListener("click", () => {
    $("quiz").hidden = true;
    go(v.step + 1);
    $("next").focus();
  });
}

/** A hand was (re)selected: start its analysis when the switch is on. */
export function handShown(v) {
  v.asking = null;
  start(v);
}

export { CARDS };
