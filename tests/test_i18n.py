"""Translation files (site/i18n/<lang>.json) against the English source (en.json).

No browser needed. What is checked, per language:

* the file is valid JSON: an object whose values are strings or plural objects;
* it has exactly the keys of en.json (nothing missing, nothing extra), and a key is
  a plural object in a translation exactly when it is one in English;
* every string keeps the placeholders of the English string ({n}, {name}, …), and
  has no stray braces, no HTML and no empty text;
* plural objects hold exactly the Intl.PluralRules categories that the language
  needs (the CLDR sets are hard-coded below; when node is installed its ICU is
  asked too, and for Portuguese and Spanish the "many" category that newer CLDR
  adds is required if node reports it);
* at least 80 % of the translatable strings differ from English (catches copied,
  untranslated entries; brand names and strings made of numbers, symbols and
  placeholders only are left out of that count);
* a few card-table terms follow site/i18n/glossary.md (e.g. each language's nil).
"""
from __future__ import annotations

import functools
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import I18N, LANGS, TRANSLATIONS

ROOT = Path(__file__).resolve().parents[1]

# CLDR plural categories (cardinal) per language, as Intl.PluralRules uses them.
CLDR_CATEGORIES = {
    "en": {"one", "other"},
    "de": {"one", "other"},
    "ro": {"one", "few", "other"},
    "ru": {"one", "few", "many", "other"},
    "pt": {"one", "other"},
    "hu": {"one", "other"},
    "es": {"one", "other"},
}
# Categories that newer CLDR versions add (CLDR 42: "many" for pt and es, used for
# 1 000 000 etc.). Required when node's ICU reports them, allowed otherwise.
NEWER_CLDR = {"pt": {"many"}, "es": {"many"}}

# Keys that are the same in every language on purpose (brand / game name).
BRAND_KEYS = {"app.title"}
MIN_TRANSLATED = 0.80

PLACEHOLDER = re.compile(r"\{(\w+)\}")
HTML_TAG = re.compile(r"</?[a-zA-Z][^>]*>")

# Glossary terms that must appear (case-insensitive) in a key's text, when the key
# exists: {key: {lang: word}}.
GLOSSARY_TERMS = {
    "bid.nil": {"de": "Nil", "ro": "nil", "ru": "ноль", "pt": "nil", "hu": "nil", "es": "nil"},
    "bid.nilButton": {"de": "Nil", "ro": "nil", "ru": "ноль", "pt": "nil", "hu": "nil", "es": "nil"},
    "sheet.contract": {"de": "Kontrakt", "ro": "contract", "ru": "контракт", "pt": "contrato", "hu": "kontraktus", "es": "contrato"},
    "sheet.penalty": {"de": "Sackstrafe", "ro": "saci", "ru": "мешки", "pt": "sacos", "hu": "zsákbüntetés", "es": "bolsas"},
    "action.lastTrick": {"de": "Stich", "ro": "levat", "ru": "взятк", "pt": "vaza", "hu": "ütés", "es": "baza"},
    "trick.spadesBroken": {"de": "Pik", "ro": "pica", "ru": "пики", "pt": "espadas", "hu": "pikk", "es": "picas"},
    "suit.S": {"de": "Pik", "ro": "pică", "ru": "пик", "pt": "espadas", "hu": "pikk", "es": "picas"},
    "suit.H": {"de": "Herz", "ro": "cupă", "ru": "черв", "pt": "copas", "hu": "kőr", "es": "corazones"},
    "suit.D": {"de": "Karo", "ro": "caro", "ru": "буб", "pt": "ouros", "hu": "káró", "es": "diamantes"},
    "suit.C": {"de": "Kreuz", "ro": "treflă", "ru": "треф", "pt": "paus", "hu": "treff", "es": "tréboles"},
    "level.easy": {"de": "Einfach", "ro": "Ușor", "ru": "Лёгкий", "pt": "Fácil", "hu": "Könnyű", "es": "Fácil"},
    "level.normal": {"de": "Normal", "ro": "Normal", "ru": "Средний", "pt": "Normal", "hu": "Normál", "es": "Normal"},
    "level.hard": {"de": "Schwer", "ro": "Greu", "ru": "Сложный", "pt": "Difícil", "hu": "Nehéz", "es": "Difícil"},
}


