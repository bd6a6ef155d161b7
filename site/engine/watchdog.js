// watchdog.js: decides, on the page's side, when the engine worker has failed.
//
// Signs of life come from engine-worker.js ({type: "watch"}: ticks, requests, bytes, and the
// start of every message it runs, any page's) and from worker.js (boot progress, replies). The
// watchdog fails the engine when:
//   boot     nothing at all came from the worker for BOOT_SILENT_MS (its first module
//            never loaded); or the worker is idle (ticking on time) and has made no
//            progress for BOOT_STALL_MS (a file blocked, corrupt or never answering);
//            or it has been busy without a word for BOOT_BUSY_MS
//   request  a request was not answered by its deadline (deadlineOf) once the engine started
//            on it, or was not started within QUEUE_WAIT_MS (engine.js keeps these clocks)
//   idle     the page is visible and the worker has not ticked for IDLE_SILENT_MS, unless it
//            is running a message (any page's: an engine may serve several) within that
//            message's deadline: Python answers one message at a time and cannot tick meanwhile
// Timings are named here and nowhere else, but each message's deadline: that is a column
// of the protocol's table (protocol.js, from spades/bridge/protocol.py).
import { LINK } from "./protocol.js";

/** The worker never said anything since it was started (its first module did not load). */
const BOOT_SILENT_MS = 8000;
/** Boot made no progress while the worker was idle: a file is blocked, corrupt or stalled.
 * Generous: on a loaded device the browser's own module loading and wasm compiling leave the
 * worker idle without a sign for seconds (2.3 s measured with 12 busy processes on 2 cores). */
const BOOT_STALL_MS = 10000;
/** Boot's longest silence while the worker is busy (no ticks): compiling, unpacking. */
const BOOT_BUSY_MS = 45000;
/** A tick this late means the worker was busy working: that counts as progress. */
const TICK_LATE_MS = 1500;
/** After boot, while no message runs: the worker is gone when it has not ticked this long. */
const IDLE_SILENT_MS = 4000;
/** How often the watchdog looks. */
const CHECK_MS = 250;
/** A look this late means the page's own thread was blocked: that look judges nothing. */
const PAGE_LATE_MS = 2000;

/** A request may wait this long for the engine to start on it (behind other pages' messages). */
export const QUEUE_WAIT_MS = 120000;

/** Why the engine failed: it could not start, or it stopped answering. */
export const FAILED_BOOT = "boot";
export const FAILED_STOPPED = "stopped";
/** Why a boot failed when the worker never said a word, or fell silent (a shared one may
 * have been ending). */
export const NO_WORD = "no word from the worker";
export const FELL_SILENT = "boot silent";

/**
 * A watchdog. `onFail(kind, detail)` is called once (kind FAILED_BOOT | FAILED_STOPPED).
 * Call `sign(what, ms)` for every message from the worker (`ms`: a RUN's deadline), `ready()`
 * once it has booted, `stop()` when it failed for another reason.
 */
export function createWatchdog({ onFail, now = () => performance.now() }) {
  const started = now();
  let lastTick = null; // when the worker last ticked (null: never)
  let lastProgress = started; // the last boot progress, request, bytes or late tick
  let busyUntil = 0; // the deadline of the message the engine is running (0: none)
  let booted = false;
  let done = false;
  const timer = setInterval(check, CHECK_MS);

  function fail(kind, detail) {
    if (done) return;
    done = true;
    clearInterval(timer);
    onFail(kind, detail);
  }

  let lastCheck = started;

  function check() {
    const t = now();
    const pageWasBusy = t - lastCheck > PAGE_LATE_MS;
    lastCheck = t;
    if (pageWasBusy && lastTick !== null) {
      // the page itself was blocked: the worker's ticks may still wait in its queue
      lastTick = t;
      return;
    }
    if (!booted) {
      if (lastTick === null) {
        if (t - started > BOOT_SILENT_MS) fail(FAILED_BOOT, NO_WORD);
      } else if (t - lastTick < TICK_LATE_MS) {
        if (t - lastProgress > BOOT_STALL_MS) fail(FAILED_BOOT, "boot stalled");
      } else if (t - Math.max(lastTick, lastProgress) > BOOT_BUSY_MS) {
        fail(FAILED_BOOT, FELL_SILENT);
      }
      return;
    }
    if (document.visibilityState !== "visible" || t < busyUntil) {
      lastTick = t; // silence while hidden or running a message is not a death
      return;
    }
    if (t - lastTick > IDLE_SILENT_MS) fail(FAILED_STOPPED, "the worker stopped ticking");
  }

  return {
    /** A message from the worker: "tick", "fetch", "bytes", LINK.RUN (with its deadline `ms`),
     * "progress" or "reply". */
    sign(what, ms = 0) {
      const t = now();
      if (what === "tick") {
        if (lastTick !== null && t - lastTick > TICK_LATE_MS) lastProgress = t;
        lastTick = t;
        busyUntil = 0; // a tick is sent only between messages: the last one has ended
      } else if (what === LINK.RUN) {
        busyUntil = t + ms;
      } else {
        if (what === "reply") busyUntil = 0; // one message runs at a time: the one that ran has ended
        lastProgress = t;
      }
    },
    ready() {
      booted = true;
      lastTick = now();
    },
    /** A request missed its deadline, or the worker reported an error. */
    fail,
    stop() {
      done = true;
      clearInterval(timer);
    },
  };
}
