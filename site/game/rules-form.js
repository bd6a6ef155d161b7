// rules-form.js: the house-rules section of the New match dialog. A preset chooser, then
// every option with a one-line explanation. Choosing a preset fills the options from the
// engine's presets (`hello`); changing an option asks the engine (`rules`) what the
// combination is called (a preset, or custom) and whether it can be played; an impossible
// combination is refused by the engine and its coded error shown beside the form, the
// dialog staying open with everything as the player left it. The last rules a match was
// started with are remembered in localStorage (one key per store, like the match itself).
import { notice } from "./alerts.js";
import { errorText } from "../lib/errors.js";
import { t } from "../lib/i18n.js";
import { CUSTOM_RULES, DEFAULT_RULES, rulesName } from "../lib/rules-words.js";
import { $, el } from "../lib/dom.js";
import { pressEnded, trackPresses } from "../lib/press.js";


/** The options the form shows, in order: [key, kind, choices]. Kinds: deck, flag, whole, choice. */
const OPTIONS = [
  ["deck", "choice", ["standard", "jokers", "deuces"]],
  ["blind_nil", "flag"],
  ["blind_nil_trail", "whole"],
  ["suicide", "flag"],
  ["target", "whole"],
  ["floor", "floor"],
  ["nil_points", "choice", [100, 50]],
  ["bag_limit", "choice", [10, 5, 0]],
  ["ten_for_200", "flag"],
  ["min_team_bid", "choice", [0, 1, 2, 3, 4]],
  ["spades_any_time", "flag"],
];
/** What a choice's option reads: a key per value, or the number itself. */
const CHOICE_TEXT = { deck: (v) => t(`rules.deck.${v}`), bag_limit: (v) => t(`rules.bags.${v}`) };
/** A whole number as typed (the engine checks its range); anything else is given as typed, for the engine to refuse. */
const WHOLE = /^-?\d{1,7}$/;


/** One option's row: its label and control, and its explanation (the control's description). */
function optionRow(key, kind, choices) {
  const row = el("div", { class: `rule-opt rule-${kind}` });
  const help = el("small", { id: `rules-help-${key}`, class: "muted" }, t(`rules.help.${key}`));
  const id = `rules-${key}`;
  const label = el("label", { for: id }, t(`rules.opt.${key}`));
  let control;
  if (kind === "flag") {
    control = el("input", { type: "checkbox", id, name: key });
    row.append(control, " ", label);
  } else if (kind === "choice") {
    control = el("select", { id, name: key });
    for (const v of choices) control.appendChild(el("option", { value: String(v) }, CHOICE_TEXT[key] ? CHOICE_TEXT[key](v) : String(v)));
    row.append(label, control);
  } else {
    control = el("input", { type: "number", id, name: key, step: "1", inputmode: "numeric", autocomplete: "off" });
    row.append(label, control);
    if (kind === "floor") {
      const none = el("input", { type: "checkbox", id: "rules-no-floor", name: "no_floor", "aria-describedby": `rules-help-${key}` });
      const noneLabel = el("label", { for: "rules-no-floor", class: "check" }, t("rules.opt.noFloor"));
      noneLabel.prepend(none, " ");
      row.append(noneLabel);
    }
  }
  control.setAttribute("aria-describedby", help.id);
  row.append(help);
  return row;
}

/**
 * The rules section in `root` (the dialog's `[data-role='rules-body']`). `ask(rules)`
 * resolves to the engine's `{rules, text}` or rejects with its coded error; `storeKey` is
 * where the last choice is kept. Returns {build, fill, check, confirm, remembered, relabel, linkRefused, startRules}.
 */
