// errors.js: the player-facing text of a coded error (an engine refusal, a storage or file
// failure): the catalogue's text for its code, never the error's own message. Each kind of
// text has its catalogue prefix and a fallback for a code it has no text for.
import { has, t } from "./i18n.js";

/**
 * The texts of error codes: "<prefix>.<code>" when the catalogue has it, else `fallback`
 * (given {code}); `uncoded` is the code an error without one is read as.
 */
export const ERROR_TEXTS = Object.freeze({
  /** The game's actions and messages. */
  game: Object.freeze({ prefix: "error", fallback: "error.unknown", uncoded: null }),
  /** A hand's analysis (review and puzzles). */
  review: Object.freeze({ prefix: "error", fallback: "review.error.unknown", uncoded: "unknown" }),
  /** The hand viewer's reading of a hand. */
  viewer: Object.freeze({ prefix: "viewer.error", fallback: "viewer.error.unknown", uncoded: "unknown" }),
  /** Why a saved match could not be resumed. */
  save: Object.freeze({ prefix: "save", fallback: "save.internal", uncoded: null }),
  /** The match history (storage, import, the engine's replay). */
  history: Object.freeze({ prefix: "stats.err", fallback: "stats.err.other", uncoded: "internal" }),
});

/** The text of `err` (anything with a `code`, or nothing) in the words of `texts` (an ERROR_TEXTS entry). */
export function errorText(err, texts = ERROR_TEXTS.game) {
  const code = (err && err.code) || texts.uncoded;
  const key = `${texts.prefix}.${code}`;
  return code && has(key) ? t(key) : t(texts.fallback, { code });
}
