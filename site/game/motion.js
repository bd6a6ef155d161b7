// motion.js: the table's movement, each one saying what happened: the deal (cards travel from
// the dealer to every seat), a card travelling from its player to the trick, the winning card
// lifting, the trick gathering into the winner's seat. Only transforms and opacity move (Web
// Animations API: the compositor runs them, the main thread stays free). Every animation and
// pause goes through here, so a click or key during one finishes it at once (`hurry`): the
// player is never kept waiting for the show. Durations come from the speed setting (`ms`); at
// 0 (Instant, `?speed=0`, or prefers-reduced-motion: settings.js pace) nothing travels and no
// animation is made at all. What is moving belongs to the table's motion (`createMotion`), which
// the presenter owns.
import { $ } from "../lib/dom.js";

/** Wait for animations, ignoring their cancellation (a redraw may remove a node mid-flight). */
async function settle(anims) {
  try {
    await Promise.all(anims.map((a) => a.finished));
  } catch {
    /* cancelled */
  }
}

const centre = (r) => ({ x: r.left + r.width / 2, y: r.top + r.height / 2 });
const canAnimate = (node, ms) => Boolean(node && ms > 0 && node.animate);

/** Where a seat's cards come from and go to: the player's hand, else the seat's face-down cards. */
export function seatRect(seat) {
  const root = $(`.seat[data-seat="${seat}"]`);
  const at = seat === 0 ? $("#hand") : (root && ($(".backs .back-card:last-child", root) || $(".backs", root))) || root;
  return at ? at.getBoundingClientRect() : null;
}

/** Which way a seat's cards lean as they travel (degrees): they leave the seat turned slightly. */
const LEAN = [0, -12, 8, 12];

/** How far apart the cards of the deal leave the dealer, as a share of one card's flight. */
const DEAL_STAGGER = 0.06;

/**
 * The table's motion: its animations and pauses, so that `hurry` (a click or key on the
 * table) can finish whatever is moving. One per page, owned by the presenter.
 */
