// privacy.js: pass-and-play's privacy screen. Between two people's turns on one device an
// opaque dialog covers the whole table ("Pass the device to North") until the next person
// presses its one button (a tap, Enter or Space; Escape does not uncover the table). While
// it shows no hand is in the page at all: the hand is emptied (its cards, their names for
// screen readers) and the bubbles (a hint names a card) are closed, so nothing of the last
// person's cards is there to be read, and the next person's are drawn only once they are
// ready. The dialog is modal, so the rest of the page is out of reach meanwhile.
import { t } from "../lib/i18n.js";
import { compassName } from "../lib/words.js";
import { $ } from "../lib/dom.js";
import { clearBubbles } from "./bubbles.js";
import { showMessage } from "./announcer.js";
import { renderHand } from "./hand.js";

/** Show the screen for the person at real `seat`; resolves when they are ready. */
export function passTo(seat) {
  const dlg = $("#privacy-dialog");
  const name = compassName(seat);
  $("[data-role='privacy-title']", dlg).textContent = t("pass.title", { name });
  $("[data-role='privacy-text']", dlg).textContent = t("pass.text", { name });
  const ready = $("[data-action='ready']", dlg);
  ready.textContent = t("pass.ready", { name });
  document.body.dataset.privacy = String(seat);
  renderHand(null, false);
  clearBubbles();
  showMessage("");
  return new Promise((resolve) => {
    const done = () => {
      dlg.removeEventListener("cancel", stay);
      dlg.removeEventListener("close", reopen);
      delete document.body.dataset.privacy;
      dlg.close();
      resolve();
    };
    const stay = (ev) => ev.preventDefault(); // Escape does not uncover the table
    // a browser closes a modal dialog on a second Escape whatever its page says: it opens again
    const reopen = () => {
      dlg.showModal();
      ready.focus();
    };
    dlg.addEventListener("cancel", stay);
    dlg.addEventListener("close", reopen);
    ready.addEventListener("click", done, { once: true });
    if (!dlg.open) dlg.showModal();
    ready.focus();
  });
}
