// scoresheet.js: the score-sheet dialog: one hand's breakdown, the history of hands,
// and exporting a finished hand as hand notation with a link to the hand viewer.
import { t } from "./i18n.js";
import * as table from "./table.js";

const $ = (sel, root = document) => root.querySelector(sel);

/** Rows of the export box's text area. */
const EXPORT_ROWS = 9;

/**
 * Fill the sheet with `sheet` (the engine's rows), showing hand `selected` (default:
 * the last). `afterHand`: the sheet opened for a hand just scored (its own title).
 * `onExport(number)` resolves to {text} from the engine, or null when refused.
 */
export function fillSheet(sheet, selected, afterHand, onExport) {
  const body = $("[data-role='sheet-body']");
  body.replaceChildren();
  if (!sheet.length) {
    const p = document.createElement("p");
    p.textContent = t("sheet.empty");
    body.appendChild(p);
    return;
  }
  const row = sheet.find((r) => r.number === selected) || sheet[sheet.length - 1];
  const dealer = document.createElement("p");
  dealer.className = "muted small";
  dealer.textContent = t("sheet.dealer", { name: table.seatName(row.dealer) });
  body.appendChild(table.breakdownTable(row));
  body.appendChild(dealer);
  const exportBtn = document.createElement("button");
  exportBtn.type = "button";
  exportBtn.dataset.action = "export-hand";
  exportBtn.textContent = t("sheet.export");
  exportBtn.addEventListener("click", async () => {
    const out = await onExport(row.number);
    if (out) showExport(out.text, exportBtn);
  });
  body.appendChild(exportBtn);
  body.appendChild(
    table.historyTable(sheet, row.number, (n) => {
      fillSheet(sheet, n, afterHand, onExport);
      const btn = $("[data-role='sheet-body'] .history tr.selected button");
      if (btn) btn.focus();
    }),
  );
  $("#sheet-title").textContent = afterHand ? t("sheet.handTitle", { n: row.number }) : t("sheet.title");
}

/** Replace the export button with the hand's notation (selected) and a viewer link. */
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
  box.append(label, link);
  btn.replaceWith(box);
  area.focus();
  area.select();
}

/** Set up the sheet dialog's buttons: Continue after a scored hand, else Close. Returns the one to focus. */
export function sheetButtons(afterHand) {
  const dlg = $("#sheet-dialog");
  $("[data-action='continue']", dlg).hidden = !afterHand;
  $("[data-action='close-sheet']", dlg).hidden = Boolean(afterHand);
  return afterHand ? $("[data-action='continue']", dlg) : $("[data-action='close-sheet']", dlg);
}
