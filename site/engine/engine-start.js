// engine-start.js: starts the engine worker as early as the page can (a classic async
// script in the page's head), before the page's own modules (app.js and the ~30 it
// imports) have loaded, so Pyodide's start overlaps them. engine.js adopts this worker
// and replays the messages it posted meanwhile (kept here, in order); when engine.js
// ran first, it started its own worker and this script does nothing.
(() => {
  if ("spadesEarlyEngine" in self) return; // engine.js already started (or adopted) one
  let worker;
  try {
    worker = new Worker(new URL("engine-worker.js", document.currentScript.src), { type: "module" });
  } catch {
    return; // engine.js starts it the usual way (and reports what fails)
  }
  const early = [];
  const keep = (event) => {
    if (event.type === "error") event.preventDefault(); // engine.js reports it when it replays it
    early.push(event);
  };
  for (const type of ["message", "error", "messageerror"]) worker.addEventListener(type, keep);
  self.spadesEarlyEngine = { worker, early, keep };
})();
