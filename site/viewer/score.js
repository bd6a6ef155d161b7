// score.js: the hand viewer's score table: each row of a hand's score, per team.
import { fmtSigned, t } from "../lib/i18n.js";
import { seatName } from "../lib/steps.js";

/** The score table's rows: label key, the record's field, and how a team's cell reads. */
const SCORE_ROWS = [
  ["contract", "contract", (s) => String(s.contract)],
  ["contractTricks", "contract_tricks", (s) => String(s.contract_tricks)],
  ["contractPoints", "contract_points", (s) => `${fmtSigned(s.contract_points)} (${t(s.made ? "viewer.made" : "viewer.set")})`],
  ["overtricks", "overtricks", (s) => String(s.overtricks)],
  ["nil", "nil_points", (s) => (s.nils.length
    ? s.nils.map((n) => t(n.made ? "viewer.nilMade" : "viewer.nilLost",
      { name: n.blind ? `${seatName(n.seat)} (${t("bid.blindNil")})` : seatName(n.seat), points: fmtSigned(n.points) })).join(", ")
    : "—")],
  ["bags", "bags", (s) => String(s.bags)],
  ["penalty", "penalty_points", (s) => (s.penalties
    ? t("viewer.penaltyTimes", { points: fmtSigned(s.penalty_points), n: s.penalties }) : "—")],
  ["delta", "delta", (s) => fmtSigned(s.delta)],
  ["score", "score_after", (s) => `${s.score_before} → ${s.score_after}`],
  ["bagsTotal", "bags_after", (s) => `${s.bags_before} → ${s.bags_after}`],
];

/** Fill the score table with the hand record `rec`'s scores and show it. */
export function drawScore(rec) {
  const body = document.getElementById("score-body");
  body.textContent = "";
  for (const [label, field, fmt] of SCORE_ROWS) {
    const tr = document.createElement("tr");
    if (field === "delta") tr.className = "total";
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = t(`viewer.row.${label}`);
    tr.appendChild(th);
    rec.scores.forEach((team, i) => {
      const td = document.createElement("td");
      const key = field.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
      td.dataset[`team${key[0].toUpperCase()}${key.slice(1)}`] = String(i);
      const value = field === "nil_points" ? team.nils.reduce((sum, n) => sum + n.points, 0) : team[field];
      td.dataset.value = String(typeof value === "boolean" ? Number(value) : value);
      td.textContent = fmt(team);
      tr.appendChild(td);
    });
    body.appendChild(tr);
  }
  document.getElementById("score").hidden = false;
}
