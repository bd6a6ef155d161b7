// history.js: every finished match kept on this device (IndexedDB), for the statistics page.
//
//   import { openHistory } from "./history.js";
//   const history = await openHistory();           // never rejects; history.available says if kept
//   await history.addMatch({ saveText, state });    // at the end of a match, or when it is abandoned
//   await history.list({ partner, opponents, from, to })   // records, newest first
//   await history.totals()    // matches folded out of the bounded history: counted, never dropped
//   await history.save(id)    // the session save text of one match (replays in the engine)
//   await history.exportAll() / importAll(fileOrText, verify, onProgress) / deleteAll()
//   history.unreadable      // stored records the last list() left out (damaged: never shown or exported)
//
// `state` is the bridge's state after the match's last action and `saveText` the session
// save it came with: the record is read from what the engine reported (state.sheet holds
// each hand's bids, tricks and score breakdown; state.winner and phase the outcome). This
// module decides no rule. Every method rejects with a HistoryError (.code) and never throws
// synchronously, so a blocked or full IndexedDB leaves the game playable.
import { HistoryError, HAND, buildRecord, matchId, historyFile, recordProblem } from "./historyfile.js";
import { readHistoryFile } from "./historyread.js";
import { newToken, packSummary, unpackSummary } from "./historysummary.js";

export { HistoryError, buildRecord, matchId };

export const MAX_MATCHES = 2000;
const DB_NAME = "spades-history";
const DB_VERSION = 1;
const MATCHES = "matches"; // id -> record (summary only: what the statistics read)
const SAVES = "saves"; // id -> {id, save}: the replayable text, read only on demand
const META = "meta"; // "folded" -> totals of matches folded out of the bounded history
const FOLDED_IDS = "foldedIds"; // ids of folded matches: one never comes back to be counted twice
const FOLDED_KEY = "folded";
const TOKEN_KEY = "token"; // changed by every write: tells whether the summary is current
const SUMMARY_KEY = "summary"; // every record packed in one value (historysummary.js), rebuilt after a write
const STORES = [MATCHES, SAVES, META, FOLDED_IDS];
/** A long write gives the page back its event loop after this many ms (no freeze a player feels). */
const SLICE_MS = 50;
/** Ids looked up at once (their requests in flight together) when an import checks what is already here. */
const LOOKUP_BATCH = 500;

/** Map an IndexedDB failure to a coded error ("quota" when the disk is full). */
function storeError(err) {
  if (err instanceof HistoryError) return err;
  const name = err && err.name;
  if (name === "QuotaExceededError") return new HistoryError("quota", "The device has no room left for the match history.");
  return new HistoryError("unavailable", `The match history cannot be kept here (${name || "error"}).`);
}

function request(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(storeError(req.error));
  });
}

function done(tx) {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(storeError(tx.error));
    tx.onabort = () => reject(storeError(tx.error));
  });
}

function emptyTotals() {
  return { matches: 0, won: 0, lost: 0, abandoned: 0, hands: 0, points: 0, from: null, to: null };
}

/** Add a record's counts to folded totals (for matches that leave the bounded history). */
function fold(totals, rec) {
  totals.matches += 1;
  totals[rec.outcome] = (totals[rec.outcome] || 0) + 1;
  totals.hands += rec.handCount;
  for (let o = 0; o < rec.hands.length; o += HAND.size) totals.points += rec.hands[o + HAND.delta];
  totals.from = totals.from === null ? rec.date : Math.min(totals.from, rec.date);
  totals.to = totals.to === null ? rec.date : Math.max(totals.to, rec.date);
  return totals;
}

