/**
 * `strand diff A B`: what changed between two pipelines, as a list of structural changes (which a reader
 * or the browser app can act on) plus the unified text diff of the two files.
 *
 * Pipelines are compared as loaded (includes merged, sample sources read) but unexpanded: rules are the
 * templates as written. Moving an item without changing it is not a change; only the text diff shows it.
 */
import { createTwoFilesPatch } from "diff";
import type { Defaults, FileSet, Pipeline, Rule, TomlValue } from "../format/model.js";
import { effectiveEnvironment, effectiveMemory, effectiveThreads, environmentKind } from "../format/rule-settings.js";
import { KNOWN_KEYS } from "../format/schema.js";

/** A value as it appears in a change: plain JSON, so the service can return it as it is. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** The area of the pipeline a change belongs to, in the order changes are listed. */
export type DiffCategory = "workflow" | "rules" | "config" | "defaults" | "pairs" | "sample_groups" | "references" | "include" | "other";

/** One structural difference between two pipelines. */
export interface Change {
  category: DiffCategory;
  change: "added" | "removed" | "changed";
  /** Dotted locator of what changed, e.g. `rules.align.shell` or `config.genome` (non-bare names quoted as in TOML). */
  path: string;
  description: string;
  before?: JsonValue;
  after?: JsonValue;
}

/** The result of `diff`: `identical` means no structural change, even if the texts differ in layout or order. */
export interface DiffResult {
  identical: boolean;
  changes: Change[];
  unified_diff: string;
}

/** Compares two loaded pipelines and their file texts. */
export function diffPipelines(a: Pipeline, b: Pipeline, textA: string, textB: string, labels: { a: string; b: string } = { a: a.path, b: b.path }): DiffResult {
  const changes = [
    ...diffWorkflow(a, b),
    ...diffRules(a, b),
    ...diffConfig(a, b),
    ...diffDefaults(a.defaults, b.defaults),
    ...diffKeyed("pairs", "pair", pairEntries(a), pairEntries(b)),
    ...diffKeyed("sample_groups", "sample group", groupEntries(a), groupEntries(b)),
    ...diffKeyed("references", "reference", referenceEntries(a), referenceEntries(b)),
    ...diffKeyed("include", "include", includeEntries(a), includeEntries(b)),
    ...diffSections(a, b),
  ];
  // jsdiff writes headers even for equal texts; an empty diff is clearer for "nothing changed".
  const unified = textA === textB ? "" : createTwoFilesPatch(labels.a, labels.b, textA, textB);
  return { identical: changes.length === 0, changes, unified_diff: unified };
}

/** The command line's text for a diff result. */
export function formatDiffText(result: DiffResult, labelA: string, labelB: string): string {
  if (result.identical) return "✓ Workflows are identical";
  const lines = [`Diff: ${result.changes.length} difference(s) between ${labelA} and ${labelB}:`];
  for (const change of result.changes) lines.push(`  • [${change.category}] ${change.description}`);
  return lines.join("\n");
}

// ---------------------------------------------------------------------------------------------------------
// Sections.


function diffWorkflow(a: Pipeline, b: Pipeline): Change[] {
  const changes: Change[] = [];
  for (const key of KNOWN_KEYS.workflow) {
    const before = toJson(a.workflow[key]);
    const after = toJson(b.workflow[key]);
    if (sameJson(before, after)) continue;
    const kind = kindOf(before, after);
    const description = kind === "changed" ? `${key} changed: ${show(before)} → ${show(after)}` : `${key} ${kind}: ${show(before ?? after)}`;
    changes.push(makeChange("workflow", kind, keyPath("workflow", key), description, before, after));
  }
  return changes;
}

function diffRules(a: Pipeline, b: Pipeline): Change[] {
  const rulesA = new Map(a.rules.map((rule) => [rule.name, rule]));
  const rulesB = new Map(b.rules.map((rule) => [rule.name, rule]));
  const changes: Change[] = [];
  for (const rule of a.rules) {
    if (!rulesB.has(rule.name)) changes.push(makeChange("rules", "removed", keyPath("rules", rule.name), `rule removed: ${quote(rule.name)}`, toJson(rule.raw), undefined));
  }
  for (const rule of b.rules) {
    if (!rulesA.has(rule.name)) changes.push(makeChange("rules", "added", keyPath("rules", rule.name), `rule added: ${quote(rule.name)}`, undefined, toJson(rule.raw)));
  }
  for (const rule of b.rules) {
    const before = rulesA.get(rule.name);
    if (before) changes.push(...diffRule(before, rule, a.defaults, b.defaults));
  }
  return changes;
}

