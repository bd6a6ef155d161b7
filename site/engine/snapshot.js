// snapshot.js: the engine worker's Pyodide memory snapshot, kept on this device.
//
// A snapshot is the Python heap right after the engine was imported; restoring it
// skips Pyodide's whole start-up. It lives in Cache Storage, one cache per build
// ("spades-snapshot-<build>", one entry per Pyodide version), so it is keyed by
// build hash and Pyodide version. sw.js deletes the caches of other builds when a
// new deployment activates; storing a snapshot deletes them too (pages without a
// service worker). Every failure here is quiet: a missing, stale, truncated or
// corrupt snapshot never reaches Pyodide, and a refused or over-quota store as false, so
// the worker simply boots Pyodide the normal way.

export const SNAPSHOT_PREFIX = "spades-snapshot-"; // sw.js keeps the same prefix
const HEADER_BUILD = "x-spades-build";
const HEADER_PYODIDE = "x-spades-pyodide";
const HEADER_SIZE = "x-spades-size";
const HEADER_SHA256 = "x-spades-sha256";

function cacheName(build) {
  return SNAPSHOT_PREFIX + build.build;
}

function entryURL(build, base) {
  return new URL(`snapshot/pyodide-${build.pyodide}.bin`, base).href;
}

function storageUsable() {
  return typeof caches !== "undefined" && typeof crypto !== "undefined" && !!crypto.subtle;
}

async function sha256(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The stored snapshot of this build and Pyodide version: null when there is none
 * (or storage is refused), else {bytes}: a promise of its bytes that rejects, after
 * dropping the entry, when they are truncated or corrupt (a promise, so the
 * worker can load Pyodide's own files meanwhile).
 */
export async function findSnapshot(build, base) {
  if (!storageUsable()) return null;
  let resp;
  try {
    const name = cacheName(build);
    if (!(await caches.has(name))) return null;
    resp = await (await caches.open(name)).match(entryURL(build, base));
  } catch {
    return null; // storage refused or unreadable: boot normally
  }
  if (!resp) return null;
  const h = resp.headers;
  if (h.get(HEADER_BUILD) !== build.build || h.get(HEADER_PYODIDE) !== build.pyodide) {
    await dropSnapshot(build);
    return null;
  }
  const bytes = (async () => {
    const data = new Uint8Array(await resp.arrayBuffer());
    if (h.get(HEADER_SIZE) !== String(data.byteLength) || h.get(HEADER_SHA256) !== (await sha256(data))) {
      await dropSnapshot(build);
      throw new Error("the stored snapshot is truncated or corrupt");
    }
    return data;
  })();
  bytes.catch(() => {}); // the caller sees the rejection; nothing is left unhandled meanwhile
  return { bytes }; // wrapped: an async function returning the promise itself would adopt it
}

/** Store `bytes` as this build's snapshot and drop other builds'; true when stored. */
export async function storeSnapshot(build, base, bytes) {
  if (!storageUsable()) return false;
  const name = cacheName(build);
  try {
    const headers = {
      "content-type": "application/octet-stream",
      [HEADER_BUILD]: build.build,
      [HEADER_PYODIDE]: build.pyodide,
      [HEADER_SIZE]: String(bytes.byteLength),
      [HEADER_SHA256]: await sha256(bytes),
    };
    await (await caches.open(name)).put(entryURL(build, base), new Response(bytes, { headers }));
    for (const key of await caches.keys()) {
      if (key.startsWith(SNAPSHOT_PREFIX) && key !== name) await caches.delete(key);
    }
    return true;
  } catch {
    await dropSnapshot(build); // quota exceeded or storage refused: leave nothing half-written
    return false;
  }
}

/** Forget this build's snapshot (it failed to restore or to verify). */
export async function dropSnapshot(build) {
  if (!storageUsable()) return;
  try {
    await caches.delete(cacheName(build));
  } catch {
    // nothing to drop, or storage refused
  }
}
