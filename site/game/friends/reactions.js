// reactions.js: quick reactions at a table played with friends. A small "Say…" button (a
// speech bubble, named for screen readers) on
// the player's own seat opens a few fixed phrases ("Nice!", "Sorry!", ...: peer.js's
// REACTIONS, translated here) above it; one chosen is shown at the player's seat and sent
// to the others, whose pages show it at the sender's seat and say it in the live region.
// The list closes on a choice, on Escape (focus back on its button) or on a tap elsewhere.
// After each reaction the phrases rest for REACT_EVERY_MS (the host drops a friend's
// reactions that come much faster): a few words, never a flood.
import { t } from "../../lib/i18n.js";
import { seatName } from "../../lib/words.js";
import { $ } from "../../lib/dom.js";
import { BUBBLE, sayAt } from "../bubbles.js";
import { REACTIONS, REACT_EVERY_MS } from "./peer.js";

/** Show reaction `phrase` at drawn seat `seat` and say who said it. */
export function showReaction(seat, phrase, announce) {
  if (!REACTIONS.includes(phrase)) return;
  const text = t(`react.${phrase}`);
  sayAt(seat, text, BUBBLE.BID); // seen; the bubble itself is hidden from screen readers
  announce(t("react.said", { name: seatName(seat), phrase: text }));
}

/** The reactions on the player's seat; `send(phrase)` passes one on (the caller shows it). */
export function createReactions({ send }) {
  const root = $("[data-role='reactions']");
  const toggle = $("[data-role='reactions-toggle']", root);
  const list = $(".reaction-list", root);
  const setOpen = (open) => {
    list.hidden = !open;
    toggle.setAttribute("aria-expanded", String(open));
  };
  const buttons = REACTIONS.map((phrase) => {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.action = "react";
    b.dataset.phrase = phrase;
    b.addEventListener("click", () => {
      setOpen(false);
      toggle.focus();
      for (const other of buttons) other.disabled = true;
      setTimeout(() => {
        for (const other of buttons) other.disabled = false;
      }, REACT_EVERY_MS);
      send(phrase);
    });
    return b;
  });
  list.replaceChildren(...buttons);
  toggle.addEventListener("click", () => {
    setOpen(list.hidden);
    if (!list.hidden) (buttons.find((b) => !b.disabled) || toggle).focus();
  });
  root.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && !list.hidden) {
      ev.preventDefault();
      ev.stopPropagation();
      setOpen(false);
      toggle.focus();
    }
  });
  root.addEventListener("focusout", (ev) => {
    if (!list.hidden && ev.relatedTarget && !root.contains(ev.relatedTarget)) setOpen(false);
  });
  document.addEventListener("pointerdown", (ev) => {
    if (!list.hidden && !root.contains(ev.target)) setOpen(false);
  });

  function relabel() {
    toggle.setAttribute("aria-label", t("react.open"));
    toggle.title = t("react.open");
    list.setAttribute("aria-label", t("react.label"));
    for (const b of buttons) b.textContent = t(`react.${b.dataset.phrase}`);
  }
  relabel();
  return {
    relabel,
    /** Offer the reactions (a table with friends) or not. */
    show(on) {
      root.hidden = !on;
      if (!on) setOpen(false);
    },
  };
}
