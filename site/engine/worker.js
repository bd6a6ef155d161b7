// Engine worker (module worker): boots Pyodide with the spades engine, then
// answers requests. Protocol: see engine.js; the "ready" progress message also
// says which way the runtime booted: {type: "progress", stage: "ready", fraction: 1,
// boot: "snapshot" | "plain"}.
//
// Boot paths (snapshot.js keeps the snapshot):
//   snapshot  a stored memory snapshot of this build and Pyodide version is
//             restored with loadPyodide({_loadSnapshot}) (its size and sha256 are
//             checked meanwhile) and the engine is checked with a ping.
//   plain     Pyodide starts normally (with _makeSnapshot), the wheel is unpacked
//             into site-packages (no micropip: a snapshot may not hold JavaScript
//             objects), every engine module is imported, and the memory snapshot is
//             taken at once, before the engine is asked anything; it is stored
//             once the engine has had no request for STORE_IDLE_MS after "ready"
//             (hashing and writing 30 MB would otherwise compete with dealing the
//             first hand), so storing never delays the first bid.
// A snapshot that is missing, stale, corrupt or fails to restore means a plain
// boot (and a fresh snapshot); the page never sees an error from it.
// self.spadesBoot holds the figures of this boot (path, timings, bytes stored).
import { loadPyodide } from "../pyodide/pyodide.mjs";
import { dropSnapshot, findSnapshot, storeSnapshot } from "./snapshot.js";
import { MSG } from "./protocol.js";

// Imports every module of the engine, so a restored heap needs no files (nor the
// bytecode caches Python would otherwise write beside them: never read again).
const IMPORT_ENGINE = `
import sys
sys.dont_write_bytecode = True
import importlib, pkgutil, spades
for _m in pkgutil.walk_packages(spades.__path__, "spades."):
    if not _m.name.endswith(".__main__"):
        importlib.import_module(_m.name)
del _m
`;
const SITE_PACKAGES = "import sysconfig; sysconfig.get_paths()['purelib']";
const PING = JSON.stringify({ fn: MSG.PING, args: {} });
/** The snapshot is stored once no request came for this long (ms). */
const STORE_IDLE_MS = 500;

let lastRequest = 0; // performance.now() of the latest request

const queue = [];
let handle = null; // Python spades.bridge.handle once booted
let bootFailed = null; // message when boot failed

function progress(stage, fraction, extra = {}) {
  if (self.spadesBoot) self.spadesBoot.marks[`${stage}:${fraction}`] = performance.timeOrigin + performance.now();
  self.postMessage({ type: "progress", stage, fraction, ...extra });
}

/** An exception's own message (for the reply's `message`; the page shows the code's text). */
function messageOf(err) {
  if (err && typeof err === "object" && "message" in err) return String(err.message);
  return String(err);
}

function reply(id, payload) {
  self.postMessage({ type: "reply", id, ...payload });
}

function answer(msg) {
  const id = msg && msg.id;
  if (bootFailed !== null) {
    reply(id, { ok: false, error: { code: "boot", message: bootFailed } });
    return;
  }
  let out;
  try {
    const text = handle(JSON.stringify({ fn: msg.fn, args: msg.args ?? {} }));
    out = JSON.parse(text);
  } catch (err) {
    reply(id, { ok: false, error: { code: "internal", message: messageOf(err) } });
    return;
  }
  if (out && out.ok === true) {
    reply(id, typeof out.save === "string" ? { ok: true, result: out.result, save: out.save } : { ok: true, result: out.result });
  } else {
    const error = (out && out.error) || {};
    reply(id, {
      ok: false,
      error: {
        code: error.code ? String(error.code) : "internal",
        message: error.message ? String(error.message) : "malformed engine reply",
      },
    });
  }
}

self.onmessage = (event) => {
  const msg = event.data;
  lastRequest = performance.now();
  if (handle === null && bootFailed === null) queue.push(msg);
  else answer(msg);
};

async function fetchOk(url) {
  const resp = await fetch(url, { cache: "no-cache" });
  if (!resp.ok) throw new Error(`${new URL(url).pathname}: HTTP ${resp.status}`);
  return resp;
}

// Wasm memory after boot, for tools/bench_site.py (private field: may vanish in an upgrade).
function heapBytes(pyodide) {
  const heap = pyodide._module && pyodide._module.HEAP8;
  return heap ? heap.length : null;
}

function bridgeHandle(pyodide) {
  const h = pyodide.pyimport("spades.bridge").handle;
  const pong = JSON.parse(h(PING));
  if (!pong || pong.ok !== true) throw new Error("the engine does not answer ping");
  return h;
}

