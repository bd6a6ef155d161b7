// host.js: the host's side of a table played with friends. The host's page runs the match
// (its engine is the authority); each friend's seat has its own invitation (a one-time key,
// an offer with every candidate) and at most one connection: an invitation takes one answer
// only, so two friends never get one seat. A friend's message is untrusted: it must be text
// of at most LIMITS.max_chars characters and come within the rate (a burst, then so many a
// second), else it is dropped with a notice; what passes goes to the controller, whose
// engine checks it for that seat only. A friend who drops keeps their seat for `holdMs`;
// then a computer player takes it until they come back with a new invitation.
import { inviteLink } from "./address.js";
import { CodeError, newKey, readCode, writeCode } from "./code.js";
import { BYE, LIMITS, NOTICE, REACT_EVERY_MS, TO_GUEST, rateBucket, requestId, wire } from "./peer.js";
import { makeOffer, opened, takeAnswer } from "./rtc.js";

/** How long a pasted answer may take to open the channel before the page says it failed (ms). */
const CONNECT_MS = 15000;
/** How long a dropped friend's seat waits for them by default (ms). */
export const HOLD_MS = 45000;
/** An invitation not answered within this long is withdrawn (ms): its connection is closed
 * and a late answer refused; the host makes a new one when the friend is ready. */
export const INVITE_MS = 15 * 60 * 1000;
/** The notice "too fast" is sent at most this often (ms). */
const NOTICE_EVERY_MS = 1000;

/** A seat's states, as the invitation panel shows them. */
export const SEAT_STATE = Object.freeze({
  NEW: "new", INVITED: "invited", EXPIRED: "expired", CONNECTING: "connecting", CONNECTED: "connected", HELD: "held", COMPUTER: "computer",
});

/**
 * The host. `seats`: the friends' real seats; `stun()`: the STUN server set in Settings (or
 * ""); `holdMs`; `onChange(seat)`: a seat's state changed (the panel redraws);
 * `onNotice(code, seat)`: something to tell the host. `attach(ctl)` gives it the controller.
 */
