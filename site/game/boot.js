// boot.js: the loading panel while the engine starts. The worker reports coarse stages;
// between reports the bar creeps toward the stage's end so the page never looks frozen.
import { BOOT_STAGES } from "../engine/protocol.js";
import { has, t } from "../lib/i18n.js";
import { $ } from "../lib/dom.js";


/** Each stage's share of the bar: [start, span] in percent (BOOT_STAGES order). */
const STAGE_SPANS = Object.freeze({ runtime: [0, 80], engine: [80, 20], ready: [100, 0] });
const DONE = 100;
/** The creep never passes this part of the current stage's span. */
const CREEP_CAP = 0.92;
const CREEP_MS = 150;
/** Each creep step covers this part of what is left (at least MIN_STEP percent). */
const CREEP_RATE = 0.04;
const MIN_STEP = 0.2;

if (BOOT_STAGES.some((s) => !(s in STAGE_SPANS))) throw new Error("boot.js: a boot stage has no place on the bar");

/** The progress bar: `update({stage, fraction})` from the worker's reports; `fail()` shows that the engine could not start. */
export function createProgress() {
  let stage = BOOT_STAGES[0];
  let pct = 0;
  let timer = null;

  function show() {
    $("#progress").value = pct;
    const key = `loading.${stage}`;
    $("[data-role='loading-text']").textContent = has(key) ? t(key, { percent: Math.round(pct) }) : "";
  }

  function creep() {
    const [base, span] = STAGE_SPANS[stage];
    const cap = base + span * CREEP_CAP;
    if (pct < cap) {
      pct = Math.min(cap, pct + Math.max(MIN_STEP, (cap - pct) * CREEP_RATE));
      show();
    }
  }

  function stop() {
    clearInterval(timer);
    timer = null;
  }

  return {
    update({ stage: next, fraction }) {
      const [base, span] = Object.hasOwn(STAGE_SPANS, next) ? STAGE_SPANS[next] : [0, 0];
      if (Object.hasOwn(STAGE_SPANS, next)) stage = next;
      pct = Math.max(pct, base + span * (fraction || 0));
      if (next === "ready") {
        stop();
        pct = DONE;
      } else if (timer === null) {
        timer = setInterval(creep, CREEP_MS);
      }
      show();
    },
    /** Stop the bar and say `text` in its place. */
    fail(text) {
      stop();
      $("[data-role='loading-text']").textContent = text;
    },
  };
}
