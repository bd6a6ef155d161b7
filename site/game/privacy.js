// privacy.js: pass-and-play's privacy screen. Between two people's turns on one device an
// opaque dialog covers the whole table, every hand included ("Pass the device to East"),
// until the next person taps or presses Enter on its one button. The dialog is modal, so the
// table behind it is out of reach of keyboard and screen reader too.
import { t } from "../lib/i18n.js";
import { compassName } from "../lib/words.js";
import { $ } from "../lib/dom.js";

/** Show the screen for the person at real `seat`; resolves when they are ready. */
export function passTo(seat) {
  const dlg = $("#privacy-dialog");
  const name = compassName(seat);
  $("[data-role='privacy-title']", dlg).textContent = t("pass.title", { name });
  $("[data-role='privacy-text']", dlg).textContent = t("pass.text", { name });
  const ready = $("[data-action='ready']", dlg);
  ready.textContent = t("pass.ready", { name });
  document.body.dataset.privacy = String(seat);
  return new Promise((resolve) => {
    const done = () => {
      dlg.removeEventListener("cancel", stay);
      delete document.body.dataset.privacy;
      dlg.close();
      resolve();
    };
    const stay = (ev) => ev.preventDefault(); // Escape does not uncover the table
    dlg.addEventListener("cancel", stay);
    ready.addEventListener("click", done, { once: true });
    if (!dlg.open) dlg.showModal();
    ready.focus();
  });
}
