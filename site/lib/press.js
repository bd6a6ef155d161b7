// press.js: whether the player is in the middle of a press (a pointer down, until the click it
// makes has been dispatched). A change that would move controls (an engine's answer arriving
// while a finger or button is down) waits for the press to end: a tap on a button that moved
// away between its down and its up would otherwise be lost, landing on whatever took its place.
//
//   trackPresses();        // once, before the presses that matter (idempotent)
//   await pressEnded();    // at once when nothing is pressed, else after the press's click

/** A touch's click can follow its release in a task of its own: how long to wait for it (ms). */
const CLICK_AFTER_RELEASE_MS = 120;

let pressed = false;
let tracking = false;
let timer = 0;
const waiting = [];

function ended() {
  clearTimeout(timer);
  pressed = false;
  for (const go of waiting.splice(0)) go();
}

/** Follow the page's presses from now on. */
export function trackPresses() {
  if (tracking || typeof addEventListener !== "function") return;
  tracking = true;
  const opts = { capture: true, passive: true };
  addEventListener("pointerdown", () => {
    clearTimeout(timer);
    pressed = true;
  }, opts);
  const released = () => {
    clearTimeout(timer);
    if (pressed) timer = setTimeout(ended, CLICK_AFTER_RELEASE_MS);
  };
  addEventListener("pointerup", released, opts);
  addEventListener("pointercancel", released, opts);
  // the window lost the press (another window took it); not an element's blur, which a press causes
  addEventListener("blur", (event) => {
    if (event.target === window) ended();
  }, opts);
  // the press's click: end after it and its default action (a form's submit) have run
  addEventListener("click", () => {
    if (!pressed) return;
    clearTimeout(timer);
    timer = setTimeout(ended, 0);
  }, opts);
}

/** Resolves once no press is under way (at once when none is). */
export function pressEnded() {
  return pressed ? new Promise((go) => waiting.push(go)) : Promise.resolve();
}
