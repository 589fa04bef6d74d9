/**
 * Unknown keys: the format ignores them, so a misspelt key silently does nothing. Lint names each one
 * with the nearest known key as a hint.
 */
import { KNOWN_KEYS } from "../format/schema.js";
import type { ValuePath } from "../format/source-positions.js";

export interface UnknownKey {
  path: ValuePath;
  key: string;
  table: string;
  nearest: string | null;
}

/** Levenshtein distance, with an early exit above `limit`. */
export function editDistance(a: string, b: string, limit = Infinity): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      current.push(value);
      if (value < best) best = value;
    }
    if (best > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length]!;
}

/** The known key closest to `key`, when it is close enough to be a likely typo. */
export function nearestKey(key: string, known: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Infinity;
  const limit = Math.max(2, Math.floor(key.length / 3));
  for (const candidate of known) {
    const distance = editDistance(key.toLowerCase(), candidate, limit);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return bestDistance <= limit ? best : null;
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
