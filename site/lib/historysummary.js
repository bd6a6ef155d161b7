// historysummary.js: every history record packed into one value, so the statistics page
// reads 2,000 matches as one JSON string and one Int16Array instead of 2,000 objects
// (IndexedDB clones one large value far faster than many small ones). history.js keeps it
// beside the records, stamped with the history's write token: any write changes the token,
// so a summary that no longer matches the records is never used. Pure functions.

/** Pack records (newest first) read under write token `token`. */
export function packSummary(records, token) {
  const lengths = new Int32Array(records.length);
  let total = 0;
  records.forEach((rec, i) => {
    lengths[i] = rec.hands.length;
    total += rec.hands.length;
  });
  const hands = new Int16Array(total);
  let at = 0;
  const rest = records.map((rec) => {
    hands.set(rec.hands, at);
    at += rec.hands.length;
    const { hands: _, ...fields } = rec;
    return fields;
  });
  return { token, meta: JSON.stringify(rest), lengths, hands };
}

/** The records of a summary, newest first (each `hands` a view into the one array). */
export function unpackSummary(summary) {
  const records = JSON.parse(summary.meta);
  let at = 0;
  records.forEach((rec, i) => {
    rec.hands = summary.hands.subarray(at, at + summary.lengths[i]);
    at += summary.lengths[i];
  });
  return records;
}

/** A fresh write token: every change of the history stores a new one. */
export function newToken() {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}
