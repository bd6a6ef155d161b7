// stdlib_node.mjs: runs a Python script in Pyodide's own Python under Node (a build step).
//
//   node stdlib_node.mjs PYODIDE_DIR SCRIPT.py [ARG...]
//
// build_site.py uses it to run stdlib_trim.py and engine_bytecode.py with the Python that
// will run the shipped code (Pyodide's 3.14: an older Python cannot parse all of its standard
// library, nor write its bytecode).
// Each argument that names a file (existing, or to be written into an existing folder)
// is given to the script as the same file, its folder mounted into Pyodide's file system;
// the script's exit code is this process's.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, script, ...args] = process.argv.slice(2);
if (!pyodideDir || !script) {
  console.error("usage: node stdlib_node.mjs PYODIDE_DIR SCRIPT.py [ARG...]");
  process.exit(2);
}
const { loadPyodide } = await import(pathToFileURL(path.join(path.resolve(pyodideDir), "pyodide.mjs")).href);
// Python's own settings from this process's environment (PYTHON*: e.g. PYTHONNODEBUGRANGES
// for engine_bytecode.py), beside Pyodide's default home.
const pythonEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith("PYTHON")));
const py = await loadPyodide({ indexURL: path.resolve(pyodideDir) + path.sep, env: { HOME: "/home/pyodide", ...pythonEnv } });

const mounts = new Map(); // host folder -> folder inside Pyodide
function inside(hostFile) {
  const folder = path.dirname(path.resolve(hostFile));
  if (!mounts.has(folder)) {
    const where = `/mnt/${mounts.size}`;
    py.FS.mkdirTree(where);
    py.mountNodeFS(where, folder);
    mounts.set(folder, where);
  }
  return `${mounts.get(folder)}/${path.basename(hostFile)}`;
}
const isFile = (a) => !a.startsWith("-") && (fs.existsSync(a) || fs.existsSync(path.dirname(path.resolve(a))));
const argv = [inside(script), ...args.map((a) => (isFile(a) ? inside(a) : a))];

py.globals.set("ARGV", py.toPy(argv));
const code = py.runPython(`
import runpy, sys
sys.argv = list(ARGV)
sys.path.insert(0, sys.argv[0].rpartition("/")[0])
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
