// hand.js: the player's hand: one tab stop (arrows, Home, End), playable cards enabled
// from the engine's legal cards, the hint mark. The roving tab stop is kept in the DOM:
// the hand's `data-roving` names the card that holds it, across redraws.
import { BUBBLE, clearAt } from "./bubbles.js";
import { cardBack } from "../lib/cards.js";
import { HUMAN } from "../lib/constants.js";
import { currentLanguage, t } from "../lib/i18n.js";
import { cardEl, cardName } from "../lib/words.js";
import { $ } from "../lib/dom.js";


/** The button an arrow, Home or End key moves to in a one-tab-stop group (null for other keys). */
export function arrowTarget(key, buttons) {
  const i = buttons.indexOf(document.activeElement);
  if (key === "ArrowRight" || key === "ArrowDown") return buttons[Math.min(buttons.length - 1, i + 1)];
  if (key === "ArrowLeft" || key === "ArrowUp") return buttons[Math.max(0, i - 1)];
  if (key === "Home") return buttons[0];
  if (key === "End") return buttons[buttons.length - 1];
  return null;
}

/** Wire the hand: `onPlay(card)` for a playable card, `onRefused(card)` for one that is not. */
export function initHand({ onPlay, onRefused }) {
  const hand = $("#hand");
  hand.addEventListener("click", (ev) => {
    const btn = ev.target.closest("button[data-card]");
    if (btn && !btn.disabled) {
      onPlay(btn.dataset.card);
      return;
    }
    const slot = ev.target.closest(".slot");
    if (slot) onRefused(slot.dataset.slot);
  });
  hand.addEventListener("keydown", (ev) => {
    const buttons = [...hand.querySelectorAll("button[data-card]:not([disabled])")];
    if (!buttons.length) return;
    const next = arrowTarget(ev.key, buttons);
    if (next) {
      ev.preventDefault();
      setRoving(buttons, next);
      next.focus();
    }
  });
  hand.addEventListener("focusin", (ev) => {
    const btn = ev.target.closest("button[data-card]");
    if (btn) setRoving([...hand.querySelectorAll("button[data-card]")], btn);
  });
}

function setRoving(buttons, current) {
  for (const b of buttons) b.tabIndex = b === current ? 0 : -1;
  if (current) $("#hand").dataset.roving = current.dataset.card;
  else delete $("#hand").dataset.roving;
}

/** The player's cards face down (a blind nil is still open): backs only, hidden from assistive technology. */
function faceDown(n) {
  const nodes = [];
  for (let i = 0; i < n; i++) {
    const slot = document.createElement("span");
    slot.className = "slot";
    const back = document.createElement("div");
    back.className = "card back-card";
    back.setAttribute("aria-hidden", "true");
    back.appendChild(cardBack());
    slot.appendChild(back);
    nodes.push(slot);
  }
  return nodes;
}

export function renderHand(S, interactive) {
  const hand = $("#hand");
  const hadFocus = hand.contains(document.activeElement);
  const focusedCard = hadFocus ? document.activeElement.dataset.card : null;
  const cards = S ? S.hand : [];
  const legal = new Set(interactive && S && S.phase === "play" && S.to_act === HUMAN ? S.legal_cards : []);
  const hidden = Boolean(S && S.cards_hidden);
  hand.classList.toggle("face-down", hidden);
  // the same cards as drawn, or some of them played: the nodes stay (a card played is taken
  // out), so a card moving or lifting is not cut short by a redraw, and only what may be
  // played changes
  const base = [currentLanguage(), S && S.rules ? S.rules.deck : "", hidden ? `hidden:${S.cards_left[HUMAN]}` : "up"].join("|");
  const drawn = hand.dataset.base === base && !hidden ? [...hand.querySelectorAll("button[data-card]")] : null;
  if (drawn && isSubsequence(cards, drawn.map((b) => b.dataset.card)) && (cards.length || !drawn.length)) {
    const keep = new Set(cards);
    for (const btn of drawn) {
      if (!keep.has(btn.dataset.card)) {
        btn.closest(".slot").remove();
        continue;
      }
      btn.disabled = !legal.has(btn.dataset.card);
      btn.tabIndex = -1;
    }
    fan([...hand.querySelectorAll(".slot")]);
    settle(hand, legal, hadFocus, focusedCard, cards);
    return;
  }
  if (hidden && hand.dataset.base === base) {
    settle(hand, legal, hadFocus, focusedCard, cards);
    return;
  }
  hand.dataset.base = base;
  const nodes = hidden ? faceDown(S.cards_left[HUMAN]) : [];
  for (const card of cards) {
    const slot = document.createElement("span");
    slot.className = "slot";
    slot.dataset.slot = card;
    const btn = cardEl(card, "button");
    btn.type = "button";
    btn.dataset.card = card;
    // the drawn face holds no text (see cards.js), so this is the whole accessible name
    btn.setAttribute("aria-label", cardName(card));
    btn.disabled = !legal.has(card);
    btn.tabIndex = -1;
    slot.appendChild(btn);
    nodes.push(slot);
  }
  fan(nodes);
  hand.replaceChildren(...nodes);
  settle(hand, legal, hadFocus, focusedCard, cards);
}

