"""Automated accessibility audit of the game page with axe-core (WCAG 2.0/2.1/2.2 A and AA
plus axe's best practices) on every screen a player meets: loading, bidding, playing,
the score sheet after a hand, the end screen, and the settings / new match / last
trick dialogs.

axe-core is the npm devDependency pinned in site/package.json (site/node_modules is
filled by `npm ci`, which build_site.py runs); its axe.min.js is injected into the
page as inline script text, never fetched from a network.

Each screen must have no violation of impact "serious" or "critical". The bidding screen
and the score sheet in every other language are audited by test_i18n_pages.py. The counts per
screen and impact (every impact, passing or not) are printed and written to
tests/browser/screenshots/axe-report.json.

SPADES_A11Y_DIST=/path/to/another/dist audits that build instead of dist/ (for
before/after comparisons) and writes axe-report-<name of that folder>.json.
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from driver import AXE, AXE_TAGS, BOOT_MS, QUERY, act, axe_violations, assert_clean, new_match, next_action, open_game, open_rules, play_until, seed_save, wait_playable
from engine_probe import DEDICATED_ENGINE
from spades import Match

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
TAGS = AXE_TAGS
IMPACTS = ["critical", "serious", "moderate", "minor"]
REPORT: dict[str, dict] = {}

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


@pytest.fixture(scope="module")
def axe_source(dist_dir) -> str:
    # dist_dir first: building runs `npm ci`, which installs axe-core
    if not AXE.is_file():
        pytest.fail(f"{AXE} is missing: run `npm ci` in site/ (axe-core is a devDependency)")
    return AXE.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def url(request):
    """The site to audit: dist/ (conftest's site_url) or SPADES_A11Y_DIST."""
    other = os.environ.get("SPADES_A11Y_DIST")
    if not other:
        yield request.getfixturevalue("site_url")
        return
    with request.getfixturevalue("serve")(Path(other)) as base:
        yield base


@pytest.fixture(scope="module", autouse=True)
def report_file(screenshot_dir):
    yield
    if not REPORT:
        return
    other = os.environ.get("SPADES_A11Y_DIST")
    name = f"axe-report-{Path(other).name}.json" if other else "axe-report.json"
    path = screenshot_dir / name
    data = {}
    if path.is_file():
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            data = {}
    data.setdefault("screens", {}).update(REPORT)
    data["tags"] = TAGS
    data["axe"] = "axe-core " + json.loads((AXE.parent / "package.json").read_text())["version"]
    path.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    print(f"\naxe report written to {path}")


def run_axe(page, axe_source, screen):
    """Run axe on the whole document; record and return the violations."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(content=axe_source)
    result = axe_violations(page)
    counts = {impact: 0 for impact in IMPACTS}
    for v in result:
        counts[v["impact"] or "minor"] += len(v["nodes"])
    REPORT[screen] = {
        "counts": counts,  # affected elements per impact
        "rules": {v["id"]: {"impact": v["impact"], "nodes": len(v["nodes"]), "help": v["help"],
                            "targets": [n["target"] for n in v["nodes"]][:8]} for v in result},
    }
    print(f"\naxe [{screen}] " + ", ".join(f"{k}: {n}" for k, n in counts.items()))
    for v in result:
        print(f"  {v['impact']:>8} {v['id']} x{len(v['nodes'])}: {v['help']}  e.g. {v['nodes'][0]['target']}")
    return result


def assert_no_serious(violations):
    bad = [v for v in violations if v["impact"] in ("serious", "critical")]
    assert not bad, json.dumps(bad, indent=1)[:6000]


@pytest.fixture()
def table(request, url):
    """A booted game page on the audited site: the shared one (``game``), or with
    SPADES_A11Y_DIST a fresh page on that build. Call it with a seed to deal."""
    if os.environ.get("SPADES_A11Y_DIST"):
        page = request.getfixturevalue("page")
        page.set_viewport_size({"width": 1280, "height": 800})
        return page, lambda seed: open_game(page, url, seed)
    page = request.getfixturevalue("game")
    return page, lambda seed: new_match(page, seed)


# ---------------------------------------------------------------- driving the page


def near_end_save(seed: int = 11) -> str:
    """A session save (as the page keeps it) just before the human's last card of the match."""
    from spades import bridge

    bridge.new_match({"seed": seed, "partner": "easy", "opponents": "easy"})
    last = None
    for _ in range(100_000):
        st = bridge.state()
        if st["phase"] == "over":
            assert last is not None
            return last
        if st["to_act"] != 0:
            bridge.run_bots({})
        elif st["phase"] == "bid":
            bridge.bid({"n": 3 if 3 in st["legal_bids"] else st["legal_bids"][0]})
        else:
            if len(st["hand"]) == 1:
                last = bridge.call("save")["save"]
            bridge.play({"card": st["legal_cards"][0]})
    raise AssertionError("the match did not end")


# ---------------------------------------------------------------- screens


def test_loading_screen(page, url, axe_source, screenshot_dir):
    held = []
    # hold the Python runtime's download so the loading screen stays up while axe runs (the
    # dedicated engine: routes do not reach a shared worker's requests)
    page.add_init_script(script=DEDICATED_ENGINE)
    page.context.route("**/pyodide/pyodide.asm.wasm", lambda route: held.append(route))
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(url + QUERY.format(seed=11))
    page.wait_for_function("() => document.documentElement.lang && document.querySelector('#progress')")
    page.wait_for_timeout(300)  # i18n applied
    assert page.get_attribute("body", "data-phase") == "loading"
    violations = run_axe(page, axe_source, "loading")
    page.screenshot(path=str(screenshot_dir / "a11y-loading.png"))
    for route in held:
        route.continue_()
    page.context.unroute("**/pyodide/pyodide.asm.wasm")
    wait_playable(page)
    assert_no_serious(violations)
    assert_clean(page, url)


def test_bidding_and_playing_screens(table, url, axe_source, screenshot_dir):
    page, deal = table
    deal(11)
    assert next_action(page)["kind"] == "bid"
    bidding = run_axe(page, axe_source, "bidding")
    page.screenshot(path=str(screenshot_dir / "a11y-bidding.png"))
    # play on until it is our turn with cards already on the table
    play_until(page, lambda p, a: a["kind"] == "play" and p.locator(".trick-slot .card").count() >= 1
               and p.locator("#hand button[data-card]").count() < 13, limit=60)
    playing = run_axe(page, axe_source, "playing")
    page.screenshot(path=str(screenshot_dir / "a11y-playing.png"))
    # the dialogs open from the menu
    page.click("button[data-action='last-trick']")
    page.wait_for_selector("#trick-dialog[open]")
    last_trick = run_axe(page, axe_source, "last-trick-dialog")
    page.keyboard.press("Escape")
    page.click("button[data-action='settings']")
    page.wait_for_selector("#settings-dialog[open]")
    settings = run_axe(page, axe_source, "settings-dialog")
    page.screenshot(path=str(screenshot_dir / "a11y-settings.png"))
    page.keyboard.press("Escape")
    # the New match dialog, its house-rules section open, with the engine's refusal of an
    # impossible combination shown
    open_rules(page)
    new_match_dialog = run_axe(page, axe_source, "new-match-dialog")
    page.select_option("#rules-min_team_bid", "2")
    page.check("#rules-suicide")
    page.wait_for_selector("[data-role='rules-error']:not([hidden])")
    rules_section = run_axe(page, axe_source, "new-match-rules")
    page.screenshot(path=str(screenshot_dir / "a11y-new-match-rules.png"))
    page.select_option("#rules-preset", "1.0.0")  # the shared page keeps playing 1.0.0
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.querySelector('dialog[open]')")
    for v in (bidding, playing, last_trick, settings, new_match_dialog, rules_section):
        assert_no_serious(v)
    assert_clean(page, url)


def test_score_sheet_screen(table, url, axe_source, screenshot_dir):
    page, deal = table
    deal(5)
    play_until(page, lambda p, a: a["kind"] == "continue", limit=80)
    violations = run_axe(page, axe_source, "score-sheet")
    page.screenshot(path=str(screenshot_dir / "a11y-sheet.png"))
    act(page, {"kind": "continue"})
    assert_no_serious(violations)
    assert_clean(page, url)


def test_end_screen(page, url, axe_source, screenshot_dir):
    page.set_viewport_size({"width": 1280, "height": 800})
    seed_save(page, near_end_save(16))  # seed 16: a match of 15 hands, quick to replay in Python
    page.goto(url + "?speed=0")
    page.wait_for_selector("#hand button[data-card]:enabled", timeout=BOOT_MS)
    play_until(page, lambda p, a: a["kind"] == "over", limit=10)
    page.wait_for_selector("#over-panel:not([hidden])")
    over = run_axe(page, axe_source, "end")
    page.screenshot(path=str(screenshot_dir / "a11y-end.png"))
    page.click("#over-panel button[data-action='scores']")
    page.wait_for_selector("#sheet-dialog[open] table.history")
    sheet = run_axe(page, axe_source, "end-score-sheet")
    assert_no_serious(over)
    assert_no_serious(sheet)
    assert_clean(page, url)


#: A deal whose first hand gives the player diamonds and clubs (checked against the engine).
COLOUR_SEED = 11


def test_four_colour_deck_setting(page, url):
    suits = {card[-1] for card in Match(seed=COLOUR_SEED).hand(0)}
    assert {"D", "C"} <= suits  # the deal the assertions below rely on
    page.set_viewport_size({"width": 1280, "height": 800})
    open_game(page, url, COLOUR_SEED)
    colour = """(suit) => getComputedStyle(document.querySelector(`#hand button[data-suit='${suit}']`)).color"""
    before = {s: page.evaluate(colour, s) for s in "DC"}
    page.click(".tools [data-action='settings']")
    page.check("#four-colour")
    page.keyboard.press("Escape")
    after = {s: page.evaluate(colour, s) for s in "DC"}
    assert before == {"D": "rgb(192, 17, 43)", "C": "rgb(21, 23, 26)"}  # red, black
    assert after == {"D": "rgb(11, 88, 184)", "C": "rgb(18, 114, 47)"}  # blue, green
    assert json.loads(page.evaluate("() => localStorage.getItem('spades.settings.v1')"))["fourColour"] is True
    page.reload()
    page.wait_for_selector("#hand button[data-card]", timeout=BOOT_MS)
    assert page.evaluate("() => document.body.classList.contains('four-colour')")
    assert {s: page.evaluate(colour, s) for s in "DC"} == after
    assert_clean(page, url)


def test_reduced_motion_turns_animation_off(page, url):
    page.emulate_media(reduced_motion="reduce")
    page.add_init_script(script="""window.__animations = 0;
      const orig = Element.prototype.animate;
      Element.prototype.animate = function (...a) { window.__animations++; return orig.apply(this, a); };""")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(url + "?seed=11&speed=fast&partner=easy&opponents=easy")
    page.wait_for_selector("#bid-panel:not([hidden]) button[data-bid='3']:enabled", timeout=BOOT_MS)
    page.click("#bid-panel button[data-bid='3']")
    page.wait_for_selector("#hand button[data-card]:enabled", timeout=60_000)
    card = page.get_attribute("#hand button[data-card]:enabled", "data-card")
    page.click(f"#hand button[data-card='{card}']")
    page.wait_for_selector("#hand button[data-card]:enabled", timeout=60_000)
    assert page.evaluate("() => window.__animations") == 0
    assert page.evaluate("() => getComputedStyle(document.querySelector('#hand .card')).transitionDuration") == "0s"
    assert_clean(page, url)
