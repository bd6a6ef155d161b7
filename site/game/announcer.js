// announcer.js: what the page says. The polite live region #live (focus never moves for
// it), the visible message line, and the wording of bids, plays, tricks and turns.
import { HUMAN, OUR_TEAM } from "../lib/constants.js";
import { ERROR_TEXTS, errorText } from "../lib/errors.js";
import { t } from "../lib/i18n.js";
import { bidName, cardName, seatName } from "../lib/words.js";

/** Messages arriving within this many ms are joined into one announcement. */
const BATCH_MS = 60;

/**
 * A live-region announcer. Messages that arrive together (a play and the trick it
 * completes, a computer player's moves at instant speed) are joined, so none is lost;
 * the region is emptied first so screen readers notice a repeated message.
 */
export function createAnnouncer(live) {
  let timer = null;
  let batch = [];
  return function announce(text) {
    if (!text) return;
    batch.push(text);
    if (timer !== null) return; // joins the batch already waiting
    live.textContent = "";
    timer = setTimeout(() => {
      live.textContent = batch.join(" ");
      batch = [];
      timer = null;
    }, BATCH_MS);
  };
}

/** Show `text` in the message line; kind: info | turn | hint | error. */
export function showMessage(text, kind = "info") {
  const box = document.querySelector("[data-role='message']");
  box.textContent = text;
  box.dataset.kind = kind;
}

export function bidText(seat, bid) {
  return seat === HUMAN
    ? t("announce.youBid", { bid: bidName(bid) })
    : t("announce.bid", { name: seatName(seat), bid: bidName(bid) });
}

export function playText(seat, card) {
  return seat === HUMAN
    ? t("announce.youPlay", { card: cardName(card) })
    : t("announce.play", { name: seatName(seat), card: cardName(card) });
}

export function trickText(winner) {
  return winner === HUMAN ? t("announce.youTrick") : t("announce.trick", { name: seatName(winner) });
}

/** Whether a trick record has a winner yet. */
export function trickDone(trick) {
  return Boolean(trick) && trick.winner !== null && trick.winner !== undefined;
}

/** What the computer players did (engine events), as one announcement. */
export function eventsText(events) {
  const parts = [];
  for (const ev of events) {
    if (ev.kind === "bid") {
      parts.push(bidText(ev.seat, ev.bid));
    } else if (ev.kind === "play") {
      parts.push(playText(ev.seat, ev.card));
      if (trickDone(ev.trick)) parts.push(trickText(ev.trick.winner));
    }
  }
  return parts.join(" ");
}

/** Whose turn it is (or how the match ended), for the message line. */
export function turnText(S) {
  if (!S) return "";
  if (S.phase === "over") return t("announce.over", { result: S.winner === OUR_TEAM ? t("over.won") : t("over.lost") });
  if (S.to_act === HUMAN) {
    if (S.phase === "bid") return t("turn.youBid");
    return S.trick && S.trick.plays.length ? t("turn.youPlay") : t("turn.youLead");
  }
  return t("turn.other", { name: seatName(S.to_act) });
}

/** Why a saved match could not be resumed, with the offer of a new one. */
export function badSaveText(err) {
  const reason = errorText(err, ERROR_TEXTS.save);
  return `${t("save.failed", { reason })} ${t("save.offer")}`;
}