/** A compared aspect of a rule: its locator below `rules.<name>`, its label in descriptions and its value. */
interface RuleAspect {
  key: string;
  label: string;
  value: (rule: Rule, defaults: Defaults) => JsonValue | undefined;
  /** Put the values in the description (short scalars such as threads). */
  showValues?: boolean;
}

// The aspects docs/reference/pipeline-format.md §4.8 names come first, in its order; then every other rule key, in
// canonical key order.
const RULE_ASPECTS: RuleAspect[] = [
  { key: "input", label: "input", value: (rule) => fileSetJson(rule.input) },
  { key: "output", label: "output", value: (rule) => fileSetJson(rule.output) },
  { key: "shell", label: "shell command", value: (rule) => rule.shell },
  { key: "script", label: "script", value: (rule) => rule.script },
  { key: "threads", label: "threads", value: effectiveThreads, showValues: true },
  { key: "memory", label: "memory", value: effectiveMemory, showValues: true },
  { key: "environment", label: "environment", value: environmentJson },
  { key: "when", label: "when condition", value: (rule) => rule.when },
  // Order in depends_on carries no meaning.
  { key: "depends_on", label: "depends_on", value: (rule) => [...rule.depends_on].sort() },
  ...[
    "expand_inputs",
    "env_group",
    "log",
    "benchmark",
    "priority",
    "target",
    "optional",
    "group",
    "description",
    "temporary",
    "scratch",
    "scatter",
    "transform",
    "temp_output",
    "protected_output",
    "input_function",
    "retries",
    "tags",
    "shadow",
    "ancient",
    "localrule",
    "envvars",
    "checkpoint",
    "checkpoint_manifest",
    "required",
    "extends",
    "retry_delay",
    "pre_exec",
    "on_success",
    "on_failure",
    "interpreter",
  ].map((key): RuleAspect => ({ key, label: key, value: (rule) => toJson(rule[key as keyof Rule]) })),
  // threads and memory are compared as effective values above; the other resources one by one.
  ...(["gpu", "gpu_spec", "disk", "time_limit", "partition", "groups"] as const).map(
    (key): RuleAspect => ({ key: `resources.${key}`, label: `resources.${key}`, value: (rule) => toJson(rule.resources[key]) }),
  ),
];

function diffRule(a: Rule, b: Rule, defaultsA: Defaults, defaultsB: Defaults): Change[] {
  const changes: Change[] = [];
  for (const aspect of RULE_ASPECTS) {
    const before = aspect.value(a, defaultsA);
    const after = aspect.value(b, defaultsB);
    if (sameJson(before, after)) continue;
    const kind = kindOf(before, after);
    const detail = aspect.showValues ? `${aspect.label} changed: ${plain(before)} → ${plain(after)}` : `${aspect.label} ${kind}`;
    changes.push(makeChange("rules", kind, keyPath("rules", b.name, ...aspect.key.split(".")), `rule ${quote(b.name)}: ${detail}`, before, after));
  }
  for (const entry of diffMaps(a.params, b.params)) {
    const description = `rule ${quote(b.name)}: param ${quote(entry.key)} ${entry.kind}`;
    changes.push(makeChange("rules", entry.kind, keyPath("rules", b.name, "params", entry.key), description, entry.before, entry.after));
  }
  return changes;
}

function diffConfig(a: Pipeline, b: Pipeline): Change[] {
  const changes: Change[] = [];
  const entries = diffMaps(comparableConfig(a), comparableConfig(b));
  // docs/reference/pipeline-format.md §4.8 lists config changes as removed, then changed, then added.
  for (const kind of ["removed", "changed", "added"] as const) {
    for (const entry of entries.filter((item) => item.kind === kind)) {
      changes.push(makeChange("config", kind, keyPath("config", entry.key), `config variable ${kind}: ${quote(entry.key)}`, entry.before, entry.after));
    }
  }
  // A declaration (help, type, required, …) can change while the value stays; a key whose value changed,
  // or that exists on one side only, is already reported above.
  for (const key of new Set([...Object.keys(a.configMeta), ...Object.keys(b.configMeta)])) {
    if (!(key in a.config) || !(key in b.config) || !sameJson(toJson(a.config[key]), toJson(b.config[key]))) continue;
    const before = toJson(a.configMeta[key]) ?? null;
    const after = toJson(b.configMeta[key]) ?? null;
    if (sameJson(before, after)) continue;
    changes.push(makeChange("config", "changed", keyPath("config", key), `config variable changed: ${quote(key)} (declaration)`, before, after));
  }
  return changes;
}

