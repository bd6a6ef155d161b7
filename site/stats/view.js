// view.js: draws the statistics page's figures, tables, charts and match list.
// Every figure carries data-stat (its name) and data-value (the raw number) for tests.
import { t, fmt } from "../lib/i18n.js";
import { lineChart, barChart } from "../lib/chart.js";
import { percent, mean, BAG_BUCKETS } from "./calc.js";
import { HAND } from "../lib/historyfile.js";

function node(name, attrs = {}, text) {
  const n = document.createElement(name);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
  if (text !== undefined) n.textContent = text;
  return n;
}

function shown(value, unit = "") {
  return value === null ? t("stats.none") : `${fmt(value)}${unit}`;
}

function figureRows(s) {
  const played = s.won + s.lost;
  const streak = s.streaks.currentKind ? t(`stats.streak.${s.streaks.currentKind}`, { n: s.streaks.current }) : t("stats.none");
  return [
    ["matches", "stats.f.matches", s.matches],
    ["won", "stats.f.won", s.won],
    ["lost", "stats.f.lost", s.lost],
    ["abandoned", "stats.f.abandoned", s.abandoned],
    ["win-rate", "stats.f.winRate", percent(s.won, played), "%"],
    ["hands", "stats.f.hands", s.hands],
    ["points-us", "stats.f.pointsUs", mean(s.points[0], s.hands)],
    ["points-them", "stats.f.pointsThem", mean(s.points[1], s.hands)],
    ["bags-us", "stats.f.bagsUs", mean(s.bags[0], s.hands)],
    ["bags-them", "stats.f.bagsThem", mean(s.bags[1], s.hands)],
    ["penalties-us", "stats.f.penaltiesUs", s.penalties[0]],
    ["penalties-them", "stats.f.penaltiesThem", s.penalties[1]],
    ["contracts-us", "stats.f.contractsUs", percent(s.contractsMade[0], s.contracts[0]), "%"],
    ["contracts-them", "stats.f.contractsThem", percent(s.contractsMade[1], s.contracts[1]), "%"],
    ["streak-win", "stats.f.bestWin", s.streaks.bestWin],
    ["streak-loss", "stats.f.bestLoss", s.streaks.bestLoss],
    ["streak-current", "stats.f.current", null, "", streak],
  ];
}

export function renderFigures(dl, s) {
  dl.textContent = "";
  for (const [name, key, value, unit = "", text] of figureRows(s)) {
    const dd = node("dd", { "data-stat": name, "data-value": value === null ? "" : value }, text ?? shown(value, unit));
    const pair = node("div");
    pair.append(node("dt", {}, t(key)), dd);
    dl.append(pair);
  }
}

function table(caption, head, rows, name) {
  const tbl = node("table", { "data-table": name });
  tbl.append(node("caption", {}, caption));
  const thead = node("thead");
  const tr = node("tr");
  for (const h of head) tr.append(node("th", { scope: "col" }, h));
  thead.append(tr);
  const tbody = node("tbody");
  for (const row of rows) {
    const r = node("tr");
    row.forEach(([text, stat, value], i) => {
      const attrs = i === 0 ? { scope: "row" } : {};
      if (stat) Object.assign(attrs, { "data-stat": stat, "data-value": value ?? "" });
      r.append(node(i === 0 ? "th" : "td", attrs, text));
    });
    tbody.append(r);
  }
  tbl.append(thead, tbody);
  return tbl;
}

function bidRow(who, b) {
  return [[t(`stats.who.${who}`)], [fmt(b.bids), `bids-${who}`, b.bids], [shown(percent(b.made, b.bids), "%"), `made-${who}`, percent(b.made, b.bids)],
    [fmt(b.exact), `exact-${who}`, b.exact], [fmt(b.over), `over-${who}`, b.over], [shown(mean(b.overtricks, b.over))],
    [fmt(b.under), `under-${who}`, b.under], [shown(mean(b.undertricks, b.under))]];
}

function nilRows(s) {
  const rows = [];
  for (const who of ["you", "partner"]) {
    const n = s.nil[who];
    rows.push([[t(`stats.who.${who}`)], [fmt(n.attempts), `nil-${who}`, n.attempts], [fmt(n.made), `nil-made-${who}`, n.made], [shown(percent(n.made, n.attempts), "%")]]);
    if (n.blindAttempts) {
      rows.push([[t("stats.blindNil", { who: t(`stats.who.${who}`) })], [fmt(n.blindAttempts), `blind-${who}`, n.blindAttempts],
        [fmt(n.blindMade), `blind-made-${who}`, n.blindMade], [shown(percent(n.blindMade, n.blindAttempts), "%")]]);
    }
  }
  return rows;
}

