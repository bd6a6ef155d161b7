// Engine worker (module worker, shared or dedicated): boots Pyodide with the spades engine,
// then answers the requests of every page it serves (pages.js), each in the page's own
// session, in the order schedule.js gives. Protocol: see engine.js; the "ready" progress
// message also says which way the runtime booted: {type: "progress", stage: "ready",
// fraction: 1, boot: "snapshot" | "plain"}. build.json comes in the worker's name
// (connect.js); a worker started without it fetches it.
//
// Boot paths (snapshot.js keeps the snapshot):
//   snapshot  a stored memory snapshot of this build and Pyodide version is
//             restored with loadPyodide({_loadSnapshot}) (its size and sha256 are
//             checked meanwhile) and the engine is checked with a ping.
//   plain     Pyodide starts normally (with _makeSnapshot), the engine's bytecode
//             (build.engine: every module compiled for this Python at build time,
//             engine_bytecode.py) is unpacked into site-packages (no micropip: a
//             snapshot may not hold JavaScript objects), every engine module is
//             imported without compiling, and the memory snapshot is
//             taken at once, before the engine is asked anything; it is stored
//             once the engine has had no request for STORE_IDLE_MS after "ready"
//             (hashing and writing 30 MB would otherwise compete with dealing the
//             first hand), so storing never delays the first bid.
// A snapshot that is missing, stale, corrupt or fails to restore means a plain
// boot (and a fresh snapshot); the page never sees an error from it.
// self.spadesBoot holds the figures of this boot (path, timings, bytes stored).
// Pyodide's loader (pyodide.mjs) is imported when the boot starts, beside the snapshot's
// lookup, not as a static import: the build bundles this worker into one script
// (site_compact.bundle_workers), so the loader is the worker's first request, and a loader
// that cannot be fetched is reported as a boot error like any other file.
import { dropSnapshot, findSnapshot, storeSnapshot } from "./snapshot.js";
import { MSG, deadlineOf } from "./protocol.js";
import { announce, announceRun, connected, servePages } from "./pages.js";
import { createSchedule } from "./schedule.js";

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
const END_SESSION = JSON.stringify({ fn: MSG.END_SESSION, args: {} });
/** The snapshot is stored once no request came for this long (ms). */
const STORE_IDLE_MS = 500;

let handle = null; // Python spades.bridge.handle once booted
let bootFailed = null; // message when boot failed

function progress(stage, fraction, extra = {}) {
  if (self.spadesBoot) self.spadesBoot.marks[`${stage}:${fraction}`] = performance.timeOrigin + performance.now();
  announce({ type: "progress", stage, fraction, ...extra });
}

/** An exception's own message (for the reply's `message`; the page shows the code's text). */
function messageOf(err) {
  if (err && typeof err === "object" && "message" in err) return String(err.message);
  return String(err);
}

/** Run `fn` with `args` in `page`'s session: the reply's payload ({ok, result, save?} | {ok, error}). */
function execute(page, fn, args) {
  if (bootFailed !== null) return { ok: false, error: { code: "boot", message: bootFailed } };
  let out;
  try {
    out = JSON.parse(handle(JSON.stringify({ fn, args: args ?? {} }), page.sid));
  } catch (err) {
    return { ok: false, error: { code: "internal", message: messageOf(err) } };
  }
  if (out && out.ok === true) {
    return typeof out.save === "string" ? { ok: true, result: out.result, save: out.save } : { ok: true, result: out.result };
  }
  const error = (out && out.error) || {};
  return {
    ok: false,
    error: {
      code: error.code ? String(error.code) : "internal",
      message: error.message ? String(error.message) : "malformed engine reply",
    },
  };
}

const schedule = createSchedule({
  execute,
  onRun: (job) => announceRun(job.page, job.id, deadlineOf(job.fn)),
  onReply: (job, out) => job.page.post({ type: "reply", id: job.id, ...out }),
  alive: connected,
});

servePages({
  request: (page, msg) => schedule.add(page, msg),
  gone: (page) => {
    schedule.drop(page);
    if (handle !== null) {
      try {
        handle(END_SESSION, page.sid); // its match, if any, leaves the registry
      } catch {
        // nothing to free
      }
    }
  },
});

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

async function restore(loadPyodide, indexURL, stdLibURL, snapshot) {
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

async function plainBoot(loadPyodide, indexURL, stdLibURL, engineURL) {
  const engine = fetchOk(engineURL).then((r) => r.arrayBuffer());
  engine.catch(() => {}); // awaited below; no unhandled rejection meanwhile
  const pyodide = await failFastOnWasm(() => loadPyodide({ indexURL, stdLibURL, _makeSnapshot: true }));
  progress("runtime", 1);
  progress("engine", 0);
  const bytes = await engine;
  const t0 = performance.now();
  pyodide.unpackArchive(bytes, "zip", { extractDir: pyodide.runPython(SITE_PACKAGES) });
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
  const loader = import("../pyodide/pyodide.mjs");
  loader.catch(() => {}); // awaited below; no unhandled rejection meanwhile
  const build = namedBuild() || (await (await fetchOk(new URL("build.json", base).href)).json());
  // The standard library trimmed to what the engine imports (build_site.py), not Pyodide's full one.
  const stdLibURL = new URL(build.stdlib, base).href;

  const stored = await findSnapshot(build, base);
  const { loadPyodide } = await loader;
  if (stored) {
    try {
      handle = await restore(loadPyodide, indexURL, stdLibURL, stored);
      self.spadesBoot.path = "snapshot";
    } catch {
      await dropSnapshot(build); // e.g. a Pyodide that cannot read it: boot normally
    }
  }
  let fresh = null;
  if (handle === null) {
    const plain = await plainBoot(loadPyodide, indexURL, stdLibURL, new URL(build.engine, base).href);
    handle = plain.handle;
    fresh = plain.snapshot;
    self.spadesBoot.path = "plain";
  }
  progress("engine", 1);
  progress("ready", 1, { boot: self.spadesBoot.path });
  return fresh && { build, base, snapshot: fresh };
}

/** build.json as the page read it and named the worker by (connect.js), or null. */
function namedBuild() {
  try {
    const { build } = JSON.parse(self.name);
    return build && typeof build.build === "string" ? build : null;
  } catch {
    return null;
  }
}

/** Run `fn` once the engine has had no request for STORE_IDLE_MS. */
function whenIdle(fn) {
  const wait = STORE_IDLE_MS - schedule.idleMs();
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
    schedule.open();
    if (fresh) setTimeout(() => whenIdle(() => keep(fresh)), STORE_IDLE_MS);
    else self.spadesBoot.stored = false;
  },
  (err) => {
    bootFailed = messageOf(err) || "engine failed to start";
    announce({ type: "boot-error", message: bootFailed });
    schedule.open();
  },
);
