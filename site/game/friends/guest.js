// guest.js: a friend's page at a table hosted in another player's page. It has no engine:
// the host decides everything. The invitation (`#join=…`) is read, the answer made (with
// every candidate) and shown to be sent back; once the host pastes it the data channel
// opens and the host welcomes this page to its seat. From then on this controller offers
// the game controller's entry points (the same views, hooks and keys): a bid, a card, a
// hint, "Why?" or undo is a request to the host, answered by its engine for this seat only
// (a refusal is a code, translated here); the table comes as the host's pushes, this seat's
// view only, drawn from this seat (viewpoint.js). When the host leaves, the last table stays,
// read-only, with a notice.
import { bidText, showMessage } from "../announcer.js";
import { disableTable, notice } from "../alerts.js";
import { HUMAN } from "../../lib/constants.js";
import { t } from "../../lib/i18n.js";
import { createSequences, entry } from "../../lib/sequence.js";
import { seatName, setSeating } from "../../lib/words.js";
import { clearHint, handCardRect } from "../hand.js";
import { createPresenter } from "../presenter.js";
import { endView, restoreFocus } from "../screen.js";
import { realSeat, turnEvent, turnState } from "../viewpoint.js";
import { CodeError, readCode, writeCode } from "./code.js";
import { GUEST_PACE, NOTICE, TO_GUEST, TO_HOST, rateBucket, wire } from "./peer.js";
import { makeAnswer, opened } from "./rtc.js";

/** How long the answer waits for the host to paste it (ms): long enough to send it by any messenger. */
const ANSWER_WAIT_MS = 30 * 60 * 1000;
/** The longest message read from the host (characters): a state is a few kilobytes. */
const MAX_HOST_CHARS = 200_000;

/**
 * The guest's controller. `code`: the invitation; `stun()`; `showAnswer({code} | {error})`
 * draws the answer panel; `onWelcome()` closes it; `onReact(seat, phrase)` shows a reaction
 * at drawn `seat`; `onHostLeft()`: the table is the host's no more; the rest as for the game
 * controller.
 */
