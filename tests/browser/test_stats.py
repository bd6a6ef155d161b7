"""The match history (site/lib/history.js) and the statistics page (stats.html), in Chromium.

Matches are real: played through the bridge by computer players in Python
(tests/history_data.py), stored through history.js's own ``addMatch`` with the engine's
state, and the page's figures are checked against the same figures computed here from
the engine's hand records (``Match`` replayed from the save, not the page's summary).
"""
from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
for extra in (ROOT, ROOT / "tests"):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

from helpers import TRANSLATIONS  # noqa: E402
from history_data import play_match  # noqa: E402
from spades.save import from_dict  # noqa: E402

pytestmark = pytest.mark.browser

AXE = ROOT / "site" / "node_modules" / "axe-core" / "axe.min.js"
DAY_MS = 86_400_000
BASE_DATE = 1_780_000_000_000  # 2026-05-28, a fixed clock for the stored matches
# (seed, partner, opponents, hands): None plays the match out; a number stops it (abandoned)
GAMES = [(11, "normal", "normal", None), (12, "easy", "normal", None), (13, "normal", "easy", None),
         (14, "normal", "normal", None), (15, "easy", "easy", None), (16, "normal", "normal", 2)]

ADD_JS = """async (items) => {
  const { openHistory } = await import('./lib/history.js');
  const h = await openHistory();
  const out = [];
  for (const it of items) out.push(await h.addMatch(it));
  return out;
}"""


@pytest.fixture(scope="module")
def games():
    """(save, state, date) of each game in GAMES, newest last."""
    out = []
    for i, (seed, partner, opponents, hands) in enumerate(GAMES):
        save, state = play_match(seed, partner, opponents, hands=hands)
        out.append({"saveText": save, "state": state, "date": BASE_DATE + i * DAY_MS})
    return out


def js_round(x: float, places: int) -> float:
    """Math.round(x * 10**places) / 10**places, as the page rounds."""
    return math.floor(x * 10 ** places + 0.5) / 10 ** places


def oracle(games) -> dict:
    """The page's figures, computed from the engine's own hand records of each save."""
    won = lost = abandoned = hands = 0
    outcomes = []  # oldest first, abandoned matches left out (they neither make nor break a streak)
    points = bags = penalties = bids = made = nils = nils_made = contracts = contracts_made = 0
    for g in games:
        match = from_dict(json.loads(g["saveText"])["match"])
        if match.phase != "over":
            abandoned += 1
        elif match.winner == 0:
            won += 1
            outcomes.append("won")
        else:
            lost += 1
            outcomes.append("lost")
        for rec in match.hands_played:
            hands += 1
            us = rec.scores[0]
            points += us.delta
            bags += us.bags
            penalties += us.penalties
            if us.contract > 0:
                contracts += 1
                contracts_made += us.made
            taken = sum(1 for t in rec.tricks if t.winner == 0)
            if rec.bids[0] == 0:
                nils += 1
                nils_made += taken == 0
            else:
                bids += 1
                made += taken >= rec.bids[0]
    return {"matches": len(games), "won": won, "lost": lost, "abandoned": abandoned, "hands": hands,
            "points-us": js_round(points / hands, 2), "bags-us": js_round(bags / hands, 2),
            "penalties-us": penalties, "made-you": js_round(100 * made / bids, 1),
            "nil-you": nils, "nil-made-you": nils_made,
            "contracts-us": js_round(100 * contracts_made / contracts, 1),
            "win-rate": js_round(100 * won / (won + lost), 1),
            "streak-win": longest_run(outcomes, "won"), "streak-loss": longest_run(outcomes, "lost")}


def longest_run(outcomes: list[str], kind: str) -> int:
    best = run = 0
    for outcome in outcomes:
        run = run + 1 if outcome == kind else 0
        best = max(best, run)
    return best


def open_stats(page, site_url):
    page.goto(site_url + "stats.html?lang=en")
    page.wait_for_selector("body[data-ready='1']")


def stat(page, name) -> float:
    return float(page.get_attribute(f"[data-stat='{name}']", "data-value"))


