// engine.js: starts the rules engine (Python, in worker.js) and talks to it, under the
// watch of watchdog.js.
//
//   import { startEngine } from "./engine.js";
//   const engine = startEngine({ onProgress, onSave, onFail });
//   await engine.ready;                        // resolves once Python is loaded
//   const r = await engine.call(MSG.PING, {});   // -> {pong: true, version, variant}
//
// Protocol (postMessage, structured-clone JSON values):
//   page -> worker  {id, fn, args}            requests sent before boot ends are queued
//   worker -> page  {type: "progress", stage: "runtime"|"engine"|"ready", fraction: 0..1, boot?: "snapshot"|"plain"}
//                   {type: "boot-error", message}
//                   {type: "reply", id, ok: true, result, save?}   save: the session as text
//                   after a message that changed it (passed to onSave, for localStorage)
//                   {type: "reply", id, ok: false, error: {code, message}}
//                   {type: "watch", what: "tick"|"fetch"|"bytes"}  signs of life (engine-worker.js)
// The worker calls spades.bridge.handle(JSON.stringify({fn, args})); a Python
// exception becomes error code "internal"; call() rejects with an Error carrying .code.
// The messages and their shapes are listed in protocol.js.
//
// Failures: a boot that fails or stalls rejects `ready` and every call with code "boot";
// a request past its deadline, a worker `error` or `messageerror` after boot, or a worker
// that stops ticking rejects every pending and later call with code "stopped". Either
// way the worker is terminated and `onFail(code)` is called once: the page then says so.
import { BOOT_ERROR, MESSAGES } from "./protocol.js";
import { FAILED_BOOT, FAILED_STOPPED, createWatchdog, deadlineOf } from "./watchdog.js";

/** Error code of requests to an engine that stopped answering. */
export const STOPPED_ERROR = FAILED_STOPPED;

function engineError(code, message) {
  const err = new Error(message || code || "engine error");
  err.code = code || "internal";
  return err;
}

const changes = (fn) => Object.hasOwn(MESSAGES, fn) && MESSAGES[fn].changes === true;

/**
 * The engine worker: the one engine-start.js started early (with the events it kept
 * meanwhile), else a new one. Either way later early starts are told not to start another.
 */
function takeWorker() {
  const early = self.spadesEarlyEngine;
  self.spadesEarlyEngine = null; // taken: engine-start.js, if it runs late, does nothing
  if (early && early.worker) return early;
  return { worker: new Worker(new URL("./engine-worker.js", import.meta.url), { type: "module" }), early: [], keep: null };
}

const EVENT_TYPES = ["message", "error", "messageerror"];

export function startEngine({ onProgress, onSave, onFail } = {}) {
  const { worker, early, keep } = takeWorker();
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

  const watchdog = createWatchdog({ pending: () => pending.size, onFail: (kind, detail) => fail(kind, detail) });

  function fail(kind, detail, quiet = false) {
    if (failure) return;
    failure = engineError(kind === FAILED_BOOT ? BOOT_ERROR : STOPPED_ERROR, detail);
    watchdog.stop();
    worker.terminate();
    settle.reject(failure);
    for (const p of pending.values()) {
      clearTimeout(p.timer);
      p.reject(failure);
    }
    pending.clear();
    if (onFail && !quiet) onFail(failure.code);
  }

  /** Start the request's clock (requests sent during boot wait for it to end). */
  function arm(id, p) {
    p.timer = setTimeout(() => fail(FAILED_STOPPED, `no reply to ${p.fn} within ${p.ms} ms`), p.ms);
  }

  const handlers = {
    message: onMessage,
    error: (event) => {
      event.preventDefault();
      fail(booted ? FAILED_STOPPED : FAILED_BOOT, (event && event.message) || "engine worker failed");
    },
    messageerror: () => fail(FAILED_STOPPED, "a reply could not be read"),
  };

  function onMessage(event) {
    if (failure) return;
    const msg = event.data || {};
    if (msg.type === "watch") {
      watchdog.sign(msg.what);
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
        for (const [id, p] of pending) arm(id, p);
        settle.resolve();
      }
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
  // callback runs before the caller has finished setting up (an early-started worker may
  // have failed already); what it said meanwhile is replayed first, in order.
  queueMicrotask(() => {
    if (keep) for (const type of EVENT_TYPES) worker.removeEventListener(type, keep);
    for (const type of EVENT_TYPES) worker.addEventListener(type, handlers[type]);
    for (const event of early) handlers[event.type](event);
  });

  function call(fn, args = {}) {
    if (failure) return Promise.reject(failure);
    return new Promise((resolve, reject) => {
      const id = nextId++;
      const p = { fn, resolve, reject, ms: deadlineOf(fn), timer: null };
      pending.set(id, p);
      if (booted) arm(id, p);
      worker.postMessage({ id, fn, args });
    });
  }

  return {
    call, ready, worker,
    /** How the worker booted ("snapshot" or "plain"; null before it is ready). */
    get boot() { return bootPath; },
    /** End this engine (an extra one the page no longer needs): its worker is terminated,
     * its pending and later calls rejected with code "stopped"; onFail is not called. */
    stop: () => fail(FAILED_STOPPED, "stopped by the page", true),
  };
}
