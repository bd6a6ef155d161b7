// settings.js: the player's settings (speed, deck colours, language, sound) as kept in
// localStorage, shared by every page that reads them. Storage may be missing or full:
// reading then gives the defaults and writing says it failed; nothing here throws.
// Values read from storage are looked up as own properties only.

const SETTINGS_KEY = "spades.settings.v1";

/** Speeds a player can choose: think = pause before a computer acts, move = card flight,
 * pause = how long a full trick stays on the table (milliseconds). */
export const SPEEDS = Object.freeze({
  slow: { think: 900, move: 480, pause: 1500 },
  normal: { think: 480, move: 300, pause: 950 },
  fast: { think: 180, move: 160, pause: 450 },
  instant: { think: 0, move: 0, pause: 0 },
});
const DEFAULT_SPEED = "normal";
/** A STUN server's address as the player may write it (`stun:host:port`). */
export const STUN = /^stuns?:[A-Za-z0-9.-]{1,253}(:[0-9]{1,5})?$/;

/** The speed named `name` (own properties only: "__proto__" is no speed), or null. */
export function speedOf(name) {
  return typeof name === "string" && Object.hasOwn(SPEEDS, name) ? SPEEDS[name] : null;
}

/** The delays of `speed` (a SPEEDS name); no card flight when the system asks for reduced motion. */
export function pace(speed) {
  const sp = speedOf(speed) || SPEEDS[DEFAULT_SPEED];
  const reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  return reduced ? { ...sp, move: 0 } : sp;
}

/** Whether delays `tm` (from `pace`) are Instant's: no pause, no flight, nothing to wait for. */
export function isInstant(tm) {
  return tm.think === 0 && tm.move === 0 && tm.pause === 0;
}

/** The settings as saved, with defaults for anything missing or malformed. */
export function loadSettings() {
  let s = {};
  try {
    s = JSON.parse(localStorage.getItem(SETTINGS_KEY) || "{}") || {};
  } catch {
    s = {};
  }
  return {
    speed: speedOf(s.speed) ? s.speed : DEFAULT_SPEED,
    fourColour: Boolean(s.fourColour),
    lang: typeof s.lang === "string" ? s.lang : null,
    // a STUN server for playing with friends across networks: none unless the player names one
    stun: typeof s.stun === "string" && STUN.test(s.stun) ? s.stun : "",
    sound: s.sound !== false, // on unless the player turned it off
  };
}

/** Keep the settings; false when storage refused them (they then last for this visit). */
export function saveSettings(settings) {
  try {
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
    return true;
  } catch {
    return false;
  }
}