/** Config keys as the author controls them: engine-injected keys only where the file itself writes them. */
function comparableConfig(pipeline: Pipeline): Record<string, TomlValue> {
  const written = isTable(pipeline.raw.config) ? (pipeline.raw.config as Record<string, TomlValue>) : {};
  const result: Record<string, TomlValue> = {};
  for (const [key, value] of Object.entries(pipeline.config)) {
    if (!pipeline.injectedConfig.has(key)) result[key] = value;
    // The injected value merges the author's with derived ones; the author's own text is what they changed.
    else if (key in written) result[key] = written[key]!;
  }
  return result;
}

function diffDefaults(a: Defaults, b: Defaults): Change[] {
  const changes: Change[] = [];
  for (const key of ["threads", "memory", "environment", "shell_prelude"] as const) {
    const before = toJson(a[key]);
    const after = toJson(b[key]);
    if (sameJson(before, after)) continue;
    const kind = kindOf(before, after);
    const detail = key === "threads" || key === "memory" ? `changed: ${plain(before)} → ${plain(after)}` : kind;
    changes.push(makeChange("defaults", kind, keyPath("defaults", key), `defaults ${key} ${detail}`, before, after));
  }
  return changes;
}

/** Top-level sections without a category of their own, compared whole. */
const OTHER_SECTIONS = [
  "reference_dir",
  "report",
  "plugins",
  "execution_group",
  "citation",
  "cluster",
  "resource_budget",
  "resource_groups",
  "reference_db",
  "env_groups",
  "wildcard_constraints",
  "values",
  "webhook",
] as const;

function diffSections(a: Pipeline, b: Pipeline): Change[] {
  const changes: Change[] = [];
  for (const key of OTHER_SECTIONS) {
    const before = emptyToUndefined(toJson(a[key]));
    const after = emptyToUndefined(toJson(b[key]));
    if (sameJson(before, after)) continue;
    const kind = kindOf(before, after);
    changes.push(makeChange("other", kind, keyPath(key), `[${key}] ${kind}`, before, after));
  }
  return changes;
}

// ---------------------------------------------------------------------------------------------------------
// Keyed lists (pairs, sample groups, references, includes): compared by identity, so order does not matter.

type Entries = Map<string, JsonValue>;

function diffKeyed(category: DiffCategory, noun: string, a: Entries, b: Entries): Change[] {
  const changes: Change[] = [];
  for (const [key, before] of a) if (!b.has(key)) changes.push(makeChange(category, "removed", keyPath(category, key), `${noun} removed: ${quote(key)}`, before, undefined));
  for (const [key, after] of b) if (!a.has(key)) changes.push(makeChange(category, "added", keyPath(category, key), `${noun} added: ${quote(key)}`, undefined, after));
  for (const [key, after] of b) {
    const before = a.get(key);
    if (before !== undefined && !sameJson(before, after)) changes.push(makeChange(category, "changed", keyPath(category, key), `${noun} changed: ${quote(key)}`, before, after));
  }
  return changes;
}

/** Groups items by key; a key that occurs more than once keeps all its items, so duplicates are compared too. */
function keyed<T>(items: T[], key: (item: T) => string, value: (item: T) => JsonValue): Entries {
  const groups = new Map<string, JsonValue[]>();
  for (const item of items) {
    const list = groups.get(key(item)) ?? [];
    list.push(value(item));
    groups.set(key(item), list);
  }
  return new Map([...groups].map(([name, list]) => [name, list.length === 1 ? list[0]! : list]));
}

function pairEntries(pipeline: Pipeline): Entries {
  return keyed(pipeline.pairs, (pair) => pair.pair_id, (pair) => toJson({ ...pair, pair_id: undefined }) ?? null);
}

function groupEntries(pipeline: Pipeline): Entries {
  // docs/reference/pipeline-format.md §4.8 compares sample lists sorted: listing the same samples in another order
  // is not a change.
  return keyed(pipeline.sample_groups, (group) => group.name, (group) => toJson({ samples: [...group.samples].sort(), metadata: group.metadata }) ?? null);
}

