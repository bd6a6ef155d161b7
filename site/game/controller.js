// controller.js: the only code that sequences engine calls (the state object and how it is
// drawn, said and saved live in presenter.js). Every rule, legal move, trick winner, score and computer move comes from the
// Python engine (engine.js -> worker.js -> spades.bridge); this module decides only what
// to ask next, when to animate, and when to wait for the player. Each flow runs in a
// cancellable sequence (sequence.js): a new match, a resume or an undo stops older flows.
import { bidText, eventsText, showMessage } from "./announcer.js";
import { HUMAN } from "../lib/constants.js";
import { t } from "../lib/i18n.js";
import { isInstant } from "../lib/settings.js";
import { createPresenter } from "./presenter.js";
import { MSG } from "../engine/protocol.js";
import { createSequences, entry } from "../lib/sequence.js";
import { endView, restoreFocus } from "./screen.js";
import { clearHint, focusHand, handCardRect } from "./hand.js";
import { seatName, setSeating } from "../lib/words.js";
import { BUBBLE, clearAt } from "./bubbles.js";
import { drawnSeat, realSeat, turnEvent, turnState } from "./viewpoint.js";

/** How often a friend's move looks whether this page's own flow has finished (ms). */
const IDLE_POLL_MS = 25;

const last = (list) => list[list.length - 1];

/** Whether `S` is a match in progress that the player has begun (bid, or a hand scored). */
const begun = (S) => Boolean(S) && S.phase !== "over" && (S.sheet.length > 0 || S.bids[HUMAN] !== null);

/** The seats people play in (drawn) state `S` (the player alone at their own table). */
const people = (S) => (Array.isArray(S.humans) ? S.humans : [HUMAN]);

/** Whether a computer player is to act in (drawn) state `S`. */
const botsToAct = (S) => S.phase !== "over" && S.to_act !== null && !people(S).includes(S.to_act);

/** Whether a person is to act in (drawn) state `S`. */
const personToAct = (S) => S.phase !== "over" && S.to_act !== null && people(S).includes(S.to_act);


/**
 * The controller. `engine`: from startEngine; `store`: persistence.matchStore;
 * `save(text, pending)`: persistence.createSaver for that store; `settings`: the live
 * settings object; `speedOverride()`: the speed the address asks for (or null); `announce`: the live region (announcer.js); `sound`: the table's sounds (sound.js); `onScoredHand(row)`: opens
 * the score sheet for a hand just scored; `onMatchEnd({saveText, state})`: a match ended or
 * is abandoned (replaced by a new one), for the history.
 */
