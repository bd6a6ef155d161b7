// calc.js: statistics over history records (see historyfile.js for their shape).
// Pure arithmetic on what the engine reported; tests/browser/test_stats.py computes the
// same numbers in Python from the engine's hand records and compares.
import { HAND, NIL } from "../lib/historyfile.js";

export const YOU = 0;
export const PARTNER = 2;
export const TREND_WINDOW = 10; // matches in the rolling win rate
export const BAG_BUCKETS = 6; // bags per hand: 0, 1, … 5 and more

const emptyBids = () => ({ bids: 0, made: 0, exact: 0, over: 0, overtricks: 0, under: 0, undertricks: 0 });
const emptyNils = () => ({ attempts: 0, made: 0, blindAttempts: 0, blindMade: 0 });

/** One seat's bid against its tricks, added to `s` (nil bids are counted with the nils). */
function addBid(s, bid, tricks) {
  if (!bid) return;
  const diff = tricks - bid;
  s.bids += 1;
  if (diff >= 0) s.made += 1;
  if (diff === 0) s.exact += 1;
  if (diff > 0) {
    s.over += 1;
    s.overtricks += diff;
  } else if (diff < 0) {
    s.under += 1;
    s.undertricks -= diff;
  }
}

/** One seat's nil code (NIL), added to `s`. */
function addNil(s, nil) {
  if (nil === NIL.set || nil === NIL.made) {
    s.attempts += 1;
    s.made += nil === NIL.made ? 1 : 0;
  } else if (nil !== NIL.none) {
    s.blindAttempts += 1;
    s.blindMade += nil === NIL.blindMade ? 1 : 0;
  }
}

function streaks(records) {
  // records come newest first; streaks run oldest to newest; abandoned matches do not count
  const played = records.filter((r) => r.outcome !== "abandoned").reverse();
  let bestWin = 0;
  let bestLoss = 0;
  let run = 0;
  let last = null;
  for (const rec of played) {
    run = rec.outcome === last ? run + 1 : 1;
    last = rec.outcome;
    if (last === "won") bestWin = Math.max(bestWin, run);
    else bestLoss = Math.max(bestLoss, run);
  }
  return { bestWin, bestLoss, current: run, currentKind: last };
}

function byLevels(records) {
  const rows = new Map();
  for (const rec of records) {
    const key = `${rec.partner}|${rec.opponents}`;
    const row = rows.get(key) || { partner: rec.partner, opponents: rec.opponents, matches: 0, won: 0, lost: 0, abandoned: 0 };
    row.matches += 1;
    row[rec.outcome] += 1;
    rows.set(key, row);
  }
  return [...rows.values()].sort((a, b) => b.matches - a.matches);
}

/** Rolling win rate (percent) over the last TREND_WINDOW played matches, oldest first. */
function winTrend(records) {
  const played = records.filter((r) => r.outcome !== "abandoned").reverse();
  const points = [];
  let wins = 0;
  played.forEach((rec, i) => {
    wins += rec.outcome === "won" ? 1 : 0;
    if (i >= TREND_WINDOW) wins -= played[i - TREND_WINDOW].outcome === "won" ? 1 : 0;
    points.push([i + 1, (100 * wins) / Math.min(i + 1, TREND_WINDOW)]);
  });
  return points;
}

/** Every figure the statistics page shows, for the records given (already filtered). */
export function computeStats(records) {
  const out = { matches: records.length, won: 0, lost: 0, abandoned: 0, hands: 0, points: [0, 0],
    bags: [0, 0], penalties: [0, 0], contracts: [0, 0], contractsMade: [0, 0],
    bagHist: [new Array(BAG_BUCKETS).fill(0), new Array(BAG_BUCKETS).fill(0)] };
  const bid = { you: emptyBids(), partner: emptyBids() };
  const nil = { you: emptyNils(), partner: emptyNils() };
  // one pass over every hand of every match (2,000 matches: the page opens in time)
  for (const rec of records) {
    out[rec.outcome] += 1;
    const h = rec.hands;
    out.hands += rec.handCount;
    for (let o = 0; o < h.length; o += HAND.size) {
      addBid(bid.you, h[o + HAND.bids + YOU], h[o + HAND.tricks + YOU]);
      addBid(bid.partner, h[o + HAND.bids + PARTNER], h[o + HAND.tricks + PARTNER]);
      addNil(nil.you, h[o + HAND.nil + YOU]);
      addNil(nil.partner, h[o + HAND.nil + PARTNER]);
      for (let team = 0; team < 2; team++) {
        const bags = h[o + HAND.bags + team];
        out.points[team] += h[o + HAND.delta + team];
        out.bags[team] += bags;
        out.penalties[team] += h[o + HAND.penalties + team];
        out.bagHist[team][Math.min(bags, BAG_BUCKETS - 1)] += 1;
        if (h[o + HAND.contract + team] > 0) {
          out.contracts[team] += 1;
          out.contractsMade[team] += h[o + HAND.made + team];
        }
      }
    }
  }
  out.bid = bid;
  out.nil = nil;
  out.streaks = streaks(records);
  out.levels = byLevels(records);
  out.trend = winTrend(records);
  return out;
}

/** A percentage rounded to one decimal, or null when there is nothing to divide. */
export function percent(part, whole) {
  return whole ? Math.round((1000 * part) / whole) / 10 : null;
}

/** A mean rounded to two decimals, or null for no data. */
export function mean(sum, count) {
  return count ? Math.round((100 * sum) / count) / 100 : null;
}
