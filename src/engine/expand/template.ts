/**
 * Wildcard templates: a text with `{name}` / `{values.name}` placeholders, compiled once into literal parts
 * and placeholder names so that filling it for each of a million instances is a join, not a regex pass.
 * A placeholder whose name has no binding stays in the text unchanged (bash `${VAR}`, awk `{print}` …).
 */

/** Wildcard values of one instance (shared between the rules expanded for the same sample or pair). */
export type Bindings = Readonly<Record<string, string>>;

export const NO_BINDINGS: Bindings = Object.freeze({});

export interface Template {
  /** Literal text and placeholder names, alternating: literal, name, literal, name, …, literal. */
  readonly parts: readonly string[];
  readonly source: string;
}

const PLACEHOLDER = /\{(?:values\.)?(\w+)\}/g;
const cache = new Map<string, Template>();

/** Compiles a text (memoised: rules share their texts across instances). */
export function compileTemplate(source: string): Template {
  let template = cache.get(source);
  if (template) return template;
  const parts: string[] = [];
  let last = 0;
  for (const match of source.matchAll(PLACEHOLDER)) {
    parts.push(source.slice(last, match.index), match[0]);
    last = match.index + match[0].length;
  }
  parts.push(source.slice(last));
  template = { parts, source };
  if (cache.size > 100_000) cache.clear();
  cache.set(source, template);
  return template;
}

/** The binding name a placeholder part refers to: `{sample}` and `{values.sample}` both name `sample`. */
function placeholderName(part: string): string {
  return part.startsWith("{values.") ? part.slice(8, -1) : part.slice(1, -1);
}

/** Fills a template's placeholders from bindings; unbound placeholders stay as written. */
export function fillTemplate(template: Template, bindings: Bindings): string {
  const parts = template.parts;
  if (parts.length === 1) return parts[0]!;
  let out = parts[0]!;
  for (let i = 1; i < parts.length; i += 2) {
    const value = bindings[placeholderName(parts[i]!)];
    out += (value === undefined ? parts[i]! : value) + parts[i + 1]!;
  }
  return out;
}

/** Fills a text's wildcards from bindings (compiling it on first use). */
export function fillText(text: string, bindings: Bindings): string {
  if (!text.includes("{")) return text;
  return fillTemplate(compileTemplate(text), bindings);
}

/** The wildcard names a text uses (`{name}` and `{values.name}`), excluding dotted and indexed forms. */
export function wildcardNames(text: string | undefined): string[] {
  if (!text || !text.includes("{")) return [];
  const template = compileTemplate(text);
  const names: string[] = [];
  for (let i = 1; i < template.parts.length; i += 2) names.push(placeholderName(template.parts[i]!));
  return names;
}

/** True when a text mentions `{name}` or `{values.name}`. */
export function mentionsWildcard(text: string | undefined, name: string): boolean {
  if (!text) return false;
  return text.includes(`{${name}}`) || text.includes(`{values.${name}}`);
}
