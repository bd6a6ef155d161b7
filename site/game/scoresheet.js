// scoresheet.js: the score-sheet dialog: one hand's breakdown, the history of hands,
// and exporting a finished hand as hand notation with a link to the hand viewer.
import { scoreChart } from "../lib/chart.js";
import { fmt, fmtSigned, t } from "../lib/i18n.js";
import { rulesLine, targetText } from "../lib/rules-words.js";
import { bidName, seatName, teamMembers } from "../lib/words.js";
import { $, textEl } from "../lib/dom.js";


/** Rows of the export box's text area. */
const EXPORT_ROWS = 9;

/**
 * Fill the sheet with `sheet` (the engine's rows), showing hand `selected` (default:
 * the last). `afterHand`: the sheet opened for a hand just scored (its own title).
 * `onExport(number)` resolves to {text} from the engine, or null when refused (no `onExport`: no
 * export button).
 * `onReview(number, box)` (optional) shows the hand's review in `box` (review-panel.js).
 * `rules`: the match's rules (the engine's description), named at the top and in the end condition.
 */
export function fillSheet(sheet, selected, afterHand, onExport, onReview, rules = null) {
  const body = $("[data-role='sheet-body']");
  body.replaceChildren();
  body.appendChild(textEl("p", rulesLine(rules), "muted small sheet-rules"));
  body.lastChild.dataset.role = "sheet-rules";
  const target = $("#sheet-dialog [data-i18n='sheet.target']");
  if (target) target.textContent = targetText(rules);
  if (!sheet.length) {
    const p = document.createElement("p");
    p.textContent = t("sheet.empty");
    body.appendChild(p);
    return;
  }
  const row = sheet.find((r) => r.number === selected) || sheet[sheet.length - 1];
  const dealer = document.createElement("p");
  dealer.className = "muted small";
  dealer.textContent = t("sheet.dealer", { name: seatName(row.dealer) });
  body.appendChild(breakdownTable(row));
  body.appendChild(dealer);
  if (onExport) {
    // (a friend's page has no engine, and no deal of its own to export)
    const exportBtn = document.createElement("button");
    exportBtn.type = "button";
    exportBtn.dataset.action = "export-hand";
    exportBtn.textContent = t("sheet.export");
    exportBtn.addEventListener("click", async () => {
      const out = await onExport(row.number);
      if (out) showExport(out.text, exportBtn);
    });
    body.appendChild(exportBtn);
  }
  if (onReview) {
    const reviewBtn = document.createElement("button");
    reviewBtn.type = "button";
    reviewBtn.dataset.action = "review-hand";
    reviewBtn.textContent = t("review.open");
    const box = document.createElement("section");
    box.className = "review-panel";
    box.hidden = true;
    reviewBtn.addEventListener("click", () => onReview(row.number, box));
    body.append(reviewBtn, box);
  }
  body.appendChild(
    historyTable(sheet, row.number, (n) => {
      fillSheet(sheet, n, afterHand, onExport, onReview, rules);
      const btn = $("[data-role='sheet-body'] .history tr.selected button");
      if (btn) btn.focus();
    }),
  );
  body.appendChild(scoreChart(sheet));
  const stats = textEl("a", t("history.statsLink"));
  stats.href = "stats.html";
  stats.dataset.role = "stats-link";
  body.appendChild(stats);
  $("#sheet-title").textContent = afterHand ? t("sheet.handTitle", { n: row.number }) : t("sheet.title");
}

/** Replace the export button with the hand's notation (shown from its first line, nothing
 * selected), a Copy button and a viewer link; focus goes to Copy. */
function showExport(text, btn) {
  const box = document.createElement("div");
  box.className = "export";
  const label = document.createElement("label");
  label.textContent = t("sheet.exportLabel");
  const area = document.createElement("textarea");
  area.readOnly = true;
  area.rows = EXPORT_ROWS;
  area.value = text;
  area.dataset.role = "export-text";
  label.appendChild(area);
  const link = document.createElement("a");
  link.href = `viewer.html?hand=${encodeURIComponent(text)}`;
  link.target = "_blank";
  link.rel = "noopener";
  link.dataset.role = "export-link";
  link.textContent = t("sheet.openViewer");
  const copy = document.createElement("button");
  copy.type = "button";
  copy.dataset.action = "copy-export";
  copy.textContent = t("sheet.copy");
  const said = document.createElement("span");
  said.className = "export-said";
  said.dataset.role = "export-said";
  said.setAttribute("role", "status");
  copy.addEventListener("click", async () => {
    said.textContent = (await copyText(text, area)) ? t("sheet.copied") : t("sheet.copyFailed");
  });
  const row = document.createElement("div");
  row.className = "export-row";
  row.append(copy, link, said);
  box.append(label, row);
  btn.replaceWith(box);
  area.scrollTop = 0;
  copy.focus({ preventScroll: true });
}

/** Put `text` on the clipboard (the text area `area` holds it, for browsers without the
 * asynchronous clipboard); whether it worked. */
async function copyText(text, area) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    area.focus();
    area.select();
    try {
      return document.execCommand("copy");
    } catch {
      return false;
    }
  }
}

/** Set up the sheet dialog's buttons: Continue after a scored hand, else Close. Returns the one to focus. */
export function sheetButtons(afterHand) {
  const dlg = $("#sheet-dialog");
  $("[data-action='continue']", dlg).hidden = !afterHand;
  $("[data-action='close-sheet']", dlg).hidden = Boolean(afterHand);
  return afterHand ? $("[data-action='continue']", dlg) : $("[data-action='close-sheet']", dlg);
}

