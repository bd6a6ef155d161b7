// schedule.js: the order in which the engine answers its pages' requests.
//
// Python answers one message at a time and cannot be interrupted, so a page's move may wait
// behind whatever runs. Two rules keep that wait short:
//   - a play message (the protocol table's `kind`) goes before every analysis message waiting,
//     in the order they came;
//   - a sliced message (the table's `sliced`: an analysis with a time budget) runs at most
//     SLICE_S at a time: when a slice ends unfinished, the rest of its budget is queued again
//     behind what waits (the solver keeps its tables between slices), so a move waits at most
//     about one slice behind any page's analysis, and analyses of several pages take turns.
// Before each message the pages are told it starts (pages.js announceRun), so their watchdogs
// read the silence that follows as work; after it, the next waits for the messages that came
// meanwhile (a posted message is queued behind them), so a move that came during an analysis
// goes first.
import { BUDGET, MESSAGES, PLAY_KIND } from "./protocol.js";

/** The longest slice of a sliced message's budget, in seconds. */
export const SLICE_S = 1;
/** A budget left shorter than this is not worth another slice (s). */
const MIN_SLICE_S = 0.05;

/** The budget of a sliced message's arguments, or null (not sliced, or refused by the engine). */
function budgetOf(fn, args) {
  if (!Object.hasOwn(MESSAGES, fn) || !MESSAGES[fn].sliced || !args || typeof args !== "object") return null;
  const b = args[BUDGET.arg];
  return typeof b === "number" && b >= BUDGET.min && b <= BUDGET.max ? b : null;
}

/** How many of the latest waits the figures keep. */
const WAITS_KEPT = 500;

/**
 * The queue. `execute(page, fn, args)` runs one message in Python and returns its reply
 * ({ok, result, save?} or {ok: false, error}); `onRun(job)` is called before, `onReply(job, out)`
 * with the reply; `alive(page)` says whether a page is still there. Requests wait until `open()`.
 * `figures` (for tools/bench_site.py) gathers how long play messages waited to start (ms) and
 * how many slices ran.
 */
export function createSchedule({ execute, onRun, onReply, alive, figures = { playWaits: [], slices: 0 } }) {
  const play = [];
  const analysis = [];
  let open = false;
  let running = false;
  let rung = false;
  let lastActive = performance.now();
  const bell = new MessageChannel();
  bell.port1.onmessage = () => {
    rung = false;
    next();
  };

  function ring() {
    if (!open || running || rung || (!play.length && !analysis.length)) return;
    rung = true;
    bell.port2.postMessage(null);
  }

  function next() {
    const job = play.shift() || analysis.shift();
    if (!job) return;
    if (job.kind === PLAY_KIND) {
      figures.playWaits.push(performance.now() - job.came);
      if (figures.playWaits.length > WAITS_KEPT) figures.playWaits.shift();
    }
    running = true;
    let out;
    try {
      onRun(job);
      const slice = job.left === null ? null : Math.min(job.left, SLICE_S);
      const t0 = performance.now();
      out = execute(job.page, job.fn, slice === null ? job.args : { ...job.args, [BUDGET.arg]: slice });
      if (slice !== null) {
        job.left -= (performance.now() - t0) / 1000;
        figures.slices += 1;
      }
    } finally {
      running = false;
      lastActive = performance.now();
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
      const job = { page, id: msg && msg.id, fn, args, kind, left: budgetOf(fn, args), came: performance.now() };
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
