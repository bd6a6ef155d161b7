// engine.js: starts the rules engine (Python, in worker.js) and talks to it, under the
// watch of watchdog.js.
//
//   import { startEngine } from "./engine.js";
//   const engine = startEngine({ onProgress, onSave, onFail });
//   await engine.ready;                        // resolves once Python is loaded
//   const r = await engine.call(MSG.PING, {});   // -> {pong: true, version, variant}
//
// The engine is shared by every page and frame of the site in this browser where it can be
// (connect.js): each page has a session of its own in it; `dedicated: true` starts a worker of
// this page's own instead (the review's extra engines).
//
// Protocol (postMessage, structured-clone JSON values):
//   page -> worker  {id, fn, args}            requests sent before boot ends are queued
//                   {type: LINK.HOLD, lock}, {type: LINK.BYE}   (connect.js: the page's lifetime)
//   worker -> page  {type: "progress", stage: "runtime"|"engine"|"ready", fraction: 0..1, boot?: "snapshot"|"plain"}
//                   (a page that connects later gets the latest at once)
//                   {type: "boot-error", message}
//                   {type: "reply", id, ok: true, result, save?}   save: the session as text
//                   after a message that changed it (passed to onSave, for localStorage)
//                   {type: "reply", id, ok: false, error: {code, message}}
//                   {type: "watch", what: "tick"|"fetch"|"bytes"}  signs of life (engine-worker.js)
//                   {type: "watch", what: LINK.RUN, ms, id}  the engine starts on a message:
//                   this page's request `id`, or another page's (id null)
//                   {type: LINK.LIFE, lock}  the worker's life lock: granted to this page
//                   once the worker has ended, which fails the engine at once
// The worker calls spades.bridge.handle(JSON.stringify({fn, args}), sid) with the page's own
// session id; a Python exception becomes error code "internal"; call() rejects with an Error
// carrying .code. The messages and their shapes are listed in protocol.js.
//
// A shared engine that ends, or falls or stays silent, before it was ready for this page is
// replaced once by a fresh one (SHARED_RESTARTS): a page reloaded just as the last page of its
// engine left meets the instance being ended, and would otherwise report a boot that never failed.
//
// Failures: a boot that fails or stalls rejects `ready` and every call with code "boot";
// a request past its deadline, a worker `error` or `messageerror` after boot, a worker that
// has ended (its life lock comes free) or one that stops ticking rejects every pending and
// later call with code "stopped". Either way the page lets the worker go (a shared one stays
// for pages that still use it) and `onFail(code)` is called once: the page then says so.
import { openEngine, takeEngine } from "./connect.js";
import { BOOT_ERROR, LINK, MESSAGES, deadlineOf } from "./protocol.js";
import { FAILED_BOOT, FAILED_STOPPED, FELL_SILENT, NO_WORD, QUEUE_WAIT_MS, createWatchdog } from "./watchdog.js";

/** Error code of requests to an engine that stopped answering. */
export const STOPPED_ERROR = FAILED_STOPPED;

function engineError(code, message) {
  const err = new Error(message || code || "engine error");
  err.code = code || "internal";
  return err;
}

const changes = (fn) => Object.hasOwn(MESSAGES, fn) && MESSAGES[fn].changes === true;

/** How many times a shared engine that ended before it was ready is replaced by a new one. */
const SHARED_RESTARTS = 1;

