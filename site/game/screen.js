// screen.js: draws the whole game page from the controller's state object, and decides
// where focus waits. It reads the state; it never changes it and never calls the engine.
import { cardsHidden } from "./blind-nil.js";
import { HUMAN } from "../lib/constants.js";
import { focusBids, renderBidPanel } from "./bids.js";
import { focusHand, renderHand } from "./hand.js";
import * as table from "./table.js";
import { $ } from "../lib/dom.js";


export function setPhase(phase) {
  document.body.dataset.phase = phase;
}

/**
 * The table at the end of a scored hand (the engine has already dealt the next one):
 * empty hands, that hand's bids and tricks, from the engine's score-sheet row.
 */
export function endView(S, row) {
  return {
    ...S, phase: S.phase === "over" ? "over" : "play", to_act: null, hand: [], legal_cards: [], legal_bids: [],
    cards_left: [0, 0, 0, 0], bids: row.bids, tricks_won: row.tricks, dealer: row.dealer,
    hand_number: row.number, trick: null,
    blind: row.bids.map((_, seat) => row.teams[seat % 2].nils.some((n) => n.seat === seat && n.blind === true)),
  };
}

/** Whether the player may act now (no computer player, animation, scored hand or, at a
 * friend's table, an answer from the host in the way). */
function interactive(st) {
  return !st.busy && !st.awaiting && !st.pendingHand && !st.view;
}

/** Draw the table, the hand, the panels and the menu's enabled state. */
export function render(st) {
  const S = st.S;
  if (!S) return;
  const V = st.view || S; // face-down cards come from the engine with an empty hand
  const live = interactive(st);
  setPhase(V.phase);
  table.renderScores(V);
  table.renderSeats(V, st.busy);
  table.renderTrick(st.shownTrick, V.phase === "play" && !st.pendingHand ? V.to_act : null);
  renderHand(V, live);
  renderBidPanel(V, live);
  table.renderOver(V);
  $("#loading-panel").hidden = true;
  // no hint while the cards are face down: it would be read from them
  $("[data-action='hint']").disabled = !(live && S.phase !== "over" && S.to_act === HUMAN) || cardsHidden(S);
  $("[data-action='undo']").disabled = st.busy || S.phase === "over";
  $("[data-action='last-trick']").disabled = false;
  for (const b of document.querySelectorAll("[data-action='scores']")) b.disabled = false;
}

/**
 * Whether focus is "waiting": on the hand, nowhere, or on a control that is gone or
 * disabled. Only from such a place is it moved for the player; focus the player put
 * elsewhere (menu, dialogs) is never taken.
 */
export function focusParked() {
  const active = document.activeElement;
  return !active || active === document.body || active === $("#hand") ||
    (active.matches && active.matches("button:disabled, [hidden] *"));
}

/**
 * After the player's own card or bid, focus waits on the hand; when it is their turn
 * again, it goes to the hand's playable card or to the bids.
 */
export function restoreFocus(st) {
  const S = st.S;
  if (!st.userActed || !S || S.to_act !== HUMAN || !interactive(st)) return;
  if (document.querySelector("dialog[open]")) return;
  if (!focusParked()) return;
  if (S.phase === "play") focusHand();
  else if (S.phase === "bid") focusBids();
}
