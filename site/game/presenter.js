// presenter.js: what the player sees and hears of the controller's state. It holds the
// game's one state object and draws, says and saves it: the message line, the card
// animation, and the pause on a scored hand. It makes no engine call (controller.js alone
// sequences those); `run` is the controller's sequence, used here only to wait and sleep.
import { markCustom } from "./alerts.js";
import { playText, showMessage, trickDone, trickText, turnText } from "./announcer.js";
import { errorText } from "../lib/errors.js";
import { HUMAN } from "../lib/constants.js";
import { t } from "../lib/i18n.js";
import { isInstant, pace } from "../lib/settings.js";
import { renderRules } from "./rules-chip.js";
import { endView, render as draw, restoreFocus } from "./screen.js";
import { clearHint, markHint } from "./hand.js";
import { BUBBLE, clearAt, clearBubbles, sayAt } from "./bubbles.js";
import { hintText, whyText } from "../lib/coach.js";
import { bidName } from "../lib/words.js";
import { turnHint, turnWhy } from "./viewpoint.js";
import { createMotion } from "./motion.js";
import * as table from "./table.js";

/**
 * The presenter. `save(text, pending)`: persistence.createSaver; `settings`: the live
 * settings; `speedOverride()`: the speed the address asks for (or null); `announce`: the
 * live region; `sound`: the table's sounds (sound.js); `onScoredHand(row)` and
 * `onMatchEnd({saveText, state})`: as for the controller.
 */
export function createPresenter({ save, settings, speedOverride, announce, sound, onScoredHand, onMatchEnd }) {
  const st = {
    S: null, // the engine's latest state, as drawn from the bottom seat (viewpoint.js)
    me: 0, // the real seat drawn at the bottom (a table of several people may turn to another)
    unsure: false, // pass-and-play: who holds the device is not known (a reload): the next person gets it behind the screen
    saveText: null, // the session as text, from the engine's last change
    shownTrick: null, // the trick drawn on the table (may be a completed one)
    pendingHand: null, // a scored hand waiting for Continue
    view: null, // while a finished hand is on show: the table as it ended
    busy: false, // computer players / animations in progress
    looking: false, // the "See my cards" request is on its way
    userActed: false, // the player has acted: focus may now follow their turn
    levels: ["easy"], // the engine's computer-player levels
    ready: false, // the engine answered hello
    halted: false, // the engine failed or another tab took the match: nothing is drawn or saved
    refusal: null, // the engine's last refusal shown to the player ({code})
  };
  /** The table's movement (what is moving, so a click can finish it). */
  const motion = createMotion();

  /** Show `text` in the message line and say it in the live region. */
  function say(text, kind) {
    showMessage(text, kind);
    announce(text);
  }
  function refuse(err) {
    st.refusal = err;
    // the refusal's own mark (tests and embeds wait on it; the message line may be overwritten soon after)
    document.body.dataset.refusal = (err && err.code) || "internal";
    say(errorText(err), "error");
  }

  function render() {
    if (st.halted) return;
    renderRules(st.S ? st.S.rules : null);
    draw(st);
    motion.dealIfNew(st.view ? null : st.S, timing().move);
    markCustom(Boolean(st.S && st.S.custom), t("fault.custom"));
  }

  function persist() {
    if (!st.S || !st.saveText || st.halted) return;
    save(st.saveText, st.pendingHand && st.pendingHand.number);
  }

  const timing = () => pace(speedOverride() || settings.speed);

  function afterTurnMessage() {
    if (!st.S || st.busy || st.pendingHand) return;
    say(turnText(st.S), st.S.to_act === HUMAN ? "turn" : "info");
    restoreFocus(st);
  }

  /** Take a whole new state from the engine (new match, resume, undo): no hand on show. */
  function take(S) {
    clearBubbles();
    st.S = S;
    st.shownTrick = S.trick;
    st.pendingHand = null;
    st.view = null;
  }

  /** Take a fresh state (new match, undo): saved, drawn, announced. */
  function adopt(S, message) {
    take(S);
    persist();
    clearHint();
    render();
    say(message);
  }

  /** Show one card being played; if it completed a trick, show the trick, then sweep it away. */
  async function showPlay(run, seat, card, completed, fromRect) {
    const tm = timing();
    st.shownTrick = completed || st.S.trick;
    // draw the table around the new trick (hand shrinks, counts update), nothing playable
    const keep = st.busy;
    st.busy = true;
    render();
    st.busy = keep;
    announce(playText(seat, card));
    clearAt(seat, BUBBLE.WHY); // the seat acted again: its last answer is out of date
    await run.wait(motion.flyIn(seat, fromRect, tm.move));
    // a card lands with a sound, except the computer players' at Instant (their cards then
    // come all at once: a burst of sounds would say nothing). Reduced motion keeps the
    // sounds: nothing travels, but the cards still come one at a time.
    const paced = !isInstant(tm);
    if (paced || seat === HUMAN) sound.card();
    if (!trickDone(completed)) return;
    // the winning card lifts, the trick stays a moment, then gathers into the winner's seat
    // (a click finishes each at once: motion.js)
    say(trickText(completed.winner));
    await run.wait(motion.liftWinner(completed.winner, tm.move));
    await run.wait(motion.pause(tm.pause));
    if (paced) sound.trick();
    await run.wait(motion.gather(completed.winner, tm.move));
    st.shownTrick = st.S.trick;
    table.renderTrick(st.shownTrick);
  }

  /** Keep scored hand `row` on show: the score sheet waits for Continue, or the match ends. */
  function pauseForHand(row) {
    st.pendingHand = row;
    persist();
    render();
    const [us, them] = row.teams;
    say(t("announce.hand", { n: row.number, us: us.score_after, them: them.score_after }));
    if (st.S.phase === "over") {
      // the end screen takes over; the sheet stays available from its button
      st.pendingHand = null;
      st.view = null;
      persist();
      onMatchEnd({ saveText: st.saveText, state: st.S });
      render();
      afterTurnMessage();
      return;
    }
    onScoredHand(row);
  }

  /** A hand was scored while the bots played: keep it on show and wait for Continue. */
  function scoredHand(row) {
    st.pendingHand = row;
    st.view = endView(st.S, row);
    persist();
    st.busy = false;
    pauseForHand(row);
  }

  /** A seat's bid in a bubble at the seat (`seat` as drawn). */
  function bidBubble(seat, bid) {
    sayAt(seat, t("seat.bid", { bid: bidName(bid) }), BUBBLE.BID);
  }

  /** A hint as the engine gave it (real seats): it points at its card or bid (hand.js) and
   * says why at the player's seat. */
  function showHint(found) {
    const r = turnHint(found, st.me);
    markHint(r.action);
    const text = hintText(r);
    announce(text);
    sayAt(HUMAN, text, BUBBLE.HINT);
  }

  /** Why seat `seat` (as drawn) made its last bid or card, as the engine gave it: said, and
   * shown at that seat naming the trick or the bid it explains. */
  function showWhy(seat, found) {
    const { said, shown } = whyText(turnWhy(found, st.me), st.S);
    announce(said);
    sayAt(seat, shown, BUBBLE.WHY);
  }

  return { st, motion, say, refuse, render, persist, timing, afterTurnMessage, take, adopt, showPlay, pauseForHand,
    scoredHand, bidBubble, showHint, showWhy };
}
