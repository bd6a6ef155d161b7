// app.js: the game page's entry module. Reads the address and the settings, starts the
// engine, wires the page's controls to the controller (controller.js), and boots: a
// seeded deal, else the saved match, else a new one. Nothing here sequences engine calls.
import { badSaveText, createAnnouncer, showMessage } from "./announcer.js";
import { createProgress } from "./boot.js";
import { createController } from "./controller.js";
import { HUMAN } from "./constants.js";
import { createDialogs, fillNewMatch, fillSettings } from "./dialogs.js";
import { startEngine } from "./engine.js";
import { applyStatic, currentLanguage, loadLanguage, pickLanguage, t } from "./i18n.js";
import { SPEEDS, loadSettings, matchStore, saveSettings } from "./persistence.js";
import { fillSheet, sheetButtons } from "./scoresheet.js";
import { openReview } from "./review-panel.js";
import { setPhase } from "./screen.js";
import { buildBidButtons } from "./bids.js";
import { initHand } from "./hand.js";
import { registerServiceWorker } from "./sw-register.js";
import * as table from "./table.js";

const $ = (sel, root = document) => root.querySelector(sel);
const params = new URLSearchParams(location.search);
const EMBED = params.get("embed") === "1";

/** The speed the address asks for (?speed=0|instant|1|slow|normal|fast), or null. */
function urlSpeed() {
  const v = params.get("speed");
  if (v === null) return null;
  if (v === "0" || v === "instant") return "instant";
  if (v in SPEEDS) return v;
  if (v === "1") return "fast";
  return null;
}

