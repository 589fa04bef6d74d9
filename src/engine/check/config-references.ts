/**
 * References to config keys: `{config.KEY}` in commands and paths and `config.KEY` in `when`. A reference
 * to a key the config does not have is E005 in `validate` and stops `run` and `dry-run`.
 */
import { configKeysIn } from "../format/config.js";
import type { Rule, TomlValue } from "../format/model.js";
import { conditionConfigKeys, parseCondition } from "../expand/when.js";

export interface ConfigReference {
  key: string;
  /** The rule field that holds the reference (`shell`, `input`, `when`, …). */
  field: string;
}

/** Every config key a rule refers to, with the field it appears in. */
export function configReferences(rule: Rule): ConfigReference[] {
  const references: ConfigReference[] = [];
  const add = (field: string, text: string | undefined): void => {
    for (const key of configKeysIn(text)) references.push({ key, field });
  };
  add("shell", rule.shell);
  add("script", rule.script);
  for (const path of rule.input.paths) add("input", path);
  for (const path of rule.output.paths) add("output", path);
  for (const entry of rule.expand_inputs) add("expand_inputs", entry.pattern);
  if (rule.when) {
    try {
      for (const { key } of conditionConfigKeys(parseCondition(rule.when))) references.push({ key, field: "when" });
    } catch {
      // An unreadable condition is reported as E017 by validate.
    }
  }
  return references;
}

/** The config keys a rule refers to that the config does not define. */
export function undefinedConfigReferences(rule: Rule, config: Record<string, TomlValue>): ConfigReference[] {
  return configReferences(rule).filter((reference) => !(reference.key in config));
}