def seeded(page, site_url, games):
    open_stats(page, site_url)
    page.evaluate(ADD_JS, games)
    page.reload()
    page.wait_for_selector("body[data-ready='1']")


def test_figures_are_the_engines(page, site_url, games):
    seeded(page, site_url, games)
    want = oracle(games)
    assert want["nil-you"] + want["abandoned"] > 0  # the sample exercises nils or abandoned matches
    for name, value in want.items():
        assert stat(page, name) == value, name
    assert page.text_content("[data-stat='matches']") == str(len(games))
    # filter by the partner's level: only the matches played with an easy partner
    page.select_option("select[name='partner']", "easy")
    easy = [g for g in games if g["state"]["levels"]["partner"] == "easy"]
    page.wait_for_function(f"document.querySelector(\"[data-stat='matches']\").dataset.value === '{len(easy)}'")
    assert stat(page, "won") == oracle(easy)["won"]
    # date range: from the third match's day on
    page.select_option("select[name='partner']", "")
    page.fill("input[name='from']", "2026-05-30")
    page.dispatch_event("input[name='from']", "change")
    page.wait_for_function("document.querySelector(\"[data-stat='matches']\").dataset.value === '4'")
    assert stat(page, "hands") == oracle(games[2:])["hands"]
    assert page.console_errors == [] and page.foreign_requests == []


def test_same_match_twice_is_kept_once(page, site_url, games):
    open_stats(page, site_url)
    # two connections (as two open tabs have) store the same finished match at the same moment
    added = page.evaluate("""async (item) => {
      const { openHistory } = await import('./lib/history.js');
      const [a, b] = await Promise.all([openHistory(), openHistory()]);
      const r = await Promise.all([a.addMatch(item), b.addMatch(item), a.addMatch(item)]);
      return r.map(x => x.added);
    }""", games[0])
    assert sorted(added) == [0, 0, 1]
    other = page.context.new_page()
    other.goto(site_url + "stats.html?lang=en")
    other.wait_for_selector("body[data-ready='1']")
    assert other.evaluate(ADD_JS, [games[0]]) == [{"added": 0, "duplicates": 1, "folded": 0, "ids": []}]
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert stat(page, "matches") == 1


def test_export_import_round_trip(browser, page, site_url, games, seed_snapshot):
    seeded(page, site_url, games)
    with page.expect_download() as info:
        page.click("button[data-action='export-history']")
    text = Path(info.value.path()).read_text(encoding="utf-8")
    data = json.loads(text)
    assert data["format"] == "spades-history" and data["version"] == 1
    assert len(data["matches"]) == len(games)
    context = browser.new_context()
    fresh = context.new_page()
    fresh.set_default_timeout(120_000)
    try:
        seed_snapshot(fresh)  # the import replays each match in the engine
        open_stats(fresh, site_url)
        assert stat(fresh, "matches") == 0
        fresh.set_input_files("input[data-action='import-history']",
                              files=[{"name": "h.json", "mimeType": "application/json", "buffer": text.encode()}])
        fresh.wait_for_selector("body[data-import='done']")
        assert fresh.get_attribute("#import-result p", "data-added") == str(len(games))
        for name, value in oracle(games).items():
            assert stat(fresh, name) == value, name
        # the same file again: every match is already there, nothing doubled or overwritten
        fresh.evaluate("document.body.dataset.import = ''")
        fresh.set_input_files("input[data-action='import-history']",
                              files=[{"name": "h.json", "mimeType": "application/json", "buffer": text.encode()}])
        fresh.wait_for_selector("body[data-import='done']")
        assert fresh.get_attribute("#import-result p", "data-duplicates") == str(len(games))
        assert stat(fresh, "matches") == len(games)
    finally:
        context.close()


FOLD_JS = """async (items) => {
  const { openHistory } = await import('./lib/history.js');
  const h = await openHistory({ limit: 3 });
  const folded = [];
  for (const it of items) folded.push((await h.addMatch(it)).folded);
  const again = await h.addMatch(items[0]);
  return { folded, again, totals: await h.totals(), kept: (await h.list()).map((r) => r.date) };
}"""


