// sw.js: the offline service worker.
//
// Registered by sw-register.js as "./sw.js?build=<hash from build.json>", scope "./".
// The build hash in the URL makes every deployment a new worker script, so the
// browser installs a new worker even when sw.js itself did not change.
//
// install   fetch precache.json (network), then every file it lists (Pyodide's
//           core included) into the cache "spades-<build>". Each body must have
//           the size precache.json states and the cached build.json must name the
//           same build, otherwise the install fails and the half-filled cache is
//           deleted: a cache is used only when it is complete and of one build.
//           Files are stored plain, as the page asks for them (a host's .br/.gz
//           sibling arrives decoded; the stored headers say so); the siblings
//           themselves are not in precache.json.
// waiting   a new worker waits while an old one controls pages; the old worker
//           keeps serving the old cache. The page learns of the waiting worker
//           (sw-register.js) and, when the player agrees, posts {type: "SKIP_WAITING"}.
// activate  delete every other "spades-*" cache, claim the open pages. The engine
//           worker's memory snapshot of this build ("spades-snapshot-<build>",
//           see snapshot.js) is kept; other builds' snapshots go with their caches.
// fetch     same-origin GETs inside the scope: cache-first from this worker's own
//           cache (never another build's), network for anything not cached.
//           Navigations ignore the query string (index.html?seed=5 works offline).

const PREFIX = "spades-";
const SNAPSHOT_PREFIX = "spades-snapshot-"; // as in snapshot.js (a classic worker cannot import it)
const SCOPE = new URL("./", self.location.href);
const SELF_PATH = new URL(self.location.href).pathname;
const WANTED = new URL(self.location.href).searchParams.get("build");

// The cache this worker serves from. Known from the URL when registered with
// ?build=...; otherwise learned at install (and, after a restart, from the
// single complete cache left by activate).
let cacheName = WANTED ? PREFIX + WANTED : null;

const CONCURRENCY = 6;

async function fetchJSON(path) {
  const resp = await fetch(new URL(path, SCOPE), { cache: "no-store" });
  if (!resp.ok) throw new Error(`${path}: HTTP ${resp.status}`);
  return resp.json();
}

// What the cache stores is the file itself: a host may have sent its .br or .gz sibling,
// which the browser decoded, so the stored headers must not say Content-Encoding (nor the
// encoded length, nor vary with Accept-Encoding).
function plainHeaders(resp, body) {
  const headers = new Headers(resp.headers);
  for (const name of ["content-encoding", "content-length", "vary"]) headers.delete(name);
  headers.set("content-length", String(body.byteLength));
  return headers;
}

async function cacheFile(cache, entry) {
  const url = new URL(entry.path, SCOPE);
  // "no-cache": revalidate with the server (a 304 reuses the body the page just
  // downloaded, so the first visit does not fetch Pyodide twice).
  const resp = await fetch(url, { cache: "no-cache" });
  if (!resp.ok || resp.redirected) throw new Error(`${entry.path}: HTTP ${resp.status}`);
  const body = await resp.arrayBuffer();
  if (typeof entry.size === "number" && body.byteLength !== entry.size) {
    throw new Error(`${entry.path}: ${body.byteLength} bytes, precache.json says ${entry.size} (deployment changed?)`);
  }
  const init = { status: resp.status, statusText: resp.statusText, headers: plainHeaders(resp, body) };
  await cache.put(url, new Response(body, init));
  // the directory URL ("./") is the same page as index.html
  if (entry.path === "index.html") await cache.put(SCOPE, new Response(body, init));
}

async function precache() {
  const manifest = await fetchJSON("precache.json");
  const build = manifest && manifest.build;
  if (!build || !Array.isArray(manifest.files)) throw new Error("precache.json is malformed");
  if (WANTED && build !== WANTED) {
    throw new Error(`precache.json is build ${build}, this worker is for ${WANTED} (deployment changed?)`);
  }
  const name = PREFIX + build;
  cacheName = name;
  const cache = await caches.open(name);
  try {
    const files = manifest.files.slice();
    const workers = Array.from({ length: CONCURRENCY }, async () => {
      while (files.length) await cacheFile(cache, files.shift());
    });
    await Promise.all(workers);
    const cachedBuild = await cache.match(new URL("build.json", SCOPE));
    const info = cachedBuild ? await cachedBuild.json() : null;
    if (!info || info.build !== build) throw new Error("build.json and precache.json disagree (deployment changed?)");
  } catch (err) {
    await caches.delete(name);
    throw err;
  }
}

self.addEventListener("install", (event) => {
  event.waitUntil(precache());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const name = await currentCache();
    const snapshot = name && SNAPSHOT_PREFIX + name.slice(PREFIX.length);
    for (const key of await caches.keys()) {
      if (key.startsWith(PREFIX) && key !== name && key !== snapshot) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "SKIP_WAITING") self.skipWaiting();
  else if (data.type === "GET_BUILD" && event.source) {
    currentCache().then((name) => event.source.postMessage({ type: "BUILD", cache: name }));
  }
});

async function currentCache() {
  if (cacheName) return cacheName;
  const keys = (await caches.keys()).filter((k) => k.startsWith(PREFIX) && !k.startsWith(SNAPSHOT_PREFIX));
  if (keys.length === 1) cacheName = keys[0];
  return cacheName;
}

async function respond(request, url) {
  const name = await currentCache();
  if (name) {
    const navigate = request.mode === "navigate";
    const hit = await caches.match(request, { cacheName: name, ignoreSearch: navigate, ignoreVary: true });
    if (hit) return hit;
    if (navigate && url.pathname.endsWith("/")) {
      const index = await caches.match(new URL("index.html", url), { cacheName: name });
      if (index) return index;
    }
  }
  return fetch(request);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== SCOPE.origin || !url.pathname.startsWith(SCOPE.pathname)) return;
  if (url.pathname === SELF_PATH) return;
  event.respondWith(respond(request, url));
});
