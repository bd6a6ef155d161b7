// viewpoint.js: the table seen from one seat. The game's views draw the person at the
// bottom as seat 0 (HUMAN), their partner at the top, the opponents left and right, and
// their own team as team 0. At a table of several people (pass-and-play, a friend's
// table) the person at the bottom may sit anywhere: the engine's state, events and answers
// (real seats) are turned here so that seat `me` is drawn as 0, and a seat drawn back
// into the real one (`realSeat`) for the engine. Pure functions: nothing here is drawn
// or decided.
import { SEATS } from "../lib/constants.js";

/** The seat drawn for real seat `seat` when `me` sits at the bottom (null stays null). */
export const drawnSeat = (seat, me) => (typeof seat === "number" ? (seat - me + SEATS) % SEATS : seat);

/** The real seat of drawn seat `seat`. */
export const realSeat = (seat, me) => (typeof seat === "number" ? (seat + me) % SEATS : seat);

/** A list by seat, reordered so `me`'s entry comes first. */
const bySeat = (list, me) => (Array.isArray(list) ? list.map((_, d) => list[realSeat(d, me)]) : list);

/** A list by team, swapped when `me` is on team 1. */
const byTeam = (list, me) => (Array.isArray(list) && me % 2 ? [list[1], list[0]] : list);

const team = (n, me) => (typeof n === "number" && me % 2 ? 1 - n : n);

function trick(t, me) {
  if (!t) return t;
  return { ...t, leader: drawnSeat(t.leader, me), winner: drawnSeat(t.winner, me),
    plays: t.plays.map(([seat, card]) => [drawnSeat(seat, me), card]) };
}

function teamScore(s, me) {
  if (!s) return s;
  return { ...s, team: team(s.team, me), seats: s.seats.map((x) => drawnSeat(x, me)),
    nils: (s.nils || []).map((n) => ({ ...n, seat: drawnSeat(n.seat, me) })) };
}

/** A score-sheet row seen from `me`. */
export function sheetRow(row, me) {
  if (!row || !me) return row;
  return { ...row, dealer: drawnSeat(row.dealer, me), bids: bySeat(row.bids, me), tricks: bySeat(row.tricks, me),
    teams: byTeam(row.teams, me).map((s) => teamScore(s, me)) };
}

/** The engine's state (Session.state_for) as drawn with `me` at the bottom. */
export function turnState(S, me) {
  if (!S || !me) return S;
  const levels = S.levels && me % 2 ? { partner: S.levels.opponents, opponents: S.levels.partner } : S.levels;
  return {
    ...S,
    dealer: drawnSeat(S.dealer, me), to_act: drawnSeat(S.to_act, me), human: drawnSeat(S.human, me),
    bids: bySeat(S.bids, me), tricks_won: bySeat(S.tricks_won, me), cards_left: bySeat(S.cards_left, me),
    blind: bySeat(S.blind, me), trick: trick(S.trick, me), last_trick: trick(S.last_trick, me),
    scores: byTeam(S.scores, me), bags: byTeam(S.bags, me), winner: team(S.winner, me),
    sheet: S.sheet.map((row) => sheetRow(row, me)), levels,
    humans: Array.isArray(S.humans) ? S.humans.map((s) => drawnSeat(s, me)) : S.humans,
  };
}

/** An engine event ({kind, seat, bid | card, trick?, hand?}) as drawn from `me`. */
export function turnEvent(e, me) {
  if (!e || !me) return e;
  return { ...e, seat: drawnSeat(e.seat, me), ...(e.trick ? { trick: trick(e.trick, me) } : {}),
    ...(e.hand ? { hand: sheetRow(e.hand, me) } : {}) };
}

/** A reason ({code, params}) whose seat parameter is drawn from `me`. */
function reason(r, me) {
  if (!r || !me || !r.params || typeof r.params.seat !== "number") return r;
  return { ...r, params: { ...r.params, seat: drawnSeat(r.params.seat, me) } };
}

/** A hint ({action, level, reason}) as drawn from `me`. */
export const turnHint = (h, me) => (h ? { ...h, reason: reason(h.reason, me) } : h);

/** A "Why?" answer ({seat, action, reason}) as drawn from `me`. */
export const turnWhy = (w, me) => (w ? { ...w, seat: drawnSeat(w.seat, me), reason: reason(w.reason, me) } : w);
