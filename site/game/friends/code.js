// code.js: the invitation and the answer as text a person can send by any messenger, put in
// a link or a QR code. Each is a small JSON object ({v, k, s?, d}: version, the invitation's
// one-time key, the seat, the connection's session description), deflated and written in
// base64url. Reading is strict and bounded: a code that is too long, does not inflate, or is
// not exactly that shape is refused with a code the page translates.

/** The codes' format version. */
export const CODE_VERSION = 1;
/** The longest code read (characters): a real one is under 1,500. */
export const MAX_CODE_CHARS = 6000;
/** The longest session description accepted once inflated (characters). */
const MAX_SDP_CHARS = 12000;
/** A one-time key: 16 random bytes in base64url. */
const KEY_BYTES = 16;
const KEY = /^[A-Za-z0-9_-]{16,32}$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** Why a code was refused (friends.code.<reason> in the catalogues). */
export class CodeError extends Error {
  constructor(reason) {
    super(reason);
    this.reason = reason;
  }
}

const toBase64url = (bytes) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

function fromBase64url(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const bin = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

async function through(stream, bytes, limit) {
  const reader = new Blob([bytes]).stream().pipeThrough(stream).getReader();
  const parts = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      await reader.cancel();
      throw new CodeError("tooLong");
    }
    parts.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A fresh one-time key for an invitation. */
export function newKey() {
  return toBase64url(crypto.getRandomValues(new Uint8Array(KEY_BYTES)));
}

/** `{k, s?, d}` as a code. */
export async function writeCode(fields) {
  const json = new TextEncoder().encode(JSON.stringify({ v: CODE_VERSION, ...fields }));
  return toBase64url(await through(new CompressionStream("deflate-raw"), json, MAX_SDP_CHARS * 2));
}

/**
 * A code read back: `{k, s, d}` (s: the seat, null in an answer). Refused (CodeError with a
 * reason: empty, tooLong, damaged, version) when it is not one this page wrote.
 */
export async function readCode(text, { seat = false } = {}) {
  const code = typeof text === "string" ? text.trim() : "";
  if (!code) throw new CodeError("empty");
  if (code.length > MAX_CODE_CHARS) throw new CodeError("tooLong");
  if (!BASE64URL.test(code)) throw new CodeError("damaged");
  let data;
  try {
    const bytes = await through(new DecompressionStream("deflate-raw"), fromBase64url(code), MAX_SDP_CHARS + 200);
    data = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch (err) {
    if (err instanceof CodeError) throw err;
    throw new CodeError("damaged");
  }
  if (!data || typeof data !== "object" || Array.isArray(data)) throw new CodeError("damaged");
  if (data.v !== CODE_VERSION) throw new CodeError("version");
  const keys = Object.keys(data).sort().join(",");
  if (keys !== (seat ? "d,k,s,v" : "d,k,v")) throw new CodeError("damaged");
  if (typeof data.k !== "string" || !KEY.test(data.k)) throw new CodeError("damaged");
  if (typeof data.d !== "string" || !data.d.startsWith("v=0") || data.d.length > MAX_SDP_CHARS) throw new CodeError("damaged");
  if (seat && !(Number.isInteger(data.s) && data.s >= 1 && data.s <= 3)) throw new CodeError("damaged");
  return { k: data.k, s: seat ? data.s : null, d: data.d };
}

/** The invitation's code in a page address (`#join=…`, or `?join=…`), or null. */
export function joinCode(loc) {
  const fromHash = new URLSearchParams(loc.hash.replace(/^#/, "")).get("join");
  return fromHash || new URLSearchParams(loc.search).get("join");
}

/** The link a friend opens: this page with the invitation after `#join=` (a fragment is never sent to a server). */
export function inviteLink(loc, code) {
  return `${loc.origin}${loc.pathname}#join=${code}`;
}
