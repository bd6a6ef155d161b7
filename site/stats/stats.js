// stats.js: the statistics page. Reads the history (history.js), filters it, and draws
// figures, charts and the match list (view.js). The engine is started only for an
// import, which replays every match before it is kept. Sets body[data-ready] when drawn
// and performance marks "stats-ready" (page usable) and "stats-drawn" (figures shown).
import { loadLanguage, pickLanguage, applyStatic, currentLocale, t } from "../lib/i18n.js";
import { MAX_MATCHES, openHistory } from "../lib/history.js";
import { computeStats } from "./calc.js";
import { renderFigures, renderTables, renderCharts, matchItem } from "./view.js";
import { $ } from "../lib/dom.js";
import { ERROR_TEXTS, errorText } from "../lib/errors.js";
import { loadSettings } from "../lib/settings.js";
import { MSG } from "../engine/protocol.js";

const PAGE = 50; // matches listed per "show more"
const DAY_MS = 86_400_000;

function notice(key, params) {
  const p = $("#notice");
  p.textContent = t(key, params);
  p.hidden = false;
}

function filter() {
  const form = $("#filters");
  const day = (value, end) => (value ? new Date(`${value}T00:00:00`).getTime() + (end ? DAY_MS - 1 : 0) : null);
  return {
    partner: form.partner.value || null, opponents: form.opponents.value || null,
    from: day(form.from.value, false), to: day(form.to.value, true),
  };
}

