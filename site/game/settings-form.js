// settings-form.js: the Settings dialog's changes kept as the player makes them (the game's
// page and a friend's page share it): speed, sound, colours, language and a STUN server.
import { fillSettings } from "./dialogs.js";
import { t } from "../lib/i18n.js";
import { STUN, saveSettings } from "../lib/settings.js";
import { $ } from "../lib/dom.js";

/**
 * Keep what the player changes in the Settings dialog (the game's page and a friend's):
 * `applyLanguage(code)` redraws the page in another language; `levels()` are the levels the
 * dialog names.
 */
export function keepSettings(settings, { applyLanguage, levels }) {
  $("#settings-dialog").addEventListener("change", async (ev) => {
    const el = ev.target;
    if (el.name === "speed") settings.speed = el.value;
    else if (el.name === "stun") {
      const v = el.value.trim();
      el.setCustomValidity(v === "" || STUN.test(v) ? "" : t("settings.stunBad"));
      el.reportValidity();
      if (v === "" || STUN.test(v)) settings.stun = v;
    } else if (el.name === "sound") settings.sound = el.checked;
    else if (el.name === "fourColour") {
      settings.fourColour = el.checked;
      document.body.classList.toggle("four-colour", settings.fourColour);
    } else if (el.name === "lang") {
      settings.lang = el.value;
      await applyLanguage(el.value);
      // the open dialog is re-filled in place (focus stays on the select)
      if ($("#settings-dialog").open) fillSettings(settings, levels());
    }
    saveSettings(settings);
  });
}
