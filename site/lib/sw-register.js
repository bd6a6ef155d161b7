// sw-register.js: registers the offline service worker (sw.js) and tells the
// player when a new version is ready.
//
//   import { registerServiceWorker } from "./sw-register.js";
//   registerServiceWorker();                       // built-in banner, English text
//   registerServiceWorker({ labels: { message: "…", reload: "…", dismiss: "…" } });
//   registerServiceWorker({ onUpdateReady(apply) { showMyOwnNotice(() => apply()); } });
//
// The worker is registered as "./sw.js?build=<build>" (scope "./"), the build
// hash read fresh from build.json, so each deployment installs a new worker.
// When a new worker has installed completely while an old one controls the page,
// onUpdateReady(apply) is called (or the banner shown); apply() asks the worker waiting
// at that moment to take over and reloads the page once it has (at once when none
// waits any more: another tab of the site already applied it). The page's own state
// must survive a reload (the game saves after every action). A new worker whose
// install fails (a host seen half-updated) is reported as a console warning; the old
// one keeps serving, and the next page load tries again. Offline, the existing
// registration is kept as it is.
//
// Returns a promise of the ServiceWorkerRegistration (null when unsupported or
// on failure; failures are logged as warnings, never thrown).

const DEFAULT_LABELS = {
  message: "A new version is ready",
  reload: "Reload",
  dismiss: "Not now",
};

async function latestBuild() {
  if (navigator.onLine === false) return null;
  try {
    // A query string the service worker has not cached: always the network.
    const resp = await fetch(`./build.json?latest=${Date.now()}`, { cache: "no-store" });
    if (!resp.ok) return null;
    const info = await resp.json();
    return typeof info.build === "string" ? info.build : null;
  } catch {
    return null;
  }
}

function showBanner(apply, labels) {
  if (document.getElementById("sw-update-banner")) return;
  const bar = document.createElement("div");
  bar.id = "sw-update-banner";
  bar.setAttribute("role", "status");
  bar.style.cssText = [
    // at the top: at the bottom it covered the player's hand
    "position:fixed", "left:50%", "top:calc(6px + env(safe-area-inset-top, 0px))", "transform:translateX(-50%)", "z-index:10000",
    "display:flex", "gap:10px", "align-items:center", "padding:8px 12px", "border-radius:8px",
    "background:#1d2b24", "color:#fff", "font:14px/1.3 system-ui,sans-serif",
    "box-shadow:0 2px 10px rgba(0,0,0,.35)", "max-width:calc(100vw - 24px)",
  ].join(";");
  const text = document.createElement("span");
  text.textContent = labels.message;
  const reload = document.createElement("button");
  reload.type = "button";
  reload.textContent = labels.reload;
  reload.dataset.swAction = "reload";
  const dismiss = document.createElement("button");
  dismiss.type = "button";
  dismiss.textContent = "×";
  dismiss.setAttribute("aria-label", labels.dismiss);
  dismiss.title = labels.dismiss;
  for (const b of [reload, dismiss]) {
    b.style.cssText = "font:inherit;cursor:pointer;border-radius:6px;border:1px solid #9fd3b5;"
      + "background:#2e7d55;color:#fff;padding:3px 10px";
  }
  dismiss.style.background = "transparent";
  reload.addEventListener("click", () => {
    reload.disabled = true;
    apply();
  });
  dismiss.addEventListener("click", () => bar.remove());
  bar.append(text, reload, dismiss);
  document.body.appendChild(bar);
}

export async function registerServiceWorker({ onUpdateReady, labels, script = "./sw.js" } = {}) {
  if (!("serviceWorker" in navigator)) return null;
  const text = { ...DEFAULT_LABELS, ...(labels || {}) };
  const sw = navigator.serviceWorker;
  let announced = null;

  function notify(reg, worker) {
    if (!worker || announced === worker || !sw.controller) return;
    announced = worker;
    let applying = false;
    const apply = () => {
      if (applying) return;
      applying = true;
      // the worker waiting now: the announced one may have been replaced by a newer
      // deployment's, or already activated from another tab (then nothing waits)
      const waiting = reg.waiting;
      if (!waiting) {
        window.location.reload();
        return;
      }
      sw.addEventListener("controllerchange", () => window.location.reload(), { once: true });
      waiting.postMessage({ type: "SKIP_WAITING" });
    };
    if (typeof onUpdateReady === "function") {
      try {
        onUpdateReady(apply);
      } catch (err) {
        console.warn("onUpdateReady threw", err);
      }
    } else {
      showBanner(apply, text);
    }
  }

  function watch(reg) {
    if (reg.waiting) notify(reg, reg.waiting);
    const track = (worker) => {
      if (!worker) return;
      let installed = false;
      worker.addEventListener("statechange", () => {
        if (worker.state === "installed") {
          installed = true;
          notify(reg, worker);
        } else if (worker.state === "redundant" && !installed) {
          console.warn(`the offline cache of ${worker.scriptURL} could not be filled; the current version stays`);
        }
      });
    };
    track(reg.installing);
    reg.addEventListener("updatefound", () => track(reg.installing));
  }

  try {
    const build = await latestBuild();
    let reg;
    if (build) {
      const sep = script.includes("?") ? "&" : "?";
      reg = await sw.register(`${script}${sep}build=${encodeURIComponent(build)}`, { scope: "./" });
    } else {
      reg = (await sw.getRegistration("./")) || null;
      if (!reg && navigator.onLine !== false) reg = await sw.register(script, { scope: "./" });
    }
    if (reg) watch(reg);
    return reg;
  } catch (err) {
    console.warn("service worker registration failed:", err);
    return null;
  }
}
