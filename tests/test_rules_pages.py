"""The rules pages (site/rules/<lang>.html): one per language of the game, each a version of
site/rules/en.html with the same sections.

No browser needed. Per language: the page exists and declares its language; it has exactly
the element ids of the English page, in the same order (the game and the house-rules chip
link to them, e.g. ``#house``); its language menu links every page once, marking itself as
the current one; and its worked examples hold the same figures, row by row, as the English
tables (a translation must not change a score).
"""
from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from helpers import LANGS

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "site" / "rules"
NUMBER = re.compile(r"\d+")  # the figures; signs are words in some rows ("5 bags cost 50")


class Page(HTMLParser):
    """What the checks need from a rules page: ids, the language menu, the tables' rows."""

    def __init__(self) -> None:
        super().__init__()
        self.lang: str | None = None
        self.ids: list[str] = []
        self.menu: list[dict[str, str | None]] = []  # the attributes of each link in nav.langs
        self.tables: dict[str, list[str]] = {}      # caption id -> the text of each body row
        self._in_nav = False
        self._caption: str | None = None
        self._in_body = False
        self._row: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "html":
            self.lang = a.get("lang")
        if a.get("id"):
            self.ids.append(a["id"] or "")
        if tag == "nav" and "langs" in (a.get("class") or "").split():
            self._in_nav = True
        elif tag == "a" and self._in_nav:
            self.menu.append(a)
        elif tag == "caption":
            self._caption = a.get("id")
            self.tables[self._caption or ""] = []
        elif tag == "tbody":
            self._in_body = True
        elif tag == "tr" and self._in_body:
            self._row = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "nav":
            self._in_nav = False
        elif tag == "tbody":
            self._in_body = False
        elif tag == "tr" and self._row is not None:
            self.tables[self._caption or ""].append(" ".join(self._row))
            self._row = None

    def handle_data(self, data: str) -> None:
        if self._row is not None:
            self._row.append(data)


def parse(lang: str) -> Page:
    path = RULES / f"{lang}.html"
    assert path.is_file(), f"site/rules/{lang}.html is missing"
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def test_every_language_of_the_game_has_a_rules_page():
    # the game links rules/<its language>.html: the picker's languages are these
    table = re.search(r"export const LANGUAGES = \{([^}]*)\}", (ROOT / "site" / "lib" / "i18n.js").read_text(encoding="utf-8"))
    assert table, "site/lib/i18n.js has no LANGUAGES table"
    assert re.findall(r"(\w+):\s*\"", table.group(1)) == list(LANGS)
    assert sorted(p.stem for p in RULES.glob("*.html")) == sorted(LANGS)


@pytest.mark.parametrize("lang", LANGS)
def test_page_declares_its_language(lang):
    assert parse(lang).lang == lang


@pytest.mark.parametrize("lang", LANGS)
def test_same_sections_as_english(lang):
    assert parse(lang).ids == parse("en").ids


@pytest.mark.parametrize("lang", LANGS)
def test_language_menu_links_every_page_and_marks_this_one(lang):
    menu = parse(lang).menu
    assert [a["href"] for a in menu] == [f"{code}.html" for code in LANGS]
    assert [a["hreflang"] for a in menu] == list(LANGS) and [a["lang"] for a in menu] == list(LANGS)
    assert [a["href"] for a in menu if a.get("aria-current") == "page"] == [f"{lang}.html"]


@pytest.mark.parametrize("lang", LANGS)
def test_worked_examples_keep_the_english_figures(lang):
    want = {cap: [NUMBER.findall(row) for row in rows] for cap, rows in parse("en").tables.items()}
    got = {cap: [NUMBER.findall(row) for row in rows] for cap, rows in parse(lang).tables.items()}
    assert set(want) == {"examples-caption", "house-caption"}
    assert got == want
