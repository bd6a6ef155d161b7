// peer.js: the messages between the host's page and a friend's, named in one place. The
// table is spades/bridge/protocol.py's PEER_MESSAGES (the build writes it into
// engine/messages.js beside the engine's messages): what a guest may send (TO_HOST), what
// the host sends (TO_GUEST), the fixed quick reactions and the limits on a guest's messages.
// Every message is one JSON object {t: name, ...fields}.
import { PROTOCOL } from "../../engine/messages.js";

const names = (side) => Object.freeze(Object.fromEntries(Object.keys(PROTOCOL.peer[side]).map((n) => [n.toUpperCase(), n])));

/** What a guest sends the host: TO_HOST.PLAY === "play". Untrusted at the host. */
export const TO_HOST = names("guest");
/** What the host sends a guest. */
export const TO_GUEST = names("host");
/** The quick reactions (react.<phrase> in the catalogues). */
export const REACTIONS = Object.freeze([...PROTOCOL.reactions]);
/** A guest's message: at most this many characters; a burst of this many, then so many a second. */
export const LIMITS = Object.freeze({ ...PROTOCOL.peer_limits });

/** A reaction from one seat at most this often (ms). */
export const REACT_EVERY_MS = LIMITS.react_every_ms;

/** How a guest's own page paces its requests: well inside the host's limits, so network
 * jitter bunching them on the way never makes an honest page's move "too fast". */
export const GUEST_PACE = Object.freeze({ burst: LIMITS.burst / 2, per_second: LIMITS.per_second / 2 });

/**
 * A token bucket of `burst` tokens refilled at `per_second`: `take()` spends one (false when
 * none is left); `wait()` is how long until one is there (ms, 0: now).
 */
export function rateBucket({ burst, per_second: perSecond }) {
  let tokens = burst;
  let at = performance.now();
  const refill = () => {
    const now = performance.now();
    tokens = Math.min(burst, tokens + ((now - at) / 1000) * perSecond);
    at = now;
  };
  return {
    take() {
      refill();
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
    wait() {
      refill();
      return tokens >= 1 ? 0 : Math.ceil(((1 - tokens) / perSecond) * 1000);
    },
  };
}

/** The request number of a guest's message, when it is a JSON object with a valid `id`
 * (a message already bounded to LIMITS.max_chars); else null. */
export function requestId(text) {
  try {
    const msg = JSON.parse(text);
    const id = msg && typeof msg === "object" ? msg.id : null;
    return Number.isInteger(id) && id >= 1 && id <= LIMITS.max_id ? id : null;
  } catch {
    return null;
  }
}

/** A message as the text sent over the channel. */
export const wire = (t, fields = {}) => JSON.stringify({ t, ...fields });

/** Notices the host sends (friends.notice.<code> in the catalogues). */
export const NOTICE = Object.freeze({
  HELD: "seat_held", // a friend dropped: their seat waits for them
  COMPUTER: "computer_plays", // a computer player plays their seat until they rejoin
  BACK: "back", // they are back
  TOO_FAST: "too_fast", // your messages came too fast: some were dropped
  TOO_LARGE: "too_large", // a message was too long and was dropped
});
/** Why the host's page said goodbye. */
export const BYE = Object.freeze({ HOST_LEFT: "host_left" });
