// persistence.js: the match the game keeps in localStorage. The match is the engine's own save
// text (spades.bridge "save"); beside it, the number of a scored hand still waiting for
// Continue (the player's settings are lib/settings.js). Storage may be missing or full:
// every function here then degrades to "nothing saved" and never throws; createSaver shows
// a failed write and retries it. A save the engine refused is kept aside, not deleted:
// each refusal its own copy (key "<aside key>.<ms>"), the newest MAX_ASIDE kept.

/** A failed save is tried again after this many ms (until it succeeds or is replaced). */
const SAVE_RETRY_MS = 2000;
/** Refused saves kept aside at most; a further refusal drops the oldest copy. */
export const MAX_ASIDE = 5;

/** The copies kept under `prefix` (key "<prefix><ms>"), oldest first: [{key, at}]. */
function asideCopies(prefix) {
  const out = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    const at = key && key.startsWith(prefix) ? Number(key.slice(prefix.length)) : NaN;
    if (Number.isSafeInteger(at)) out.push({ key, at });
  }
  return out.sort((a, b) => a.at - b.at);
}

/** How many embedded tables keep a saved match; past this the least recently saved one is dropped. */
export const EMBED_TABLES_KEPT = 32;
/** The embedded tables' index: table key → when its match was last saved (ms). */
const EMBED_INDEX_KEY = "spades.embed.tables.v1";

/** The index of embedded tables ({key: time}); {} when absent, unreadable or not an object. */
function readIndex() {
  try {
    const index = JSON.parse(localStorage.getItem(EMBED_INDEX_KEY) || "{}");
    return index && typeof index === "object" && !Array.isArray(index) ? index : {};
  } catch {
    return {};
  }
}

/** The storage keys of an embedded table (`table`: params.tableKey(); "" keeps the first embeds' keys). */
function embedKeys(table) {
  const tail = table ? `:${table}` : "";
  return [`spades.embed.save.v1${tail}`, `spades.embed.pending.v1${tail}`, `spades.embed.refused.v1${tail}`];
}

/** Note that table `table` was just saved and drop the saves of the tables past EMBED_TABLES_KEPT. */
function touchTable(table) {
  try {
    const index = readIndex();
    index[table] = Date.now();
    const order = Object.keys(index).sort((a, b) => index[b] - index[a]);
    for (const old of order.slice(EMBED_TABLES_KEPT)) {
      for (const key of embedKeys(old)) localStorage.removeItem(key);
      delete index[old];
    }
    localStorage.setItem(EMBED_INDEX_KEY, JSON.stringify(index));
  } catch {
    /* storage unavailable: the save itself was written */
  }
}

/**
 * The match store. The player's own game has one; each embedded table (embed.html,
 * index.html?embed=1, or the game in any frame) has its own, named by `table` (what makes
 * it distinct: params.tableKey()), so a tutorial's tables never overwrite each other nor
 * the player's own match, and each has its own tab lock.
 */
export function matchStore(embed, table = "") {
  const [saveKey, pendingKey, asideKey] = embed ? embedKeys(table)
    : ["spades.save.v1", "spades.pending.v1", "spades.refused.v1"];
  const asidePrefix = `${asideKey}.`;
  return {
    /** The saved session text, or null. */
    load() {
      try {
        return localStorage.getItem(saveKey);
      } catch {
        return null;
      }
    },
    /** The number of the scored hand waiting for Continue when the page was left, or null. */
    pendingHand() {
      try {
        const n = Number(localStorage.getItem(pendingKey));
        return Number.isInteger(n) && n > 0 ? n : null;
      } catch {
        return null;
      }
    },
    /** The lock that lets one tab at a time own this match (tablock.js). */
    lockName: `${saveKey}.owner`,
    /**
     * Keep the session text and the waiting hand's number; false when storage is full or
     * refused. The session text is written last, in one setItem: a failed write leaves
     * the previous good save whole (and its waiting hand's number as it was).
     */
    write(text, pendingNumber) {
      let before = null;
      try {
        before = localStorage.getItem(pendingKey);
        if (pendingNumber) localStorage.setItem(pendingKey, String(pendingNumber));
        else localStorage.removeItem(pendingKey);
        localStorage.setItem(saveKey, text);
        if (embed) touchTable(table);
        return true;
      } catch {
        try {
          if (before === null) localStorage.removeItem(pendingKey);
          else localStorage.setItem(pendingKey, before);
        } catch {
          /* storage unavailable: the save itself is unchanged */
        }
        return false;
      }
    },
    /** Move a save the engine refused aside, as a copy of its own beside the ones kept before
     * (the oldest dropped past MAX_ASIDE, or to make room); false when storage refused the
     * copy: the save then stays where it was. */
    keepAside(text, at = Date.now()) {
      try {
        const kept = asideCopies(asidePrefix);
        // always the newest copy (two refusals in one millisecond, or a clock set back: each its own)
        if (kept.length) at = Math.max(at, kept[kept.length - 1].at + 1);
        for (;;) {
          try {
            localStorage.setItem(asidePrefix + at, text);
            break;
          } catch (err) {
            const oldest = asideCopies(asidePrefix)[0];
            if (!oldest) throw err;
            localStorage.removeItem(oldest.key); // no room: the oldest copy makes way
          }
        }
        const copies = asideCopies(asidePrefix);
        for (const c of copies.slice(0, Math.max(0, copies.length - MAX_ASIDE))) localStorage.removeItem(c.key);
        localStorage.removeItem(saveKey);
        localStorage.removeItem(pendingKey);
        return true;
      } catch {
        return false;
      }
    },
    /** The saves kept aside, oldest first: [{at (ms, null for an older version's one copy), text}]. */
    asideSaves() {
      try {
        const out = asideCopies(asidePrefix).map(({ key, at }) => ({ at, text: localStorage.getItem(key) }));
        const legacy = localStorage.getItem(asideKey);
        return (legacy === null ? [] : [{ at: null, text: legacy }]).concat(out).filter((c) => c.text !== null);
      } catch {
        return [];
      }
    },
  };
}

/**
 * Writes the match to `store` for the tab that owns it (`owned()`). A failed write calls
 * `onFailed()` and is retried every SAVE_RETRY_MS with the newest text until it succeeds
 * (then `onSaved()`); a newer save replaces the one waiting. Returns save(text, pending).
 */
export function createSaver(store, { owned, onFailed, onSaved }) {
  let waiting = null; // [text, pending] not yet written

  function attempt() {
    if (!owned()) waiting = null; // another tab owns the match now: its saves win
    if (!waiting) return;
    const [text, pending] = waiting;
    if (store.write(text, pending)) {
      waiting = null;
      onSaved();
    } else {
      onFailed();
      setTimeout(attempt, SAVE_RETRY_MS);
    }
  }

  return function save(text, pending) {
    const retrying = waiting !== null;
    waiting = [text, pending];
    if (!retrying) attempt();
  };
}