def test_oldest_matches_are_folded_into_counted_totals(page, site_url, games):
    open_stats(page, site_url)
    out = page.evaluate(FOLD_JS, games)
    assert out["folded"] == [0, 0, 0, 1, 1, 1]
    assert out["kept"] == [g["date"] for g in reversed(games[3:])]
    oldest = oracle(games[:3])
    totals = out["totals"]
    assert [totals[k] for k in ("matches", "won", "lost", "abandoned", "hands")] == \
        [3, oldest["won"], oldest["lost"], oldest["abandoned"], oldest["hands"]]
    points = sum(r.scores[0].delta for g in games[:3]
                 for r in from_dict(json.loads(g["saveText"])["match"]).hands_played)
    assert totals["points"] == points
    # a folded match that comes back (another tab, an old export) is not counted twice
    assert out["again"]["added"] == 0 and out["again"]["duplicates"] == 1
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert stat(page, "matches") == 3
    assert page.text_content("#folded").startswith("Also 3 older matches")


def test_tampered_and_corrupt_files_are_refused(page, site_url, games):
    page.set_default_timeout(120_000)
    open_stats(page, site_url)
    save = json.loads(games[0]["saveText"])
    first = save["match"]["hands"][0]
    first["plays"][0], first["plays"][1] = first["plays"][1], first["plays"][0]  # swap two cards
    file = {"format": "spades-history", "version": 1, "matches": [
        {"date": BASE_DATE, "save": json.dumps(save)}, {"date": BASE_DATE, "save": games[1]["saveText"]}]}
    page.set_input_files("input[data-action='import-history']",
                         files=[{"name": "bad.json", "mimeType": "application/json", "buffer": json.dumps(file).encode()}])
    page.wait_for_selector("body[data-import='done']")
    assert page.get_attribute("#import-result p", "data-added") == "1"
    code = page.get_attribute("#import-result li", "data-code")
    assert code == "illegal_history"
    assert "Match 1 refused:" in page.text_content("#import-result li")
    assert stat(page, "matches") == 1
    # a truncated file is refused whole
    text = json.dumps(file)[:-40]
    page.set_input_files("input[data-action='import-history']",
                         files=[{"name": "cut.json", "mimeType": "application/json", "buffer": text.encode()}])
    page.wait_for_selector("body[data-import='refused']")
    assert page.get_attribute("#import-result p", "data-code") == "file_not_json"
    assert stat(page, "matches") == 1


BLOCK_IDB = """Object.defineProperty(window, 'indexedDB', {get() {
  throw new DOMException('blocked by the test', 'SecurityError'); }});"""


def test_blocked_indexeddb_leaves_the_page_working(page, site_url, games):
    page.add_init_script(BLOCK_IDB)
    open_stats(page, site_url)
    notice = page.locator("#notice")
    assert notice.is_visible()
    assert "not being kept" in notice.text_content()
    assert page.is_disabled("button[data-action='export-history']")
    assert stat(page, "matches") == 0
    # the game's call rejects with a coded error; it does not throw
    code = page.evaluate("""async (item) => {
      const { openHistory } = await import('./lib/history.js');
      const h = await openHistory();
      try { await h.addMatch(item); return 'stored'; } catch (e) { return `${h.available}:${e.code}`; }
    }""", games[0])
    assert code == "false:unavailable"
    assert page.console_errors == []


def test_full_storage_is_a_coded_error_and_stores_nothing(page, site_url, games):
    open_stats(page, site_url)
    code = page.evaluate("""async (items) => {
      const { openHistory } = await import('./lib/history.js');
      const h = await openHistory();
      const add = IDBObjectStore.prototype.add;
      let calls = 0;  // the second write of the match (its save) finds the disk full
      IDBObjectStore.prototype.add = function (...args) {
        if (++calls === 2) throw new DOMException('the disk is full', 'QuotaExceededError');
        return add.apply(this, args);
      };
      try { await h.addMatch(items[0]); return 'stored'; } catch (e) { return e.code; }
      finally { IDBObjectStore.prototype.add = add; }
    }""", games[:1])
    assert code == "quota"
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert stat(page, "matches") == 0  # the transaction was rolled back whole
    assert page.console_errors == []


