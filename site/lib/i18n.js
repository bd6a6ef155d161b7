// i18n.js: a tiny translation layer.
//
//   await loadLanguage("de");           // fetches i18n/de.json (English as fallback), sets <html lang>
//   t("seat.tricks", { n: 3 })          // plural keys are objects {"one": ..., "other": ...}
//                                       // chosen with Intl.PluralRules on params.n
//   fmt(1234)                           // Intl.NumberFormat for the current language
//   applyStatic(root)                   // fills [data-i18n], [data-i18n-aria-label], [data-i18n-title]
//
// Keys are flat strings ("card.name"); placeholders are {name}. Numbers given as
// parameters are formatted with Intl.NumberFormat, except those passed as strings.

export const LANGUAGES = {
  en: "English",
  de: "Deutsch",
  ro: "Română",
  ru: "Русский",
  pt: "Português",
  hu: "Magyar",
  es: "Español",
};

const LOCALES = { pt: "pt-PT" };

/** Whether `code` is one of LANGUAGES (own keys only: "constructor" is no language). */
export function isLanguage(code) {
  return typeof code === "string" && Object.hasOwn(LANGUAGES, code);
}

let lang = "en";
let dict = {};
let fallback = {};
let plural = new Intl.PluralRules("en");
let numbers = new Intl.NumberFormat("en");
let signed = new Intl.NumberFormat("en", { signDisplay: "exceptZero" });

async function fetchLang(code) {
  const resp = await fetch(new URL(`../i18n/${code}.json`, import.meta.url), { cache: "no-cache" });
  if (!resp.ok) throw new Error(`i18n ${code}: HTTP ${resp.status}`);
  return resp.json();
}

/** The catalogue of `code` as shipped (tests and tools compare texts with it). */
export function catalogue(code) {
  return isLanguage(code) ? fetchLang(code) : Promise.reject(new Error(`no language ${code}`));
}

/** Pick a supported language: explicit wish, then the browser's languages, then English. */
export function pickLanguage(wish) {
  const candidates = [wish, ...(navigator.languages || [navigator.language])];
  for (const c of candidates) {
    if (!c) continue;
    const base = String(c).toLowerCase().split(/[-_]/)[0];
    if (isLanguage(base)) return base;
  }
  return "en";
}

/** Load a language (English always loaded as the fallback). Returns the language in use. */
export async function loadLanguage(code) {
  if (!Object.keys(fallback).length) {
    try {
      fallback = await fetchLang("en");
    } catch {
      fallback = {};
    }
  }
  let use = isLanguage(code) ? code : "en";
  if (use === "en") {
    dict = fallback;
  } else {
    try {
      dict = await fetchLang(use);
    } catch {
      use = "en";
      dict = fallback;
    }
  }
  lang = use;
  // The Portuguese texts are European Portuguese: its plural rules (0 is "other") and numbers.
  const locale = currentLocale();
  plural = new Intl.PluralRules(locale);
  numbers = new Intl.NumberFormat(locale);
  signed = new Intl.NumberFormat(locale, { signDisplay: "exceptZero" });
  document.documentElement.lang = lang;
  return lang;
}

export function currentLanguage() {
  return lang;
}

/** The Intl locale of the current language (pt: pt-PT), for dates and numbers on the page. */
export function currentLocale() {
  return Object.hasOwn(LOCALES, lang) ? LOCALES[lang] : lang;
}

export function fmt(n) {
  return typeof n === "number" ? numbers.format(n) : String(n);
}

/** A number with its sign (+62, −70, 0) for score deltas. */
export function fmtSigned(n) {
  return typeof n === "number" ? signed.format(n) : String(n);
}

function lookup(key) {
  if (Object.prototype.hasOwnProperty.call(dict, key)) return dict[key];
  if (Object.prototype.hasOwnProperty.call(fallback, key)) return fallback[key];
  return undefined;
}

/** Translate `key` with `params`; a missing key shows the key itself (never throws). */
export function t(key, params = {}) {
  let value = lookup(key);
  if (value === undefined) return key;
  if (value && typeof value === "object") {
    const n = typeof params.n === "number" ? params.n : Number(params.n) || 0;
    const cat = plural.select(n);
    value = (Object.hasOwn(value, cat) ? value[cat] : value.other) ?? Object.values(value)[0] ?? key;
  }
  return String(value).replace(/\{(\w+)\}/g, (m, name) =>
    Object.prototype.hasOwnProperty.call(params, name) ? fmt(params[name]) : m,
  );
}

/** True when the key exists (in the language or the English fallback). */
export function has(key) {
  return lookup(key) !== undefined;
}

/** Fill elements marked with data-i18n* attributes under `root`. */
export function applyStatic(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) {
    node.textContent = t(node.dataset.i18n);
  }
  for (const node of root.querySelectorAll("[data-i18n-aria-label]")) {
    node.setAttribute("aria-label", t(node.dataset.i18nAriaLabel));
  }
  for (const node of root.querySelectorAll("[data-i18n-title]")) {
    node.setAttribute("title", t(node.dataset.i18nTitle));
  }
}
