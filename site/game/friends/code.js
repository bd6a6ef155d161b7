// code.js: the invitation and the answer as short text a person can send by any messenger,
// put in a link or a QR code. Each holds only what the other page needs (sdp.js's fields):
// packed as bytes and written in base64url, about 150 characters for a device with two
// candidates. Reading is strict and bounded: a code that is too long, not exactly this
// shape, or from another version is refused with a reason the page translates.
import { ADDRESS_TEXT, FINGERPRINT_BYTES, ICE_CHARS, MAX_CANDIDATES, PWD_CHARS, SETUP, SdpError, UFRAG_CHARS,
  CANDIDATE_TYPES, sdpFields, sdpText } from "./sdp.js";

/** The codes' format version (the first byte). */
export const CODE_VERSION = 2;
/** The longest code read (characters): the longest a code can be is under 1,000. */
export const MAX_CODE_CHARS = 1000;
/** A one-time key: random bytes, in base64url in the host's page. */
const KEY_BYTES = 9;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** A candidate's address as packed: IPv4 (4 bytes), an mDNS name that is a UUID (16 bytes:
 * the browser's stand-in for a local address), or text. */
const ADDRESS = Object.freeze({ IPV4: 0, MDNS: 1, TEXT: 2 });
const SRFLX_BIT = 4;
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const MDNS = /^([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})\.local$/;

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

const ascii = (text) => Array.from(text, (c) => c.charCodeAt(0));

/** A candidate's address as bytes: [form, ...address]. */
function packAddress(address) {
  const v4 = IPV4.exec(address);
  if (v4 && v4.slice(1).every((n) => Number(n) <= 255)) return [ADDRESS.IPV4, ...v4.slice(1).map(Number)];
  const mdns = MDNS.exec(address.toLowerCase());
  if (mdns) {
    const hex = mdns.slice(1).join("");
    return [ADDRESS.MDNS, ...Array.from({ length: 16 }, (_, i) => parseInt(hex.slice(2 * i, 2 * i + 2), 16))];
  }
  return [ADDRESS.TEXT, address.length, ...ascii(address)];
}

/** A fresh one-time key for an invitation. */
export function newKey() {
  return toBase64url(crypto.getRandomValues(new Uint8Array(KEY_BYTES)));
}

/** `{k, s?, d}` (key, seat in an invitation, the description) as a code. */
export async function writeCode({ k, s = 0, d }) {
  let f;
  try {
    f = sdpFields(d);
  } catch (err) {
    if (err instanceof SdpError) throw new CodeError("unsupported");
    throw err;
  }
  const bytes = [CODE_VERSION, s | (SETUP.indexOf(f.setup) << 2), ...fromBase64url(k), ...f.fingerprint,
    f.ufrag.length, ...ascii(f.ufrag), f.pwd.length, ...ascii(f.pwd), f.candidates.length];
  for (const c of f.candidates) {
    const [form, ...address] = packAddress(c.address);
    bytes.push(form | (c.type === "srflx" ? SRFLX_BIT : 0), ...address, c.port >> 8, c.port & 0xff);
  }
  return toBase64url(Uint8Array.from(bytes));
}

/** Reads a code's bytes in order; any read past the end, or a bad value, is "damaged". */
function reader(bytes) {
  let at = 0;
  const take = (n) => {
    if (at + n > bytes.length) throw new CodeError("damaged");
    at += n;
    return bytes.subarray(at - n, at);
  };
  const text = (n, pattern) => {
    const t = String.fromCharCode(...take(n));
    if (!pattern.test(t)) throw new CodeError("damaged");
    return t;
  };
  return { take, byte: () => take(1)[0], text, done: () => at === bytes.length };
}

function readAddress(r, form) {
  if (form === ADDRESS.IPV4) return [...r.take(4)].join(".");
  if (form === ADDRESS.MDNS) {
    const hex = [...r.take(16)].map((b) => b.toString(16).padStart(2, "0")).join("");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}.local`;
  }
  if (form === ADDRESS.TEXT) return r.text(r.byte(), ADDRESS_TEXT);
  throw new CodeError("damaged");
}

/**
 * A code read back: `{k, s, d}` (s: the seat, null in an answer; d: the full description).
 * Refused (CodeError with a reason: empty, tooLong, damaged, version) when it is not one
 * this page wrote.
 */
export async function readCode(text, { seat = false } = {}) {
  const code = typeof text === "string" ? text.trim() : "";
  if (!code) throw new CodeError("empty");
  if (code.length > MAX_CODE_CHARS) throw new CodeError("tooLong");
  if (!BASE64URL.test(code)) throw new CodeError("damaged");
  let bytes;
  try {
    bytes = fromBase64url(code);
  } catch {
    throw new CodeError("damaged");
  }
  const r = reader(bytes);
  if (r.byte() !== CODE_VERSION) throw new CodeError("version");
  const flags = r.byte();
  const s = flags & 3;
  const setup = SETUP[flags >> 2];
  if (!setup || (seat ? s === 0 : s !== 0)) throw new CodeError("damaged");
  const k = toBase64url(r.take(KEY_BYTES));
  const fingerprint = Uint8Array.from(r.take(FINGERPRINT_BYTES));
  const ufragChars = r.byte();
  if (ufragChars < UFRAG_CHARS[0] || ufragChars > UFRAG_CHARS[1]) throw new CodeError("damaged");
  const ufrag = r.text(ufragChars, ICE_CHARS);
  const pwdChars = r.byte();
  if (pwdChars < PWD_CHARS[0] || pwdChars > PWD_CHARS[1]) throw new CodeError("damaged");
  const pwd = r.text(pwdChars, ICE_CHARS);
  const count = r.byte();
  if (count > MAX_CANDIDATES) throw new CodeError("damaged");
  const candidates = [];
  for (let i = 0; i < count; i++) {
    const kind = r.byte();
    if (kind & ~(3 | SRFLX_BIT)) throw new CodeError("damaged");
    const address = readAddress(r, kind & 3);
    const [hi, lo] = r.take(2);
    const port = (hi << 8) | lo;
    if (port === 0) throw new CodeError("damaged");
    candidates.push({ type: CANDIDATE_TYPES[kind & SRFLX_BIT ? 1 : 0], address, port });
  }
  if (!r.done()) throw new CodeError("damaged");
  return { k, s: seat ? s : null, d: sdpText({ ufrag, pwd, fingerprint, setup, candidates }) };
}

