// historyread-worker.js: the module worker of historyread.js. Reads one history file
// ({file: File | string, now}), parses and checks it, and posts its entries back in
// batches ({entries}), then {done: true}; a file that is not a history posts {code, message}.
import { parseHistoryFile } from "./historyfile.js";

/** Entries per message: each arrives on the page as a short task of its own. */
const BATCH = 500;

self.onmessage = async ({ data }) => {
  try {
    const text = typeof data.file === "string" ? data.file : await data.file.text();
    const entries = parseHistoryFile(text, data.now);
    for (let i = 0; i < entries.length; i += BATCH) self.postMessage({ entries: entries.slice(i, i + BATCH) });
    self.postMessage({ done: true });
  } catch (err) {
    self.postMessage({ code: (err && err.code) || "internal", message: String((err && err.message) || err) });
  }
};
