// press.js: whether the player is in the middle of a press (a pointer down, until the click it
// makes has been dispatched). A change that would move controls (an engine's answer arriving
// while a finger or button is down) waits for the press to end: a tap on a button that moved
// away between its down and its up would otherwise be lost, landing on whatever took its place.
//
//   trackPresses();        // once, before the presses that matter (idempotent)
//   await pressEnded();    // at once when nothing is pressed, else after the press's click
//                          // (or its choice in a <select>), and never later than LONGEST_WAIT_MS

/** A touch's click can follow its release in a task of its own: how long to wait for it (ms). */
const CLICK_AFTER_RELEASE_MS = 120;
/** The longest a waiter waits (ms): a press held longer is no tap, and a release the page never
 * sees (one inside a native popup, say) must not hold the answers back. */
const LONGEST_WAIT_MS = 2000;

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
  if (tracking) return;
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
  // a choice in a <select>'s popup: the press that opened it ends there (the popup has the release)
  addEventListener("change", (event) => {
    if (pressed && event.target instanceof HTMLSelectElement) ended();
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
  if (!pressed) return Promise.resolve();
  return new Promise((go) => {
    const cap = setTimeout(go, LONGEST_WAIT_MS);
    waiting.push(() => {
      clearTimeout(cap);
      go();
    });
  });
}
