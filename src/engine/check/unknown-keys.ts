/**
 * Unknown keys: the format ignores them, so a misspelt key silently does nothing. Lint names each one
 * with the nearest known key as a hint.
 */
import { KNOWN_KEYS } from "../format/schema.js";
import type { ValuePath } from "../format/source-positions.js";
import { nearestKey } from "../nearest-key.js";

export interface UnknownKey {
  path: ValuePath;
  key: string;
  table: string;
  nearest: string | null;
}

function tableKeys(table: unknown): string[] {
  return table && typeof table === "object" && !Array.isArray(table) && !(table instanceof Date) ? Object.keys(table) : [];
}

function collect(unknown: UnknownKey[]) {
  return (table: unknown, path: ValuePath, name: string, known: readonly string[]): void => {
    for (const key of tableKeys(table)) {
      if (!known.includes(key)) unknown.push({ path: [...path, key], key, table: name, nearest: nearestKey(key, known) });
    }
  };
}

/** Unknown keys of a rule table (and its resources and environment), with paths relative to the rule's file. */
export function findUnknownRuleKeys(raw: Record<string, unknown>, path: ValuePath, label: string): UnknownKey[] {
  const unknown: UnknownKey[] = [];
  const check = collect(unknown);
  check(raw, path, label, KNOWN_KEYS.rule);
  check(raw.resources, [...path, "resources"], `${label} resources`, KNOWN_KEYS.resources);
  check(raw.environment, [...path, "environment"], `${label} environment`, KNOWN_KEYS.environment);
  return unknown;
}

/** Unknown keys of a file's own tables other than rules, with their paths and a likely intended key. */
export function findUnknownKeys(raw: Record<string, unknown>): UnknownKey[] {
  const unknown: UnknownKey[] = [];
  const check = collect(unknown);
  check(raw, [], "top level", KNOWN_KEYS.top);
  check(raw.workflow, ["workflow"], "[workflow]", KNOWN_KEYS.workflow);
  check(raw.defaults, ["defaults"], "[defaults]", KNOWN_KEYS.defaults);
  check((raw.defaults as Record<string, unknown> | undefined)?.environment, ["defaults", "environment"], "[defaults.environment]", KNOWN_KEYS.environment);
  const includes = Array.isArray(raw.include) ? (raw.include as unknown[]) : [];
  includes.forEach((include, index) => check(include, ["include", index], `[[include]] #${index + 1}`, KNOWN_KEYS.include));
  const references = Array.isArray(raw.references) ? (raw.references as unknown[]) : [];
  references.forEach((reference, index) => check(reference, ["references", index], `[[references]] #${index + 1}`, KNOWN_KEYS.references));
  return unknown;
}