export function createMotion() {
  /** The animations running now. */
  const running = new Set();
  /** Pauses waiting now (each a resolve function). */
  const waiting = new Set();

  /** Animate `node` (Element.animate) and keep it where `hurry` can finish it. */
  function play(node, frames, options) {
    const anim = node.animate(frames, options);
    running.add(anim);
    const done = () => running.delete(anim);
    anim.finished.then(done, done);
    return anim;
  }

  /** Finish every animation and end every pause now (the player clicked or pressed a key). */
  function hurry() {
    for (const anim of [...running]) {
      try {
        anim.finish();
      } catch {
        anim.cancel(); // an endless animation cannot finish
      }
    }
    for (const wake of [...waiting]) wake();
  }

  /** Whether something is moving or a pause is under way. */
  const moving = () => running.size > 0 || waiting.size > 0;

  /** A pause of `ms` that `hurry` ends early. */
  function pause(ms) {
    if (!(ms > 0)) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        waiting.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      waiting.add(wake);
    });
  }


  /** The card just put in `seat`'s trick place travels there from `fromRect` (or the seat). */
  async function flyIn(seat, fromRect, ms) {
    const node = $(`.trick-slot[data-pos="${seat}"] .card`);
    if (!canAnimate(node, ms)) return;
    const from = fromRect || seatRect(seat);
    if (!from) return;
    const to = node.getBoundingClientRect();
    const a = centre(from);
    const b = centre(to);
    const scale = fromRect ? Math.max(0.5, Math.min(1.6, fromRect.width / to.width)) : 0.55;
    const anim = play(node, [
      { transform: `translate(${a.x - b.x}px, ${a.y - b.y}px) rotate(${LEAN[seat]}deg) scale(${scale})`, opacity: fromRect ? 1 : 0.6 },
      { transform: "translate(0, -6px) rotate(0deg) scale(1.04)", opacity: 1, offset: 0.8 },
      { transform: "none", opacity: 1 },
    ], { duration: ms, easing: "cubic-bezier(.2,.7,.3,1)" });
    await settle([anim]);
  }

  /** The winning card of the trick on the table lifts (it stays lifted until the trick is gathered). */
  async function liftWinner(winner, ms) {
    const node = $(`.trick-slot[data-pos="${winner}"] .card`);
    if (!canAnimate(node, ms)) return;
    const anim = play(node, [
      { transform: "none" },
      { transform: "translateY(-10px) scale(1.1)" },
    ], { duration: Math.max(120, ms * 0.6), easing: "cubic-bezier(.3,1.4,.5,1)", fill: "forwards" });
    await settle([anim]);
  }

  /** The trick's cards gather on the winner's card, then travel together into the winner's seat. */
  async function gather(winner, ms) {
    const nodes = [...document.querySelectorAll(".trick-slot .card")];
    if (!nodes.length || !canAnimate(nodes[0], ms)) return;
    const top = $(`.trick-slot[data-pos="${winner}"] .card`);
    const stack = top ? centre(top.getBoundingClientRect()) : null;
    const seat = seatRect(winner);
    if (!seat) return;
    const target = centre(seat);
    const anims = nodes.map((node) => {
      const c = centre(node.getBoundingClientRect());
      const onStack = stack ? `translate(${stack.x - c.x}px, ${stack.y - c.y - 10}px) scale(1.06)` : "none";
      return play(node, [
        { transform: node === top ? "translateY(-10px) scale(1.1)" : "none", opacity: 1 },
        { transform: onStack, opacity: 1, offset: 0.4 },
        { transform: `translate(${target.x - c.x}px, ${target.y - c.y}px) scale(0.35)`, opacity: 0 },
      ], { duration: ms * 1.4, easing: "ease-in", fill: "forwards" });
    });
    await settle(anims);
  }

  /** The hand last dealt (so each deal is shown once). */
    let dealt = null;

  /**
   * A new deal on the table (`S`, the engine's state) travels from the dealer's seat to each
   * seat, one card at a time round the table: the player's cards (or their backs) and the other
   * seats' backs. Shown once a deal, and only before any card is played; not awaited (the
   * bidding goes on meanwhile, and a click finishes it).
   */
  function dealIfNew(S, ms) {
    if (!S || S.phase !== "bid") return;
    const key = `${S.seed}|${S.hand_number}|${S.dealer}|${S.scores.join(",")}`;
    if (key === dealt) return;
    dealt = key;
    if (!(ms > 0) || !document.body.animate) return; // nothing moves: measure nothing (a layout)
    const from = seatRect(S.dealer);
    if (!from) return;
    const origin = centre(from);
    const seats = [0, 1, 2, 3].map((seat) => (seat === 0
      ? [...document.querySelectorAll("#hand .card")]
      : [...document.querySelectorAll(`.seat[data-seat="${seat}"] .backs .back-card`)]));
    const step = ms * DEAL_STAGGER;
    for (let round = 0; round < 13; round++) {
      for (let k = 1; k <= 4; k++) {
        const seat = (S.dealer + k) % 4;
        const node = seats[seat][round];
        if (!node) continue;
        const c = centre(node.getBoundingClientRect());
        play(node, [
          { transform: `translate(${origin.x - c.x}px, ${origin.y - c.y}px) rotate(${LEAN[seat] * 2}deg) scale(0.5)`, opacity: 0 },
          { transform: "none", opacity: 1 },
        ], { duration: ms, delay: (round * 4 + k - 1) * step, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" });
      }
    }
  }

  /** A click or key on the table or the hand during a movement or a pause finishes it at once. */
  function initHurry(roots = [$("#table"), $(".hand-area")]) {
    const go = () => {
      if (moving()) hurry();
    };
    for (const root of roots) {
      if (!root) continue;
      root.addEventListener("pointerdown", go, true);
      root.addEventListener("keydown", go, true);
    }
  }

  return { hurry, moving, pause, flyIn, liftWinner, gather, dealIfNew, initHurry };
}
