// engine.js: starts the rules engine (Python, in worker.js) and talks to it.
//
//   import { startEngine } from "./engine.js";
//   const engine = startEngine({ onProgress: ({ stage, fraction }) => ... });
//   await engine.ready;                        // resolves once Python is loaded
//   const r = await engine.call("ping", {});   // -> {pong: true, version, variant}
//
// Protocol (postMessage, structured-clone JSON values):
//   page -> worker  {id, fn, args}            requests sent before boot ends are queued
//   worker -> page  {type: "progress", stage: "runtime"|"engine"|"ready", fraction: 0..1, boot?: "snapshot"|"plain"}
//                   {type: "boot-error", message}
//                   {type: "reply", id, ok: true, result, save?}   save: the session as text
//                   after a message that changed it (passed to onSave, for localStorage)
//                   {type: "reply", id, ok: false, error: {code, message}}
// The worker calls spades.bridge.handle(JSON.stringify({fn, args})); a Python
// exception becomes error code "internal"; a failed boot rejects `ready` and
// every call with code "boot". call() rejects with an Error carrying .code.
// The messages and their shapes are listed in protocol.js.
import { BOOT_ERROR, MESSAGES } from "./protocol.js";

function engineError(code, message) {
  const err = new Error(message || code || "engine error");
  err.code = code || "internal";
  return err;
}

export function startEngine({ onProgress, onSave } = {}) {
  const worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
  const pending = new Map();
  let nextId = 1;
  let settle;
  const ready = new Promise((resolve, reject) => {
    settle = { resolve, reject };
  });
  ready.catch(() => {}); // callers that never await `ready` get no unhandled rejection

  worker.onmessage = (event) => {
    const msg = event.data || {};
    if (msg.type === "progress") {
      if (onProgress) {
        try {
          onProgress({ stage: msg.stage, fraction: msg.fraction });
        } catch (err) {
          console.warn("onProgress threw", err);
        }
      }
      if (msg.stage === "ready") settle.resolve();
    } else if (msg.type === "boot-error") {
      settle.reject(engineError(BOOT_ERROR, msg.message));
    } else if (msg.type === "reply") {
      const p = pending.get(msg.id);
      if (!p) return;
      pending.delete(msg.id);
      if (msg.ok && typeof msg.save === "string" && onSave && p.changes) onSave(msg.save);
      if (msg.ok) p.resolve(msg.result);
      else p.reject(engineError(msg.error && msg.error.code, msg.error && msg.error.message));
    }
  };
  worker.onerror = (event) => {
    const err = engineError(BOOT_ERROR, (event && event.message) || "engine worker failed to load");
    settle.reject(err);
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };

  function call(fn, args = {}) {
    return new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject, changes: Boolean(MESSAGES[fn] && MESSAGES[fn].changes) });
      worker.postMessage({ id, fn, args });
    });
  }

  return { call, ready, worker };
}