def test_past_hand_opens_in_the_viewer(page, site_url, games):
    seeded(page, site_url, games[:1])
    summary = page.locator("#match-list summary").first
    summary.focus()
    page.keyboard.press("Enter")
    link = page.locator("#match-list .hand-links li").nth(1).locator("a").first
    assert link.text_content().startswith("Hand 2")
    link.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("body[data-ready='1']", timeout=120_000)
    assert page.url.split("#")[0].split("?")[0].endswith("viewer.html")
    assert page.input_value("#hand-select") == "1"
    assert page.locator("#hand-select option").count() == len(games[0]["state"]["sheet"])


def test_past_hand_opens_in_the_hand_review(page, site_url, games):
    """Each hand of a past match also opens in the hand review: the viewer with Analyse on, at
    the first card of that hand, judging it at once — reached by keyboard, named for screen readers."""
    seeded(page, site_url, games[:1])
    summary = page.locator("#match-list summary").first
    summary.focus()
    page.keyboard.press("Enter")
    review = page.locator("#match-list .hand-links a[data-review='2']")
    assert review.get_attribute("aria-label") == "Review hand 2 with every card's value"
    assert review.text_content() == "Review"
    review.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("body[data-ready='1']", timeout=120_000)
    assert page.url.split("#")[0].split("?")[0].endswith("viewer.html")
    assert page.input_value("#hand-select") == "1"           # the second hand
    assert page.is_checked("#analyse")
    assert page.get_attribute("body", "data-step") == "4"    # the bids made, the first lead to come
    page.wait_for_function("() => document.querySelector('#analyse-progress').value >= 1", timeout=120_000)
    assert page.console_errors == []


SUMMARY_JS = """async ([extra]) => {
  const { openHistory } = await import('./lib/history.js');
  const h = await openHistory();
  const raw = () => new Promise((ok) => {
    const req = indexedDB.open('spades-history');
    req.onsuccess = () => {
      const tx = req.result.transaction(['matches', 'meta']);
      const out = {};
      tx.objectStore('meta').get('summary').onsuccess = (e) => { out.summary = e.target.result !== undefined; };
      tx.objectStore('matches').getAll().onsuccess = (e) => { out.records = e.target.result; };
      tx.oncomplete = () => { req.result.close(); ok(out); };
    };
  });
  const shape = (recs) => JSON.stringify(recs.map((r) => ({ ...r, hands: [...r.hands] })));
  const whole = (recs) => shape(recs.slice().sort((a, b) => b.date - a.date));
  const first = await h.list();                     // read whole; the summary is kept afterwards
  let stored = await raw();
  for (let i = 0; i < 50 && !stored.summary; i++) { await new Promise((r) => setTimeout(r, 20)); stored = await raw(); }
  const fromSummary = await h.list();
  const same = shape(fromSummary) === whole(stored.records) && shape(first) === shape(fromSummary);
  await h.addMatch(extra);                           // a write: the summary is renewed with it
  const afterAddRaw = await raw();
  const afterAdd = await h.list();
  const addedRight = shape(afterAdd) === whole(afterAddRaw.records);
  await h.deleteAll();
  return { kept: stored.summary, same, before: fromSummary.length, afterAdd: afterAdd.length, addedRight,
           keptAfterAdd: afterAddRaw.summary,
           afterDelete: (await h.list()).length };
}"""


def test_the_packed_summary_is_the_records_and_follows_every_write(page, site_url, games):
    """The statistics read all records from one packed summary: it equals the records read one
    by one, an added match renews it in the same transaction, and after a delete nothing is left."""
    seeded(page, site_url, games[:3])
    out = page.evaluate(SUMMARY_JS, [games[3]])
    assert out == {"kept": True, "same": True, "before": 3, "afterAdd": 4, "addedRight": True, "keptAfterAdd": True,
                   "afterDelete": 0}
    assert page.console_errors == []