export function createRulesForm({ ask, storeKey }) {
  trackPresses();
  let presets = {};
  let asked = 0; // the newest check: older answers are ignored
  // Start was refused: the field the engine names takes the focus, whichever check marks it
  // last (an option changed as Start is pressed asks again, and only the newest answer counts)
  let focusRefused = false;
  const body = () => $("[data-role='rules-body']");
  const errorBox = () => $("[data-role='rules-error']");
  const presetSelect = () => $("#rules-preset");
  const control = (key) => $(`#rules-${key}`);

  function showError(err) {
    const box = errorBox();
    box.textContent = err ? t("rules.refused", { reason: errorText(err) }) : "";
    box.hidden = !err;
    if (!err) markFields([]);
  }

  /** Mark the options in `keys` as refused: aria-invalid and a line beside the control; the rest unmarked. */
  function markFields(keys) {
    for (const [key] of OPTIONS) {
      const c = control(key);
      if (!c) continue;
      const bad = keys.includes(key);
      const id = `rules-invalid-${key}`;
      let line = document.getElementById(id);
      if (bad && !line) {
        line = el("p", { id, class: "field-error" }, t("rules.invalidField"));
        c.closest(".rule-opt").querySelector("small").before(line);
      }
      if (line) line.hidden = !bad;
      const described = (c.getAttribute("aria-describedby") || "").split(" ").filter((s) => s && s !== id);
      c.setAttribute("aria-describedby", (bad ? [id, ...described] : described).join(" "));
      if (bad) c.setAttribute("aria-invalid", "true");
      else c.removeAttribute("aria-invalid");
    }
  }

  /** The number options the engine refuses one by one (each asked alone, the rest its defaults):
   * the fields to mark when a combination is refused. The engine decides; nothing is checked here. */
  async function refusedFields(values) {
    const keys = OPTIONS.filter(([key, kind]) => (kind === "whole" || kind === "floor") && !control(key).disabled)
      .map(([key]) => key);
    const answers = await Promise.all(keys.map((key) => check({ [key]: values[key] })));
    return keys.filter((key, i) => answers[i].error);
  }

  /** Show the engine's refusal of `values` and mark the fields it names; after a refused Start the first takes the focus. */
  async function refuse(err, values, mine) {
    showError(err);
    showName(null);
    const keys = await refusedFields(values);
    await pressEnded(); // the line beside the field moves the buttons below it: not under a press
    if (mine !== asked) return;
    markFields(keys);
    if (keys.length && focusRefused) showRefused(control(keys[0]));
    focusRefused = false;
  }

  /** Give a refused field the focus with its whole option in view: focusing alone scrolls only
   * the field itself into the dialog, leaving the line under it that says what is wrong below
   * the dialog's edge on a phone. */
  function showRefused(field) {
    field.focus({ preventScroll: true });
    (field.closest(".rule-opt") || field).scrollIntoView({ block: "nearest" });
  }

  function showName(rules) {
    const name = rules && Object.hasOwn(presets, rules.name) ? rules.name : CUSTOM_RULES;
    presetSelect().value = name;
    $("[data-role='rules-summary']").textContent = t("rules.summary", { name: rulesName({ name }) });
  }

  /** The options as the form holds them, for the engine to check. */
  function read() {
    const out = {};
    for (const [key, kind, choices] of OPTIONS) {
      const c = control(key);
      if (kind === "flag") out[key] = c.checked;
      else if (kind === "choice") out[key] = typeof choices[0] === "number" ? Number(c.value) : c.value;
      else if (kind === "floor" && $("#rules-no-floor").checked) out[key] = null;
      else out[key] = WHOLE.test(c.value.trim()) ? Number(c.value.trim()) : c.value;
    }
    return out;
  }

  /** Put an engine rules description into the form. */
  function put(rules) {
    for (const [key, kind] of OPTIONS) {
      const c = control(key);
      const v = rules[key];
      if (kind === "flag") c.checked = v === true;
      else if (kind === "floor") {
        $("#rules-no-floor").checked = v === null;
        c.value = v === null ? "" : String(v);
        c.disabled = v === null;
      } else c.value = String(v);
    }
    control("blind_nil_trail").disabled = !rules.blind_nil;
    showName(rules);
  }

  /** Ask the engine about `value` (any form): {rules, text} or {error}. */
  async function check(value) {
    try {
      return await ask(value);
    } catch (err) {
      return { error: err };
    }
  }

  /** The player changed an option: the engine names the combination or refuses it. */
  async function changed() {
    control("blind_nil_trail").disabled = !control("blind_nil").checked;
    control("floor").disabled = $("#rules-no-floor").checked;
    const mine = ++asked;
    const values = read();
    const r = await check(values);
    // The answer shows or hides the refusal above Start, moving it: a press under way (the tap
    // on Start that blurred the field and so asked) lands first, and its Start makes this answer old.
    await pressEnded();
    if (mine !== asked) return;
    if (r.error) await refuse(r.error, values, mine);
    else {
      focusRefused = false;
      showError(null);
      showName(r.rules);
    }
  }

  function build(given) {
    presets = given && typeof given === "object" ? given : {};
    const root = body();
    root.replaceChildren();
    const pick = el("div", { class: "rule-opt rule-preset" });
    const select = el("select", { id: "rules-preset", name: "preset", "aria-describedby": "rules-help-preset" });
    for (const name of Object.keys(presets)) select.appendChild(el("option", { value: name }, rulesName({ name })));
    const custom = el("option", { value: CUSTOM_RULES, disabled: "" }, rulesName({ name: CUSTOM_RULES }));
    select.appendChild(custom);
    pick.append(el("label", { for: "rules-preset" }, t("rules.preset")), select,
      el("small", { id: "rules-help-preset", class: "muted" }, t("rules.presetHelp")));
    root.appendChild(pick);
    for (const [key, kind, choices] of OPTIONS) root.appendChild(optionRow(key, kind, choices));
    select.addEventListener("change", () => {
      if (!Object.hasOwn(presets, select.value)) return;
      put(presets[select.value]);
      showError(null);
    });
    if (!root.dataset.wired) {
      root.dataset.wired = "1"; // one listener across rebuilds (a change of language rebuilds the section)
      root.addEventListener("change", (ev) => {
        if (ev.target.id !== "rules-preset") changed();
      });
    }
    if (Object.hasOwn(presets, DEFAULT_RULES)) put(presets[DEFAULT_RULES]);
  }

  /** Fill the form with `value` (a link's text, the remembered choice…) once the engine has read it;
   * resolves to the engine's refusal ({code}) when it could not be read (the form then shows 1.0.0). */
  async function fill(value) {
    showError(null);
    const r = value === null || value === undefined ? { rules: presets[DEFAULT_RULES] } : await check(value);
    const rules = r.error ? presets[DEFAULT_RULES] : r.rules;
    if (rules) put(rules);
    return r.error || null;
  }

  /** The form's rules checked by the engine and remembered, or null (the refusal is shown). */
  async function confirm() {
    const mine = ++asked;
    focusRefused = true;
    const values = read();
    const r = await check(values);
    if (mine !== asked) return null;
    if (r.error) {
      // the field the engine refuses takes the focus (scrolled into view), its message beside it
      await refuse(r.error, values, mine);
      return null;
    }
    focusRefused = false;
    showError(null);
    try {
      localStorage.setItem(storeKey, JSON.stringify(r.rules));
    } catch {
      /* not remembered: the match still starts */
    }
    return r.rules;
  }

  /** The rules last started with (as the engine described them), or null. */
  function remembered() {
    try {
      const v = JSON.parse(localStorage.getItem(storeKey) || "null");
      return v && typeof v === "object" && !Array.isArray(v) ? v : null;
    } catch {
      return null;
    }
  }

  /** Rebuild the section in the page's language, keeping what the player has set. */
  function relabel() {
    if (!body() || !body().childElementCount) return;
    const kept = { ...read(), name: presetSelect().value };
    const error = !errorBox().hidden;
    build(presets);
    put(kept);
    if (error) changed();
  }

  /** Say why a link's rules were not used (a dismissible notice; the match plays 1.0.0). */
  function linkRefused(err) {
    notice("rules", t("rules.linkRefused", { reason: errorText(err) }), [
      { label: t("rules.dismiss"), run: () => notice("rules", null) },
    ]);
  }

  /**
   * The rules of a match started without the dialog: a link's (`link`: its `text`, null for
   * 1.0.0; refused, null and the notice), else the last chosen if the engine still reads them.
   */
  async function startRules(link, text) {
    if (link && text === null) return null;
    const value = link ? text : remembered();
    if (value === null) return null;
    const r = await check(value);
    if (r.error && link) linkRefused(r.error);
    return r.error ? null : r.rules;
  }

  return { build, fill, check, confirm, remembered, relabel, linkRefused, startRules };
}
