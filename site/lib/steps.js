// steps.js: a hand's steps as the viewer and the game's review mode show them, pure
// functions of a hand record (from the engine's `review` message): the list of steps
// (deal, bids, cards, score), what the table holds after k steps, and what each step says.
import { NIL, SEATS, TRICKS_PER_HAND } from "./constants.js";
import { fmtSigned, t } from "./i18n.js";
import { bidName, cardName } from "./words.js";

const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 };
const RANK_ORDER = "23456789TJQKA";
/** The seat after `seat`, clockwise. */
const next = (seat, k = 1) => (seat + k) % SEATS;

export const seatName = (seat) => t(`viewer.seat.${seat}`);
const teamName = (team) => t(`viewer.team.${team}`);
/** A bid as the viewer says it: "blind" (a blind nil, see positionAt) is named so. */
export const bidText = (bid) => (bid === NIL || bid === "blind" ? bidName(bid) : String(bid));

/** Sort cards as the engine orders the hand's deck: `order` is the `review` message's `order` (house
 * rules: jokers and a deuces-high 2♦ head the spades), or null for the standard order. */
function sortCards(list, order) {
  if (order) {
    const place = new Map(order.map((c, i) => [c, i]));
    return list.slice().sort((a, b) => (place.get(a) ?? 99) - (place.get(b) ?? 99));
  }
  return list.slice().sort((a, b) => (SUIT_ORDER[a.slice(-1)] - SUIT_ORDER[b.slice(-1)])
    || (RANK_ORDER.indexOf(b[0]) - RANK_ORDER.indexOf(a[0])));
}

/** The actions of one hand record as steps: deal, bids, cards, score. */
export function buildSteps(rec) {
  const out = [{ kind: "deal" }];
  for (let i = 0; i < SEATS; i++) {
    const seat = next(rec.dealer, 1 + i);
    if (rec.bids[seat] === null || rec.bids[seat] === undefined) break;
    // a blind nil is a 0 in the record's bids, marked in its `blind`
    out.push({ kind: "bid", seat, bid: rec.blind && rec.blind[seat] === true ? "blind" : rec.bids[seat] });
  }
  rec.tricks.forEach((trick, index) => {
    trick.plays.forEach(([seat, card], pos) => {
      const done = pos === SEATS - 1 && trick.plays.length === SEATS;
      out.push({ kind: "play", seat, card, trick: index, pos, winner: done ? trick.winner : null });
    });
  });
  if (rec.scores) out.push({ kind: "score" });
  return out;
}

/** What the table shows after the first k steps: cards held (sorted by `order`, the engine's
 * order of the hand's deck, or the standard order), bids, tricks won, the trick. */
export function positionAt(rec, steps, k, order = null) {
  const held = rec.deal.map((h) => new Set(h));
  const bids = Array(SEATS).fill(null);
  const won = Array(SEATS).fill(0);
  let trick = null;
  for (let i = 1; i <= k; i++) {
    const s = steps[i];
    if (s.kind === "bid") bids[s.seat] = s.bid;
    else if (s.kind === "play") {
      held[s.seat].delete(s.card);
      if (s.pos === 0) trick = { index: s.trick, plays: [], winner: null, leader: s.seat };
      trick.plays.push([s.seat, s.card]);
      if (s.winner !== null) {
        trick.winner = s.winner;
        won[s.winner] += 1;
      }
    }
  }
  return { held: held.map((h) => sortCards([...h], order)), bids, won, trick };
}

/** What step k says (the live region). */
export function describe(rec, steps, k) {
  const s = steps[k];
  if (s.kind === "deal") {
    return t("viewer.say.deal", { n: rec.number, dealer: seatName(rec.dealer), first: seatName(next(rec.dealer)) });
  }
  if (s.kind === "bid") return t("viewer.say.bid", { name: seatName(s.seat), bid: bidText(s.bid) });
  if (s.kind === "play") {
    const key = s.pos === 0 ? "viewer.say.lead" : "viewer.say.play";
    let text = t(key, { name: seatName(s.seat), card: cardName(s.card) });
    if (s.winner !== null) text += ` ${t("viewer.say.wins", { name: seatName(s.winner), n: s.trick + 1 })}`;
    return text;
  }
  const [a, b] = rec.scores;
  return t("viewer.say.score", {
    team0: teamName(0), delta0: fmtSigned(a.delta), total0: a.score_after,
    team1: teamName(1), delta1: fmtSigned(b.delta), total1: b.score_after,
  });
}

/** The caption under the trick for step k. */
export function caption(rec, steps, k, pos) {
  const s = steps[k];
  let text = "";
  if (s.kind === "deal") text = t("viewer.caption.first", { name: seatName(next(rec.dealer)) });
  else if (s.kind === "bid") text = t("viewer.caption.bid", { name: seatName(s.seat), bid: bidText(s.bid) });
  else if (s.kind === "play" && pos.trick) {
    const n = pos.trick.index + 1;
    text = pos.trick.winner === null
      ? t("viewer.caption.trick", { n, total: TRICKS_PER_HAND })
      : t("viewer.caption.trickWon", { n, total: TRICKS_PER_HAND, name: seatName(pos.trick.winner) });
  } else if (s.kind === "score") text = t("viewer.caption.over");
  if (k === steps.length - 1 && !rec.scores) text += ` ${t("viewer.caption.unfinished")}`;
  return text.trim();
}
