// bids.js: the bid panel: fourteen bid buttons (nil first, reached only on purpose) as
// one tab stop (arrows, Home, End, a digit), enabled from the engine's legal bids, and
// what partner and opponents have bid. The bids' roving tab stop is the grid's `data-roving`.
import { MAX_BID, NIL, HUMAN } from "../lib/constants.js";
import { fmt, t } from "../lib/i18n.js";
import { arrowTarget } from "./hand.js";
import { focusBlindChoice, renderBlindChoice } from "./blind-nil.js";
import { bidName, seatName } from "../lib/words.js";
import { $ } from "../lib/dom.js";


export function renderBidPanel(S, interactive) {
  const panel = $("#bid-panel");
  const show = Boolean(S && S.phase === "bid");
  panel.hidden = !show;
  if (!show) {
    for (const btn of panel.querySelectorAll("button[data-bid]")) btn.disabled = true;
    return;
  }
  const legal = new Set(interactive && S.to_act === HUMAN ? S.legal_bids : []);
  const hadFocus = panel.contains(document.activeElement);
  for (const btn of panel.querySelectorAll("button[data-bid]")) {
    const n = Number(btn.dataset.bid);
    btn.disabled = !legal.has(n);
  }
  const enabled = [...panel.querySelectorAll("button[data-bid]:enabled")];
  // one tab stop in the bids: the last one chosen with the arrows, else 1 (nil is a
  // deliberate choice, never the default)
  const current = enabled.find((b) => Number(b.dataset.bid) === rovingBid())
    || enabled.find((b) => b.dataset.bid === "1") || enabled[0] || null;
  setBidRoving(current);
  if (hadFocus && current && document.activeElement !== current) current.focus({ preventScroll: true });
  const partner = S.bids[2];
  // each seat bids once, in turn: a partner who has not bid while the player is to bid bids
  // after them; otherwise (the player is dealer, or has bid) the panel only says "not yet"
  const partnerText = S.to_act === HUMAN && S.bids[HUMAN] === null ? t("bid.partnerWaiting") : t("bid.partnerNotYet");
  $("[data-role='partner-bid']", panel).textContent =
    partner === null ? partnerText : t("bid.partner", { bid: bidName(partner, S.blind && S.blind[2]) });
  const team = (S.bids[0] || 0) + (partner || 0);
  $("[data-role='team-bid']", panel).textContent = t("bid.teamSoFar", { n: team });
  const opp = [S.bids[1], S.bids[3]].filter((b) => b !== null);
  $("[data-role='opp-bid']", panel).textContent = t("bid.opponents", {
    n: opp.length ? opp.reduce((a, b) => a + b, 0) : "–",
  });
  $("[data-role='bid-prompt']", panel).textContent =
    S.to_act === HUMAN ? t("bid.prompt") : t("turn.other", { name: seatName(S.to_act) });
  renderBlindChoice(S, interactive);
}

function setBidRoving(current) {
  for (const b of document.querySelectorAll("#bid-grid button[data-bid]")) b.tabIndex = b === current ? 0 : -1;
  if (current) $("#bid-grid").dataset.roving = current.dataset.bid;
}

/** The bid that last held the bids' tab stop (NaN before any). */
const rovingBid = () => Number($("#bid-grid").dataset.roving ?? NaN);

/** Focus the bid panel's current bid; false when no bid can be made. */
export function focusBids() {
  if (focusBlindChoice()) return true;
  const btn = $("#bid-grid button[data-bid][tabindex='0']:enabled") || $("#bid-grid button[data-bid]:enabled");
  if (!btn) return false;
  btn.focus({ preventScroll: true });
  return true;
}

function wireBidKeys(grid) {
  if (grid.dataset.wired) return;
  grid.dataset.wired = "1";
  grid.addEventListener("keydown", (ev) => {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const buttons = [...grid.querySelectorAll("button[data-bid]:enabled")];
    if (!buttons.length) return;
    const next = /^[0-9]$/.test(ev.key)
      ? buttons.find((b) => b.dataset.bid === ev.key) || null
      : arrowTarget(ev.key, buttons);
    if (next) {
      ev.preventDefault();
      setBidRoving(next);
      next.focus();
    }
  });
  grid.addEventListener("focusin", (ev) => {
    const btn = ev.target.closest("button[data-bid]");
    if (btn) setBidRoving(btn);
  });
}

export function buildBidButtons(onBid) {
  const grid = $("#bid-grid");
  const hadFocus = grid.contains(document.activeElement) ? document.activeElement.dataset.bid : null;
  wireBidKeys(grid);
  grid.replaceChildren();
  for (let n = NIL; n <= MAX_BID; n++) {
    const btn = document.createElement("button");
    btn.type = "button";
    btn.dataset.bid = String(n);
    btn.className = n === NIL ? "bid-btn nil" : "bid-btn";
    if (n === NIL) {
      const big = document.createElement("span");
      big.className = "bid-main";
      big.textContent = t("bid.nilButton");
      const small = document.createElement("span");
      small.className = "bid-sub";
      small.textContent = t("bid.nilHint");
      // named by its text ("Nil 0 tricks"), so what is seen is what is heard
      btn.append(big, " ", small);
    } else {
      btn.textContent = fmt(n);
      btn.setAttribute("aria-label", t("bid.aria", { n }));
    }
    btn.addEventListener("click", () => onBid(n));
    btn.tabIndex = n === rovingBid() ? 0 : -1;
    grid.appendChild(btn);
  }
  if (hadFocus !== null) {
    const again = $(`button[data-bid="${hadFocus}"]`, grid);
    if (again) again.focus({ preventScroll: true });
  }
}
