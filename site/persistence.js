// persistence.js: what the page keeps in localStorage. The match is the engine's own save
// text (spades.bridge "save"); beside it, the number of a scored hand still waiting for
// Continue, and the player's settings. Storage may be missing or full: every function
// here then degrades to "nothing saved" and never throws; createSaver shows a failed
// write and retries it. A save the engine refused is kept aside (one copy), not deleted.
// Values read from storage or the address are looked up as own properties only.

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
/** A failed save is tried again after this many ms (until it succeeds or is replaced). */
const SAVE_RETRY_MS = 2000;

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

/**
 * The match store. An embedded table (embed.html → index.html?embed=1) has its own keys,
 * so a tutorial's table never overwrites the player's own match.
 */
export function matchStore(embed) {
  const saveKey = embed ? "spades.embed.save.v1" : "spades.save.v1";
  const pendingKey = embed ? "spades.embed.pending.v1" : "spades.pending.v1";
  const asideKey = embed ? "spades.embed.refused.v1" : "spades.refused.v1";
  return {
    /** The saved session text, or null. */
    load() {
      try {
        return localStorage.getItem(saveKey);
      } catch {
        return null;
      }
    },
    /** The number of the scored hand waiting for Continue when the page was left, or null. */
    pendingHand() {
      try {
        const n = Number(localStorage.getItem(pendingKey));
        return Number.isInteger(n) && n > 0 ? n : null;
      } catch {
        return null;
      }
    },
    /** The lock that lets one tab at a time own this match (tablock.js). */
    lockName: `${saveKey}.owner`,
    /**
     * Keep the session text and the waiting hand's number; false when storage is full or
     * refused. The session text is written last, in one setItem: a failed write leaves
     * the previous good save whole (and its waiting hand's number as it was).
     */
    write(text, pendingNumber) {
      let before = null;
      try {
        before = localStorage.getItem(pendingKey);
        if (pendingNumber) localStorage.setItem(pendingKey, String(pendingNumber));
        else localStorage.removeItem(pendingKey);
        localStorage.setItem(saveKey, text);
        return true;
      } catch {
        try {
          if (before === null) localStorage.removeItem(pendingKey);
          else localStorage.setItem(pendingKey, before);
        } catch {
          /* storage unavailable: the save itself is unchanged */
        }
        return false;
      }
    },
    /** Move a save the engine refused aside (one copy, replacing an older one); false when
     * storage refused the copy: the save then stays where it was. */
    keepAside(text) {
      try {
        localStorage.setItem(asideKey, text);
        localStorage.removeItem(saveKey);
        localStorage.removeItem(pendingKey);
        return true;
      } catch {
        return false;
      }
    },
    /** The save kept aside, or null. */
    aside() {
      try {
        return localStorage.getItem(asideKey);
      } catch {
        return null;
      }
    },
  };
}

/**
 * Writes the match to `store` for the tab that owns it (`owned()`). A failed write calls
 * `onFailed()` and is retried every SAVE_RETRY_MS with the newest text until it succeeds
 * (then `onSaved()`); a newer save replaces the one waiting. Returns save(text, pending).
 */
export function createSaver(store, { owned, onFailed, onSaved }) {
  let waiting = null; // [text, pending] not yet written
  let timer = null;

  function attempt() {
    timer = null;
    if (!owned()) waiting = null; // another tab owns the match now: its saves win
    if (!waiting) return;
    const [text, pending] = waiting;
    if (store.write(text, pending)) {
      waiting = null;
      onSaved();
    } else {
      onFailed();
      timer = setTimeout(attempt, SAVE_RETRY_MS);
    }
  }

  return function save(text, pending) {
    const retrying = waiting !== null;
    waiting = [text, pending];
    if (!retrying) attempt();
  };
}
