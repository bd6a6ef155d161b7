// rules-chip.js: the rules in force on the table. A quiet chip beside the hand number
// ("Rules: Jokers", "Rules: Custom") that opens the rules page at its House rules section
// in a new tab; hidden for variant 1.0.0, the rules the page describes anyway. Also tells
// words.js which deck the cards on show belong to (names of jokers and a deuces-high 2♦).
import { currentLanguage, t } from "../lib/i18n.js";
import { isDefaultRules, rulesLine, rulesPhrases } from "../lib/rules-words.js";
import { setDeck } from "../lib/words.js";

/** The rules page's section on house rules (site/rules/*.html). */
const HOUSE_SECTION = "house";

function chip() {
  let node = document.querySelector("[data-role='rules-chip']");
  if (!node) {
    node = document.createElement("a");
    node.className = "rules-chip";
    node.dataset.role = "rules-chip";
    node.target = "_blank";
    node.rel = "noopener";
    node.hidden = true;
    const anchor = document.querySelector("[data-role='hand-number']");
    if (anchor) anchor.after(node);
    else document.body.append(node);
  }
  return node;
}

/** Show the match's rules (the engine's `state.rules`, or null before a match). */
export function renderRules(rules) {
  setDeck(rules ? rules.deck : null);
  const node = chip();
  const show = !isDefaultRules(rules);
  node.hidden = !show;
  if (!show) return;
  const text = rulesLine(rules);
  if (node.textContent !== text) node.textContent = text;
  node.href = `rules/${currentLanguage()}.html#${HOUSE_SECTION}`;
  const phrases = rulesPhrases(rules);
  node.title = phrases.length ? `${t("rules.chipTitle")}: ${phrases.join(", ")}` : t("rules.chipTitle");
}
