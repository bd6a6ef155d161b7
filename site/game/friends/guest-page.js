// guest-page.js: the game page as a friend's (`#join=…`), loaded only then: no engine of its
// own and no saved match. The invitation is answered (text and QR code), and once the host
// connects the table is the host's, seen from this seat (guest.js keeps it).
import { createAnnouncer } from "../announcer.js";
import { createDialogs, fillSettings } from "../dialogs.js";
import { HUMAN, BLIND_NIL } from "../../lib/constants.js";
import { createSound } from "../sound.js";
import { fillSheet, sheetButtons } from "../scoresheet.js";
import { applyStatic, loadLanguage, pickLanguage, t } from "../../lib/i18n.js";
import { buildBidButtons, focusBids } from "../bids.js";
import { initBlindChoice } from "../blind-nil.js";
import { initHand } from "../hand.js";
import { initMenu } from "../menu.js";
import { setPhase } from "../screen.js";
import * as table from "../table.js";
import { keepSettings } from "../settings-form.js";
import { $ } from "../../lib/dom.js";
import { createGuest } from "./guest.js";
import { qrCode } from "./qr.js";
import { createReactions, showReaction } from "./reactions.js";

/**
 * A friend's page (`#join=…`): no engine of its own and no saved match; the invitation is
 * answered, and once the host connects the table is the host's, seen from this seat.
 */
export function guestMain({ settings, code, params }) {
  const announce = createAnnouncer($("#live"));
  const dlg = $("#answer-dialog");
  const dialogs = createDialogs({
    afterClose: () => ctl.refocus(),
    bidding: () => {
      const S = ctl.state.S;
      return Boolean(S && S.to_act === HUMAN && S.phase === "bid" && !ctl.state.pendingHand);
    },
  });
  const ctl = createGuest({
    code, stun: () => settings.stun, settings, speedOverride: params.speed, announce,
    sound: createSound(() => settings.sound),
    onScoredHand: () => openSheet(true),
    showAnswer: ({ code, error }) => {
      const status = $("[data-role='answer-status']", dlg);
      if (error) {
        status.textContent = t(`friends.code.${error}`);
        return;
      }
      status.textContent = t("friends.answerReady");
      $("[data-role='answer-box']", dlg).hidden = false;
      $("[data-role='answer-code']", dlg).value = code;
      $("[data-role='answer-qr']", dlg).replaceChildren(qrCode(code, t("friends.answerQr")));
      $("[data-role='answer-code']", dlg).focus();
    },
    onHostLeft: () => reactions.show(false),
    onWelcome: () => {
      if (dlg.open) dlg.close();
      reactions.show(true);
    },
    onReact: (seat, phrase) => showReaction(seat, phrase, announce),
  });
  const reactions = createReactions({ send: (phrase) => ctl.react(phrase) });
  const st = ctl.state;
  function openSheet(afterHand) {
    fillSheet(st.S ? st.S.sheet : [], afterHand && st.pendingHand ? st.pendingHand.number : null, afterHand, null, null, st.S ? st.S.rules : null);
    dialogs.show($("#sheet-dialog"), sheetButtons(afterHand));
  }
  function continueAfterHand() {
    if ($("#sheet-dialog").open) $("#sheet-dialog").close();
    ctl.continueAfterHand();
  }
  async function applyLanguage(code) {
    await loadLanguage(code);
    applyStatic();
    document.title = t("app.title");
    reactions.relabel();
    buildBidButtons(ctl.humanBid);
    ctl.render();
  }
  async function boot() {
    document.body.classList.toggle("four-colour", settings.fourColour);
    try {
      await applyLanguage(pickLanguage(params.lang || settings.lang));
    } catch {
      // English text from the HTML stays
      buildBidButtons(ctl.humanBid);
    }
    keepSettings(settings, { applyLanguage, levels: () => null });
    initHand({ onPlay: ctl.humanPlay, onRefused: ctl.whyNot });
    initMenu();
    ctl.initHurry();
    initBlindChoice({ onBlind: () => ctl.humanBid(BLIND_NIL), onSee: () => ctl.look().then(focusBids), announce });
    for (const a of ["new-match", "invite"]) for (const b of document.querySelectorAll(`[data-action='${a}']`)) b.hidden = true;
    const actions = {
      hint: () => ctl.hint(),
      why: (btn) => ctl.why(Number(btn.dataset.seat)),
      undo: () => ctl.undo(),
      scores: () => openSheet(false),
      continue: continueAfterHand,
      "close-sheet": () => $("#sheet-dialog").close(),
      "last-trick": () => {
        const trick = $("#trick-dialog");
        $("[data-role='trick-body']", trick).replaceChildren(table.trickView(st.S ? st.S.last_trick : null));
        dialogs.show(trick, $("[data-action='close-trick']", trick));
      },
      "close-trick": () => $("#trick-dialog").close(),
      settings: () => dialogs.show($("#settings-dialog"), fillSettings(settings, null)),
    };
    document.addEventListener("click", (ev) => {
      const btn = ev.target.closest("[data-action]");
      if (btn && !btn.disabled && Object.hasOwn(actions, btn.dataset.action)) actions[btn.dataset.action](btn);
    });
    $("#sheet-dialog").addEventListener("cancel", (ev) => {
      if (st.pendingHand) {
        ev.preventDefault();
        continueAfterHand();
      }
    });
    $("[data-role='copy-answer']", dlg).addEventListener("click", async () => {
      const field = $("[data-role='answer-code']", dlg);
      try {
        await navigator.clipboard.writeText(field.value);
      } catch {
        field.select();
      }
    });
    dlg.addEventListener("cancel", (ev) => ev.preventDefault()); // the answer stays until the host connects
    setPhase("loading");
    table.renderSeats(null, false);
    table.renderScores(null);
    $("#loading-panel").hidden = true;
    dialogs.show(dlg, $("[data-role='answer-status']", dlg));
    await ctl.start();
  }
  boot();
}