/** The hand's turn mark, roving tab stop, focus and names, after a redraw. */
function settle(hand, legal, hadFocus, focusedCard, cards) {
  hand.classList.toggle("my-turn", legal.size > 0);
  const enabled = [...hand.querySelectorAll("button[data-card]:not([disabled])")];
  let current = enabled.find((b) => b.dataset.card === (focusedCard || hand.dataset.roving)) || enabled[0] || null;
  if (hadFocus && !current && focusedCard) {
    // the focused card was played: move to its neighbour
    current = enabled[0] || null;
  }
  setRoving(enabled, current);
  // one tab stop: a playable card, or the hand itself while none can be played (so the
  // player can still reach it and hear what it holds, and focus has a place to wait)
  hand.tabIndex = current ? -1 : 0;
  if (hadFocus) {
    if (current) current.focus({ preventScroll: true });
    else if (document.activeElement !== hand) hand.focus({ preventScroll: true });
  }
  hand.setAttribute("aria-label", `${t("hand.label")} (${t("seat.cardsLeft", { n: cards.length })})`);
  $("#hand-summary").textContent = cards.length ? `${t("hand.label")}: ${cards.map(cardName).join(", ")}.` : "";
}

/** Whether `list` is `of` with some items left out, in the same order. */
function isSubsequence(list, of) {
  let i = 0;
  for (const item of of) if (item === list[i]) i++;
  return i === list.length;
}

/** A phone's hand of more than this many cards is laid out in two overlapping rows. */
const ONE_ROW_MAX = 7;

/**
 * Each card's place, as CSS custom properties style.css lays out: on a wide screen a slight
 * arc (--i: places from the middle); on a phone (--x, --row, --gaps) one row of up to
 * ONE_ROW_MAX cards, else two rows, the second set half a card along, so each card shows a
 * strip about a seventh of the hand's width (about 49 px on a 390 px phone) and a
 * thumb can tell them apart.
 */
function fan(slots) {
  const n = slots.length;
  const mid = (n - 1) / 2;
  const rows = n > ONE_ROW_MAX ? 2 : 1;
  const cols = Math.ceil(n / rows);
  const xs = slots.map((_, k) => (k % cols) + (k >= cols ? 0.5 : 0));
  slots.forEach((slot, k) => {
    slot.style.setProperty("--i", String(k - mid));
    slot.style.setProperty("--x", String(xs[k]));
    slot.style.setProperty("--row", String(k >= cols ? 1 : 0));
  });
  const hand = $("#hand");
  hand.style.setProperty("--n", String(n));
  hand.style.setProperty("--rows", String(rows));
  hand.style.setProperty("--gaps", String(Math.max(1, ...xs)));
}

/** Put focus on the hand (its roving card, or the hand itself). */
export function focusHand() {
  const hand = $("#hand");
  const target = $("button[data-card][tabindex='0']:enabled", hand) || hand;
  target.focus({ preventScroll: true });
  return target;
}

export function handCardRect(card) {
  const btn = $(`#hand button[data-card="${card}"]`);
  return btn ? btn.getBoundingClientRect() : null;
}

export function markHint(action) {
  clearHint();
  let node = null;
  if ("card" in action) node = $(`#hand button[data-card="${action.card}"]`);
  else if ("bid" in action) node = $(`button[data-bid="${action.bid}"]`);
  if (node) node.classList.add("hinted");
}

export function clearHint() {
  for (const n of document.querySelectorAll(".hinted")) n.classList.remove("hinted");
  clearAt(HUMAN, BUBBLE.HINT);
}
