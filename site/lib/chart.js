// chart.js: small hand-written SVG charts with a table alternative.
//
//   lineChart({title, summary, series: [{name, points: [[x, y], ...]}], refs: [{y, label}],
//              yMin, yMax, xLabel, yLabel, unit, table: {head: [...], rows: [[...], ...]}})
//   barChart({title, summary, categories: [...], series: [{name, values: [...], tone}], yLabel, table})
//              (tone: a series' colour and hatching by name, TONES; by default its place)
//   scoreChart(rows)   the current match hand by hand (rows: the bridge state's `sheet`)
//
// Each returns a <figure>: the SVG is an image with a title and a one-sentence summary
// (role="img"), and the same numbers follow as a table in a <details> (keyboard and screen
// reader users get the figures, sighted users can open it too). Series differ by colour and
// also by dash pattern, marker shape and bar hatching, so charts read the same without colour.
import { el, svgEl } from "./dom.js";
import { t, fmt } from "./i18n.js";

const W = 640;
const H = 260;
const PAD = { left: 52, right: 16, top: 16, bottom: 40 };
const COLOURS = ["#2f6fd6", "#c2410c", "#12722f", "#6b21a8"]; // distinct for common colour blindness
const DASHES = ["", "7 4", "2 3", "10 3 2 3"];
const MARKERS = ["circle", "square", "triangle", "diamond"];
/** Named colours for bar series that stand for someone: "us" the player's blue, "partner" the green
 * (never the orange that means "Them" on every page), "them" the orange. */
const TONES = Object.freeze({ us: 0, them: 1, partner: 2 });
const MAX_MARKERS = 60; // beyond this many points markers would smear into a band



/** Round axis ticks (1, 2 or 5 × 10^k apart) covering lo..hi. */
function ticks(lo, hi, count = 5) {
  const raw = (hi - lo) / count || 1;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw);
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) out.push(Math.round(v * 1e6) / 1e6);
  return out;
}

function marker(kind, x, y, colour) {
  const r = 4;
  const common = { fill: colour, stroke: "#fff", "stroke-width": 1 };
  if (kind === "circle") return svgEl("circle", { cx: x, cy: y, r, ...common });
  if (kind === "square") return svgEl("rect", { x: x - r, y: y - r, width: 2 * r, height: 2 * r, ...common });
  const d = kind === "triangle"
    ? `M${x} ${y - r - 1}L${x + r + 1} ${y + r}L${x - r - 1} ${y + r}Z`
    : `M${x} ${y - r - 1}L${x + r + 1} ${y}L${x} ${y + r + 1}L${x - r - 1} ${y}Z`;
  return svgEl("path", { d, ...common });
}

/** A chart's SVG with its title and description; `id` (unique on the page, given by the caller) names them. */
function frame(id, title, summary) {
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, width: "100%", role: "img", "aria-labelledby": `${id}-t ${id}-d`, class: "chart-svg" });
  svg.append(svgEl("title", { id: `${id}-t` }, title), svgEl("desc", { id: `${id}-d` }, summary));
  return { svg, id };
}

function yAxis(svg, lo, hi, y, label) {
  const g = svgEl("g", { class: "chart-axis", "font-size": 12, fill: "currentColor" });
  for (const v of ticks(lo, hi)) {
    g.append(svgEl("line", { x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v), stroke: "currentColor", "stroke-opacity": 0.15 }));
    g.append(svgEl("text", { x: PAD.left - 6, y: y(v) + 4, "text-anchor": "end" }, fmt(v)));
  }
  if (label) g.append(svgEl("text", { x: 12, y: PAD.top + (H - PAD.top - PAD.bottom) / 2, transform: `rotate(-90 12 ${PAD.top + (H - PAD.top - PAD.bottom) / 2})`, "text-anchor": "middle" }, label));
  svg.append(g);
}

function legend(svg, series, kind) {
  const g = svgEl("g", { class: "chart-legend", "font-size": 12, fill: "currentColor" });
  series.forEach((s, i) => {
    const x = PAD.left + i * 150;
    const y = H - 10;
    if (kind === "line") {
      g.append(svgEl("line", { x1: x, x2: x + 24, y1: y - 4, y2: y - 4, stroke: COLOURS[i], "stroke-width": 2.5, "stroke-dasharray": DASHES[i] }));
      g.append(marker(MARKERS[i], x + 12, y - 4, COLOURS[i]));
    } else {
      g.append(svgEl("rect", { x, y: y - 11, width: 22, height: 12, fill: `url(#${s.pattern})`, stroke: COLOURS[s.tone ?? i] }));
    }
    g.append(svgEl("text", { x: x + 30, y }, s.name));
  });
  svg.append(g);
}

