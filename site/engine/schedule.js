// schedule.js: the order in which the engine answers its pages' requests.
//
// Python answers one message at a time and cannot be interrupted, so a page's move may wait
// behind whatever runs. Two rules keep that wait short:
//   - a play message (the protocol table's `kind`) goes before every analysis message waiting,
//     in the order they came;
//   - a sliced message (the table's `sliced`: an analysis with a time budget) runs at most
//     SLICE_S at a time: when a slice ends unfinished, the rest of its budget is queued again
//     behind what waits (the solver keeps its tables between slices), so a move waits at most
//     about one slice behind any page's analysis, and analyses of several pages take turns;
//   - play comes in bursts (your card, then the computer players' moves): for PLAY_GRACE_MS
//     after a play message, no analysis starts, so the next move of the burst finds the engine free.
// Before each message the pages are told it starts (pages.js announceRun), so their watchdogs
// read the silence that follows as work; after it, the next waits for the messages that came
// meanwhile (a posted message is queued behind them), so a move that came during an analysis
// goes first.
import { BUDGET, MESSAGES, PLAY_KIND } from "./protocol.js";

/** The longest slice of a sliced message's budget, in seconds (tools/bench_frames.py: a move's
 * wait behind another page's analysis; slicing costs about as much search as it saves). */
export const SLICE_S = 0.5;
/** A budget left shorter than this is not worth another slice (s). */
const MIN_SLICE_S = 0.05;
/** After a play message, analysis waits this long for the page's next move (ms): a reply's way
 * to the page and the page's next request back. */
const PLAY_GRACE_MS = 50;

/** The budget of a sliced message's arguments, or null (not sliced, or refused by the engine). */
function budgetOf(fn, args) {
  if (!Object.hasOwn(MESSAGES, fn) || !MESSAGES[fn].sliced || !args || typeof args !== "object") return null;
  const b = args[BUDGET.arg];
  return typeof b === "number" && b >= BUDGET.min && b <= BUDGET.max ? b : null;
}

/**
 * The queue. `execute(page, fn, args)` runs one message in Python and returns its reply
 * ({ok, result, save?} or {ok: false, error}); `onRun(job)` is called before, `onReply(job, out)`
 * with the reply; `alive(page)` says whether a page is still there. Requests wait until `open()`.
 */
export function createSchedule({ execute, onRun, onReply, alive }) {
  const play = [];
  const analysis = [];
  let open = false;
  let running = false;
  let rung = false;
  let lastActive = performance.now();
  let lastPlay = -Infinity; // when the last play message ended
  let graceTimer = null;
  const bell = new MessageChannel();
  const answer = () => {
    rung = false;
    graceTimer = null;
    next();
  };
  bell.port1.onmessage = answer;

  /** Run the next message once the messages that came meanwhile are in: a play message at once,
   * an analysis once the grace that follows play is over. */
  function ring() {
    if (!open || running || (!play.length && !analysis.length)) return;
    const grace = play.length ? 0 : lastPlay + PLAY_GRACE_MS - performance.now();
    if (grace > 0) {
      if (!rung) {
        rung = true;
        graceTimer = setTimeout(answer, grace);
      }
      return;
    }
    if (graceTimer !== null) {
      clearTimeout(graceTimer); // a move came during the grace: it goes now
      graceTimer = null;
      rung = false;
    }
    if (rung) return;
    rung = true;
    bell.port2.postMessage(null);
  }

  function next() {
    const job = play.shift() || analysis.shift();
    if (!job) return;
    running = true;
    let out;
    try {
      onRun(job);
      const slice = job.left === null ? null : Math.min(job.left, SLICE_S);
      const t0 = performance.now();
      out = execute(job.page, job.fn, slice === null ? job.args : { ...job.args, [BUDGET.arg]: slice });
      // a slice costs its budget at least, so a budget is spent in at most budget / SLICE_S slices
      if (slice !== null) job.left -= Math.max(slice, (performance.now() - t0) / 1000);
    } finally {
      running = false;
      lastActive = performance.now();
      if (job.kind === PLAY_KIND) lastPlay = lastActive;
    }
    const unfinished = out.ok && out.result && out.result.finished === false;
    if (job.left !== null && unfinished && job.left >= MIN_SLICE_S && alive(job.page)) {
      analysis.push(job);
    } else if (alive(job.page)) {
      onReply(job, out);
    }
    ring();
  }

  return {
    /** A request from `page` ({id, fn, args}). */
    add(page, msg) {
      const fn = msg && msg.fn;
      const args = msg && msg.args !== undefined ? msg.args : {};
      const row = typeof fn === "string" && Object.hasOwn(MESSAGES, fn) ? MESSAGES[fn] : null;
      const kind = row ? row.kind : PLAY_KIND; // an unknown name is refused at once
      const job = { page, id: msg && msg.id, fn, args, kind, left: budgetOf(fn, args) };
      (kind === PLAY_KIND ? play : analysis).push(job);
      lastActive = performance.now();
      ring();
    },
    /** `page` has gone: its waiting requests are dropped. */
    drop(page) {
      for (const queue of [play, analysis]) {
        for (let i = queue.length - 1; i >= 0; i--) if (queue[i].page === page) queue.splice(i, 1);
      }
    },
    /** Start answering (the engine has booted, or failed to: `execute` then refuses each). */
    open() {
      open = true;
      ring();
    },
    /** Milliseconds since the engine last had a request, or 0 while one waits or runs. */
    idleMs() {
      return running || play.length || analysis.length ? 0 : performance.now() - lastActive;
    },
  };
}
