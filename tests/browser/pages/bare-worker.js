// Worker for bare.html: the Pyodide runtime alone (no micropip, no engine), the
// baseline tools/bench_site.py compares the game's boot with. A test-only page: it
// is served from __tests__/ beside the site (never shipped), so the site is one up.
import { loadPyodide } from "../pyodide/pyodide.mjs";

async function boot() {
  const base = new URL("../", import.meta.url);
  const pyodide = await loadPyodide({ indexURL: new URL("./pyodide/", base).href });
  return pyodide.runPython("import sys; sys.version.split()[0]");
}

boot().then(
  (version) => self.postMessage({ type: "ready", version }),
  (err) => self.postMessage({ type: "boot-error", message: String((err && err.message) || err) }),
);
