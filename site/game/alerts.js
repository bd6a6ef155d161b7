// alerts.js: what the page shows when something outside the game goes wrong.
//
//   showFault(text, reloadLabel)   the engine could not start or stopped answering: the
//                                  page's phase becomes "error", the text sits in a
//                                  role="alert" panel with a Reload button (focused);
//                                  open dialogs close. Nothing is saved or deleted here.
//   notice(id, text, actions?)     a lasting notice under the message line (role="status"),
//                                  one per id, replaced by id, removed with notice(id, null);
//                                  the game's own messages never overwrite it.
//   disableTable()                 the hand, bids and game menu stop taking clicks.
//   markCustom(on, label)          the "custom position" mark beside the hand number.
//   download(name, text)           save `text` as a file (a refused save, for example).
import { setPhase } from "./screen.js";
import { $ } from "../lib/dom.js";


export function showFault(text, reloadLabel) {
  for (const d of document.querySelectorAll("dialog[open]")) d.close();
  setPhase("error");
  let panel = $("#fault-panel");
  if (!panel) {
    panel = document.createElement("div");
    panel.id = "fault-panel";
    panel.className = "panel";
    const p = document.createElement("p");
    p.setAttribute("role", "alert");
    p.dataset.role = "fault-text";
    const reload = document.createElement("button");
    reload.type = "button";
    reload.className = "primary";
    reload.dataset.role = "fault-reload";
    reload.addEventListener("click", () => location.reload());
    panel.append(p, reload);
    ($(".center") || document.body).append(panel);
  }
  for (const id of ["#loading-panel", "#bid-panel", "#over-panel"]) {
    const el = $(id);
    if (el) el.hidden = true;
  }
  $("[data-role='fault-text']", panel).textContent = text;
  const button = $("[data-role='fault-reload']", panel);
  button.textContent = reloadLabel;
  disableTable();
  button.focus();
}

/** Disable the hand, the bids and the game menu: nothing more can be asked of the engine. */
export function disableTable() {
  for (const b of document.querySelectorAll("#hand button, #bid-panel button, .tools button")) b.disabled = true;
}

function noticeArea() {
  let area = $("#notices");
  if (!area) {
    area = document.createElement("div");
    area.id = "notices";
    area.setAttribute("role", "status");
    const msg = $("[data-role='message']");
    if (msg) msg.after(area);
    else document.body.append(area);
  }
  return area;
}

/** Show (or with text null, remove) the notice `id`; `actions`: [{label, run}] buttons. */
export function notice(id, text, actions = []) {
  const area = noticeArea();
  let box = [...area.children].find((el) => el.dataset.notice === id) || null;
  if (text === null) {
    if (box) box.remove();
    return;
  }
  if (!box) {
    box = document.createElement("div");
    box.className = "message";
    box.dataset.kind = "error";
    box.dataset.notice = id;
    area.append(box);
  }
  const p = document.createElement("span");
  p.textContent = text;
  box.replaceChildren(p);
  for (const { label, run } of actions) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    b.dataset.noticeAction = id;
    b.addEventListener("click", run);
    box.append(" ", b);
  }
}

export function markCustom(on, label) {
  let mark = $("[data-role='custom-mark']");
  if (!mark) {
    const at = $("[data-role='hand-number']");
    if (!at) return;
    mark = document.createElement("span");
    mark.dataset.role = "custom-mark";
    mark.className = "hand-number";
    at.after(mark);
  }
  mark.hidden = !on;
  mark.textContent = on ? label : "";
}

export function download(name, text) {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
