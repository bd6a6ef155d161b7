// python.js: boots Pyodide in the page from the site's own pyodide/ files, loads
// micropip (its URL from build.json), installs the published spades wheel
// (its name from wheels/latest.json) by absolute URL, then runs the editable
// example with stdout/stderr shown on the page.
import { loadPyodide } from "../pyodide/pyodide.mjs";
import { registerServiceWorker } from "../lib/sw-register.js";
import { byId } from "../lib/dom.js";

export const EXAMPLE = `# The Spades engine, installed from this site's wheel with micropip.
from spades import Match, long_name

m = Match(seed=1)                 # same seed, same deal, every time
print("Dealer: seat", m.dealer, "- first to bid: seat", m.to_act)
for _ in range(4):                # each seat bids 3, in turn
    m.bid(3)
print("Bids:", m.bids)

for _ in range(4):                # one trick: each seat plays its lowest legal card
    seat = m.to_act
    card = m.legal_cards()[0]
    m.play(card)
    print(f"Seat {seat} plays the {long_name(card)}")

trick = m.tricks[-1]
print("Trick winner: seat", trick.winner)
view = m.view(0)                  # what South (seat 0) may see now
print("South holds:", " ".join(view.hand))
print("Tricks won by seat:", view.tricks_won)
`;

const status = byId("status");
const output = byId("output");
const code = byId("code");
let pyodide = null;

function setStatus(text, state) {
  status.textContent = text;
  status.dataset.state = state;
}

function write(text, cls) {
  const span = document.createElement("span");
  if (cls) span.className = cls;
  span.textContent = text.endsWith("\n") ? text : text + "\n";
  output.appendChild(span);
}

async function json(path) {
  const resp = await fetch(new URL(path, location.href), { cache: "no-cache" });
  if (!resp.ok) throw new Error(`${path}: HTTP ${resp.status}`);
  return resp.json();
}

async function boot() {
  const t0 = performance.now();
  const [build, latest] = await Promise.all([json("build.json"), json("wheels/latest.json")]);
  const wheelURL = new URL(`wheels/${latest.wheel}`, location.href).href;
  byId("snippet").textContent = `import micropip; await micropip.install("${wheelURL}")`;
  byId("wheel-link").href = wheelURL;
  byId("wheel-link").textContent = latest.wheel;
  byId("wheel-sha").textContent = `sha256 ${latest.sha256.slice(0, 16)}…`;

  setStatus("Starting Python…", "loading");
  const py = await loadPyodide({ indexURL: new URL("pyodide/", location.href).href });
  setStatus("Loading micropip…", "loading");
  await py.loadPackage(new URL(build.micropip, location.href).href);
  setStatus("Installing the spades wheel…", "loading");
  const micropip = py.pyimport("micropip");
  await micropip.install(wheelURL);
  micropip.destroy();
  const version = py.runPython("import spades; spades.__version__");
  py.setStdout({ batched: (s) => write(s) });
  py.setStderr({ batched: (s) => write(s, "err") });
  pyodide = py;
  window.bootMs = Math.round(performance.now() - t0);
  setStatus(`Python ready: spades ${version} installed from ${latest.wheel} (${window.bootMs} ms).`, "ready");
  byId("run").disabled = false;
  document.body.dataset.ready = "1";
}

async function run() {
  if (!pyodide) return;
  byId("run").disabled = true;
  byId("run-state").textContent = "Running…";
  output.textContent = "";
  delete document.body.dataset.ran;
  let ok = true;
  try {
    await pyodide.runPythonAsync(code.value);
  } catch (err) {
    ok = false;
    // A Python exception: show its traceback (the user's own code, so it helps).
    write(String((err && err.message) || err), "err");
  }
  byId("run-state").textContent = ok ? "Done." : "Stopped with an error.";
  byId("run").disabled = false;
  document.body.dataset.ran = ok ? "ok" : "error";
}

code.value = EXAMPLE;
byId("run").addEventListener("click", run);
byId("reset").addEventListener("click", () => {
  code.value = EXAMPLE;
});
code.addEventListener("keydown", (e) => {
  if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
    e.preventDefault();
    run();
  }
});
byId("copy").addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText(byId("snippet").textContent);
    byId("copy").textContent = "Copied";
  } catch {
    const range = document.createRange();
    range.selectNodeContents(byId("snippet"));
    const sel = window.getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
  }
});

registerServiceWorker();
boot().catch((err) => {
  setStatus(`Python could not start: ${(err && err.message) || err}`, "error");
  document.body.dataset.error = "boot";
});