function openDb(factory) {
  return new Promise((resolve, reject) => {
    const req = factory.open(DB_NAME, DB_VERSION);
    req.onupgradeneeded = () => {
      const db = req.result;
      const matches = db.createObjectStore(MATCHES, { keyPath: "id" });
      matches.createIndex("date", "date");
      db.createObjectStore(SAVES, { keyPath: "id" });
      db.createObjectStore(META);
      db.createObjectStore(FOLDED_IDS, { keyPath: "id" });
    };
    req.onsuccess = () => {
      const db = req.result;
      db.onversionchange = () => db.close(); // a newer tab upgrades: step aside
      resolve(db);
    };
    req.onerror = () => reject(storeError(req.error));
    req.onblocked = () => reject(new HistoryError("unavailable", "Another tab holds an older match history open."));
  });
}

/** Outside a transaction: every `SLICE_MS` of work, let the page's event loop run (a zero timeout). */
function pacer() {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < SLICE_MS) return;
    await new Promise((resolve) => setTimeout(resolve, 0));
    since = performance.now();
  };
}

/** Inside a transaction: every `SLICE_MS` of work, wait for `req` (a request just made): the page's event loop runs meanwhile. */
function slicer() {
  let since = performance.now();
  return async (req) => {
    if (performance.now() - since < SLICE_MS) return;
    await request(req); // the transaction stays open: it has this request in flight
    since = performance.now();
  };
}

/** The items whose ids are neither stored nor folded (nor earlier in `items`); the rest counted as duplicates. */
async function newItems(tx, items) {
  const matches = tx.objectStore(MATCHES);
  const foldedIds = tx.objectStore(FOLDED_IDS);
  const fresh = [];
  const seen = new Set();
  for (let i = 0; i < items.length; i += LOOKUP_BATCH) {
    const batch = items.slice(i, i + LOOKUP_BATCH);
    const known = await Promise.all(batch.map(({ record }) =>
      Promise.all([request(matches.getKey(record.id)), request(foldedIds.getKey(record.id))])));
    batch.forEach((item, k) => {
      const id = item.record.id;
      if (known[k][0] === undefined && known[k][1] === undefined && !seen.has(id)) fresh.push(item);
      seen.add(id);
    });
  }
  return fresh;
}

/**
 * Store records with their saves in one transaction: an id already stored (or folded) is left
 * as it is (two tabs, or an import of a match already here, never double or overwrite a match).
 * Past `limit`: a match played here (`imported` false) folds the oldest stored ones into the
 * totals; an import never pushes a stored match out: the imported matches there is no room
 * for (the oldest of them) go into the totals instead. Long writes yield every SLICE_MS.
 * Resolves to {added, duplicates, folded, ids}: `added` stored whole, `folded` of them (or,
 * for an import, of the file's new matches) counted in the totals only.
 */
async function store(db, items, limit, imported = false) {
  const tx = db.transaction(STORES, "readwrite");
  const finished = done(tx);
  const matches = tx.objectStore(MATCHES);
  const saves = tx.objectStore(SAVES);
  const foldedIds = tx.objectStore(FOLDED_IDS);
  const meta = tx.objectStore(META);
  const result = { added: 0, duplicates: 0, folded: 0, ids: [] };
  const pause = slicer();
  try {
    const summary = await currentSummary(meta);
    const fresh = await newItems(tx, items);
    result.duplicates = items.length - fresh.length;
    const toFold = [];
    let keep = fresh;
    if (imported) {
      const room = Math.max(0, limit - (await request(matches.count())));
      if (fresh.length > room) {
        const newest = fresh.slice().sort((a, b) => newestFirst(a.record, b.record));
        keep = newest.slice(0, room);
        toFold.push(...newest.slice(room).map((item) => item.record));
      }
    }
    const added = [];
    for (const { record, saveText } of keep) {
      matches.add(record);
      await pause(saves.add({ id: record.id, save: saveText }));
      result.added += 1;
      result.ids.push(record.id);
      added.push(record);
    }
    const gone = new Set();
    if (!imported) {
      const excess = (await request(matches.count())) - limit;
      if (excess > 0) {
        for (const rec of await request(matches.index("date").getAll(null, excess))) {
          toFold.push(rec);
          matches.delete(rec.id);
          saves.delete(rec.id);
          gone.add(rec.id);
        }
      }
    }
    if (toFold.length) {
      const totals = (await request(meta.get(FOLDED_KEY))) || emptyTotals();
      for (const rec of toFold) {
        fold(totals, rec);
        await pause(foldedIds.put({ id: rec.id }));
      }
      meta.put(totals, FOLDED_KEY);
      result.folded = toFold.length;
    }
    // the summary follows the write in the same transaction (the next statistics page reads it whole)
    const token = changed(tx);
    if (summary) {
      const records = added.concat(summary).filter((rec) => !gone.has(rec.id)).sort(newestFirst);
      meta.put(packSummary(records, token), SUMMARY_KEY);
    }
  } catch (err) {
    try {
      tx.abort();
    } catch {
      /* already finished */
    }
    finished.catch(() => {});
    throw storeError(tx.error || err); // tx.error: the write that failed first (e.g. the quota)
  }
  await finished;
  return result;
}

