// coach.js: a computer player's reason as words. The engine sends a reason as a stable code
// and parameters ({code, params}, spades.ai.explain); the sentence is the catalogue's
// "reason.<code>" with each parameter shown by its kind (cards with the game's card words).
// Used for the hint (what the hint bot would do, and why) and for "Why?" on a computer
// player's last bid or card (the bridge's `why {seat}`). No rule is decided here.
import { has, t } from "./i18n.js";
import { bidName, cardName, seatName } from "./words.js";

/**
 * How each parameter is shown, by its name (spades.ai.explain.CODES gives every name one
 * kind; tests/browser/test_coach.py holds this table to it). Names not here are numbers.
 */
const KIND = Object.freeze({
  card: "card", partner_card: "card", keep: "card", over: "card", cards: "cards",
  suit: "suit", suits: "suits", seat: "seat", bid: "bid", partner_bid: "bid", base: "bid",
  details: "structured", candidates: "structured",
});

const list = (items) => items.join(", ");

/** One parameter's value as the sentence shows it. */
function shown(name, value) {
  switch (KIND[name]) {
    case "card": return cardName(value);
    case "cards": return value.length ? list(value.map(cardName)) : t("coach.noCards");
    case "suit": return t(`suit.${value}`);
    case "suits": return list(value.map((s) => t(`suit.${s}`)));
    case "seat": return seatName(value);
    case "bid": return bidName(value);
    default: return value;
  }
}

/** The sentence of one reason {code, params}; an unknown code gets a plain fallback. */
export function reasonText(reason) {
  const key = reason && `reason.${reason.code}`;
  if (!key || !has(key)) return t("coach.noReason");
  const params = {};
  for (const [name, value] of Object.entries(reason.params || {})) {
    if (KIND[name] !== "structured") params[name] = shown(name, value);
  }
  return t(key, params);
}

/** The hint ({action, level, reason} from the engine) in one or two sentences. */
export function hintText({ action, level, reason }) {
  const name = t(`level.${level}`);
  if (reason) return t("coach.hint", { level: name, reason: reasonText(reason) });
  return "card" in action
    ? t("hint.card", { level: name, card: cardName(action.card) })
    : t("hint.bid", { level: name, bid: bidName(action.bid) });
}

/**
 * The trick of this hand a seat's last card went to, read off the engine's state `S`: the
 * trick on the table if the seat has played to it, else the last one completed.
 */
function trickOf(seat, S) {
  const done = S.tricks_won.reduce((a, b) => a + b, 0);
  const inTrick = Boolean(S.trick && S.trick.plays.some(([s]) => s === seat));
  return inTrick ? done + 1 : done;
}

/**
 * A computer seat's last action and its reason ({seat, action, reason} from `why`), naming
 * what it explains ("Trick 5 — Play …", "Bidding — Bid …"; the trick from the state `S`).
 * Returns {said, shown}: the sentence for the live region (with the seat's name) and the
 * words of the seat's own bubble.
 */
export function whyText({ seat, action, reason }, S = null) {
  const name = seatName(seat);
  if (!action) {
    const text = t("coach.notYet", { name });
    return { said: text, shown: text };
  }
  // no reason: Hard's search, recomputed after a reload, chose differently (spades.session.why)
  const words = reason ? reasonText(reason) : t("coach.reasonLost");
  const shown = !S ? words : "card" in action ? t("coach.whyTrick", { n: trickOf(seat, S), reason: words })
    : t("coach.whyBid", { reason: words });
  return { said: t("coach.why", { name, reason: shown }), shown };
}
