// params.js: what the game page's address asks for, read strictly. Every value is looked
// up as an own property or in a list (never `value in object`), so `?speed=__proto__`
// or `?lang=constructor` is simply not a speed or a language.
import { speedOf } from "../lib/settings.js";

/** Speed aliases the address accepts besides the speeds' own names. */
const SPEED_ALIASES = new Map([["0", "instant"], ["1", "fast"]]);
/** The longest seed shown back to the player (the engine checks the seed itself). */
const SEED_SHOWN_CHARS = 24;
/** The parameters that make an embedded table a table of its own (its saved match and its
 * tab lock): what it deals and who plays. Language, speed and layout do not. */
const TABLE_PARAMS = ["seed", "partner", "opponents", "rules"];
/** Who the people at a table are, by the address's word (`?host=partner`, `?pass=all`): real seats,
 * the player's own (0) first. Computer players fill the others. */
export const PEOPLE = Object.freeze({ partner: [0, 2], opponents: [0, 1, 3], all: [0, 1, 2, 3] });
/** A dropped friend's seat waits this long at least, and at most, when the address sets it (`?hold=` ms). */
const HOLD_RANGE = [500, 600_000];
/** An unanswered invitation lasts this long at least, and at most, when the address sets it (`?expire=` ms). */
const EXPIRE_RANGE = [1000, 3_600_000];

/** An author's own name for an embedded table (`id=`): letters, digits, `-`, `_`, `.`, at most 64. */
const TABLE_ID = /^[A-Za-z0-9_.-]{1,64}$/;

/** The address's parameters: `params = readParams(location.search)`. */
export function readParams(search) {
  const q = new URLSearchParams(search);
  /** A whole number of milliseconds in `[low, high]` from parameter `name`, else null. */
  const millis = (name, [low, high]) => {
    const v = Number(q.get(name));
    return q.has(name) && Number.isInteger(v) && v >= low && v <= high ? v : null;
  };
  return {
    embed: q.get("embed") === "1",
    compact: q.get("compact") === "1",
    lang: q.get("lang"),
    hasSeed: q.has("seed"),
    seed: q.get("seed"),
    /** The house rules asked for (`?rules=jokers`, `?rules=1.0.0,target=300`): text for the engine to read, or null. */
    rules: q.get("rules"),
    /**
     * What makes this embedded table distinct, as text: `id=NAME` when the author named it,
     * else its dealing parameters in a fixed order (`seed=42&partner=hard`); "" for none.
     */
    tableKey() {
      const id = q.get("id");
      if (id !== null && TABLE_ID.test(id)) return new URLSearchParams({ id }).toString();
      const own = new URLSearchParams();
      for (const name of TABLE_PARAMS) if (q.has(name)) own.set(name, q.get(name));
      return own.toString();
    },
    /** A table of several people asked for: {mode: "host" | "pass", who, seats}, or null. */
    people() {
      for (const mode of ["host", "pass"]) {
        const who = q.get(mode);
        if (who !== null && Object.hasOwn(PEOPLE, who)) return { mode, who, seats: PEOPLE[who] };
      }
      return null;
    },
    /** How long a dropped friend's seat is held (ms), when the address says so; else null. */
    holdMs: () => millis("hold", HOLD_RANGE),
    /** How long an unanswered invitation lasts (ms), when the address says so; else null. */
    inviteMs: () => millis("expire", EXPIRE_RANGE),
    /** Whether the author of a framed table asks for its sounds (`sound=1`; they are off in frames otherwise). */
    sound: q.get("sound") === "1",
    /** The speed asked for (instant, slow, normal, fast), or null. */
    speed() {
      const v = q.get("speed");
      if (v === null) return null;
      const name = SPEED_ALIASES.has(v) ? SPEED_ALIASES.get(v) : v;
      return speedOf(name) ? name : null;
    },
    /** The level asked for as `name` (partner, opponents) when it is one of `levels`, else null. */
    level(name, levels) {
      const v = q.get(name);
      return levels.includes(v) ? v : null;
    },
  };
}

/** A seed as the player may see it again: at most SEED_SHOWN_CHARS characters. */
export function shownSeed(seed) {
  const chars = [...String(seed)];
  return chars.length > SEED_SHOWN_CHARS ? `${chars.slice(0, SEED_SHOWN_CHARS).join("")}…` : chars.join("");
}

/** The address without its seed and rules: a reload then resumes the match instead of dealing it again. */
export function withoutSeed(href) {
  const url = new URL(href);
  for (const name of ["seed", "rules", "host", "pass"]) url.searchParams.delete(name);
  return url.pathname + url.search + url.hash;
}
