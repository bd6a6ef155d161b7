// bubbles.js: the table talks at the seats. A seat's bid, the hint for the player and the
// answer to "Why?" appear in a speech bubble at the seat it concerns, pointing at it, over
// the table (nothing moves: a bubble takes no room in the layout). A bid's bubble fades on
// its own; a hint or a "Why?" answer stays until the player closes it, acts, or that seat
// speaks again. What a bubble says is also said in the live region by its caller
// (announcer.js): the bubble is what is seen, never the only way it is told.
import { $ } from "../lib/dom.js";
import { t } from "../lib/i18n.js";

/** How long a bid's bubble stays (ms); other kinds stay until closed or replaced. */
const BID_MS = 2600;
/** Kinds of bubble: a seat's bid, the hint's reason, a "Why?" answer. */
export const BUBBLE = Object.freeze({ BID: "bid", HINT: "hint", WHY: "why" });

/** Stop the fading of `box`'s bid, if one is timed (the timer's id is kept on the bubble itself). */
function stopFade(box) {
  if (box.dataset.fade) clearTimeout(Number(box.dataset.fade));
  delete box.dataset.fade;
}

function bubbleOf(seat) {
  const root = $(`.seat[data-seat="${seat}"]`);
  if (!root) return null;
  let box = $(".bubble", root);
  if (!box) {
    box = document.createElement("div");
    box.className = "bubble";
    box.dataset.bubbleSeat = String(seat);
    box.hidden = true;
    const text = document.createElement("p");
    text.className = "bubble-text";
    const close = document.createElement("button");
    close.type = "button";
    close.className = "bubble-close";
    close.dataset.role = "bubble-close";
    close.textContent = "×";
    close.addEventListener("click", () => clearAt(seat));
    box.append(text, close);
    root.appendChild(box);
  }
  return box;
}

/** Show `text` in a bubble of `kind` at `seat` (replacing what that seat's bubble said). */
export function sayAt(seat, text, kind = BUBBLE.BID) {
  const box = bubbleOf(seat);
  if (!box || !text) return;
  stopFade(box);
  $(".bubble-text", box).textContent = text;
  const close = $(".bubble-close", box);
  close.hidden = kind === BUBBLE.BID;
  close.setAttribute("aria-label", t("coach.close"));
  box.dataset.kind = kind;
  // a bid's bubble repeats the seat's bid chip (and the live region): seen, not read twice
  if (kind === BUBBLE.BID) box.setAttribute("aria-hidden", "true");
  else box.removeAttribute("aria-hidden");
  box.hidden = false;
  // restart the pop-in (style.css) for a new message
  box.classList.remove("pop");
  void box.offsetWidth;
  box.classList.add("pop");
  if (kind === BUBBLE.BID) box.dataset.fade = String(setTimeout(() => clearAt(seat, BUBBLE.BID), BID_MS));
}

/** Hide `seat`'s bubble (only if it is of `kind`, when given). */
export function clearAt(seat, kind = null) {
  const box = $(`.seat[data-seat="${seat}"] .bubble`);
  if (!box || box.hidden || (kind && box.dataset.kind !== kind)) return;
  if (box.contains(document.activeElement)) {
    const why = $(`.seat[data-seat="${seat}"] [data-action='why']`);
    if (why && !why.hidden) why.focus({ preventScroll: true });
  }
  box.hidden = true;
  stopFade(box);
}

/** Hide every bubble of `kind` (every bubble when none is given). */
export function clearBubbles(kind = null) {
  for (const box of document.querySelectorAll(".seat .bubble")) clearAt(Number(box.dataset.bubbleSeat), kind);
}
