// Engine worker (module worker): boots Pyodide, installs the spades wheel with
// micropip, then answers requests. Protocol: see engine.js.
import { loadPyodide } from "./pyodide/pyodide.mjs";

const queue = [];
let handle = null; // Python spades.bridge.handle once booted
let bootFailed = null; // message when boot failed

function progress(stage, fraction) {
  self.postMessage({ type: "progress", stage, fraction });
}

function errorText(err) {
  if (err && typeof err === "object" && "message" in err) return String(err.message);
  return String(err);
}

function reply(id, payload) {
  self.postMessage({ type: "reply", id, ...payload });
}

function answer(msg) {
  const id = msg && msg.id;
  if (bootFailed !== null) {
    reply(id, { ok: false, error: { code: "boot", message: bootFailed } });
    return;
  }
  let out;
  try {
    const text = handle(JSON.stringify({ fn: msg.fn, args: msg.args ?? {} }));
    out = JSON.parse(text);
  } catch (err) {
    reply(id, { ok: false, error: { code: "internal", message: errorText(err) } });
    return;
  }
  if (out && out.ok === true) {
    reply(id, typeof out.save === "string" ? { ok: true, result: out.result, save: out.save } : { ok: true, result: out.result });
  } else {
    const error = (out && out.error) || {};
    reply(id, {
      ok: false,
      error: {
        code: error.code ? String(error.code) : "internal",
        message: error.message ? String(error.message) : "malformed engine reply",
      },
    });
  }
}

self.onmessage = (event) => {
  const msg = event.data;
  if (handle === null && bootFailed === null) queue.push(msg);
  else answer(msg);
};

async function boot() {
  const base = new URL("./", import.meta.url);
  progress("runtime", 0);
  const pyodide = await loadPyodide({ indexURL: new URL("./pyodide/", base).href });
  progress("runtime", 1);

  const resp = await fetch(new URL("build.json", base), { cache: "no-cache" });
  if (!resp.ok) throw new Error(`build.json: HTTP ${resp.status}`);
  const build = await resp.json();

  progress("micropip", 0);
  await pyodide.loadPackage(new URL(build.micropip, base).href);
  const micropip = pyodide.pyimport("micropip");
  progress("micropip", 1);

  progress("engine", 0);
  await micropip.install(new URL(build.wheel, base).href);
  micropip.destroy();
  const bridge = pyodide.pyimport("spades.bridge");
  handle = bridge.handle;
  progress("engine", 1);
  progress("ready", 1);
}

boot().then(
  () => {
    for (const msg of queue.splice(0)) answer(msg);
  },
  (err) => {
    bootFailed = errorText(err) || "engine failed to start";
    self.postMessage({ type: "boot-error", message: bootFailed });
    for (const msg of queue.splice(0)) answer(msg);
  },
);