/** Mark a write: a new token (returned), and the summary dropped until it is stored again. */
function changed(tx) {
  const meta = tx.objectStore(META);
  const token = newToken();
  meta.put(token, TOKEN_KEY);
  meta.delete(SUMMARY_KEY);
  return token;
}

/** Newest first; matches of the same moment in id order (as the store holds them). */
function newestFirst(a, b) {
  return b.date - a.date || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** The summary's records when it matches the last write, else null. */
async function currentSummary(meta) {
  const [token, summary] = await Promise.all([request(meta.get(TOKEN_KEY)), request(meta.get(SUMMARY_KEY))]);
  return summary && summary.token === (token ?? null) ? unpackSummary(summary) : null;
}

/** Every record, newest first: from the summary when it is current, else read whole (then summarised). */
async function readAll(db) {
  const tx = db.transaction([MATCHES, META], "readonly");
  const meta = tx.objectStore(META);
  const summary = await currentSummary(meta);
  if (summary) return summary;
  // the store's own order read whole, then sorted: faster than reading through the date index
  const [all, token] = await Promise.all([request(tx.objectStore(MATCHES).getAll()), request(meta.get(TOKEN_KEY))]);
  all.sort(newestFirst);
  keepSummary(db, all, token ?? null).catch(() => {}); // only a speed-up: a failure changes nothing
  return all;
}

/**
 * The records that can be shown (recordProblem: none), and how many stored ones cannot
 * (damaged, or written by an older version that checked less): those are left out of the
 * figures, the list and the export, and left in the store untouched.
 */
function readable(records) {
  const good = records.filter((rec) => recordProblem(rec) === null);
  return { good, unreadable: records.length - good.length };
}

/** Store the summary of `records`, read under `token`, unless a write came in between. */
async function keepSummary(db, records, token) {
  const tx = db.transaction(META, "readwrite");
  const finished = done(tx);
  const meta = tx.objectStore(META);
  if (((await request(meta.get(TOKEN_KEY))) ?? null) === token) meta.put(packSummary(records, token), SUMMARY_KEY);
  await finished;
}

function matchesFilter(rec, f) {
  return (!f.partner || rec.partner === f.partner) && (!f.opponents || rec.opponents === f.opponents) &&
    (f.from == null || rec.date >= f.from) && (f.to == null || rec.date <= f.to);
}

function liveHistory(db, limit) {
  const read = async (storeName, fn) => {
    const tx = db.transaction(storeName, "readonly");
    return request(fn(tx.objectStore(storeName)));
  };
  const api = {
    available: true,
    async addMatch({ saveText, state, date = Date.now() }) {
      const id = await matchId(saveText);
      return store(db, [{ record: buildRecord(id, saveText, state, date), saveText }], limit);
    },
    /** Stored records that cannot be shown, left out by the last list() (see readable). */
    unreadable: 0,
    async list(filter = {}) {
      const { good, unreadable } = readable(await readAll(db));
      api.unreadable = unreadable;
      return good.filter((rec) => matchesFilter(rec, filter));
    },
    async totals() {
      return (await read(META, (s) => s.get(FOLDED_KEY))) || emptyTotals();
    },
    async save(id) {
      const row = await read(SAVES, (s) => s.get(id));
      if (!row) throw new HistoryError("not_found", "That match is no longer in the history.");
      return row.save;
    },
    async exportAll() {
      const [records, saves, folded] = [await api.list(), await read(SAVES, (s) => s.getAll()), await api.totals()];
      const byId = new Map(saves.map((r) => [r.id, r.save]));
      // only what can be read back: a record that cannot be shown, or has lost its save, is not written
      return historyFile(records.filter((r) => typeof byId.get(r.id) === "string"), byId, folded);
    },
    /**
     * Import a history file (its text, or the File): read and checked off the page's thread
     * (historyread.js), then every match is replayed by `verify(saveText)` (the engine's
     * `resume`; resolves to its state or rejects with the engine's coded error) and its
     * record, built from what the engine reported, checked whole (recordProblem) before
     * anything is stored. Resolves to {added, duplicates, folded, refused: [{index, code}],
     * total}: `folded` the file's new matches there was no room for, counted in the totals
     * only (no stored match is pushed out).
     */
    async importAll(file, verify, onProgress = () => {}) {
      const now = Date.now();
      const entries = await readHistoryFile(file, now);
      const items = [];
      const refused = [];
      const pace = pacer(); // a verify that answers at once (a cache) must not hold the page either
      for (const [index, entry] of entries.entries()) {
        await pace();
        onProgress({ done: index, total: entries.length });
        if (entry.error) {
          refused.push({ index, code: entry.error });
          continue;
        }
        try {
          const state = await verify(entry.save);
          const id = await matchId(entry.save);
          const record = buildRecord(id, entry.save, state, entry.date);
          const problem = entry.id !== undefined && entry.id !== id ? "bad_record" : recordProblem(record, now);
          if (problem) refused.push({ index, code: problem });
          else items.push({ record, saveText: entry.save });
        } catch (err) {
          refused.push({ index, code: (err && err.code) || "internal" });
        }
      }
      onProgress({ done: entries.length, total: entries.length });
      const stored = await store(db, items, limit, true);
      return { ...stored, refused, total: entries.length };
    },
    async deleteAll() {
      const tx = db.transaction(STORES, "readwrite");
      const finished = done(tx);
      for (const name of STORES) tx.objectStore(name).clear();
      changed(tx);
      await finished;
    },
  };
  // every failure leaves as a coded HistoryError (a closed connection throws synchronously, too)
  for (const [name, fn] of Object.entries(api)) {
    if (typeof fn === "function") api[name] = (...args) => fn(...args).catch((err) => Promise.reject(storeError(err)));
  }
  return api;
}

/** The stand-in when IndexedDB is missing or blocked: every method rejects with `error`. */
function deadHistory(error) {
  const fail = () => Promise.reject(error);
  return {
    available: false, error, unreadable: 0, addMatch: fail, list: fail, totals: fail, save: fail,
    exportAll: fail, importAll: fail, deleteAll: fail,
  };
}

/**
 * Open the history; always resolves (check `.available`, or catch the methods' coded errors).
 * `limit`: matches kept whole before the oldest are folded into the totals (tests lower it).
 */
export async function openHistory({ factory, limit = MAX_MATCHES } = {}) {
  try {
    const idb = factory || globalThis.indexedDB;
    if (!idb) throw new HistoryError("unavailable", "This browser keeps no match history (IndexedDB is off).");
    return liveHistory(await openDb(idb), limit);
  } catch (err) {
    return deadHistory(storeError(err));
  }
}
