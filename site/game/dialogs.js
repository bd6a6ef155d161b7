// dialogs.js: the modal dialogs. The page behind is inert, Tab cycles inside, Escape
// closes (native `cancel`), and on closing focus goes back to the control that opened
// the dialog (or, when that is gone, to the hand / bids). Also fills the new-match and
// settings dialogs from what they are given.
import { LANGUAGES, currentLanguage, has, t } from "../lib/i18n.js";
import { focusBids } from "./bids.js";
import { focusHand } from "./hand.js";
import { focusParked } from "./screen.js";
import { $ } from "../lib/dom.js";


function focusable(el) {
  return el && el.isConnected && !el.disabled && !el.closest("[hidden]") && el.getClientRects().length > 0;
}

function trapTab(dlg, ev) {
  if (ev.key !== "Tab") return;
  const items = [...dlg.querySelectorAll("button, [href], input, select, textarea, [tabindex]")]
    .filter((el) => el.tabIndex >= 0 && focusable(el) && !(el.type === "radio" && !el.checked && el.name &&
      dlg.querySelector(`input[type="radio"][name="${el.name}"]:checked`)));
  if (!items.length) return;
  const first = items[0];
  const last = items[items.length - 1];
  if (ev.shiftKey && document.activeElement === first) {
    ev.preventDefault();
    last.focus();
  } else if (!ev.shiftKey && document.activeElement === last) {
    ev.preventDefault();
    first.focus();
  }
}

/**
 * Wire every <dialog> of the page. `afterClose()` runs once focus is settled (the
 * controller then gives focus to the player's turn); `bidding()` says whether the
 * player is to bid now (focus then falls back to the bids rather than the hand).
 */
export function createDialogs({ afterClose, bidding }) {
  const openers = new WeakMap();

  function onClosed(dlg) {
    const opener = openers.get(dlg);
    openers.delete(dlg);
    setTimeout(() => {
      if (document.querySelector("dialog[open]")) return;
      if (!focusParked() && !dlg.contains(document.activeElement)) return;
      if (focusable(opener)) {
        opener.focus({ preventScroll: true });
        // a card or bid that can no longer be used: fall back to the hand / bids
        if (opener.closest("#hand, #bid-panel") && !opener.matches(":enabled, #hand")) focusHand();
      } else if (!(bidding() && focusBids())) {
        focusHand();
      }
      afterClose();
    }, 0);
  }

  for (const dlg of document.querySelectorAll("dialog")) {
    dlg.addEventListener("close", () => onClosed(dlg));
    dlg.addEventListener("keydown", (ev) => trapTab(dlg, ev));
  }

  return {
    /** Open `dlg` (remembering who opened it) and focus `focusEl`. */
    show(dlg, focusEl) {
      if (!dlg.open) {
        const active = document.activeElement;
        openers.set(dlg, active && active !== document.body && !active.closest("dialog") ? active : null);
        dlg.showModal();
      }
      // focus without scrolling: a long dialog (the score sheet) opens at its top, the hand's
      // result in view; its buttons stay in view at the foot (style.css)
      if (focusEl) focusEl.focus({ preventScroll: true });
      dlg.scrollTop = 0;
    },
    closeAll() {
      for (const d of document.querySelectorAll("dialog[open]")) d.close();
    },
  };
}

/** Fill a level <select> with the engine's levels, `value` chosen (else `fallback`). */
function fillLevelSelect(select, levels, value, fallback) {
  select.replaceChildren();
  for (const lv of levels) {
    const o = document.createElement("option");
    o.value = lv;
    o.textContent = has(`level.${lv}`) ? t(`level.${lv}`) : lv;
    select.appendChild(o);
  }
  select.value = levels.includes(value) ? value : fallback;
}

/** Fill the new-match dialog: levels, the seed (a link's, else empty), a notice (bad
 * save, a link's match) and the "current match will be abandoned" line. Returns the
 * control to focus. */
export function fillNewMatch({ levels, partner, opponents, fallback, notice, abandoning, seed = "", people = "solo" }) {
  const dlg = $("#new-dialog");
  $("#new-people").value = people;
  fillLevelSelect($("#new-partner"), levels, partner, fallback);
  fillLevelSelect($("#new-opponents"), levels, opponents, fallback);
  $("#new-seed").value = seed;
  const n = $("[data-role='new-notice']", dlg);
  n.hidden = !notice;
  n.textContent = notice || "";
  $("[data-role='new-confirm']", dlg).hidden = !abandoning;
  return $("[data-action='start-match']", dlg);
}

/** Fill the settings dialog from `settings` and the match's levels (or null). */
export function fillSettings(settings, levels) {
  const dlg = $("#settings-dialog");
  for (const r of dlg.querySelectorAll("input[name='speed']")) r.checked = r.value === settings.speed;
  $("#four-colour").checked = settings.fourColour;
  $("#stun-server").value = settings.stun || "";
  $("#sound-on").checked = settings.sound;
  const sel = $("#lang-select");
  sel.replaceChildren();
  for (const [code, name] of Object.entries(LANGUAGES)) {
    const o = document.createElement("option");
    o.value = code;
    o.textContent = name;
    o.lang = code;
    sel.appendChild(o);
  }
  sel.value = currentLanguage();
  $("[data-role='levels-info']", dlg).textContent = levels
    ? t("settings.levels", { partner: t(`level.${levels.partner}`), opponents: t(`level.${levels.opponents}`) })
    : "";
  return dlg.querySelector("input[name='speed']:checked") || $("#four-colour");
}