export function createHost({ seats, stun, holdMs = HOLD_MS, inviteMs = INVITE_MS, onChange, onNotice }) {
  let ctl = null;
  const table = new Map(seats.map((seat) => [seat, { state: SEAT_STATE.NEW, code: null, link: null }]));

  const entryOf = (seat) => table.get(seat);
  const send = (e, t, fields) => {
    if (e.channel && e.channel.readyState === "open") e.channel.send(wire(t, fields));
  };
  const connected = () => [...table].filter(([, e]) => e.state === SEAT_STATE.CONNECTED).map(([seat]) => seat);
  function tellOthers(seat, t, fields) {
    for (const [other, e] of table) if (other !== seat && e.state === SEAT_STATE.CONNECTED) send(e, t, fields);
  }
  function setState(seat, state) {
    entryOf(seat).state = state;
    onChange(seat);
  }

  /** A new invitation for `seat` (an older one that was not answered is dropped). */
  async function invite(seat) {
    const e = entryOf(seat);
    if (e.state === SEAT_STATE.CONNECTED) return e;
    if (e.pc) e.pc.close();
    clearTimeout(e.expiry);
    const key = newKey();
    const { pc, channel, sdp } = await makeOffer(stun());
    Object.assign(e, { key, pc, channel, answered: false, expired: false, error: null, allowed: rateBucket(LIMITS),
      noticeAt: 0, chain: Promise.resolve() });
    try {
      e.code = await writeCode({ k: key, s: seat, d: sdp });
    } catch (err) {
      if (!(err instanceof CodeError)) throw err;
      pc.close();
      Object.assign(e, { key: null, code: null, link: null, error: err.reason });
      onChange(seat);
      return e;
    }
    e.link = inviteLink(location, e.code);
    e.expiry = setTimeout(() => expire(seat, key), inviteMs);
    channel.addEventListener("open", () => joined(seat, channel));
    channel.addEventListener("message", (ev) => received(seat, channel, ev.data));
    channel.addEventListener("close", () => left(seat, channel));
    // a friend whose page went away is seen by the connection's state within seconds (the
    // channel itself may only close once the connection times out)
    pc.addEventListener("connectionstatechange", () => {
      if (["disconnected", "failed", "closed"].includes(pc.connectionState)) left(seat, channel);
    });
    if (e.state !== SEAT_STATE.COMPUTER && e.state !== SEAT_STATE.HELD) e.state = SEAT_STATE.INVITED;
    onChange(seat);
    return e;
  }

  /** Invitation `key` for `seat`, still unanswered, is withdrawn. */
  function expire(seat, key) {
    const e = entryOf(seat);
    if (e.key !== key || e.answered) return;
    e.expired = true;
    e.pc.close();
    if (e.state === SEAT_STATE.INVITED) e.state = SEAT_STATE.EXPIRED;
    onChange(seat);
  }

  /** The friend's answer for `seat`: refused (CodeError) when it is damaged, for another
   * invitation, the invitation was answered already or has expired, or no connection could
   * be made. */
  async function connect(seat, text) {
    const e = entryOf(seat);
    const answer = await readCode(text);
    if (!e.key || answer.k !== e.key) throw new CodeError("wrongInvite");
    if (e.expired) throw new CodeError("expired");
    if (e.answered) throw new CodeError("used");
    e.answered = true;
    clearTimeout(e.expiry);
    const before = e.state;
    setState(seat, SEAT_STATE.CONNECTING);
    try {
      await takeAnswer(e.pc, answer.d);
      await opened(e.channel, CONNECT_MS);
    } catch {
      e.state = before === SEAT_STATE.CONNECTING ? SEAT_STATE.INVITED : before;
      onChange(seat);
      throw new CodeError("failed");
    }
  }

  async function joined(seat, channel) {
    const e = entryOf(seat);
    if (e.channel !== channel) return;
    clearTimeout(e.timer);
    const wasComputer = e.state === SEAT_STATE.COMPUTER || e.state === SEAT_STATE.CONNECTING && e.computer;
    e.state = SEAT_STATE.CONNECTED;
    if (wasComputer || e.computer) {
      e.computer = false;
      await ctl.setPerson(seat, true);
    }
    const S = await ctl.viewOf(seat);
    send(e, TO_GUEST.WELCOME, { seat, state: S });
    tellOthers(seat, TO_GUEST.NOTICE, { code: NOTICE.BACK, seat });
    onChange(seat);
    onNotice(NOTICE.BACK, seat);
  }

  function received(seat, channel, data) {
    const e = entryOf(seat);
    if (e.channel !== channel || e.state !== SEAT_STATE.CONNECTED) return;
    if (typeof data !== "string" || data.length > LIMITS.max_chars) {
      send(e, TO_GUEST.NOTICE, { code: NOTICE.TOO_LARGE, seat });
      return;
    }
    if (!e.allowed.take()) {
      // dropped before the engine sees it; a request still gets its answer (refused), so
      // the friend's page is never left waiting for it
      const id = requestId(data);
      if (id !== null) send(e, TO_GUEST.REPLY, { id, ok: false, error: { code: NOTICE.TOO_FAST } });
      const now = performance.now();
      if (now - e.noticeAt > NOTICE_EVERY_MS) {
        e.noticeAt = now;
        send(e, TO_GUEST.NOTICE, { code: NOTICE.TOO_FAST, seat });
      }
      return;
    }
    // one message at a time per friend, in the order sent
    e.chain = e.chain.then(() => ctl.fromFriend(seat, data, (reply) => send(e, TO_GUEST.REPLY, reply))).catch(() => {});
  }

  /** The friend at `seat` dropped: the seat waits for them, then a computer player takes it. */
  function left(seat, channel) {
    const e = entryOf(seat);
    if (e.channel !== channel || e.state !== SEAT_STATE.CONNECTED) return;
    setState(seat, SEAT_STATE.HELD);
    tellOthers(seat, TO_GUEST.NOTICE, { code: NOTICE.HELD, seat });
    onNotice(NOTICE.HELD, seat);
    e.timer = setTimeout(() => computerTakes(seat), holdMs);
  }

  /** A computer player plays `seat` until its friend comes back (or joins at all). */
  async function computerTakes(seat) {
    const e = entryOf(seat);
    if (e.state === SEAT_STATE.CONNECTED) return;
    clearTimeout(e.timer);
    e.computer = true;
    setState(seat, SEAT_STATE.COMPUTER);
    tellOthers(seat, TO_GUEST.NOTICE, { code: NOTICE.COMPUTER, seat });
    onNotice(NOTICE.COMPUTER, seat);
    await ctl.setPerson(seat, false);
  }

  return {
    attach(controller) {
      ctl = controller;
    },
    seats: () => [...table.keys()],
    entry: entryOf,
    invite,
    connect,
    computerTakes,
    /** The friends connected now (real seats). */
    friends: connected,
    /** Send the friend at `seat` their table and the event that changed it. */
    tell(seat, state, event) {
      send(entryOf(seat), TO_GUEST.STATE, { state, event: event || null });
    },
    /** Whether a reaction from the friend at `seat` may be shown now: not within half of
     * REACT_EVERY_MS of the last (a friend's own page rests the whole of it, so network
     * jitter never drops an honest one). */
    mayReact(seat) {
      const e = entryOf(seat);
      const now = performance.now();
      if (!e || (e.reactedAt !== undefined && now - e.reactedAt < REACT_EVERY_MS / 2)) return false;
      e.reactedAt = now;
      return true;
    },
    /** A quick reaction from `seat` (a friend's, or the host's own: seat 0) for every other friend. */
    react(seat, phrase) {
      tellOthers(seat, TO_GUEST.REACT, { seat, phrase });
    },
    /** The host leaves: every friend is told, every connection closed. */
    bye() {
      for (const e of table.values()) {
        clearTimeout(e.expiry);
        clearTimeout(e.timer);
        send(e, TO_GUEST.BYE, { code: BYE.HOST_LEFT });
        if (e.pc) e.pc.close();
      }
    },
  };
}