/** Rows a chart's table builds at once; a longer one (a win trend over 2,000 matches) is built when first opened. */
const EAGER_ROWS = 100;

function fillRows(tbody, rows) {
  for (const row of rows) {
    const tr = el("tr");
    row.forEach((cell, i) => tr.append(el(i === 0 ? "th" : "td", i === 0 ? { scope: "row" } : {}, typeof cell === "number" ? fmt(cell) : cell)));
    tbody.append(tr);
  }
}

function tableOf(table) {
  const details = el("details", { class: "chart-table" });
  const summary = el("summary", {}, t("stats.chart.table"));
  details.append(summary);
  const tbl = el("table");
  const head = el("tr");
  for (const h of table.head) head.append(el("th", { scope: "col" }, h));
  tbl.append(el("thead"), el("tbody"));
  tbl.tHead.append(head);
  if (table.rows.length <= EAGER_ROWS) fillRows(tbl.tBodies[0], table.rows);
  else {
    // closed, the table is read by no one: its rows are made on the first opening (click, keys or script)
    let rows = table.rows;
    const fill = () => {
      if (rows) fillRows(tbl.tBodies[0], rows);
      rows = null;
    };
    summary.addEventListener("click", fill);
    details.addEventListener("toggle", fill);
  }
  details.append(tbl);
  return details;
}

function figure(title, svg, table) {
  const fig = el("figure", { class: "chart" });
  fig.append(el("figcaption", {}, title), svg);
  if (table) fig.append(tableOf(table));
  return fig;
}

/** A line chart with markers and optional horizontal reference lines. */
export function lineChart({ id, title, summary, series, refs = [], yMin, yMax, xLabel, yLabel, unit = "", table }) {
  const { svg } = frame(id, title, summary);
  const xs = series.flatMap((s) => s.points.map((p) => p[0]));
  const ys = series.flatMap((s) => s.points.map((p) => p[1])).concat(refs.map((r) => r.y));
  // a single point (one match so far) stands in the middle of its axis, its value written
  // beside it and a guide line at its height, not a dot in a corner of an empty chart
  const single = xs.length === 1;
  const x0 = single ? xs[0] - 1 : Math.min(...xs, 0);
  const x1 = single ? xs[0] + 1 : Math.max(...xs, 1);
  const lo = yMin ?? Math.min(...ys, 0);
  const hi = yMax ?? Math.max(...ys, 1);
  const x = (v) => PAD.left + ((v - x0) / (x1 - x0 || 1)) * (W - PAD.left - PAD.right);
  const y = (v) => H - PAD.bottom - ((v - lo) / (hi - lo || 1)) * (H - PAD.top - PAD.bottom);
  yAxis(svg, lo, hi, y, yLabel);
  for (const v of ticks(x0, x1, 8).filter(Number.isInteger)) {
    svg.append(svgEl("text", { x: x(v), y: H - PAD.bottom + 14, "text-anchor": "middle", "font-size": 11, fill: "currentColor" }, fmt(v)));
  }
  if (xLabel) svg.append(svgEl("text", { x: W - PAD.right, y: H - PAD.bottom + 30, "text-anchor": "end", "font-size": 12, fill: "currentColor" }, xLabel));
  for (const r of refs) {
    svg.append(svgEl("line", { x1: PAD.left, x2: W - PAD.right, y1: y(r.y), y2: y(r.y), stroke: "currentColor", "stroke-width": 1.5, "stroke-dasharray": "4 4", class: "chart-ref" }));
    svg.append(svgEl("text", { x: W - PAD.right - 4, y: y(r.y) - 4, "text-anchor": "end", "font-size": 12, fill: "currentColor" }, r.label));
  }
  series.forEach((s, i) => {
    const pts = s.points.map(([a, b]) => `${x(a).toFixed(1)},${y(b).toFixed(1)}`).join(" ");
    svg.append(svgEl("polyline", { points: pts, fill: "none", stroke: COLOURS[i], "stroke-width": 2.5, "stroke-dasharray": DASHES[i], class: `series-${i}` }));
    if (s.points.length <= MAX_MARKERS) for (const [a, b] of s.points) svg.append(marker(MARKERS[i], x(a), y(b), COLOURS[i]));
    if (single && s.points.length === 1) {
      const [a, b] = s.points[0];
      svg.append(svgEl("line", { x1: PAD.left, x2: W - PAD.right, y1: y(b), y2: y(b), stroke: COLOURS[i], "stroke-width": 1.5, "stroke-dasharray": "3 5", class: "chart-guide" }));
      svg.append(svgEl("text", { x: x(a) + 10, y: y(b) - 8, "font-size": 16, "font-weight": 700, fill: COLOURS[i], class: "chart-value" }, `${fmt(Math.round(b))}${unit}`));
    }
  });
  legend(svg, series, "line");
  return figure(title, svg, table);
}