function main() {
  const settings = loadSettings();
  const store = matchStore(EMBED);
  const progress = createProgress();
  const announce = createAnnouncer($("#live"));
  // Boot Python first: language, deck and table set-up all overlap the runtime's download.
  const engine = startEngine({ onProgress: (p) => progress.update(p), onSave: (text) => ctl.onSave(text) });
  const dialogs = createDialogs({
    afterClose: () => ctl.refocus(),
    bidding: () => {
      const S = ctl.state.S;
      return Boolean(S && S.to_act === HUMAN && S.phase === "bid" && !ctl.state.pendingHand);
    },
  });
  const ctl = createController({
    engine, store, settings, speedOverride: urlSpeed, announce,
    onScoredHand: () => openSheet(true),
  });
  const st = ctl.state;

  const defaultLevel = () => (st.levels.includes("normal") ? "normal" : st.levels[0]);
  const urlLevel = (name) => (st.levels.includes(params.get(name)) ? params.get(name) : null);
  const hintLevel = () => ["normal", "hard"].find((lv) => st.levels.includes(lv)) || st.levels[st.levels.length - 1];

  function startMatch(opts) {
    dialogs.closeAll();
    const args = {
      partner: opts.partner || urlLevel("partner") || defaultLevel(),
      opponents: opts.opponents || urlLevel("opponents") || defaultLevel(),
    };
    const seed = opts.seed === undefined || opts.seed === null ? "" : String(opts.seed).trim();
    if (seed !== "") args.seed = seed;
    return ctl.startMatch(args);
  }

  /** Stops the review shown on the score sheet (closing the sheet ends it). */
  let stopReview = () => {};

  function openSheet(afterHand) {
    const pending = st.pendingHand;
    stopReview();
    fillSheet(st.S ? st.S.sheet : [], afterHand && pending ? pending.number : null, afterHand, ctl.exportHand,
      (n, box) => { stopReview(); stopReview = openReview(engine, box, n, ctl.exportHand); });
    dialogs.show($("#sheet-dialog"), sheetButtons(afterHand));
  }

  function continueAfterHand() {
    const dlg = $("#sheet-dialog");
    if (dlg.open) dlg.close();
    ctl.continueAfterHand();
  }

  function openNewMatch(notice) {
    const S = st.S;
    const focus = fillNewMatch({
      levels: st.levels, fallback: defaultLevel(), notice, abandoning: Boolean(S && S.phase !== "over"),
      partner: (S && S.levels.partner) || urlLevel("partner") || defaultLevel(),
      opponents: (S && S.levels.opponents) || urlLevel("opponents") || defaultLevel(),
    });
    const opener = document.activeElement;
    dialogs.closeAll();
    if (opener && opener !== document.body && !opener.closest("dialog")) opener.focus({ preventScroll: true });
    dialogs.show($("#new-dialog"), focus);
  }

  function showLastTrick() {
    const dlg = $("#trick-dialog");
    $("[data-role='trick-body']", dlg).replaceChildren(table.trickView(st.S ? st.S.last_trick : null));
    dialogs.show(dlg, $("[data-action='close-trick']", dlg));
  }

  const settingsLevels = () => (st.S ? st.S.levels : null);
  const applyDeck = () => document.body.classList.toggle("four-colour", settings.fourColour);

  async function applyLanguage(code) {
    await loadLanguage(code);
    applyStatic();
    $("[data-role='rules-link']").setAttribute("href", `rules/${currentLanguage()}.html`);
    document.title = t("app.title");
    buildBidButtons(ctl.humanBid);
    ctl.render();
  }

  function wire() {
    initHand({ onPlay: ctl.humanPlay, onRefused: ctl.whyNot });
    const actions = {
      hint: () => ctl.hint(hintLevel()),
      undo: () => ctl.undo(dialogs.closeAll),
      "last-trick": showLastTrick,
      scores: () => openSheet(false),
      settings: () => dialogs.show($("#settings-dialog"), fillSettings(settings, settingsLevels())),
      "new-match": () => st.ready && openNewMatch(null),
      continue: continueAfterHand,
      "close-sheet": () => $("#sheet-dialog").close(),
      "close-trick": () => $("#trick-dialog").close(),
      "cancel-new": () => $("#new-dialog").close(),
    };
    document.addEventListener("click", (ev) => {
      const btn = ev.target.closest("[data-action]");
      if (btn && !btn.disabled && Object.hasOwn(actions, btn.dataset.action)) actions[btn.dataset.action]();
    });
    $("#sheet-dialog").addEventListener("close", () => stopReview());
    // Escape on the after-hand sheet means Continue
    $("#sheet-dialog").addEventListener("cancel", (ev) => {
      if (st.pendingHand) {
        ev.preventDefault();
        continueAfterHand();
      }
    });
    $("#new-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const f = ev.target;
      $("#new-dialog").close();
      startMatch({ partner: f.partner.value, opponents: f.opponents.value, seed: f.seed.value });
    });
    $("#settings-dialog").addEventListener("change", async (ev) => {
      const el = ev.target;
      if (el.name === "speed") settings.speed = el.value;
      else if (el.name === "fourColour") {
        settings.fourColour = el.checked;
        applyDeck();
      } else if (el.name === "lang") {
        settings.lang = el.value;
        await applyLanguage(el.value);
        // the open dialog is re-filled in place (focus stays on the select)
        if ($("#settings-dialog").open) fillSettings(settings, settingsLevels());
      }
      saveSettings(settings);
    });
  }

  async function boot() {
    document.body.classList.toggle("embed", EMBED);
    document.body.classList.toggle("compact", EMBED || params.get("compact") === "1");
    applyDeck();
    try {
      await applyLanguage(pickLanguage(params.get("lang") || settings.lang));
    } catch {
      /* English text from the HTML stays */
    }
    registerServiceWorker({
      labels: { message: t("update.ready"), reload: t("update.reload"), dismiss: t("update.dismiss") },
    });
    wire();
    setPhase("loading");
    table.renderSeats(null, false);
    table.renderScores(null); // "0 bags" etc. in the page's language while Python loads
    progress.update({ stage: "runtime", fraction: 0 });
    try {
      await ctl.hello();
    } catch {
      const text = t("loading.failed");
      progress.fail(text);
      showMessage(text, "error");
      announce(text);
      return;
    }
    if (params.has("seed")) {
      const seed = params.get("seed");
      // a reload should resume this match, not deal it again
      const url = new URL(location.href);
      url.searchParams.delete("seed");
      history.replaceState(null, "", url.pathname + url.search + url.hash);
      await startMatch({ seed });
      return;
    }
    const saved = store.load();
    if (!saved) {
      await startMatch({});
      return;
    }
    try {
      await ctl.resume(saved);
    } catch (err) {
      const text = badSaveText(err);
      store.clear();
      $("[data-role='loading-text']").textContent = t("loading.choose");
      showMessage(text, "error");
      announce(text);
      openNewMatch(text);
    }
  }

  boot();
}

main();