export function createController({ engine, store, save, settings, speedOverride, announce, sound, onScoredHand, onMatchEnd, people: seats = null }) {
  const { st, motion, say, refuse, render, persist, timing, afterTurnMessage, take, adopt, showPlay, pauseForHand, scoredHand,
    bidBubble, showHint, showWhy } =
    createPresenter({ save, settings, speedOverride, announce, sound, onScoredHand, onMatchEnd });
  // A table of several people (`seats`, friends.js's or pass-and-play's): `mode()` is
  // "pass" (everyone at this device) or "host" (friends at their own devices);
  // `handOver(seat)` shows the privacy screen until the person at real `seat` is ready;
  // `tell(seat, state, event)` sends a friend their table; `friends()` their seats.
  const mode = () => (seats ? seats.mode() : "solo");
  /** The engine's state as drawn from the bottom seat (st.me). */
  const shown = (S) => turnState(S, st.me);
  /** The person at the bottom, as the engine's messages name them. */
  const mine = () => ({ seat: st.me });
  const seq = createSequences(engine, refuse);
  const current = seq.current;
  /** Replace the match's sequence (older flows stop) and let the player act again. */
  function restart() {
    st.busy = false;
    return seq.restart();
  }

  /** Stop every flow; draw and save nothing more (the engine failed, or another tab took over). */
  function halt() {
    restart();
    st.halted = true;
  }
  /** An entry point that does nothing while halted. */
  const live = (flow) => {
    const run = entry(flow);
    return (...args) => (st.halted ? Promise.resolve() : run(...args));
  };

  // ------------------------------------------------------------ the match's flow

  async function startMatch(args) {
    const abandoned = begun(st.S) && st.saveText ? { saveText: st.saveText, state: st.S } : null;
    const run = restart();
    const holder = st.me;
    const S = await run.ask(MSG.NEW_MATCH, args);
    if (!S) {
      // refused (a bad seed): the engine still holds the match in play, which goes on. A
      // computer player's move asked for before the dialog opened may have landed meanwhile
      // (its flow was stopped, so the table never showed it): the table is read again first.
      if (!st.S || st.pendingHand) return;
      st.S = shown(await run.call(MSG.VIEW, mine()));
      st.shownTrick = st.S.trick;
      render();
      await runBots(run);
      return;
    }
    seatAt(0);
    if (abandoned) onMatchEnd(abandoned);
    adopt(shown(S), t("announce.newMatch"));
    await tell(run, null);
    // pass-and-play: a new match started by someone else than the device's owner is handed over
    if (mode() === "pass" && holder !== st.me) await passOnStart(run);
    await runBots(run);
  }

  /** Pass-and-play, when who holds the device is not known (a reload, a new match): the
   * person to act, or the device's owner while computer players act first, gets it behind
   * the privacy screen before any hand shows. */
  async function passOnStart(run) {
    await handOver(run, personToAct(st.S) ? realSeat(st.S.to_act, st.me) : st.me);
  }

  /** The person at real seat `seat` sits at the bottom from now on (names follow). */
  function seatAt(seat) {
    st.me = seat;
    setSeating(mode() === "solo" ? null : { me: seat });
  }

  /** Send each friend at the table their own view of it, with the event that changed it. */
  async function tell(run, event) {
    if (mode() !== "host") return;
    for (const seat of seats.friends()) {
      const S = await run.query(MSG.VIEW, { seat });
      if (S) seats.tell(seat, S, event);
    }
  }

  /** Resume a saved session; a refused save rejects with the engine's coded error. */
  async function resume(text) {
    const run = restart();
    const S = await run.call(MSG.RESUME, { save: text });
    seatAt(0);
    take(shown(S));
    render();
    announce(t("announce.resumed"));
    // pass-and-play: whoever holds the device after a reload is not known
    st.unsure = mode() === "pass";
    const row = last(S.sheet);
    if (row && row.number === store.pendingHand() && S.phase !== "over") {
      st.view = endView(S, row);
      pauseForHand(row);
      return;
    }
    if (st.unsure) await passOnStart(run);
    await runBots(run);
  }

  async function humanBid(n) {
    if (st.busy || !st.S || st.pendingHand) return;
    st.userActed = true;
    clearHint();
    const run = current();
    st.busy = true; // a second click on a bid (a double click) is ignored until this one is answered
    const S = await run.ask(MSG.BID, { n, ...mine() });
    st.busy = false;
    if (!S) {
      render();
      return;
    }
    st.S = shown(S);
    st.shownTrick = S.trick;
    const bidFocused = document.querySelector("#bid-panel").contains(document.activeElement);
    persist();
    render();
    // the bid buttons are now disabled (or hidden): focus waits on the hand
    if (bidFocused) focusHand();
    // no bubble for the player's own bid: they just chose it, and their seat's chip shows it
    announce(bidText(HUMAN, n));
    await tell(run, { kind: "bid", seat: st.me, bid: n });
    await runBots(run);
  }

  /** The player turns their cards face up (blind-nil tables): the engine closes blind nil and saves it.
   *  Not held back while the computer players bid (the cards are face down exactly then): the
   *  worker answers in order, so the state of whichever reply comes last is the newest. */
  async function look() {
    if (st.looking || !st.S || !st.S.cards_hidden) return;
    const run = current();
    st.looking = true; // a second click waits for this one
    try {
      const S = await run.ask(MSG.LOOK, mine());
      if (S) {
        st.S = shown(S);
        persist();
      }
    } finally {
      st.looking = false;
    }
    render();
  }

  async function humanPlay(card) {
    if (st.busy || !st.S || st.pendingHand) return;
    st.userActed = true;
    clearHint();
    const run = current();
    const from = handCardRect(card);
    const before = st.S;
    st.busy = true;
    const S = await run.ask(MSG.PLAY, { card, ...mine() });
    if (!S) {
      st.busy = false;
      render();
      return;
    }
    st.S = shown(S);
    const handDone = S.sheet.length > before.sheet.length;
    // the trick this card completed, as the engine names seats (for friends) and as drawn
    let done = handDone ? null : S.trick ? null : S.last_trick;
    if (handDone) {
      // (refused: the table then shows the next deal without the last trick)
      const rec = await run.query(MSG.HAND, { number: S.sheet.length });
      done = rec ? last(rec.tricks) : null;
      st.pendingHand = last(st.S.sheet);
      st.view = endView(st.S, st.pendingHand);
    }
    const completed = turnEvent({ trick: done }, st.me).trick;
    persist();
    await tell(run, { kind: "play", seat: st.me, card, ...(done ? { trick: done } : {}),
      ...(handDone ? { hand: last(S.sheet) } : {}) });
    showMessage("");
    try {
      await showPlay(run, HUMAN, card, completed, from);
    } finally {
      if (run.live()) st.busy = false;
    }
    if (handDone) {
      pauseForHand(st.pendingHand);
      return;
    }
    render();
    await runBots(run);
  }


  /** Computer players act until it is the player's turn, a hand is scored, or the match ends. */
  async function runBots(run) {
    if (!st.S) return;
    st.busy = true;
    render();
    try {
      while (botsToAct(st.S)) {
        const tm = timing();
        if (isInstant(tm) && mode() !== "host") {
          // nothing to animate: all the computer players' moves in one call, then said at once
          // (friends are told each move with its table, so a host steps even then)
          const r = await run.call(MSG.RUN_BOTS, mine());
          r.events = r.events.map((e) => turnEvent(e, st.me));
          const scored = r.events.findIndex((e) => e.hand);
          st.S = shown(r.state);
          st.shownTrick = st.S.trick;
          announce(eventsText(scored < 0 ? r.events : r.events.slice(0, scored + 1)));
          for (const e of r.events) if (e.kind === "bid") bidBubble(e.seat, e.bid);
          if (scored >= 0) return scoredHand(r.events[scored].hand);
          persist();
          break;
        }
        render();
        await run.wait(motion.pause(tm.think)); // a click on the table ends the wait (motion.js)
        const r = await run.call(MSG.BOT_STEP, mine());
        await tell(run, r.event);
        r.event = turnEvent(r.event, st.me);
        st.S = shown(r.state);
        if (r.event.hand) {
          st.pendingHand = r.event.hand;
          st.view = endView(st.S, r.event.hand);
        }
        persist();
        if (r.event.kind === "bid") {
          say(bidText(r.event.seat, r.event.bid));
          clearAt(r.event.seat, BUBBLE.WHY);
          bidBubble(r.event.seat, r.event.bid);
          render();
        } else {
          await showPlay(run, r.event.seat, r.event.card, r.event.trick || null, null);
        }
        if (r.event.hand) return scoredHand(r.event.hand);
      }
    } catch (err) {
      if (!run.live()) throw err;
      refuse(err);
    }
    st.busy = false;
    render();
    afterTurnMessage();
    if (mode() === "pass" && personToAct(st.S) && (st.unsure || st.S.to_act !== HUMAN)) {
      await handOver(run, realSeat(st.S.to_act, st.me));
    }
  }

  /** Pass-and-play: the privacy screen hides every hand until the person at real `seat` is
   * ready, then the table turns to them. */
  async function handOver(run, seat) {
    st.busy = true;
    await run.wait(seats.handOver(seat));
    const S = await run.call(MSG.VIEW, { seat });
    seatAt(seat);
    st.unsure = false;
    st.busy = false;
    st.userActed = true; // focus goes to the new person's turn
    take(shown(S));
    render();
    afterTurnMessage();
  }

  async function continueAfterHand() {
    st.userActed = true;
    if (!st.pendingHand) return;
    st.pendingHand = null;
    st.view = null;
    persist();
    st.shownTrick = st.S.trick;
    render();
    announce(t("announce.newHand", { n: st.S.hand_number, dealer: seatName(st.S.dealer) }));
    await runBots(current());
  }

  // ------------------------------------------------------------ tools

  async function hint(level) {
    if (st.busy || !st.S || st.S.to_act !== HUMAN) return;
    const found = await current().ask(MSG.HINT, { level, ...mine() });
    if (!found) return;
    showHint(found);
  }

  /** Why computer seat `seat` made its last bid or card (its bot's reason), shown and said. */
  async function why(seat) {
    if (!st.ready || !st.S) return;
    const found = await current().ask(MSG.WHY, { seat: realSeat(seat, st.me), viewer: st.me });
    if (!found) return;
    showWhy(seat, found);
  }

  async function undo(closeDialogs) {
    if (!st.S || st.busy) return;
    const run = restart();
    const S = await run.ask(MSG.UNDO, mine());
    if (!S) return;
    closeDialogs();
    adopt(shown(S), t("announce.undone"));
    await tell(run, { kind: "undo", seat: st.me });
    if (botsToAct(st.S)) await runBots(run);
  }

  /** A card that cannot be played was tapped: the engine says which rule refuses it. */
  async function whyNot(card) {
    if (!st.ready || !st.S || st.busy || st.pendingHand) return;
    const r = await current().ask(MSG.WHY_NOT, { card, ...mine() });
    if (!r) return;
    if (r.legal) await humanPlay(card); // the table was behind the engine: play it after all
    else refuse({ code: r.code });
  }

  // ------------------------------------------------------------ friends at the table (host)

  /** Wait until no flow of this page is drawing or asking (a friend's move waits its turn). */
  async function idle(run) {
    while (st.busy || st.looking) await run.sleep(IDLE_POLL_MS);
  }

  /**
   * A friend at real `seat` sent `text` (untrusted: the engine checks it, for that seat only).
   * `answer(reply)` gets the reply for the friend as soon as the engine gave it; a move is then
   * shown here as a computer player's is, and every friend is told the new table.
   */
  async function fromFriend(seat, text, answer) {
    const run = current();
    const r = await run.call(MSG.GUEST, { seat, text });
    answer(r.reply); // at once: the friend's page need not wait for this page's animation
    const event = r.event;
    if (event && event.kind === "react") seats.react(seat, event.phrase);
    if (!r.changed) return;
    await idle(run);
    const S = await run.call(MSG.VIEW, { seat: st.me });
    if (!event || event.kind === "undo" || event.kind === "look") {
      take(shown(S));
      persist();
      render();
      await tell(run, event);
      if (event && event.kind === "undo") say(t("friends.undone", { name: seatName(drawnSeat(seat, st.me)) }));
      if (botsToAct(st.S) && !st.pendingHand) await runBots(run);
      return;
    }
    st.S = shown(S);
    const drawn = turnEvent(event, st.me);
    if (drawn.hand) {
      st.pendingHand = drawn.hand;
      st.view = endView(st.S, drawn.hand);
    }
    persist();
    await tell(run, event);
    if (drawn.kind === "bid") {
      say(bidText(drawn.seat, drawn.bid));
      bidBubble(drawn.seat, drawn.bid);
      render();
    } else {
      st.busy = true;
      try {
        await showPlay(run, drawn.seat, drawn.card, drawn.trick || null, null);
      } finally {
        if (run.live()) st.busy = false;
      }
    }
    if (drawn.hand) {
      scoredHand(drawn.hand);
      return;
    }
    await runBots(run);
  }

  /** Whether a person plays real `seat` from now on (a friend came or went); the computer
   * player then takes over, or hands the seat back. */
  async function setPerson(seat, person) {
    const run = current();
    const S = await run.query(MSG.SEAT, { seat, person });
    if (!S) return;
    await idle(run);
    st.S = shown(S);
    persist();
    render();
    if (botsToAct(st.S) && !st.pendingHand) await runBots(run);
  }

  /** The table as the friend at real `seat` sees it now (null when refused). */
  const viewOf = entry((seat) => current().query(MSG.VIEW, { seat }));

  /** A completed hand as notation ({text}), or null when refused (the reason is shown). */
  const exportHand = entry((number) => current().ask(MSG.EXPORT, { number }));

  /** Ask the engine who it is (levels); rejects when the engine did not start. Asked at once, not
   * once the engine is ready: the request waits in the engine's queue (engine.js), so the answer
   * comes with the engine's first breath instead of a round trip later (on a page of several
   * frames, each round trip also waits for the other frames' work). */
  async function hello() {
    const r = await engine.call(MSG.HELLO);
    if (Array.isArray(r.levels) && r.levels.length) st.levels = r.levels;
    st.presets = r.presets && typeof r.presets === "object" ? r.presets : {}; // house-rule presets by name
    st.ready = true;
  }

  return {
    state: st,
    onSave: (text) => { st.saveText = text; },
    render,
    halt,
    /** Draw and save again after halt() (this tab took the match back). */
    unhalt: () => {
      st.halted = false;
    },
    refocus: () => restoreFocus(st),
    /** A click or key on the table finishes what is moving (motion.js). */
    initHurry: () => motion.initHurry(),
    hello,
    exportHand,
    startMatch: live(startMatch),
    resume: live(resume),
    humanBid: live(humanBid),
    look: live(look),
    humanPlay: live(humanPlay),
    whyNot: live(whyNot),
    continueAfterHand: live(continueAfterHand),
    hint: live(hint),
    why: live(why),
    undo: live(undo),
    fromFriend: live(fromFriend),
    setPerson: live(setPerson),
    viewOf,
  };
}
