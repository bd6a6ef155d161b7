// rules-words.js: how house rules are named on the page: a preset's name, a short summary of
// the options in force, and when the match ends. Everything said here is read from the
// engine's rules description (spades.Rules.to_dict: `name` and every option); nothing here
// decides a rule.
import { fmt, has, t } from "./i18n.js";
import { DEFAULT_RULES_DESCRIPTION } from "../engine/default-rules.js";

/** The name of variant 1.0.0, the default rules (spades.variant.DEFAULT_NAME). */
export const DEFAULT_RULES = "1.0.0";
/** The engine's name for a combination of options that is no preset. */
export const CUSTOM_RULES = "custom";

/** The rules' name in the page's language ("Jokers", "Custom"), or the engine's name as it is. */
export function rulesName(rules) {
  const name = (rules && rules.name) || DEFAULT_RULES;
  return has(`rules.name.${name}`) ? t(`rules.name.${name}`) : name;
}

/** Whether `rules` are variant 1.0.0 (no description counts as 1.0.0: saves before house rules). */
export function isDefaultRules(rules) {
  return !rules || rules.name === DEFAULT_RULES;
}

/** Whether `rules` change option `key` of variant 1.0.0 (the engine's description, written by the build). */
const differs = (rules, key) => rules[key] !== DEFAULT_RULES_DESCRIPTION[key];

/** The options in force that differ from 1.0.0, as short phrases ("jokers", "to 300 points"). */
export function rulesPhrases(rules) {
  if (!rules) return [];
  const out = [];
  if (rules.deck && rules.deck !== "standard") out.push(t(`rules.name.${rules.deck}`));
  if (rules.blind_nil) {
    out.push(rules.blind_nil_trail ? t("rules.sum.blindNil", { n: rules.blind_nil_trail }) : t("rules.sum.blindNilAlways"));
  }
  if (rules.suicide) out.push(t("rules.name.suicide"));
  if (differs(rules, "target")) out.push(t("rules.sum.target", { target: rules.target }));
  if (differs(rules, "floor")) {
    out.push(rules.floor === null ? t("rules.sum.noFloor") : t("rules.sum.floor", { floor: rules.floor }));
  }
  if (differs(rules, "nil_points")) out.push(t("rules.sum.nil", { n: rules.nil_points }));
  if (differs(rules, "bag_limit") && has(`rules.bags.${rules.bag_limit}`)) out.push(t(`rules.bags.${rules.bag_limit}`));
  if (rules.ten_for_200) out.push(t("rules.opt.ten_for_200"));
  if (rules.min_team_bid) out.push(t("rules.sum.minBid", { n: rules.min_team_bid }));
  if (rules.spades_any_time) out.push(t("rules.sum.spadesAnyTime"));
  return out;
}

/** "Rules: Jokers" or, for a custom combination, "Rules: Custom (jokers, to 300 points)". */
export function rulesLine(rules) {
  const line = t("rules.chip", { name: rulesName(rules) });
  const phrases = rules && rules.name === CUSTOM_RULES ? rulesPhrases(rules) : [];
  return phrases.length ? `${line} (${phrases.join(", ")})` : line;
}

/** When the match ends under `rules` ("… reaches 250 points or falls to −200."). */
export function targetText(rules) {
  if (!rules) return t("sheet.target");
  return rules.floor === null || rules.floor === undefined
    ? t("rules.targetNoFloor", { target: rules.target })
    : t("rules.target", { target: rules.target, floor: fmt(rules.floor) });
}
