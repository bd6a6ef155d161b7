// connect.js: the page's link to the engine worker.
//
// One engine serves every page and frame of the site in this browser: a SharedWorker, so a
// tutorial page with four frames boots Python once. Its name carries build.json (read here
// first: the worker need not fetch it again), so pages of two deployments never share an
// engine, and a generation (below). Where SharedWorker is missing, or cannot start, the page
// starts a dedicated Worker of its own, as the review's extra engines always do.
//
//   const link = openEngine({ dedicated });   // at once; the worker starts once build.json is read
//   link.listen({ message, error, messageerror });  // events kept until now come first, in order
//   link.post(msg);                            // kept until the worker exists
//   link.close(failed);                        // done with it (failed: the engine is dead)
//   link.shared                                // true | false, null until the worker exists
//
// A page leaving a shared engine: the page holds a Web Lock of its own while it lives and
// tells the worker its name ({type: LINK.HOLD}); the worker asks for the same lock and ends
// the page's session when it gets it (the page closed, crashed or was discarded). A page that
// goes away for good (pagehide, not into the back-forward cache) also says {type: LINK.BYE}.
// A dead shared engine (its pages' watchdogs decide) moves the site to the next generation:
// a reload starts a fresh engine even while other pages still hold the dead one.
import { LINK } from "./protocol.js";

// Both from the site root's level: the build bundles this module into a page's code, one
// folder below the root as engine/ is (site_compact.CHUNK_DIR).
const ENGINE_URL = new URL("../engine/engine-worker.js", import.meta.url);
const BUILD_URL = new URL("../build.json", import.meta.url);
/** localStorage: the generation of the shared engine pages start now. */
const GENERATION_KEY = "spades.engine.generation.v1";
const LOCK_PREFIX = "spades-engine-page-";
const EVENT_TYPES = ["message", "error", "messageerror"];

function generation() {
  try {
    return Number(localStorage.getItem(GENERATION_KEY)) || 0;
  } catch {
    return 0; // storage refused: every page uses generation 0
  }
}

/** The shared engine of generation `gen` is dead: pages that start from now on use the next one. */
function retire(gen) {
  try {
    if (generation() === gen) localStorage.setItem(GENERATION_KEY, String(gen + 1));
  } catch {
    // storage refused: a reload may meet the dead engine again, and report it again
  }
}

const bootError = (message) => ({ type: "message", data: { type: "boot-error", message } });

/** A link to a new engine connection (see the header). */
export function openEngine({ dedicated = false } = {}) {
  const early = [];
  const outbox = [];
  let handlers = null;
  let port = null; // where messages go: the Worker itself, or the SharedWorker's port
  let stop = () => {}; // ends this page's use of the worker
  let gen = 0;
  let closed = false;
  const link = { early, shared: null, post, listen, close };

  function deliver(event) {
    if (event.type === "error" && event.preventDefault) event.preventDefault(); // engine.js reports it
    if (closed) return;
    if (handlers) handlers[event.type](event);
    else early.push(event);
  }

  function post(msg) {
    if (closed) return;
    if (port) port.postMessage(msg);
    else outbox.push(msg);
  }

  function listen(given) {
    handlers = given;
    for (const event of early.splice(0)) handlers[event.type](event);
  }

  function close(failed = false) {
    if (closed) return;
    closed = true;
    stop();
    if (failed && link.shared) retire(gen);
  }

  function attach(to, target, shared) {
    port = to;
    link.shared = shared;
    for (const msg of outbox.splice(0)) port.postMessage(msg);
    return target;
  }

  function startDedicated(name) {
    let worker;
    try {
      worker = new Worker(ENGINE_URL, { type: "module", name });
    } catch (err) {
      deliver(bootError((err && err.message) || "the engine worker could not be started"));
      return;
    }
    for (const type of EVENT_TYPES) worker.addEventListener(type, deliver);
    stop = () => worker.terminate();
    attach(worker, worker, false);
  }

  function startShared(name) {
    let worker;
    try {
      worker = new SharedWorker(ENGINE_URL, { type: "module", name });
    } catch {
      startDedicated(name); // e.g. a sandboxed frame: an engine of its own
      return;
    }
    let heard = false;
    const sp = worker.port;
    sp.addEventListener("message", (event) => {
      heard = true;
      deliver(event);
    });
    sp.addEventListener("messageerror", deliver);
    worker.addEventListener("error", (event) => {
      event.preventDefault();
      if (heard || closed) {
        deliver(event);
      } else {
        // never started (a browser that runs no module SharedWorker, say): a worker of its own
        sp.close();
        startDedicated(name);
      }
    });
    sp.start();
    const hold = holdWhileAlive(sp);
    const onHide = (event) => {
      if (!event.persisted) close();
    };
    addEventListener("pagehide", onHide);
    stop = () => {
      removeEventListener("pagehide", onHide);
      sp.postMessage({ type: LINK.BYE });
      hold();
      sp.close();
    };
    attach(sp, worker, true);
  }

  fetch(BUILD_URL, { cache: "no-cache" })
    .then((resp) => {
      if (!resp.ok) throw new Error(`build.json: HTTP ${resp.status}`);
      return resp.json();
    })
    .then((build) => {
      if (closed) return;
      gen = generation();
      const name = JSON.stringify({ build, generation: gen });
      if (!dedicated && typeof SharedWorker === "function") startShared(name);
      else startDedicated(name);
    })
    .catch((err) => deliver(bootError((err && err.message) || "build.json could not be read")));
  return link;
}

/**
 * Hold a Web Lock of this page's own while the page lives and tell the shared worker its name
 * (see the header). Returns the function that lets the lock go. Without Web Locks, only the
 * BYE message ends the page's session.
 */
function holdWhileAlive(port) {
  let release = () => {};
  if (!navigator.locks || typeof crypto === "undefined" || !crypto.randomUUID) return release;
  const lock = LOCK_PREFIX + crypto.randomUUID();
  navigator.locks
    .request(lock, () => new Promise((resolve) => {
      release = resolve;
      port.postMessage({ type: LINK.HOLD, lock });
    }))
    .catch(() => {}); // locks refused: only BYE ends the session
  return () => release();
}

/** Start the page's engine now (engine-start.js, from the page's head); engine.js adopts it. */
export function startEarly() {
  if (!("spadesEarlyEngine" in self)) self.spadesEarlyEngine = openEngine();
}

/** The link engine-start.js opened early (its events kept meanwhile), else a new one. */
export function takeEngine() {
  const early = self.spadesEarlyEngine;
  self.spadesEarlyEngine = null; // taken: engine-start.js, if it runs late, does nothing
  return early || openEngine();
}
