// historyfile.js: a history record read from the engine's report, match ids, and the
// versioned export file. Pure functions (no IndexedDB), used by history.js and the tests.
//
// Record (one per match, what the statistics read):
//   {id, date, partner, opponents, seed, variant, scores: [us, them],
//    outcome: "won" | "lost" | "abandoned", handCount, hands: Int16Array}
// `hands` packs HAND.size numbers per hand (from one row of the bridge state's `sheet`;
// team 0 = you and partner) at the offsets in HAND: bids and tricks per seat, then per team
// the hand's points, the score after it, bags taken, bag penalties, contract, made (1/0),
// then per seat its nil (NIL codes). Packed because 2,000 matches of objects take far
// longer to read back from IndexedDB than 2,000 typed arrays (the page opens in time).
// Export file: {format: "spades-history", version: 1, exported: ISO time, folded: totals,
//               matches: [{id, date, outcome, save}, ...]} — on import only `save` and
//               `date` are read; everything else is rebuilt from the engine's replay.

export const FILE_FORMAT = "spades-history";
export const FILE_VERSION = 1;
export const MAX_FILE_CHARS = 200_000_000; // far above 2,000 matches; refuses absurd input early
/** The latest moment a JavaScript Date holds (ms from 1970): a later date cannot be shown. */
export const MAX_DATE_MS = 8.64e15;
/** How far ahead of this device's clock an imported match may be dated (another device's clock may run fast). */
export const CLOCK_SKEW_MS = 60 * 60 * 1000;
/** Bounds of a record's fields: far above any real match, so only a damaged or forged record meets them. */
const MAX_SAVE_CHARS = 200_000; // the engine's own limit for a session save (spades/session.py)
const MAX_HANDS = 1000;
const MAX_SCORE = 1_000_000;
const MAX_SEED_CHARS = 200;
const ID_PATTERN = /^m[0-9a-f]{16}$/;
const LEVEL_PATTERN = /^[a-z]{1,20}$/;
export const OUTCOMES = ["won", "lost", "abandoned"];

export class HistoryError extends Error {
  constructor(code, message) {
    super(message || code);
    this.name = "HistoryError";
    this.code = code;
  }
}

/** A stable id for a match: a 64-bit hash of the save's match part (its start and every action). */
export async function matchId(saveText) {
  let match;
  try {
    match = JSON.parse(saveText).match;
  } catch {
    throw new HistoryError("not_json", "The match save is not valid JSON.");
  }
  if (!match || typeof match !== "object") throw new HistoryError("malformed", "The match save has no match.");
  const text = JSON.stringify(match);
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  const hex = (n) => (n >>> 0).toString(16).padStart(8, "0");
  return `m${hex(h2)}${hex(h1)}`;
}

export const HAND = { bids: 0, tricks: 4, delta: 8, score: 10, bags: 12, penalties: 14, contract: 16, made: 18, nil: 20, size: 24 };
export const NIL = { none: 0, set: 1, made: 2, blindSet: 3, blindMade: 4 };
const TEAM_FIELDS = [["delta", "delta"], ["score", "score_after"], ["bags", "bags"], ["penalties", "penalties"], ["contract", "contract"], ["made", "made"]];

/** Every hand of the engine's score sheet (state.sheet), packed at the HAND offsets. */
export function packHands(sheet) {
  const out = new Int16Array(sheet.length * HAND.size);
  sheet.forEach((row, i) => {
    const o = i * HAND.size;
    for (let seat = 0; seat < 4; seat++) {
      out[o + HAND.bids + seat] = row.bids[seat];
      out[o + HAND.tricks + seat] = row.tricks[seat];
    }
    row.teams.forEach((team, k) => {
      for (const [field, key] of TEAM_FIELDS) out[o + HAND[field] + k] = Number(team[key]);
      for (const n of team.nils) {
        out[o + HAND.nil + n.seat] = n.blind ? (n.made ? NIL.blindMade : NIL.blindSet) : (n.made ? NIL.made : NIL.set);
      }
    });
  });
  return out;
}

/** "won" | "lost" | "abandoned", as the engine reported it (winner 0 is your team). */
export function outcomeOf(state) {
  if (state.phase !== "over" || state.winner === null || state.winner === undefined) return "abandoned";
  return state.winner === 0 ? "won" : "lost";
}