export function createGuest({ code, stun, settings, speedOverride, announce, sound, onScoredHand, showAnswer, onWelcome, onReact, onHostLeft }) {
  const { st, motion, say, refuse, render, afterTurnMessage, take, showPlay, bidBubble, showHint, showWhy } =
    createPresenter({ save: () => {}, settings, speedOverride, announce, sound, onScoredHand, onMatchEnd: () => {} });
  let channel = null;
  let nextId = 1;
  const waiting = new Map(); // request id -> {resolve, reject}
  let inbox = Promise.resolve(); // the host's pushes, drawn one after another
  st.ready = true;
  st.guest = true;

  const pace = rateBucket(GUEST_PACE);
  const gone = () => !channel || channel.readyState !== "open" || st.ended;

  /** A request to the host, answered by its `reply` (a refusal rejects with its code). Sent
   * at this page's own pace, well inside the host's limits. */
  async function request(name, args = {}) {
    for (let ms = pace.wait(); ms > 0 && !gone(); ms = pace.wait()) await new Promise((r) => setTimeout(r, ms));
    if (gone()) throw Object.assign(new Error("host_left"), { code: "host_left" });
    pace.take();
    const id = nextId++;
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      channel.send(wire(name, { id, ...args }));
    });
  }
  const seq = createSequences({ call: request }, refuse);
  const current = seq.current;
  const shown = (S) => turnState(S, st.me);

  function answered(msg) {
    const w = waiting.get(msg.id);
    if (!w) return;
    waiting.delete(msg.id);
    if (msg.ok) w.resolve(msg.result);
    else w.reject(Object.assign(new Error("refused"), { code: (msg.error && msg.error.code) || "internal" }));
  }

  /** A table the host pushed (`S` this seat's view, `event` what changed it), drawn in turn. */
  async function draw(S, event) {
    const run = current();
    const drawn = turnEvent(event, st.me);
    if (st.pendingHand) {
      st.S = shown(S); // the scored hand stays on show until Continue
      return;
    }
    const from = drawn && drawn.kind === "play" && drawn.seat === HUMAN ? handCardRect(drawn.card) : null;
    st.S = shown(S);
    st.awaiting = false;
    if (!drawn || !["bid", "play"].includes(drawn.kind)) {
      take(st.S);
      render();
      afterTurnMessage();
      return;
    }
    if (drawn.kind === "bid") {
      say(bidText(drawn.seat, drawn.bid));
      bidBubble(drawn.seat, drawn.bid);
      render();
      afterTurnMessage();
      return;
    }
    if (drawn.hand) {
      st.pendingHand = drawn.hand;
      st.view = endView(st.S, drawn.hand);
    }
    st.busy = true;
    try {
      await showPlay(run, drawn.seat, drawn.card, drawn.trick || null, from);
    } finally {
      st.busy = false;
    }
    if (drawn.hand) {
      render();
      onScoredHand(drawn.hand);
      return;
    }
    render();
    afterTurnMessage();
  }

  function received(data) {
    if (typeof data !== "string" || data.length > MAX_HOST_CHARS) return;
    let msg;
    try {
      msg = JSON.parse(data);
    } catch {
      return;
    }
    if (!msg || typeof msg !== "object") return;
    switch (msg.t) {
      case TO_GUEST.WELCOME:
        st.me = msg.seat;
        setSeating({ me: msg.seat });
        document.body.dataset.role = "guest";
        onWelcome();
        notice("host", null);
        take(shown(msg.state));
        render();
        announce(t("friends.welcome", { seat: seatName(HUMAN) }));
        afterTurnMessage();
        break;
      case TO_GUEST.STATE:
        inbox = inbox.then(() => entry(draw)(msg.state, msg.event)).catch(() => {});
        break;
      case TO_GUEST.REPLY:
        answered(msg);
        break;
      case TO_GUEST.NOTICE:
        if (Object.values(NOTICE).includes(msg.code)) {
          const text = t(`friends.notice.${msg.code}`, { name: seatName(turnEvent({ seat: msg.seat }, st.me).seat) });
          say(text, msg.code === NOTICE.TOO_FAST || msg.code === NOTICE.TOO_LARGE ? "error" : "info");
        }
        break;
      case TO_GUEST.REACT:
        onReact(turnEvent({ seat: msg.seat }, st.me).seat, msg.phrase);
        break;
      case TO_GUEST.BYE:
        hostLeft();
        break;
      default:
        break;
    }
  }

  /** The host left (or the connection broke): the last table stays, read-only, with a notice. */
  function hostLeft() {
    if (st.ended) return;
    st.ended = true;
    for (const w of waiting.values()) w.reject(Object.assign(new Error("host_left"), { code: "host_left" }));
    waiting.clear();
    document.body.dataset.hostLeft = "1";
    disableTable();
    onHostLeft();
    showMessage("");
    notice("host", t("friends.hostLeft"));
    announce(t("friends.hostLeft"));
  }

  /** Read the invitation, make the answer, show it, and wait for the host. */
  async function start() {
    let offer;
    try {
      offer = await readCode(code, { seat: true });
    } catch (err) {
      showAnswer({ error: err instanceof CodeError ? err.reason : "damaged" });
      return;
    }
    const made = await makeAnswer(offer.d, stun());
    made.pc.addEventListener("connectionstatechange", () => {
      if (["failed", "closed"].includes(made.pc.connectionState) && document.body.dataset.role === "guest") hostLeft();
    });
    showAnswer({ code: await writeCode({ k: offer.k, d: made.sdp }) });
    channel = await made.channel;
    channel.addEventListener("message", (ev) => received(ev.data));
    channel.addEventListener("close", () => {
      if (document.body.dataset.role === "guest") hostLeft();
    });
    try {
      await opened(channel, ANSWER_WAIT_MS);
    } catch {
      showAnswer({ error: "failed" });
    }
  }

  const canAct = () => st.S && !st.busy && !st.awaiting && !st.pendingHand && !st.ended;

  /** Send an action; the table comes back as the host's push (a refusal is said here). */
  async function act(name, args) {
    if (!canAct()) return;
    st.userActed = true;
    clearHint();
    st.awaiting = true; // nothing more is playable until the host answers
    render();
    const r = await current().call(name, args).then(() => true, (err) => {
      refuse(err);
      return false;
    });
    if (!r) {
      st.awaiting = false;
      render();
    }
  }

  async function hint() {
    if (!canAct() || st.S.to_act !== HUMAN) return;
    const found = await current().ask(TO_HOST.HINT);
    if (!found) return;
    showHint(found);
  }

  async function why(seat) {
    if (!st.S || st.ended) return;
    const found = await current().ask(TO_HOST.WHY, { seat: realSeat(seat, st.me) });
    if (!found) return;
    showWhy(seat, found);
  }

  async function whyNot(card) {
    if (!canAct()) return;
    const r = await current().ask(TO_HOST.WHY_NOT, { card });
    if (!r) return;
    if (r.legal) await act(TO_HOST.PLAY, { card });
    else refuse({ code: r.code });
  }

  return {
    state: st,
    start,
    render,
    refocus: () => restoreFocus(st),
    /** A click or key on the table finishes what is moving (motion.js). */
    initHurry: () => motion.initHurry(),
    onSave: () => {},
    halt: () => {},
    unhalt: () => {},
    hello: async () => {},
    humanBid: entry((n) => act(TO_HOST.BID, { n })),
    humanPlay: entry((card) => act(TO_HOST.PLAY, { card })),
    look: entry(() => act(TO_HOST.LOOK, {})),
    undo: entry(() => act(TO_HOST.UNDO, {})),
    hint: entry(hint),
    why: entry(why),
    whyNot: entry(whyNot),
    /** A quick reaction: sent, and shown at this seat once the host took it. */
    react: entry(async (phrase) => {
      if (st.ended || !st.S) return;
      await current().call(TO_HOST.REACT, { phrase }).then(() => onReact(HUMAN, phrase), refuse);
    }),
    continueAfterHand() {
      if (!st.pendingHand) return;
      st.pendingHand = null;
      st.view = null;
      render();
      showMessage("");
      afterTurnMessage();
    },
  };
}