export function startEngine({ onProgress, onSave, onFail, dedicated = false } = {}) {
  let link = dedicated ? openEngine({ dedicated: true }) : takeEngine();
  let restarts = 0;
  const pending = new Map();
  let nextId = 1;
  let booted = false;
  let failure = null; // the Error every call gets once the engine failed
  let bootPath = null; // how the worker booted: "snapshot" | "plain" (null until ready)
  let settle;
  const ready = new Promise((resolve, reject) => {
    settle = { resolve, reject };
  });
  ready.catch(() => {}); // callers that never await `ready` get no unhandled rejection

  /** A watchdog for the current link: a worker silent from the start, or fallen silent, while
   * booting has ended for this page. */
  const silent = (detail) => detail === NO_WORD || detail === FELL_SILENT;
  const watch = () => createWatchdog({ onFail: (kind, detail) => (silent(detail) ? ended(link, detail) : fail(kind, detail)) });
  let watchdog = watch();

  function fail(kind, detail, quiet = false) {
    if (failure) return;
    failure = engineError(kind === FAILED_BOOT ? BOOT_ERROR : STOPPED_ERROR, detail);
    watchdog.stop();
    link.close(!quiet);
    settle.reject(failure);
    for (const p of pending.values()) {
      clearTimeout(p.timer);
      p.reject(failure);
    }
    pending.clear();
    if (!quiet) console.warn(`engine failed (${failure.code}): ${detail}`); // the why, for whoever debugs
    if (onFail && !quiet) onFail(failure.code);
  }

  /** Give request `p` `ms` to be answered (its deadline once it runs; QUEUE_WAIT_MS while it waits). */
  function arm(p, ms, running) {
    clearTimeout(p.timer);
    p.running = running;
    p.timer = setTimeout(() => fail(FAILED_STOPPED, `no reply to ${p.fn} within ${ms} ms${running ? "" : " of waiting"}`), ms);
  }

  /** The engine starts on a message: ours gets its deadline; ours that ran until now waits again. */
  function started(id) {
    for (const [key, p] of pending) {
      if (key === id) arm(p, p.ms, true);
      else if (p.running) arm(p, QUEUE_WAIT_MS, false);
    }
  }

  /**
   * The worker has ended (or failed) for this page: after boot the engine has failed; before
   * it, a shared engine is first replaced by a new one (its generation retired, the requests
   * sent again), up to SHARED_RESTARTS times.
   */
  function ended(from, detail) {
    if (failure || from !== link) return; // an earlier link's last word
    if (booted || !link.shared || restarts >= SHARED_RESTARTS) {
      fail(booted ? FAILED_STOPPED : FAILED_BOOT, detail);
      return;
    }
    restarts += 1;
    console.warn(`engine started again: ${detail} before it was ready`);
    link.close(true);
    watchdog.stop();
    watchdog = watch();
    link = openEngine();
    const now = link;
    queueMicrotask(() => now.listen(handlersOf(now)));
    for (const [id, p] of pending) now.post({ id, fn: p.fn, args: p.args });
  }

  /** The event handlers of `of`, one of this engine's links. */
  const handlersOf = (of) => ({
    message: (event) => of === link && onMessage(event),
    error: (event) => ended(of, (event && event.message) || "engine worker failed"),
    messageerror: () => of === link && fail(FAILED_STOPPED, "a reply could not be read"),
  });

  /** Ask for the worker's life lock: granted once the worker has ended, which ends the engine
   * (the worker names it once; ending twice would change nothing). */
  function watchLife(lock) {
    if (typeof lock !== "string" || !navigator.locks) return;
    const of = link;
    navigator.locks.request(lock, () => ended(of, "the engine worker has ended")).catch(() => {});
  }

  function onMessage(event) {
    if (failure) return;
    const msg = event.data || {};
    if (msg.type === "watch") {
      watchdog.sign(msg.what, msg.ms);
      if (msg.what === LINK.RUN) started(msg.id);
    } else if (msg.type === "progress") {
      watchdog.sign("progress");
      if (onProgress) {
        try {
          onProgress({ stage: msg.stage, fraction: msg.fraction });
        } catch (err) {
          console.warn("onProgress threw", err);
        }
      }
      if (msg.stage === "ready" && !booted) {
        booted = true;
        bootPath = typeof msg.boot === "string" ? msg.boot : null;
        watchdog.ready();
        for (const p of pending.values()) arm(p, QUEUE_WAIT_MS, false);
        settle.resolve();
      }
    } else if (msg.type === LINK.LIFE) {
      watchLife(msg.lock);
    } else if (msg.type === "boot-error") {
      fail(FAILED_BOOT, msg.message);
    } else if (msg.type === "reply") {
      watchdog.sign("reply");
      const p = pending.get(msg.id);
      if (!p) return;
      pending.delete(msg.id);
      clearTimeout(p.timer);
      if (msg.ok && typeof msg.save === "string" && onSave && changes(p.fn)) onSave(msg.save);
      if (msg.ok) p.resolve(msg.result);
      else p.reject(engineError(msg.error && msg.error.code, msg.error && msg.error.message));
    }
  }
  // Listen from a microtask, as a new worker's first event (a task) would arrive: so no
  // callback runs before the caller has finished setting up (an early-started link may
  // have failed already); what it said meanwhile is replayed first, in order.
  const first = link;
  queueMicrotask(() => first.listen(handlersOf(first)));

  function call(fn, args = {}) {
    if (failure) return Promise.reject(failure);
    return new Promise((resolve, reject) => {
      const id = nextId++;
      const p = { fn, args, resolve, reject, ms: deadlineOf(fn), timer: null, running: false };
      pending.set(id, p);
      if (booted) arm(p, QUEUE_WAIT_MS, false);
      link.post({ id, fn, args });
    });
  }

  return {
    call, ready,
    /** How the worker booted ("snapshot" or "plain"; null before it is ready). */
    get boot() { return bootPath; },
    /** Whether this engine is shared with other pages (null until its worker has started). */
    get shared() { return link.shared; },
    /** End this engine (an extra one the page no longer needs): a dedicated worker is terminated,
     * a shared one told this page left; pending and later calls are rejected with code "stopped";
     * onFail is not called. */
    stop: () => fail(FAILED_STOPPED, "stopped by the page", true),
  };
}
