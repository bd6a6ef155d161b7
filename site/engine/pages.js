// pages.js: the pages an engine worker serves. A dedicated worker serves the one page that
// started it; a shared worker every page and frame of the site that connects to it (connect.js).
// Each page gets a session id of its own for the bridge's registry (spades/bridge/game.py), and
// its session ends when the page goes: it says BYE, or the Web Lock it holds while it lives
// ({type: LINK.HOLD, lock}) comes free (the page closed, crashed or was discarded).
//
// A page that connects while the engine boots, or after, is told at once where the boot stands
// (the latest progress or boot-error message): it may be the second page of a booted engine.
//
// The worker holds a Web Lock of its own for its whole life (holdLife) and tells every page its
// name ({type: LINK.LIFE, lock}): a page that asks for that lock is granted it only once the
// worker has ended (killed, crashed, out of memory), so it learns of that at once, even while
// the worker runs a long message and its silence is expected.
import { LINK } from "./protocol.js";

const pages = new Set();
let status = null; // the latest progress or boot-error message, for pages that connect later
let served = null; // {request(page, msg), gone(page)} once worker.js took over
const waiting = []; // [page, request] that came before
let nextSid = 1;
let lifeLock = null; // the name of the lock this worker holds while it lives (holdLife)

/** A page on `port` (a MessagePort, or the dedicated worker's own scope). */
export function connectPage(port, shared) {
  const page = { port, shared, sid: `page-${nextSid++}`, post: (msg) => port.postMessage(msg) };
  pages.add(page);
  port.addEventListener("message", (event) => onMessage(page, event.data));
  if (shared) port.start();
  page.post({ type: "watch", what: "tick" }); // a sign of life at once, as a new worker gives
  if (status) page.post(status);
  if (lifeLock) page.post({ type: LINK.LIFE, lock: lifeLock });
}

/** Hold this worker's life lock, then tell every page (and every later one) its name. */
export function holdLife() {
  if (!navigator.locks || !crypto.randomUUID) return;
  const name = `spades-engine-life-${crypto.randomUUID()}`;
  navigator.locks.request(name, () => {
    lifeLock = name;
    broadcast({ type: LINK.LIFE, lock: name });
    return new Promise(() => {}); // held until the worker ends
  }).catch(() => {});
}

function onMessage(page, msg) {
  if (!pages.has(page)) return;
  if (msg && msg.type === LINK.HOLD) {
    watchLock(page, msg.lock);
  } else if (msg && msg.type === LINK.BYE) {
    leave(page);
  } else if (served) {
    served.request(page, msg);
  } else {
    waiting.push([page, msg]);
  }
}

/** The page holds `lock` while it lives: once the worker gets it, the page is gone. */
function watchLock(page, lock) {
  if (typeof lock !== "string" || !navigator.locks) return;
  navigator.locks.request(lock, () => leave(page)).catch(() => {});
}

function leave(page) {
  if (!pages.delete(page)) return;
  if (page.shared) page.port.close(); // (a dedicated worker's scope is never closed here)
  for (let i = waiting.length - 1; i >= 0; i--) if (waiting[i][0] === page) waiting.splice(i, 1);
  if (served) served.gone(page);
}

/** Whether `page` is still connected. */
export const connected = (page) => pages.has(page);

/** Tell every page `msg`. */
export function broadcast(msg) {
  for (const page of pages) page.post(msg);
}

/** Tell every page where the boot stands (`msg`: progress or boot-error), now and on connecting. */
export function announce(msg) {
  status = msg;
  broadcast(msg);
}

/** The engine starts on `owner`'s request `id` (deadline `ms`): every page may hear silence meanwhile. */
export function announceRun(owner, id, ms) {
  for (const page of pages) page.post({ type: "watch", what: LINK.RUN, ms, id: page === owner ? id : null });
}

/** From now on `handlers` take the pages' requests (those that came before first, in order). */
export function servePages(handlers) {
  served = handlers;
  for (const [page, msg] of waiting.splice(0)) handlers.request(page, msg);
}