function patterns(svg, tones, chartId) {
  const defs = svgEl("defs");
  const ids = [];
  for (const i of tones) {
    const id = `${chartId}-pat${i}`;
    const p = svgEl("pattern", { id, width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: i % 2 ? "rotate(45)" : "" });
    p.append(svgEl("rect", { width: 8, height: 8, fill: COLOURS[i], "fill-opacity": i ? 0.35 : 0.9 }));
    if (i) p.append(svgEl("line", { x1: 0, y1: 0, x2: 0, y2: 8, stroke: COLOURS[i], "stroke-width": 4 }));
    defs.append(p);
    ids.push(id);
  }
  svg.append(defs);
  return ids;
}

/** Grouped bars, one group per category; series are told apart by hatching too. */
export function barChart({ id, title, summary, categories, series, yLabel, yMax, table }) {
  const { svg } = frame(id, title, summary);
  const tones = series.map((s, i) => (s.tone && Object.hasOwn(TONES, s.tone) ? TONES[s.tone] : i));
  const ids = patterns(svg, tones, id);
  const hi = yMax ?? Math.max(1, ...series.flatMap((s) => s.values));
  const y = (v) => H - PAD.bottom - (v / hi) * (H - PAD.top - PAD.bottom);
  yAxis(svg, 0, hi, y, yLabel);
  const groupW = (W - PAD.left - PAD.right) / categories.length;
  const barW = Math.min(40, (groupW * 0.8) / series.length);
  categories.forEach((cat, c) => {
    const gx = PAD.left + c * groupW + (groupW - barW * series.length) / 2;
    series.forEach((s, i) => {
      const v = s.values[c] || 0;
      svg.append(svgEl("rect", { x: gx + i * barW, y: y(v), width: barW - 2, height: Math.max(0, y(0) - y(v)), fill: `url(#${ids[i]})`, stroke: COLOURS[tones[i]], class: `series-${i}` }));
    });
    svg.append(svgEl("text", { x: PAD.left + (c + 0.5) * groupW, y: H - PAD.bottom + 16, "text-anchor": "middle", "font-size": 12, fill: "currentColor" }, cat));
  });
  legend(svg, series.map((s, i) => ({ ...s, pattern: ids[i], tone: tones[i] })), "bar");
  return figure(title, svg, table);
}

/** The current match's running scores, hand by hand, with the 500 and −200 lines. */
export function scoreChart(rows, { target = 500, floor = -200, table = true } = {}) {
  const start = rows.length ? rows[0].teams.map((team) => team.score_before) : [0, 0];
  const series = [0, 1].map((team) => ({
    name: t(`team.${team}`),
    points: [[0, start[team]], ...rows.map((r) => [r.number, r.teams[team].score_after])],
  }));
  const last = rows.length ? rows[rows.length - 1].teams.map((team) => team.score_after) : start;
  const title = t("stats.chart.score.title");
  const summary = t("stats.chart.score.summary", { n: rows.length, us: last[0], them: last[1] });
  return lineChart({
    id: "chart-score", title, summary, series, refs: [{ y: target, label: fmt(target) }, { y: floor, label: fmt(floor) }],
    xLabel: t("stats.chart.hand"), yLabel: t("stats.chart.points"),
    table: table && { head: [t("stats.chart.hand"), t("team.0"), t("team.1")], rows: rows.map((r) => [r.number, r.teams[0].score_after, r.teams[1].score_after]) },
  });
}