def page_locales() -> dict[str, str]:
    """The Intl locale the page uses per language: site/lib/i18n.js's LOCALES (e.g. pt -> pt-PT),
    else the language code itself."""
    text = (ROOT / "site" / "lib" / "i18n.js").read_text(encoding="utf-8")
    table = re.search(r"const LOCALES = \{([^}]*)\}", text)
    assert table, "site/lib/i18n.js has no LOCALES table"
    pairs = dict(re.findall(r"(\w+):\s*\"([\w-]+)\"", table.group(1)))
    return {lang: pairs.get(lang, lang) for lang in LANGS}


LOCALE = page_locales()


def test_page_locale_for_portuguese_is_european():
    # the catalogue is European Portuguese; its plural rules differ from Brazil's for 0
    assert LOCALE["pt"] == "pt-PT"


def load(lang: str) -> dict:
    path = I18N / f"{lang}.json"
    with path.open(encoding="utf-8") as fh:
        return json.load(fh)


@functools.cache
def node_categories() -> dict[str, set[str]] | None:
    """Plural categories from node's Intl (ICU), or None without node."""
    node = shutil.which("node")
    if not node:
        return None
    script = (
        "const out = {};"
        f"const locales = {json.dumps(LOCALE)};"
        "for (const [l, loc] of Object.entries(locales))"
        " out[l] = new Intl.PluralRules(loc).resolvedOptions().pluralCategories;"
        "console.log(JSON.stringify(out));"
    )
    try:
        done = subprocess.run([node, "-e", script], capture_output=True, text=True, timeout=30, check=True)
        return {k: set(v) for k, v in json.loads(done.stdout).items()}
    except (OSError, subprocess.SubprocessError, ValueError):
        return None


def plural_categories(lang: str) -> tuple[set[str], set[str]]:
    """(required, allowed) plural categories for `lang`."""
    required = set(CLDR_CATEGORIES[lang])
    newer = NEWER_CLDR.get(lang, set())
    reported = node_categories()
    if reported is None:
        return required, required | newer
    got = reported[lang]
    required |= got & newer
    return required, required


def texts(value) -> list[str]:
    return list(value.values()) if isinstance(value, dict) else [value]


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def english_form(value) -> str:
    return value["other"] if isinstance(value, dict) else value


def translatable(key: str, en_value) -> bool:
    """Whether a translation is expected to differ from English."""
    if key in BRAND_KEYS:
        return False
    bare = PLACEHOLDER.sub("", english_form(en_value))
    return sum(ch.isalpha() for ch in bare) >= 3


@pytest.fixture(scope="module")
def en() -> dict:
    return load("en")


def test_english_is_well_formed(en):
    assert en, "en.json is empty"
    for key, value in en.items():
        assert isinstance(value, (str, dict)), key
        if isinstance(value, dict):
            assert set(value) == CLDR_CATEGORIES["en"], f"en {key}: plural categories {sorted(value)}"


def test_cldr_table_agrees_with_node():
    reported = node_categories()
    if reported is None:
        pytest.skip("node is not installed")
    for lang in LANGS:
        got = reported[lang]
        base = CLDR_CATEGORIES[lang]
        assert base <= got <= base | NEWER_CLDR.get(lang, set()), f"{lang}: node reports {sorted(got)}"


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_same_keys_as_english(lang, en):
    tr = load(lang)
    missing = sorted(set(en) - set(tr))
    extra = sorted(set(tr) - set(en))
    assert not missing, f"{lang}.json is missing {missing}"
    assert not extra, f"{lang}.json has keys that en.json does not: {extra}"


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_value_types_match(lang, en):
    tr = load(lang)
    for key, en_value in en.items():
        if key not in tr:
            continue
        value = tr[key]
        if isinstance(en_value, dict):
            assert isinstance(value, dict), f"{lang} {key}: English is a plural object, translation is not"
        else:
            assert isinstance(value, str), f"{lang} {key}: expected a string, got {type(value).__name__}"
        for text in texts(value):
            assert isinstance(text, str), f"{lang} {key}: plural forms must be strings"


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_plural_categories(lang, en):
    tr = load(lang)
    required, allowed = plural_categories(lang)
    plural_keys = [k for k, v in en.items() if isinstance(v, dict)]
    for key in plural_keys:
        value = tr.get(key)
        if not isinstance(value, dict):
            continue  # reported by the key / type tests
        cats = set(value)
        assert required <= cats <= allowed, (
            f"{lang} {key}: categories {sorted(cats)}, need {sorted(required)}"
            + (f" (may also have {sorted(allowed - required)})" if allowed != required else "")
        )


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_placeholders_kept(lang, en):
    tr = load(lang)
    for key, en_value in en.items():
        if key not in tr:
            continue
        want = placeholders(english_form(en_value))
        for form, text in (tr[key].items() if isinstance(tr[key], dict) else [("", tr[key])]):
            if not isinstance(text, str):
                continue
            label = f"{lang} {key}{'[' + form + ']' if form else ''}"
            assert placeholders(text) == want, f"{label}: placeholders {sorted(placeholders(text))}, English has {sorted(want)}"
            stray = PLACEHOLDER.sub("", text)
            assert "{" not in stray and "}" not in stray, f"{label}: stray brace in {text!r}"


