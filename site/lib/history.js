// history.js: every finished match kept on this device (IndexedDB), for the statistics page.
//
//   import { openHistory } from "./history.js";
//   const history = await openHistory();           // never rejects; history.available says if kept
//   await history.addMatch({ saveText, state });    // at the end of a match, or when it is abandoned
//   await history.list({ partner, opponents, from, to })   // records, newest first
//   await history.totals()    // matches folded out of the bounded history: counted, never dropped
//   await history.save(id)    // the session save text of one match (replays in the engine)
//   await history.exportAll() / importAll(text, verify, onProgress) / deleteAll()
//
// `state` is the bridge's state after the match's last action and `saveText` the session
// save it came with: the record is read from what the engine reported (state.sheet holds
// each hand's bids, tricks and score breakdown; state.winner and phase the outcome). This
// module decides no rule. Every method rejects with a HistoryError (.code) and never throws
// synchronously, so a blocked or full IndexedDB leaves the game playable.
import { HistoryError, HAND, buildRecord, matchId, parseHistoryFile, historyFile } from "./historyfile.js";
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

/**
 * Store records with their saves in one transaction: an id already stored (or folded) is left
 * as it is (two tabs, or an import of a match already here, never double or overwrite a match); past
 * `limit` the oldest are folded into the totals. Resolves to {added, duplicates, folded}.
 */
async function store(db, items, limit) {
  const tx = db.transaction(STORES, "readwrite");
  const finished = done(tx);
  const matches = tx.objectStore(MATCHES);
  const saves = tx.objectStore(SAVES);
  const foldedIds = tx.objectStore(FOLDED_IDS);
  const result = { added: 0, duplicates: 0, folded: 0, ids: [] };
  try {
    const summary = await currentSummary(tx.objectStore(META));
    const added = [];
    const gone = new Set();
    for (const { record, saveText } of items) {
      const known = (await request(matches.getKey(record.id))) ?? (await request(foldedIds.getKey(record.id)));
      if (known !== undefined) {
        result.duplicates += 1;
        continue;
      }
      matches.add(record);
      saves.add({ id: record.id, save: saveText });
      result.added += 1;
      result.ids.push(record.id);
      added.push(record);
    }
    const excess = (await request(matches.count())) - limit;
    if (excess > 0) {
      const meta = tx.objectStore(META);
      const totals = (await request(meta.get(FOLDED_KEY))) || emptyTotals();
      const oldest = await request(matches.index("date").getAll(null, excess));
      for (const rec of oldest) {
        fold(totals, rec);
        matches.delete(rec.id);
        saves.delete(rec.id);
        foldedIds.put({ id: rec.id });
        gone.add(rec.id);
      }
      meta.put(totals, FOLDED_KEY);
      result.folded = oldest.length;
    }
    // the summary follows the write in the same transaction (the next statistics page reads it whole)
    const token = changed(tx);
    if (summary) {
      const records = added.concat(summary).filter((rec) => !gone.has(rec.id)).sort(newestFirst);
      tx.objectStore(META).put(packSummary(records, token), SUMMARY_KEY);
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
    async list(filter = {}) {
      return (await readAll(db)).filter((rec) => matchesFilter(rec, filter));
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
      return historyFile(records, new Map(saves.map((r) => [r.id, r.save])), folded);
    },
    /**
     * Import a history file: every match is replayed by `verify(saveText)` (the engine's
     * `resume`; resolves to its state or rejects with the engine's coded error) and stored
     * from what the engine reported. Resolves to {added, duplicates, folded, refused: [{index, code}]}.
     */
    async importAll(text, verify, onProgress = () => {}) {
      const entries = parseHistoryFile(text);
      const items = [];
      const refused = [];
      for (const [index, entry] of entries.entries()) {
        onProgress({ done: index, total: entries.length });
        if (entry.error) {
          refused.push({ index, code: entry.error });
          continue;
        }
        try {
          const state = await verify(entry.save);
          const id = await matchId(entry.save);
          items.push({ record: buildRecord(id, entry.save, state, entry.date), saveText: entry.save });
        } catch (err) {
          refused.push({ index, code: (err && err.code) || "internal" });
        }
      }
      onProgress({ done: entries.length, total: entries.length });
      const stored = await store(db, items, limit);
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
    available: false, error, addMatch: fail, list: fail, totals: fail, save: fail,
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