def test_delete_asks_and_offers_export(page, site_url, games):
    seeded(page, site_url, games[:2])
    page.click("button[data-action='delete-history']")
    assert page.is_visible("dialog#confirm-delete button[data-action='export-first']")
    page.click("button[data-action='cancel-delete']")
    assert stat(page, "matches") == 2
    page.click("button[data-action='delete-history']")
    page.click("button[data-action='confirm-delete']")
    page.wait_for_function("document.querySelector(\"[data-stat='matches']\").dataset.value === '0'")


def test_score_chart_draws_both_teams_and_the_lines(page, site_url, games):
    open_stats(page, site_url)
    sheet = games[0]["state"]["sheet"]
    got = page.evaluate("""async (rows) => {
      const { scoreChart } = await import('./lib/chart.js');
      const fig = scoreChart(rows);
      document.querySelector('main').append(fig);
      const lines = [...fig.querySelectorAll('polyline')].map(p => p.getAttribute('points').split(' ').length);
      const refs = [...fig.querySelectorAll('.chart-ref + text')].map(t => t.textContent);
      const cells = [...fig.querySelectorAll('tbody tr')].map(r => [...r.children].map(c => c.textContent));
      return { lines, refs, cells, label: fig.querySelector('svg').getAttribute('role') };
    }""", sheet)
    assert got["lines"] == [len(sheet) + 1, len(sheet) + 1]
    assert got["refs"] == ["500", "-200"]
    assert got["label"] == "img"
    last = sheet[-1]["teams"]
    assert got["cells"][-1] == [str(len(sheet)), f"{last[0]['score_after']:,}", f"{last[1]['score_after']:,}"]


def test_stats_page_passes_axe(page, site_url, games):
    if not AXE.is_file():
        pytest.fail(f"{AXE} is missing: run `npm ci` in site/")
    seeded(page, site_url, games)
    page.locator("#match-list summary").first.click()
    page.locator(".chart-table summary").first.click()
    page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    bad = page.evaluate("""async () => {
      const r = await axe.run(document, {runOnly: {type: 'tag', values:
        ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']}});
      return r.violations.map(v => `${v.impact} ${v.id}: ${v.nodes.map(n => n.target.join(' ')).join(', ')}`);
    }""")
    assert bad == []


#: The match list's date (Intl medium date, short time) per page language, from its Intl locale
#: (site/i18n.js: pt is European Portuguese, pt-PT); the day and the hour depend on the time zone.
DATE_FORMS = {
    "de": r"\d{2}\.05\.2026, \d{2}:\d{2}",   # 28.05.2026, 20:26
    "pt": r"\d{2}/05/2026, \d{2}:\d{2}",      # 28/05/2026, 20:26 (Brazil's pt: 28 de mai. de 2026)
    "es": r"\d{1,2} may 2026, \d{1,2}:\d{2}",  # 28 may 2026, 20:26
    "ru": r"\d{1,2} мая 2026 г\., \d{2}:\d{2}",  # 28 мая 2026 г., 20:26
}


@pytest.mark.parametrize("lang", sorted(DATE_FORMS))
def test_dates_follow_the_pages_language(page, site_url, games, lang):
    seeded(page, site_url, games[:1])  # stored 2026-05-28 20:26 UTC
    page.goto(site_url + f"stats.html?lang={lang}")
    page.wait_for_selector("body[data-ready='1']")
    when = page.text_content("#match-list summary").split(": ")[0]
    assert re.fullmatch(DATE_FORMS[lang], when), when
    # the date fields are told the page's locale too (browsers may still draw them in their own)
    locale = "pt-PT" if lang == "pt" else lang
    assert page.eval_on_selector_all("#filters input[type='date']", "els => els.map(e => e.lang)") == [locale, locale]


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_every_text_is_translated(page, site_url, games, lang):
    seeded(page, site_url, games[:2])
    page.goto(site_url + f"stats.html?lang={lang}")
    page.wait_for_selector("body[data-ready='1']")
    page.locator("#match-list summary").first.click()
    page.wait_for_selector(".hand-links a")
    assert page.get_attribute("html", "lang") == lang
    text = page.inner_text("body")
    assert "stats." not in text and "level." not in text and "team." not in text
    english = page.evaluate("""async () => (await (await import('./lib/i18n.js')).catalogue('en'))['stats.f.matches']""")
    assert english not in text  # the figures' names are this language's, not the English fallback


