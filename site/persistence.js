// persistence.js: what the page keeps in localStorage. The match is the engine's own save
// text (spades.bridge "save"); beside it, the number of a scored hand still waiting for
// Continue, and the player's settings. Storage may be missing or full: every function
// here then degrades to "nothing saved" and never throws.

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

/** The delays of `speed` (a SPEEDS name); no card flight when the system asks for reduced motion. */
export function pace(speed) {
  const sp = SPEEDS[speed] || SPEEDS[DEFAULT_SPEED];
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
    speed: s.speed in SPEEDS ? s.speed : DEFAULT_SPEED,
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
    /** Keep the session text and the waiting hand's number; false when storage is full or refused. */
    write(text, pendingNumber) {
      try {
        localStorage.setItem(saveKey, text);
        if (pendingNumber) localStorage.setItem(pendingKey, String(pendingNumber));
        else localStorage.removeItem(pendingKey);
        return true;
      } catch {
        return false;
      }
    },
    /** Forget the match (a save the engine refused). */
    clear() {
      try {
        localStorage.removeItem(saveKey);
        localStorage.removeItem(pendingKey);
      } catch {
        /* storage unavailable: nothing to clear */
      }
    },
  };
}