@pytest.mark.parametrize("lang", LANGS)
def test_no_empty_strings_or_html(lang):
    data = load(lang)
    for key, value in data.items():
        for text in texts(value):
            if not isinstance(text, str):
                continue
            assert text.strip(), f"{lang} {key}: empty string"
            assert text == text.strip(), f"{lang} {key}: leading/trailing whitespace"
            assert not HTML_TAG.search(text), f"{lang} {key}: HTML in {text!r}"


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_mostly_translated(lang, en):
    tr = load(lang)
    keys = [k for k, v in en.items() if k in tr and translatable(k, v)]
    assert keys
    same = [k for k in keys if tr[k] == en[k] or english_form(tr[k]) == english_form(en[k])]
    share = 1 - len(same) / len(keys)
    assert share >= MIN_TRANSLATED, (
        f"{lang}: only {share:.0%} of {len(keys)} strings differ from English; identical: {same}"
    )


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_glossary_terms(lang):
    tr = load(lang)
    for key, per_lang in GLOSSARY_TERMS.items():
        if key not in tr:
            continue
        text = " ".join(texts(tr[key])).casefold()
        word = per_lang[lang].casefold()
        assert word in text, f"{lang} {key}: expected the glossary term {per_lang[lang]!r} in {tr[key]!r}"


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_plural_forms_render(lang, en):
    """Sanity: for n = 0…25 every category the language selects exists (as i18n.js picks it)."""
    reported = node_categories()
    if reported is None:
        pytest.skip("node is not installed")
    node = shutil.which("node")
    script = (
        f"const p = new Intl.PluralRules({json.dumps(LOCALE[lang])});"
        "const out = [];"
        "for (let n = 0; n <= 25; n++) out.push(p.select(n));"
        "out.push(p.select(1000000));"
        "console.log(JSON.stringify(out));"
    )
    used = set(json.loads(subprocess.run([node, "-e", script], capture_output=True, text=True, check=True).stdout))
    tr = load(lang)
    for key, value in tr.items():
        if isinstance(value, dict):
            assert used <= set(value), f"{lang} {key}: no form for {sorted(used - set(value))}"


def _spoken(text: str) -> str:
    """``text`` as axe compares it: lower case, symbols and punctuation dropped."""
    return " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split())


@pytest.mark.parametrize("lang", LANGS)
def test_an_accessible_name_contains_its_visible_text(lang):
    """A button's ``KEY.label`` (its aria-label) holds ``KEY`` (its visible text), so speech
    input users can say what they see (axe's label-content-name-mismatch)."""
    catalogue = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
    pairs = {k: v for k, v in catalogue.items() if k.endswith(".label") and k[:-len(".label")] in catalogue}
    assert "viewer.first.label" in pairs and "viewer.next.label" in pairs
    bad = {k: v for k, v in pairs.items() if _spoken(catalogue[k[:-len(".label")]]) not in _spoken(v)}
    assert bad == {}


def test_russian_calls_a_hand_razdacha():
    """A hand (one deal of 13 tricks) is «раздача» in every Russian text (glossary.md);
    «сдача» appears only as «сдача карт», the act of dealing."""
    texts_ru = [t for v in load("ru").values() for t in texts(v)]
    texts_ru.append((ROOT / "site" / "rules" / "ru.html").read_text(encoding="utf-8"))
    stray = [m.group(0) for text in texts_ru for m in re.finditer(r"\bсдач\w*\b(?! карт)", text, re.I)]
    assert stray == []
