// blind-nil.js: the blind-nil choice. Where the match's rules allow blind nil, the engine
// keeps the player's cards face down from the deal (state.cards_hidden, with an empty hand)
// until they choose: "See my cards" (the engine's `look`: kept in the save, so a reload
// never offers blind nil again once the cards were seen), or, when the engine's legal bids
// hold "blind", "Bid blind nil". When their turn to bid comes and the engine offers no
// blind nil, the engine shows the cards. The choice is said in the live region and is two
// buttons in the bid panel, reached with Tab like any other.
import { BLIND_NIL, HUMAN } from "../lib/constants.js";
import { t } from "../lib/i18n.js";
import { $ } from "../lib/dom.js";

/** The event the choice's panel sends when it first offers blind nil in a hand (said once a hand). */
const OFFER_EVENT = "blind-offer";

const handKey = (S) => `${S.seed}|${S.hand_number}|${S.dealer}|${S.scores.join(",")}`;

/** Whether the engine offers the player a blind nil now. */
const offeredNow = (S) => S.to_act === HUMAN && Array.isArray(S.legal_bids) && S.legal_bids.includes(BLIND_NIL);

/** Whether the player's cards are face down (the engine decides: a blind-nil table, their bid to come, no look yet). */
export function cardsHidden(S) {
  return Boolean(S && S.cards_hidden);
}

/** Make the choice's panel: `onBlind()` bids blind nil, `onSee()` turns the cards up; `announce(text)` speaks. */
export function initBlindChoice({ onBlind, onSee, announce }) {
  const box = document.createElement("div");
  box.id = "blind-choice";
  box.className = "blind-choice";
  box.setAttribute("role", "group");
  box.setAttribute("aria-labelledby", "blind-offer");
  box.hidden = true;
  const text = document.createElement("p");
  text.id = "blind-offer";
  const see = document.createElement("button");
  see.type = "button";
  see.dataset.role = "blind-see";
  const blind = document.createElement("button");
  blind.type = "button";
  blind.className = "bid-btn nil";
  blind.dataset.role = "blind-bid";
  box.append(text, see, blind);
  see.addEventListener("click", () => {
    if (box.hidden) return;
    announce(t("blind.chose"));
    onSee();
  });
  blind.addEventListener("click", () => onBlind());
  box.addEventListener(OFFER_EVENT, () => announce(t("blind.offer")));
  $("#bid-grid").before(box);
}

/** Draw the choice in the bid panel for the engine's state `S` (`live`: the player may act). */
export function renderBlindChoice(S, live) {
  const box = $("#blind-choice");
  if (!box) return; // not made yet (initBlindChoice)
  const hidden = cardsHidden(S);
  box.hidden = !hidden;
  $("#bid-grid").hidden = hidden;
  const note = noteEl();
  note.hidden = !hidden;
  if (!hidden) {
    delete box.dataset.key;
    return;
  }
  const key = handKey(S);
  box.dataset.key = key;
  const open = offeredNow(S);
  $("#blind-offer").textContent = open ? t("blind.offer") : t("blind.hidden");
  $("[data-role='blind-see']", box).textContent = t("blind.see");
  const blind = $("[data-role='blind-bid']", box);
  blind.textContent = t("blind.bid");
  blind.hidden = !open;
  blind.disabled = !(open && live);
  // the bids wait behind the choice
  for (const b of document.querySelectorAll("#bid-grid button[data-bid]")) b.disabled = true;
  note.textContent = t("blind.hidden");
  if (open && box.dataset.offered !== key) {
    box.dataset.offered = key;
    box.dispatchEvent(new Event(OFFER_EVENT));
  }
}

/** The line shown in place of the face-down hand. */
function noteEl() {
  let note = $("[data-role='blind-note']");
  if (!note) {
    note = document.createElement("p");
    note.className = "blind-note";
    note.dataset.role = "blind-note";
    note.hidden = true;
    $("#hand").after(note);
  }
  return note;
}

/** Focus the choice ("See my cards" first: looking is the safe default); false when not shown. */
export function focusBlindChoice() {
  const box = $("#blind-choice");
  if (!box || box.hidden) return false;
  $("[data-role='blind-see']", box).focus({ preventScroll: true });
  return true;
}