function referenceEntries(pipeline: Pipeline): Entries {
  return keyed(pipeline.references, (reference) => reference.name, (reference) => toJson({ ...reference, name: undefined }) ?? null);
}

function includeEntries(pipeline: Pipeline): Entries {
  return keyed(pipeline.include, (include) => include.path, (include) => toJson({ ...include, path: undefined }) ?? null);
}

// ---------------------------------------------------------------------------------------------------------
// Rule values.

/** The environment the rule runs in (its own, else the defaults'); running on the system reads as unset. */
function environmentJson(rule: Rule, defaults: Defaults): JsonValue | undefined {
  const environment = effectiveEnvironment(rule, defaults);
  return environmentKind(environment) === "system" ? undefined : toJson(environment);
}

function fileSetJson(files: FileSet): JsonValue {
  if (!files.names) return [...files.paths];
  return Object.fromEntries(files.names.map((name, index) => [name, files.paths[index] ?? ""]));
}

// ---------------------------------------------------------------------------------------------------------
// Values.

interface MapEntry {
  key: string;
  kind: Change["change"];
  before?: JsonValue;
  after?: JsonValue;
}

/** Differences between two string-keyed maps, in the order of `a` (removed/changed) then `b` (added). */
function diffMaps(a: Record<string, unknown>, b: Record<string, unknown>): MapEntry[] {
  const entries: MapEntry[] = [];
  for (const key of Object.keys(a)) {
    const before = toJson(a[key]);
    const after = key in b ? toJson(b[key]) : undefined;
    if (!sameJson(before, after)) entries.push({ key, kind: kindOf(before, after), before, after });
  }
  for (const key of Object.keys(b)) if (!(key in a)) entries.push({ key, kind: "added", after: toJson(b[key]) });
  return entries;
}

/** Converts a model value to JSON; `undefined` members are dropped and TOML dates become their text. */
function toJson(value: unknown): JsonValue | undefined {
  if (value === undefined) return undefined;
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : String(value);
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Set) return [...value].map((item) => toJson(item) ?? null);
  if (Array.isArray(value)) return value.map((item) => toJson(item) ?? null);
  if (typeof value === "object") {
    const result: Record<string, JsonValue> = {};
    for (const [key, item] of Object.entries(value)) {
      const converted = toJson(item);
      if (converted !== undefined) result[key] = converted;
    }
    return result;
  }
  return String(value);
}

/** Structural equality: arrays in order, tables regardless of key order (TOML tables are unordered). */
function sameJson(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, index) => sameJson(item, b[index]));
  }
  const keysA = Object.keys(a);
  return keysA.length === Object.keys(b).length && keysA.every((key) => key in b && sameJson(a[key], b[key]));
}

/** Sections that are absent and sections written empty read the same. */
function emptyToUndefined(value: JsonValue | undefined): JsonValue | undefined {
  if (Array.isArray(value) && value.length === 0) return undefined;
  if (value && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 0) return undefined;
  return value;
}

function isTable(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

function kindOf(before: JsonValue | undefined, after: JsonValue | undefined): Change["change"] {
  if (before === undefined) return "added";
  if (after === undefined) return "removed";
  return "changed";
}

function makeChange(category: DiffCategory, change: Change["change"], path: string, description: string, before: JsonValue | undefined, after: JsonValue | undefined): Change {
  const result: Change = { category, change, path, description };
  if (before !== undefined) result.before = before;
  if (after !== undefined) result.after = after;
  return result;
}

/** A dotted locator; parts that are not TOML bare keys are quoted, so `rules."qc::fastp".shell` stays unambiguous. */
function keyPath(...parts: string[]): string {
  return parts.map((part) => (/^[A-Za-z0-9_-]+$/.test(part) ? part : JSON.stringify(part))).join(".");
}

function quote(text: string): string {
  return JSON.stringify(text);
}

/** A value for a description: strings quoted, other values as JSON, a missing value as `unset`. */
function show(value: JsonValue | undefined): string {
  return value === undefined ? "unset" : JSON.stringify(value);
}

/** Like `show`, but scalars unquoted (`threads changed: 4 → 8`, `memory changed: 8G → 16G`). */
function plain(value: JsonValue | undefined): string {
  if (value === undefined) return "unset";
  return typeof value === "object" && value !== null ? JSON.stringify(value) : String(value);
}