function download(text) {
  const blob = new Blob([text], { type: "application/json" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = `spades-history-${new Date().toISOString().slice(0, 10)}.json`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

function reportImport(out, r) {
  out.textContent = "";
  const p = document.createElement("p");
  p.textContent = t("stats.imported", { n: r.added, dup: r.duplicates, bad: r.refused.length });
  p.dataset.added = String(r.added);
  p.dataset.duplicates = String(r.duplicates);
  p.dataset.folded = String(r.folded);
  p.dataset.refused = String(r.refused.length);
  out.append(p);
  if (r.folded) {
    // the file's matches there was no room for: counted in the totals, no stored match pushed out
    const folded = document.createElement("p");
    folded.dataset.role = "import-folded";
    folded.textContent = t("stats.importFolded", { n: r.folded, max: MAX_MATCHES });
    out.append(folded);
  }
  if (!r.refused.length) return;
  const ul = document.createElement("ul");
  for (const { index, code } of r.refused) {
    const li = document.createElement("li");
    li.dataset.code = code;
    li.textContent = t("stats.refusedItem", { n: index + 1, reason: errorText({ code }, ERROR_TEXTS.history) });
    ul.append(li);
  }
  out.append(ul);
}

/**
 * The statistics page's controller: it owns the page's state (the history store, the records
 * shown, how many are listed, the engine an import starts) and draws it.
 */
function createStatsPage() {
  let history = null;
  let records = [];
  let listed = 0;
  let engine = null;
  let dates = null; // the match list's date format, in the page's language

  function showMore() {
    const list = $("#match-list");
    const next = records.slice(listed, listed + PAGE);
    for (const rec of next) list.append(matchItem(rec, (id) => history.save(id), dates));
    listed += next.length;
    $("#more").hidden = listed >= records.length;
  }

  async function draw(prefetched) {
    const folded = drawFolded(); // its own read, alongside the records'
    try {
      records = await (prefetched || history.list(filter()));
      performance.mark("stats-listed");
      // stored records that cannot be shown (damaged, or from an older version) are left out, and said so
      if (history.unreadable) notice("stats.unreadable", { n: history.unreadable });
    } catch (err) {
      records = [];
      notice("stats.notKept", { reason: errorText(err, ERROR_TEXTS.history) });
    }
    const s = computeStats(records);
    performance.mark("stats-computed");
    renderFigures($("#figures"), s);
    renderTables($("#tables"), s);
    renderCharts($("#charts"), s);
    performance.mark("stats-charted");
    $("#match-list").textContent = "";
    listed = 0;
    showMore();
    performance.mark("stats-listed-drawn");
    await folded;
  }

  async function drawFolded() {
    const p = $("#folded");
    try {
      const folded = await history.totals();
      p.hidden = !folded.matches;
      if (folded.matches) p.textContent = t("stats.folded", { n: folded.matches, won: folded.won, lost: folded.lost });
    } catch {
      p.hidden = true;
    }
  }

  async function exportHistory() {
    try {
      download(await history.exportAll());
      return true;
    } catch (err) {
      $("#import-result").textContent = errorText(err, ERROR_TEXTS.history);
      return false;
    }
  }

  /** Replay one match's save in the engine; resolves to the engine's state or rejects with its code. */
  async function verify(save) {
    if (!engine) {
      const { startEngine } = await import("../engine/engine.js");
      engine = startEngine();
    }
    await engine.ready;
    return engine.call(MSG.RESUME, { save });
  }

  async function importHistory(input) {
    const file = input.files && input.files[0];
    if (!file) return;
    const out = $("#import-result");
    out.textContent = t("stats.importing");
    document.body.dataset.import = "busy";
    try {
      // the file is read and checked off the page's thread (lib/historyread.js)
      const result = await history.importAll(file, verify, ({ done, total }) => {
        out.textContent = t("stats.importProgress", { done, total });
      });
      reportImport(out, result);
      document.body.dataset.import = "done";
      await draw();
    } catch (err) {
      out.textContent = "";
      const p = document.createElement("p");
      p.dataset.code = err.code || "internal";
      p.textContent = t("stats.importRefused", { reason: errorText(err, ERROR_TEXTS.history) });
      out.append(p);
      document.body.dataset.import = "refused";
    } finally {
      input.value = "";
    }
  }

  function wire() {
    $("#filters").addEventListener("change", () => draw());
    $("#filters").addEventListener("submit", (e) => e.preventDefault());
    $("#more").addEventListener("click", showMore);
    $('[data-action="export-history"]').addEventListener("click", exportHistory);
    $('[data-action="import-history"]').addEventListener("change", (e) => importHistory(e.target));
    const dialog = $("#confirm-delete");
    $('[data-action="delete-history"]').addEventListener("click", () => dialog.showModal());
    $('[data-action="cancel-delete"]').addEventListener("click", () => dialog.close());
    $('[data-action="export-first"]').addEventListener("click", exportHistory);
    $('[data-action="confirm-delete"]').addEventListener("click", async () => {
      dialog.close();
      try {
        await history.deleteAll();
        $("#import-result").textContent = t("stats.deleted");
      } catch (err) {
        $("#import-result").textContent = errorText(err, ERROR_TEXTS.history);
      }
      await draw();
    });
  }

  async function boot() {
    const s = loadSettings(); // the game's settings: language and deck colours
    const wish = new URLSearchParams(location.search).get("lang") || s.lang;
    const opening = openHistory();
    // the records are read while the language loads: reading them is most of the opening time
    const firstRead = opening.then((h) => h.list(filter()));
    firstRead.catch(() => {}); // a failure is reported by draw()
    [, history] = await Promise.all([loadLanguage(pickLanguage(wish)), opening]);
    document.body.classList.toggle("four-colour", Boolean(s.fourColour));
    applyStatic();
    // a hint only: browsers draw a date field in their own interface language, whatever its lang
    for (const input of document.querySelectorAll("#filters input[type='date']")) input.lang = currentLocale();
    dates = new Intl.DateTimeFormat(currentLocale(), { dateStyle: "medium", timeStyle: "short" });
    document.title = t("stats.pageTitle");
    performance.mark("stats-ready");
    if (!history.available) {
      notice("stats.notKept", { reason: errorText(history.error, ERROR_TEXTS.history) });
      for (const b of document.querySelectorAll("[data-action]")) b.disabled = true;
    }
    wire();
    await draw(firstRead);
    performance.mark("stats-drawn");
    document.body.dataset.ready = "1";
  }

  return { boot };
}

createStatsPage().boot().catch((err) => {
  notice("stats.notKept", { reason: errorText(err, ERROR_TEXTS.history) });
  document.body.dataset.ready = "error";
});
