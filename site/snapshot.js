// snapshot.js: the engine worker's Pyodide memory snapshot, kept on this device.
//
// A snapshot is the Python heap right after the engine was imported; restoring it
// skips Pyodide's whole start-up. It lives in Cache Storage, one cache per build
// ("spades-snapshot-<build>", one entry per Pyodide version), so it is keyed by
// build hash and Pyodide version. sw.js deletes the caches of other builds when a
// new deployment activates; storing a snapshot deletes them too (pages without a
// service worker). Every failure here is quiet: a missing, stale, truncated or
// corrupt snapshot reads as null, and a refused or over-quota store as false, so
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

/** The stored snapshot for this build and Pyodide version, verified, or null. */
export async function readSnapshot(build, base) {
  if (!storageUsable()) return null;
  try {
    const name = cacheName(build);
    if (!(await caches.has(name))) return null;
    const resp = await (await caches.open(name)).match(entryURL(build, base));
    if (!resp) return null;
    const h = resp.headers;
    const bytes = new Uint8Array(await resp.arrayBuffer());
    const valid = h.get(HEADER_BUILD) === build.build
      && h.get(HEADER_PYODIDE) === build.pyodide
      && h.get(HEADER_SIZE) === String(bytes.byteLength)
      && h.get(HEADER_SHA256) === (await sha256(bytes));
    if (valid) return bytes;
    await dropSnapshot(build);
  } catch {
    // storage refused or unreadable: boot normally
  }
  return null;
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
