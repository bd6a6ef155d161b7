// historyread.js: reads an imported history file off the page's thread. The file (a File or
// its text) goes to a module worker (historyread-worker.js) that decodes, parses and checks
// it (historyfile.parseHistoryFile), so a huge or deeply nested file never freezes the page;
// the entries come back in batches (each message is a short task on the page's side).
import { HistoryError, parseHistoryFile } from "./historyfile.js";

/**
 * The entries of a history file (parseHistoryFile's, checked against the clock `now`), or
 * a rejection with its HistoryError code when the file is not one. Parsed on the page only
 * where a module worker cannot start.
 */
export function readHistoryFile(file, now = Date.now()) {
  let worker;
  try {
    // From the site root's level: the build may bundle this module into a chunk (site_compact).
    worker = new Worker(new URL("../lib/historyread-worker.js", import.meta.url), { type: "module" });
  } catch {
    return (typeof file === "string" ? Promise.resolve(file) : file.text()).then((text) => parseHistoryFile(text, now));
  }
  return new Promise((resolve, reject) => {
    const entries = [];
    const finish = (fn, value) => {
      worker.terminate();
      fn(value);
    };
    worker.onmessage = ({ data }) => {
      if (data.entries) entries.push(...data.entries);
      else if (data.done) finish(resolve, entries);
      else finish(reject, new HistoryError(data.code, data.message));
    };
    worker.onerror = (event) => {
      event.preventDefault();
      finish(reject, new HistoryError("internal", "The history file could not be read."));
    };
    worker.postMessage({ file, now });
  });
}