# ---------------------------------------------------------------- hostile imports (issue 30)

EN = json.loads((ROOT / "site" / "i18n" / "en.json").read_text(encoding="utf-8"))
#: The range a JavaScript Date holds, in ms from 1970 (historyfile.MAX_DATE_MS).
MAX_DATE_MS = 8_640_000_000_000_000


def import_file(page, data: dict, outcome: str = "done") -> None:
    page.evaluate("document.body.dataset.import = ''")
    page.set_input_files("input[data-action='import-history']",
                         files=[{"name": "h.json", "mimeType": "application/json", "buffer": json.dumps(data).encode()}])
    page.wait_for_selector(f"body[data-import='{outcome}']")


def history_file(entries: list[dict]) -> dict:
    return {"format": "spades-history", "version": 1, "matches": entries}


def test_impossible_and_future_dates_are_refused_and_nothing_of_them_stored(page, site_url, games):
    """A date a JavaScript Date cannot hold (or one in the future) refuses that match with its
    reason: it is never stored, so the page, a reload and the export stay whole."""
    page.set_default_timeout(120_000)
    open_stats(page, site_url)
    now = page.evaluate("Date.now()")
    bad = [(1e300, "bad_date"), (MAX_DATE_MS + 1, "bad_date"), (now + 10 * DAY_MS, "future_date"),
           (-1, "bad_date"), ("2026-05-28", "bad_date")]
    entries = [{"date": date, "save": g["saveText"]} for (date, _), g in zip(bad, games)]
    entries.append({"date": games[5]["date"], "save": games[5]["saveText"]})
    import_file(page, history_file(entries))
    assert page.get_attribute("#import-result p", "data-added") == "1"
    assert page.get_attribute("#import-result p", "data-refused") == str(len(bad))
    assert page.eval_on_selector_all("#import-result li", "els => els.map((e) => e.dataset.code)") == [c for _, c in bad]
    assert page.text_content("#import-result li") == \
        EN["stats.refusedItem"].format(n=1, reason=EN["stats.err.bad_date"])
    assert page.locator("#import-result li").nth(2).text_content() == \
        EN["stats.refusedItem"].format(n=3, reason=EN["stats.err.future_date"])
    assert stat(page, "matches") == 1
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert stat(page, "matches") == 1
    assert page.is_hidden("#notice")
    assert page.locator("#match-list li[data-match]").count() == 1
    assert page.console_errors == []


# A record an older version stored without checking it (a date no Date holds), put straight
# into IndexedDB beside the good ones; the summary is dropped so the page reads the store.
PLANT_BAD_RECORD_JS = """() => new Promise((ok, fail) => {
  const req = indexedDB.open('spades-history');
  req.onsuccess = () => {
    const db = req.result;
    const tx = db.transaction(['matches', 'saves', 'meta'], 'readwrite');
    const matches = tx.objectStore('matches');
    matches.getAll().onsuccess = (e) => {
      const rec = { ...e.target.result[0], id: 'm00000000000000ff', date: 1e300 };
      matches.put(rec);
      tx.objectStore('saves').put({ id: rec.id, save: '{}' });
      tx.objectStore('meta').put('planted', 'token');
    };
    tx.oncomplete = () => { db.close(); ok(); };
    tx.onerror = () => fail(tx.error);
  };
})"""