// Runs `during`, failing at once if a wasm instantiation fails meanwhile: Pyodide's loader
// only logs that (a blocked or corrupt pyodide.asm.wasm) and then waits forever.
async function failFastOnWasm(during) {
  let fail;
  const failed = new Promise((_, reject) => { fail = reject; });
  const real = { instantiate: WebAssembly.instantiate, instantiateStreaming: WebAssembly.instantiateStreaming };
  for (const [name, fn] of Object.entries(real)) {
    WebAssembly[name] = function watched(...args) {
      const result = fn.apply(this, args);
      result.catch(fail);
      return result;
    };
  }
  try {
    return await Promise.race([during(), failed]);
  } finally {
    Object.assign(WebAssembly, real);
  }
}

async function restore(indexURL, stdLibURL, snapshot) {
  const t0 = performance.now();
  // Verify the snapshot while Pyodide's loader script loads (a snapshot promise
  // handed to loadPyodide that rejects takes the worker down with it).
  const [bytes, asm] = await Promise.all([snapshot.bytes, import("../pyodide/pyodide.asm.mjs")]);
  self.spadesBoot.verifyMs = Math.round(performance.now() - t0);
  const pyodide = await failFastOnWasm(() => loadPyodide({ indexURL, stdLibURL, _loadSnapshot: bytes, createPyodideModule: asm.default }));
  const h = bridgeHandle(pyodide);
  self.spadesBoot.restoreMs = Math.round(performance.now() - t0);
  self.spadesBoot.heapBytes = heapBytes(pyodide);
  return h;
}

async function plainBoot(indexURL, stdLibURL, wheelURL) {
  const wheel = fetchOk(wheelURL).then((r) => r.arrayBuffer());
  wheel.catch(() => {}); // awaited below; no unhandled rejection meanwhile
  const pyodide = await failFastOnWasm(() => loadPyodide({ indexURL, stdLibURL, _makeSnapshot: true }));
  progress("runtime", 1);
  progress("engine", 0);
  const bytes = await wheel;
  const t0 = performance.now();
  pyodide.unpackArchive(bytes, "wheel", { extractDir: pyodide.runPython(SITE_PACKAGES) });
  const t1 = performance.now();
  pyodide.runPython(IMPORT_ENGINE);
  Object.assign(self.spadesBoot, { unpackMs: Math.round(t1 - t0), importMs: Math.round(performance.now() - t1) });
  let snapshot = null;
  const t2 = performance.now();
  try {
    snapshot = pyodide.makeMemorySnapshot();
  } catch {
    snapshot = null; // the game works without one
  }
  self.spadesBoot.snapshotMs = Math.round(performance.now() - t2);
  self.spadesBoot.heapBytes = heapBytes(pyodide);
  return { handle: bridgeHandle(pyodide), snapshot };
}

async function boot() {
  const base = new URL("../", import.meta.url); // the site root (this module is in engine/)
  const indexURL = new URL("./pyodide/", base).href;
  self.spadesBoot = { path: null, stored: null, marks: {} }; // marks: epoch ms per progress message
  progress("runtime", 0);
  const build = await (await fetchOk(new URL("build.json", base).href)).json();
  // The standard library trimmed to what the engine imports (build_site.py), not Pyodide's full one.
  const stdLibURL = new URL(build.stdlib, base).href;

  const stored = await findSnapshot(build, base);
  if (stored) {
    try {
      handle = await restore(indexURL, stdLibURL, stored);
      self.spadesBoot.path = "snapshot";
    } catch {
      await dropSnapshot(build); // e.g. a Pyodide that cannot read it: boot normally
    }
  }
  let fresh = null;
  if (handle === null) {
    const plain = await plainBoot(indexURL, stdLibURL, new URL(build.wheel, base).href);
    handle = plain.handle;
    fresh = plain.snapshot;
    self.spadesBoot.path = "plain";
  }
  progress("engine", 1);
  progress("ready", 1, { boot: self.spadesBoot.path });
  return fresh && { build, base, snapshot: fresh };
}

/** Run `fn` once the engine has had no request for STORE_IDLE_MS. */
function whenIdle(fn) {
  const wait = lastRequest + STORE_IDLE_MS - performance.now();
  if (wait <= 0) fn();
  else setTimeout(() => whenIdle(fn), wait);
}

async function keep({ build, base, snapshot }) {
  const t0 = performance.now();
  const ok = await storeSnapshot(build, base, snapshot);
  Object.assign(self.spadesBoot, { stored: ok, storeMs: Math.round(performance.now() - t0), bytes: ok ? snapshot.byteLength : 0 });
}

boot().then(
  (fresh) => {
    for (const msg of queue.splice(0)) answer(msg);
    lastRequest = performance.now();
    if (fresh) whenIdle(() => keep(fresh));
    else self.spadesBoot.stored = false;
  },
  (err) => {
    bootFailed = messageOf(err) || "engine failed to start";
    self.postMessage({ type: "boot-error", message: bootFailed });
    for (const msg of queue.splice(0)) answer(msg);
  },
);
