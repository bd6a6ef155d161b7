// pyodide_node.mjs: runs one of this repository's Python scripts in Pyodide under Node (benchmarks).
//
//   node tools/pyodide_node.mjs tools/SCRIPT.py [ARG...]
//
// The engine ships to the browser as Pyodide's Python; CPython's timings are only a proxy
// for it. This runner loads the Pyodide the build pins (site/node_modules/pyodide, from
// `npm ci`), mounts the repository read-write at /repo, puts /repo first on sys.path (so
// `import spades` is this checkout's package) and runs the script as __main__ with the
// arguments given; the script's exit code is this process's. Files the script names are
// read and written under /repo (give paths relative to the repository's root).
// Pyodide's time.process_time is the wall clock (wasm has no CPU clock), which a shared
// machine's load inflates; here it is Node's own CPU time (process.cpuUsage: this process's
// user and system seconds), so the benches' CPU figures mean the same as in CPython.
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const [script, ...args] = process.argv.slice(2);
if (!script) {
  console.error("usage: node tools/pyodide_node.mjs SCRIPT.py [ARG...]");
  process.exit(2);
}
const pyodideDir = path.join(root, "site", "node_modules", "pyodide");
const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
const py = await loadPyodide({ indexURL: pyodideDir + path.sep });
py.FS.mkdirTree("/repo");
py.mountNodeFS("/repo", root);
const inside = "/repo/" + path.relative(root, path.resolve(script)).split(path.sep).join("/");
py.globals.set("ARGV", py.toPy([inside, ...args]));
py.globals.set("node_cpu_seconds", () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
});
const code = py.runPython(`
import os, runpy, sys, time
time.process_time = node_cpu_seconds
sys.argv = list(ARGV)
sys.path.insert(0, "/repo")
os.chdir("/repo")
try:
    runpy.run_path(sys.argv[0], run_name="__main__")
    code = 0
except SystemExit as exc:
    code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
except BaseException:
    import traceback
    traceback.print_exc()
    code = 1
sys.stdout.flush()
sys.stderr.flush()
code
`);
process.exitCode = code;