def test_a_bad_record_already_stored_is_left_out_with_a_notice(page, site_url, games):
    """A bad record from an older version never breaks the page: it is left out (said so),
    the other matches are all shown, and the export does not write it back."""
    seeded(page, site_url, games[:2])
    page.evaluate(PLANT_BAD_RECORD_JS)
    for _ in range(2):  # read from the store, then from the summary kept after that read
        page.reload()
        page.wait_for_selector("body[data-ready='1']")
        assert page.text_content("#notice") == EN["stats.unreadable"]["one"].format(n=1)
        assert stat(page, "matches") == 2
        assert page.locator("#match-list li[data-match]").count() == 2
    with page.expect_download() as info:
        page.click("button[data-action='export-history']")
    exported = json.loads(Path(info.value.path()).read_text(encoding="utf-8"))
    assert sorted(m["date"] for m in exported["matches"]) == [g["date"] for g in games[:2]]
    assert page.console_errors == []


FOLD_IMPORT_JS = """async ([stored, imported]) => {
  const { openHistory } = await import('./lib/history.js');
  const h = await openHistory({ limit: 4 });
  for (const it of stored) await h.addMatch(it);
  const states = new Map(imported.map((it) => [it.saveText, it.state]));
  const file = JSON.stringify({ format: 'spades-history', version: 1,
    matches: imported.map((it) => ({ date: it.date, save: it.saveText })) });
  const r = await h.importAll(file, async (save) => states.get(save));
  return { added: r.added, folded: r.folded, duplicates: r.duplicates, refused: r.refused.length,
           kept: (await h.list()).map((rec) => rec.date), totals: await h.totals() };
}"""


def test_an_import_never_pushes_out_stored_matches(page, site_url, games):
    """Three matches stored, room for four: of three newer imported matches the newest is
    stored, the other two are counted in the totals only, and the three stored ones stay."""
    open_stats(page, site_url)
    out = page.evaluate(FOLD_IMPORT_JS, [games[:3], games[3:]])
    assert (out["added"], out["folded"], out["duplicates"], out["refused"]) == (1, 2, 0, 0)
    assert out["kept"] == [games[5]["date"]] + [g["date"] for g in reversed(games[:3])]
    surplus = oracle(games[3:5])
    totals = out["totals"]
    assert [totals[k] for k in ("matches", "won", "lost", "abandoned", "hands")] == \
        [2, surplus["won"], surplus["lost"], surplus["abandoned"], surplus["hands"]]


def fresh_saves(count: int, first_seed: int) -> list[str]:
    """`count` matches just dealt (no card played: abandoned, no hand), as the engine saves them."""
    from spades import bridge
    out = []
    for seed in range(first_seed, first_seed + count):
        bridge.call("new_match", {"seed": seed, "partner": "easy", "opponents": "easy"})
        out.append(bridge.call("save")["save"])
    return out


def test_the_import_report_counts_what_was_stored_and_what_folded(page, site_url, games, seed_snapshot):
    """2,001 new matches beside 3 stored, 2,000 kept whole: the report says 1,997 added and 4
    counted in the totals only, and every stored match is still listed."""
    page.set_default_timeout(600_000)
    seed_snapshot(page)
    seeded(page, site_url, games[:3])
    saves = fresh_saves(2001, 5000)
    import_file(page, history_file([{"date": BASE_DATE - (i + 1) * 60_000, "save": s} for i, s in enumerate(saves)]))
    report = page.locator("#import-result p").first
    assert (report.get_attribute("data-added"), report.get_attribute("data-folded"),
            report.get_attribute("data-refused")) == ("1997", "4", "0")
    assert report.text_content() == EN["stats.imported"].format(n="1,997", dup=0, bad=0)
    assert page.text_content("[data-role='import-folded']") == \
        EN["stats.importFolded"]["other"].format(n=4, max="2,000")
    assert stat(page, "matches") == 2000
    assert page.text_content("#folded").startswith("Also 4 older matches")
    page.select_option("select[name='partner']", "normal")  # the stored matches played with a normal partner
    normal = [g for g in games[:3] if g["state"]["levels"]["partner"] == "normal"]
    page.wait_for_function(f"document.querySelector(\"[data-stat='matches']\").dataset.value === '{len(normal)}'")
    assert page.console_errors == []
