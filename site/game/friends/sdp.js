// sdp.js: a data channel's session description cut down to what the other side needs to
// connect, and written back out. A browser's offer or answer is some 600 characters of
// which only a few fields matter for a data channel with every candidate gathered: the ICE
// user fragment and password, the DTLS certificate's fingerprint and role, and the UDP
// candidates (address, port, host or server-reflexive). Everything else is the same for
// every data channel and is written back from the template below, so an invitation (and
// its QR code) carries only those fields (code.js packs them).

/** The DTLS roles, by their number in a code (the offer's is actpass, an answer's active). */
export const SETUP = Object.freeze(["actpass", "active", "passive"]);
/** The candidate types kept: on the device's own network (host) and as a STUN server saw it. */
export const CANDIDATE_TYPES = Object.freeze(["host", "srflx"]);
/** At most this many candidates are kept (a device rarely has more than a few). */
export const MAX_CANDIDATES = 8;
/** The fingerprint's hash (the one every browser uses) and its length in bytes. */
const FINGERPRINT_HASH = "sha-256";
export const FINGERPRINT_BYTES = 32;
/** ICE's characters for the user fragment and password (RFC 8839: 4 and 22 at least). */
export const ICE_CHARS = /^[A-Za-z0-9+/]+$/;
export const UFRAG_CHARS = [4, 64];
export const PWD_CHARS = [22, 64];
/** A candidate's address written as text: an IPv4 or IPv6 address, or a host name. */
export const ADDRESS_TEXT = /^[A-Za-z0-9.:-]{1,64}$/;
/** Candidate type preferences (RFC 8445's recommended values): host before server-reflexive. */
const TYPE_PREFERENCE = Object.freeze({ host: 126, srflx: 100 });
/** The SCTP port and largest message of a browser's data channel. */
const SCTP_PORT = 5000;
const MAX_MESSAGE_SIZE = 262144;

/** Why a description cannot be cut down (the page then says the connection cannot be made). */
export class SdpError extends Error {}

/** One `a=candidate:` line as {type, address, port}, or null for one that is not kept
 * (another component, TCP, a relay). */
function candidate(line) {
  const f = line.slice("a=candidate:".length).trim().split(/\s+/);
  if (f.length < 8 || f[1] !== "1" || f[2].toLowerCase() !== "udp" || f[6] !== "typ") return null;
  const port = Number(f[5]);
  if (!CANDIDATE_TYPES.includes(f[7]) || !ADDRESS_TEXT.test(f[4]) || !Number.isInteger(port) || port < 1 || port > 65535) {
    return null;
  }
  return { type: f[7], address: f[4], port };
}

/** The fields of `sdp` a connection needs: {ufrag, pwd, fingerprint: Uint8Array, setup, candidates}. */
export function sdpFields(sdp) {
  const lines = String(sdp).split(/\r?\n/);
  const value = (prefix) => {
    const line = lines.find((l) => l.startsWith(prefix));
    return line === undefined ? null : line.slice(prefix.length).trim();
  };
  const ufrag = value("a=ice-ufrag:");
  const pwd = value("a=ice-pwd:");
  const setup = value("a=setup:");
  const [hash, hex] = (value("a=fingerprint:") || "").split(/\s+/);
  const fingerprint = hex ? Uint8Array.from(hex.split(":"), (b) => parseInt(b, 16)) : null;
  if (!ufrag || !pwd || !SETUP.includes(setup) || (hash || "").toLowerCase() !== FINGERPRINT_HASH ||
      !fingerprint || fingerprint.length !== FINGERPRINT_BYTES || fingerprint.some((b) => Number.isNaN(b))) {
    throw new SdpError("not a data channel's description this game can shorten");
  }
  const seen = new Set();
  const candidates = [];
  for (const line of lines) {
    const c = line.startsWith("a=candidate:") ? candidate(line) : null;
    const key = c && `${c.address} ${c.port}`;
    if (c && !seen.has(key) && candidates.length < MAX_CANDIDATES) {
      seen.add(key);
      candidates.push(c);
    }
  }
  return { ufrag, pwd, fingerprint, setup, candidates };
}

/** A candidate's priority (RFC 8445 5.1.2.1): its type, then its place in the list, component 1. */
const priority = (type, index) => TYPE_PREFERENCE[type] * 2 ** 24 + (65535 - index) * 2 ** 8 + 255;

/** A full session description for a data channel from `sdpFields`'s fields. */
export function sdpText({ ufrag, pwd, fingerprint, setup, candidates }) {
  const hex = [...fingerprint].map((b) => b.toString(16).padStart(2, "0").toUpperCase()).join(":");
  return [
    "v=0",
    "o=- 1 2 IN IP4 127.0.0.1",
    "s=-",
    "t=0 0",
    "a=group:BUNDLE 0",
    "a=msid-semantic: WMS",
    "m=application 9 UDP/DTLS/SCTP webrtc-datachannel",
    "c=IN IP4 0.0.0.0",
    ...candidates.map((c, i) => `a=candidate:${i + 1} 1 udp ${priority(c.type, i)} ${c.address} ${c.port} typ ${c.type}` +
      (c.type === "srflx" ? " raddr 0.0.0.0 rport 0" : "")),
    `a=ice-ufrag:${ufrag}`,
    `a=ice-pwd:${pwd}`,
    `a=fingerprint:${FINGERPRINT_HASH} ${hex}`,
    `a=setup:${setup}`,
    "a=mid:0",
    `a=sctp-port:${SCTP_PORT}`,
    `a=max-message-size:${MAX_MESSAGE_SIZE}`,
    "",
  ].join("\r\n");
}