/** The history record of a match from its session save and the engine's state after it. */
export function buildRecord(id, saveText, state, date) {
  if (!state || !Array.isArray(state.sheet) || !state.levels) {
    throw new HistoryError("malformed", "The engine's report of the match is incomplete.");
  }
  let variant = null;
  try {
    variant = JSON.parse(saveText).match.variant ?? null;
  } catch {
    throw new HistoryError("not_json", "The match save is not valid JSON.");
  }
  return {
    id, date, partner: state.levels.partner, opponents: state.levels.opponents, seed: state.seed ?? null,
    variant, scores: state.scores.slice(), outcome: outcomeOf(state), handCount: state.sheet.length,
    hands: packHands(state.sheet),
  };
}

/**
 * Why a match's date cannot be kept, or null: a whole number of ms from 1970 that a Date
 * holds and, when `now` is given (an import), not later than `now` + CLOCK_SKEW_MS.
 */
export function dateProblem(date, now = null) {
  if (!Number.isSafeInteger(date) || date < 0 || date > MAX_DATE_MS) return "bad_date";
  if (now !== null && date > now + CLOCK_SKEW_MS) return "future_date";
  return null;
}

const isInt = (n, lo, hi) => Number.isSafeInteger(n) && n >= lo && n <= hi;

/**
 * Why a history record cannot be kept or shown, or null when every field has its type and
 * bounds (the shape buildRecord makes). `now`: an import's clock (dates later than it are
 * refused); null for a record already stored (its date only has to fit a Date).
 */
export function recordProblem(rec, now = null) {
  if (!rec || typeof rec !== "object") return "bad_record";
  const date = dateProblem(rec.date, now);
  if (date) return date;
  const hands = rec.hands;
  const ok = typeof rec.id === "string" && ID_PATTERN.test(rec.id)
    && typeof rec.partner === "string" && LEVEL_PATTERN.test(rec.partner)
    && typeof rec.opponents === "string" && LEVEL_PATTERN.test(rec.opponents)
    && (rec.seed === null || (typeof rec.seed === "number" && Number.isFinite(rec.seed))
      || (typeof rec.seed === "string" && rec.seed.length <= MAX_SEED_CHARS))
    && (rec.variant === null || (typeof rec.variant === "string" && rec.variant.length <= MAX_SEED_CHARS))
    && Array.isArray(rec.scores) && rec.scores.length === 2 && rec.scores.every((n) => isInt(n, -MAX_SCORE, MAX_SCORE))
    && OUTCOMES.includes(rec.outcome)
    && isInt(rec.handCount, 0, MAX_HANDS)
    && hands instanceof Int16Array && hands.length === rec.handCount * HAND.size;
  return ok ? null : "bad_record";
}

/** The export file's text: records (newest first) with their saves. */
export function historyFile(records, saves, folded) {
  const matches = records.map((r) => ({ id: r.id, date: r.date, outcome: r.outcome, save: saves.get(r.id) }));
  return JSON.stringify({
    format: FILE_FORMAT, version: FILE_VERSION, exported: new Date().toISOString(), folded, matches,
  });
}

/**
 * Why one match of an export file cannot be imported, or null. Every field it has is
 * checked: `save` a string within the engine's limit, `date` (dateProblem against `now`),
 * and the fields the file repeats for a reader (`id`, `outcome`) of their type.
 */
export function entryProblem(m, now) {
  if (!m || typeof m !== "object" || Array.isArray(m)) return "malformed";
  if (typeof m.save !== "string" || m.save.length > MAX_SAVE_CHARS) return "malformed";
  if (m.id !== undefined && !(typeof m.id === "string" && ID_PATTERN.test(m.id))) return "bad_record";
  if (m.outcome !== undefined && !OUTCOMES.includes(m.outcome)) return "bad_record";
  return dateProblem(m.date, now);
}

/**
 * Read an export file: throws a HistoryError for a file that is not one (whole file refused);
 * returns one entry per match, {save, date, id?, outcome?} or {error: code} for an entry that
 * cannot be imported (entryProblem, with `now` the import's clock).
 */
export function parseHistoryFile(text, now = Date.now()) {
  if (typeof text !== "string" || text.length > MAX_FILE_CHARS) {
    throw new HistoryError("file_too_big", "The file is far too large to be a match history.");
  }
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    throw new HistoryError("file_not_json", "The file is not valid JSON (truncated or damaged?).");
  }
  if (!data || typeof data !== "object" || data.format !== FILE_FORMAT || !Array.isArray(data.matches)) {
    throw new HistoryError("file_format", "The file is not a Spades match history.");
  }
  if (data.version !== FILE_VERSION) {
    throw new HistoryError("file_version", "The history file was written by a version of the game this one cannot read.");
  }
  return data.matches.map((m) => {
    const error = entryProblem(m, now);
    return error ? { error } : { save: m.save, date: m.date, id: m.id, outcome: m.outcome };
  });
}
