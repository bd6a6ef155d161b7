// Worker for bare.html: the Pyodide runtime plus micropip, booted exactly as
// worker.js does, but without the engine.
import { loadPyodide } from "./pyodide/pyodide.mjs";

async function boot() {
  const base = new URL("./", import.meta.url);
  const pyodide = await loadPyodide({ indexURL: new URL("./pyodide/", base).href });
  const build = await (await fetch(new URL("build.json", base), { cache: "no-cache" })).json();
  await pyodide.loadPackage(new URL(build.micropip, base).href);
  pyodide.pyimport("micropip");
  return pyodide.runPython("import sys; sys.version.split()[0]");
}

boot().then(
  (version) => self.postMessage({ type: "ready", version }),
  (err) => self.postMessage({ type: "boot-error", message: String((err && err.message) || err) }),
);
