// engine-worker.js: the engine worker's entry, as a shared worker (every page of the site
// connects to it) or as a dedicated one (the page that started it): pages.js keeps the pages.
// It gives the pages' watchdogs (watchdog.js) signs of life before and while worker.js boots
// Pyodide, then loads worker.js itself.
//
// The page starts this module as the worker; it posts every page {type: "watch", what} messages:
//   "tick"   every TICK_MS while the worker's event loop is free (a busy worker, e.g.
//            compiling WebAssembly or running Python, ticks late: the page reads a late
//            tick as work done, a missing tick while idle as a stopped worker)
//   "fetch"  a request started; "bytes" part of a body arrived (at most every BYTES_MS);
//            so a slow download is progress, a request that never answers is not.
// worker.js itself is imported once the ticks run; requests that arrive meanwhile are
// kept (pages.js) and handed to worker.js, in order. If worker.js (or a module it
// imports) cannot be loaded, the failure is reported as {type: "boot-error"}. The build
// bundles worker.js and its modules into this script (site_compact.bundle_workers): there
// the import runs it without a request, and the worker's first request is Pyodide's loader.
// Nothing here reads or changes the requests or the engine's replies.
import { announce, broadcast, connectPage, holdLife } from "./pages.js";

/** Interval of the "alive" ticks (ms). */
const TICK_MS = 500;
/** At most one "bytes" report per this many ms. */
const BYTES_MS = 250;

const watch = (what) => broadcast({ type: "watch", what });
setInterval(() => watch("tick"), TICK_MS);

const plainFetch = self.fetch.bind(self);

/** `response` with a body that reports its arrival (same status, headers and url). */
function counted(response) {
  if (!response.body || typeof TransformStream !== "function") return response;
  let last = 0;
  const body = response.body.pipeThrough(new TransformStream({
    transform(chunk, out) {
      const now = performance.now();
      if (now - last >= BYTES_MS) {
        last = now;
        watch("bytes");
      }
      out.enqueue(chunk);
    },
  }));
  const copy = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  Object.defineProperty(copy, "url", { value: response.url });
  return copy;
}

self.fetch = async function watchedFetch(input, init) {
  watch("fetch");
  const response = await plainFetch(input, init);
  watch("bytes");
  return counted(response);
};

if (typeof SharedWorkerGlobalScope === "function" && self instanceof SharedWorkerGlobalScope) {
  self.onconnect = (event) => connectPage(event.ports[0], true);
} else {
  connectPage(self, false);
}

holdLife();
watch("fetch"); // loading worker.js and its modules starts: a request of its own
import("./worker.js").catch((err) => {
  const text = err && err.message ? String(err.message) : "the engine worker could not be loaded";
  announce({ type: "boot-error", message: text });
});