// ---------------------------------------------------------------- tables

function teamHeader(corner) {
  const tr = document.createElement("tr");
  if (corner) {
    const th = textEl("th", corner, "corner");
    th.scope = "col";
    tr.appendChild(th);
  } else {
    tr.appendChild(textEl("td", "", "corner"));
  }
  for (const team of [0, 1]) {
    const th = textEl("th", "", `team-col team-${team}`);
    th.scope = "col";
    th.append(textEl("span", "", `team-mark team-mark-${team}`), textEl("span", t(`team.${team}`)));
    th.appendChild(textEl("small", teamMembers(team)));
    tr.appendChild(th);
  }
  return tr;
}

/** The breakdown of one hand (a sheet row from the engine). */
function breakdownTable(row) {
  const table = document.createElement("table");
  table.className = "breakdown";
  const cap = textEl("caption", t("sheet.handTitle", { n: row.number }), "sr-only");
  table.appendChild(cap);
  const thead = document.createElement("thead");
  thead.appendChild(teamHeader());
  table.appendChild(thead);
  const tbody = document.createElement("tbody");
  const line = (label, f, cls) => {
    const tr = document.createElement("tr");
    if (cls) tr.className = cls;
    const th = textEl("th", label);
    th.scope = "row";
    tr.appendChild(th);
    for (const team of [0, 1]) tr.appendChild(textEl("td", f(row.teams[team], team)));
    tbody.appendChild(tr);
  };
  const blind = (s, seat) => s.nils.some((n) => n.seat === seat && n.blind === true);
  line(t("sheet.bids"), (s) => s.bids.map((b, i) => `${seatName(s.seats[i])} ${bidName(b, blind(s, s.seats[i]))}`).join(", "));
  line(t("sheet.tricks"), (s) => s.tricks.map((n, i) => `${seatName(s.seats[i])} ${fmt(n)}`).join(", "));
  line(t("sheet.contract"), (s) => (s.contract ? fmt(s.contract) : t("sheet.noContract")));
  line(t("sheet.contractTricks"), (s) => (s.contract ? fmt(s.contract_tricks) : t("sheet.none")));
  line(t("sheet.result"), (s) => (s.contract ? (s.made ? t("sheet.made") : t("sheet.set")) : t("sheet.none")), "result");
  line(t("sheet.contractPoints"), (s) => (s.contract ? fmtSigned(s.contract_points) : t("sheet.none")));
  const maxNils = Math.max(row.teams[0].nils.length, row.teams[1].nils.length);
  for (let i = 0; i < maxNils; i++) {
    const tr = document.createElement("tr");
    const th = textEl("th", t("bid.nilButton"));
    th.scope = "row";
    tr.appendChild(th);
    for (const team of [0, 1]) {
      const nil = row.teams[team].nils[i];
      tr.appendChild(
        textEl(
          "td",
          nil
            ? `${seatName(nil.seat)}${nil.blind ? ` (${t("bid.blindNil")})` : ""}: ${nil.made ? t("sheet.nilMade", { points: fmtSigned(nil.points) }) : t("sheet.nilFailed", { n: nil.tricks, points: fmtSigned(nil.points) })}`
            : t("sheet.none"),
        ),
      );
    }
    tbody.appendChild(tr);
  }
  line(t("sheet.bags"), (s) => (s.bags ? fmtSigned(s.bags) : fmt(0)));
  line(t("sheet.penalty"), (s) => (s.penalty_points ? fmtSigned(-Math.abs(s.penalty_points)) : t("sheet.none")));
  line(t("sheet.delta"), (s) => fmtSigned(s.delta), "delta");
  line(t("sheet.total"), (s) => fmt(s.score_after), "total");
  line(t("sheet.bagsTotal"), (s) => fmt(s.bags_after));
  table.appendChild(tbody);
  return table;
}

/** All hands: number, each team's hand score and running total; rows select the breakdown. */
function historyTable(sheet, selected, onSelect) {
  const table = document.createElement("table");
  table.className = "history";
  table.appendChild(textEl("caption", t("sheet.history")));
  const thead = document.createElement("thead");
  const tr = teamHeader(t("sheet.hand"));
  thead.appendChild(tr);
  table.appendChild(thead);
  const tbody = document.createElement("tbody");
  for (const row of sheet) {
    const r = document.createElement("tr");
    if (row.number === selected) r.className = "selected";
    const th = document.createElement("th");
    th.scope = "row";
    const btn = textEl("button", fmt(row.number), "link");
    btn.type = "button";
    btn.setAttribute("aria-label", `${t("sheet.details")}: ${t("status.handNumber", { n: row.number })}`);
    if (row.number === selected) btn.setAttribute("aria-current", "true");
    btn.addEventListener("click", () => onSelect(row.number));
    th.appendChild(btn);
    r.appendChild(th);
    for (const team of [0, 1]) {
      const s = row.teams[team];
      const td = document.createElement("td");
      td.append(textEl("span", fmtSigned(s.delta), "delta"), textEl("span", fmt(s.score_after), "total"));
      r.appendChild(td);
    }
    tbody.appendChild(r);
  }
  table.appendChild(tbody);
  return table;
}
