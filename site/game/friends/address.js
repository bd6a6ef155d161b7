// address.js: where an invitation travels in a page's address. Small and separate from the
// codes themselves (code.js, sdp.js), so a page can tell it is a friend's before it loads
// anything else: the game page's early start of the engine (game/early-engine.js) reads it.

/** The invitation's code in a page address (`#join=…`, or `?join=…`), or null. */
export function joinCode(loc) {
  const fromHash = new URLSearchParams(loc.hash.replace(/^#/, "")).get("join");
  return fromHash || new URLSearchParams(loc.search).get("join");
}

/** The link a friend opens: this page with the invitation after `#join=` (a fragment is never sent to a server). */
export function inviteLink(loc, code) {
  return `${loc.origin}${loc.pathname}#join=${code}`;
}
