// invite-view.js: the host's invitation panel (a dialog): for each friend's seat, its state,
// the invitation as a link, as text to copy and as a QR code, the field where the friend's
// answer is pasted (or scanned, where the browser can read a QR code from the camera), and
// "a computer player plays here for now". It draws what host.js holds and calls it; it
// decides nothing about the game.
import { t } from "../../lib/i18n.js";
import { compassName } from "../../lib/words.js";
import { $, textEl } from "../../lib/dom.js";
import { CodeError } from "./code.js";
import { SEAT_STATE } from "./host.js";
import { qrCode } from "./qr.js";

/** Copy `text`; false where the clipboard is not offered (the text is selected instead). */
async function copy(text, field) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    field.select();
    return false;
  }
}

function section(seat) {
  const box = document.createElement("section");
  box.className = "invite-seat";
  box.dataset.seat = String(seat);
  const id = `invite-${seat}`;
  const title = textEl("h3", compassName(seat));
  title.id = `${id}-title`;
  box.setAttribute("aria-labelledby", title.id);
  const status = textEl("p", "", "invite-status");
  status.dataset.role = "invite-status";
  status.setAttribute("aria-live", "polite");
  const inviteLabel = textEl("label", t("friends.inviteLabel"), "field");
  const invite = document.createElement("textarea");
  invite.readOnly = true;
  invite.rows = 3;
  invite.dataset.role = "invite-code";
  invite.id = `${id}-code`;
  inviteLabel.htmlFor = invite.id;
  const copyBtn = textEl("button", t("friends.copy"));
  copyBtn.type = "button";
  copyBtn.dataset.role = "copy-invite";
  const link = textEl("a", t("friends.link"));
  link.dataset.role = "invite-link";
  link.target = "_blank";
  link.rel = "noopener";
  const qr = document.createElement("div");
  qr.className = "qr-box";
  qr.dataset.role = "invite-qr";
  const answerLabel = textEl("label", t("friends.answerLabel"), "field");
  const answer = document.createElement("textarea");
  answer.rows = 3;
  answer.dataset.role = "answer-input";
  answer.id = `${id}-answer`;
  answer.setAttribute("autocomplete", "off");
  answerLabel.htmlFor = answer.id;
  const error = textEl("p", "", "notice");
  error.dataset.role = "connect-error";
  error.setAttribute("role", "alert");
  error.hidden = true;
  const connect = textEl("button", t("friends.connect"), "primary");
  connect.type = "button";
  connect.dataset.action = "connect";
  connect.dataset.seat = String(seat);
  const scan = textEl("button", t("friends.scan"));
  scan.type = "button";
  scan.dataset.role = "scan-answer";
  scan.hidden = !("BarcodeDetector" in window);
  const computer = textEl("button", t("friends.computer"));
  computer.type = "button";
  computer.dataset.role = "computer-plays";
  const fresh = textEl("button", t("friends.newInvite"));
  fresh.type = "button";
  fresh.dataset.role = "new-invite";
  const row = document.createElement("div");
  row.className = "row";
  row.append(copyBtn, link);
  const row2 = document.createElement("div");
  row2.className = "row";
  row2.append(connect, scan, computer, fresh);
  box.append(title, status, inviteLabel, invite, row, qr, answerLabel, answer, error, row2);
  return box;
}

/**
 * The panel. `host`: host.js; `scanAnswer(field)`: fills `field` from the camera (where
 * BarcodeDetector exists); `afterConnect()`: a friend joined.
 */
export function createInviteView({ host, scanAnswer }) {
  const dlg = $("#friends-dialog");
  const list = $("[data-role='invite-list']", dlg);

  function draw(seat) {
    let box = $(`.invite-seat[data-seat="${seat}"]`, list);
    if (!box) {
      box = section(seat);
      list.append(box);
      wire(box, seat);
    }
    const e = host.entry(seat);
    $("h3", box).textContent = compassName(seat);
    $("[data-role='invite-status']", box).textContent = t(`friends.state.${e.state}`, { name: compassName(seat) });
    box.dataset.state = e.state;
    const open = e.state !== SEAT_STATE.CONNECTED;
    const usable = open && Boolean(e.code) && !e.expired;
    for (const el of box.querySelectorAll("textarea, [data-role='copy-invite'], [data-action='connect'], [data-role='scan-answer']")) {
      el.disabled = !usable;
    }
    const error = $("[data-role='connect-error']", box);
    if (e.error || e.expired) {
      error.hidden = false;
      error.textContent = t(`friends.code.${e.error || "expired"}`);
    }
    $("[data-role='computer-plays']", box).hidden = !open || e.state === SEAT_STATE.COMPUTER;
    $("[data-role='new-invite']", box).hidden = !open;
    const code = $("[data-role='invite-code']", box);
    if (e.code && code.value !== e.code) {
      code.value = e.code;
      const link = $("[data-role='invite-link']", box);
      link.href = e.link;
      const qr = $("[data-role='invite-qr']", box);
      qr.replaceChildren(qrCode(e.link, t("friends.qrLabel", { name: compassName(seat) })));
      $("[data-role='answer-input']", box).value = "";
    }
    $("[data-role='invite-link']", box).hidden = !usable;
    $("[data-role='invite-qr']", box).hidden = !usable;
  }

  function wire(box, seat) {
    const error = $("[data-role='connect-error']", box);
    const say = (text) => {
      error.hidden = !text;
      error.textContent = text || "";
    };
    $("[data-role='copy-invite']", box).addEventListener("click", async () => {
      const field = $("[data-role='invite-code']", box);
      say((await copy(host.entry(seat).link, field)) ? "" : t("friends.copyByHand"));
    });
    $("[data-action='connect']", box).addEventListener("click", async (ev) => {
      ev.stopPropagation();
      say("");
      try {
        await host.connect(seat, $("[data-role='answer-input']", box).value);
      } catch (err) {
        say(t(`friends.code.${err instanceof CodeError ? err.reason : "failed"}`));
      }
    });
    $("[data-role='scan-answer']", box).addEventListener("click", () => scanAnswer($("[data-role='answer-input']", box)));
    $("[data-role='computer-plays']", box).addEventListener("click", () => host.computerTakes(seat));
    $("[data-role='new-invite']", box).addEventListener("click", () => host.invite(seat));
  }

  return {
    draw,
    drawAll: () => host.seats().forEach(draw),
    relabel: () => host.seats().forEach(draw),
  };
}