export function renderTables(div, s) {
  div.textContent = "";
  const level = (l) => t(`level.${l}`);
  div.append(
    table(t("stats.byLevel"), [t("stats.partner"), t("stats.opponents"), t("stats.f.matches"), t("stats.f.won"), t("stats.f.lost"), t("stats.f.winRate")],
      s.levels.map((r) => [[level(r.partner)], [level(r.opponents)], [fmt(r.matches)], [fmt(r.won)], [fmt(r.lost)], [shown(percent(r.won, r.won + r.lost), "%")]]), "levels"),
    table(t("stats.bidsTitle"), [t("stats.who"), t("stats.bids"), t("stats.made"), t("stats.exact"), t("stats.over"), t("stats.overAvg"), t("stats.under"), t("stats.underAvg")],
      [bidRow("you", s.bid.you), bidRow("partner", s.bid.partner)], "bids"),
    table(t("stats.nilTitle"), [t("stats.who"), t("stats.nilAttempts"), t("stats.nilMade"), t("stats.made")], nilRows(s), "nil"),
  );
}

export function renderCharts(div, s) {
  div.textContent = "";
  const trend = s.trend;
  const lastRate = trend.length ? Math.round(trend[trend.length - 1][1]) : null;
  div.append(lineChart({
    id: "chart-trend", title: t("stats.trendTitle"), summary: lastRate === null ? t("stats.noMatches") : t("stats.trendSummary", { n: trend.length, rate: lastRate }),
    series: [{ name: t("stats.f.winRate"), points: trend }], yMin: 0, yMax: 100, xLabel: t("stats.matchNo"), yLabel: "%", unit: "%",
    table: { head: [t("stats.matchNo"), t("stats.f.winRate")], rows: trend.map(([i, r]) => [i, `${fmt(Math.round(r))}%`]) },
  }));
  const cats = [t("stats.under"), t("stats.exact"), t("stats.over")];
  const vals = (b) => [b.under, b.exact, b.over];
  div.append(barChart({
    id: "chart-bids", title: t("stats.bidsTitle"), summary: t("stats.bidsSummary", { you: percent(s.bid.you.made, s.bid.you.bids) ?? 0, partner: percent(s.bid.partner.made, s.bid.partner.bids) ?? 0 }),
    categories: cats, yLabel: t("stats.handsAxis"),
    series: [{ name: t("stats.who.you"), values: vals(s.bid.you), tone: "us" }, { name: t("stats.who.partner"), values: vals(s.bid.partner), tone: "partner" }],
    table: { head: [t("stats.who"), ...cats], rows: [[t("stats.who.you"), ...vals(s.bid.you)], [t("stats.who.partner"), ...vals(s.bid.partner)]] },
  }));
  const bagCats = Array.from({ length: BAG_BUCKETS }, (_, i) => (i === BAG_BUCKETS - 1 ? `${fmt(i)}+` : fmt(i)));
  div.append(barChart({
    id: "chart-bags", title: t("stats.bagsTitle"), summary: t("stats.bagsSummary", { us: mean(s.bags[0], s.hands) ?? 0, them: mean(s.bags[1], s.hands) ?? 0 }),
    categories: bagCats, yLabel: t("stats.handsAxis"),
    series: [{ name: t("team.0"), values: s.bagHist[0], tone: "us" }, { name: t("team.1"), values: s.bagHist[1], tone: "them" }],
    table: { head: [t("stats.bagsPerHand"), t("team.0"), t("team.1")], rows: bagCats.map((c, i) => [c, s.bagHist[0][i], s.bagHist[1][i]]) },
  }));
}

/** The viewer's step before the first card: 0 the deal, 1–4 the bids. */
const FIRST_CARD_STEP = 4;

/** One past match as a list item, its date written by `dates` (an Intl.DateTimeFormat in the
 * page's language); its hand links are built when it is opened (the save is read then). */
export function matchItem(rec, loadSave, dates) {
  const li = node("li", { "data-match": rec.id });
  const details = node("details");
  const when = dates.format(rec.date);
  details.append(node("summary", {}, t("stats.matchLine", {
    when, outcome: t(`stats.outcome.${rec.outcome}`), us: rec.scores[0], them: rec.scores[1],
    partner: t(`level.${rec.partner}`), opponents: t(`level.${rec.opponents}`),
  })));
  const links = node("ul", { class: "hand-links" });
  details.append(links);
  details.addEventListener("toggle", async () => {
    if (!details.open || links.childElementCount) return;
    try {
      const save = await loadSave(rec.id);
      const base = `viewer.html?hand=${encodeURIComponent(save)}`;
      for (let i = 0; i < rec.handCount; i++) {
        const o = i * HAND.size + HAND.delta;
        const item = node("li");
        item.append(
          node("a", { href: `${base}#hand=${i + 1}` }, t("stats.handLink", { n: i + 1, us: rec.hands[o], them: rec.hands[o + 1] })),
          " ",
          // the hand review: the viewer with its Analyse switch on, at the first card
          node("a", { href: `${base}&analyse=1#hand=${i + 1}&step=${FIRST_CARD_STEP}`, class: "review-link",
            "aria-label": t("stats.reviewLabel", { n: i + 1 }), "data-review": String(i + 1) }, t("stats.reviewLink")),
        );
        links.append(item);
      }
      if (!rec.handCount) links.append(node("li", {}, t("stats.noHands")));
    } catch (err) {
      links.append(node("li", {}, t(`stats.err.${err.code || "unavailable"}`)));
    }
  });
  li.append(details);
  return li;
}
