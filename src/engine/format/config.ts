/**
 * `[config]`: declared entries, command-line overrides, profiles, the keys the engine injects, and how a
 * config value renders into a command or a path.
 */
import { existsSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { makeFinding, type Finding } from "../findings.js";
import type { ConfigDeclaration, Pair, SampleGroup, TomlValue } from "./model.js";
import { asConfigDeclaration } from "./schema.js";

/** Splits declared entries out of `[config]`: their runtime value becomes the default text (or ""). */
export function extractDeclarations(config: Record<string, TomlValue>): {
  config: Record<string, TomlValue>;
  meta: Record<string, ConfigDeclaration>;
} {
  // Without a prototype, `{config.toString}` or `key in config` finds only keys the pipeline defines.
  const values: Record<string, TomlValue> = Object.create(null) as Record<string, TomlValue>;
  const meta: Record<string, ConfigDeclaration> = Object.create(null) as Record<string, ConfigDeclaration>;
  for (const [key, value] of Object.entries(config)) {
    const declaration = asConfigDeclaration(value);
    if (declaration) {
      meta[key] = declaration;
      values[key] = declaration.default ?? "";
    } else values[key] = value;
  }
  return { config: values, meta };
}

/**
 * Converts a command-line value to the type of the value it replaces, so that `--arg min_cov=30`
 * still compares as a number in `when` conditions. Text that does not fit the type stays text.
 */
export function coerceOverride(text: string, previous: TomlValue | undefined, declaration?: ConfigDeclaration): TomlValue {
  const type = declaration?.type;
  if (type === "int" || type === "float") return /^[-+]?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(text) ? Number(text) : text;
  if (type === "bool") return text === "true" ? true : text === "false" ? false : text;
  if (typeof previous === "number" && /^[-+]?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(text)) return Number(text);
  if (typeof previous === "boolean" && (text === "true" || text === "false")) return text === "true";
  if (Array.isArray(previous)) return text.split(",").map((item) => item.trim()).filter(Boolean);
  return text;
}

/** Merges a profile's `[config]` into the pipeline's: `fill` adds missing keys, `override` replaces and deep-merges. */
export function mergeProfileConfig(base: Record<string, TomlValue>, profile: Record<string, TomlValue>, mode: "fill" | "override"): Set<string> {
  const changed = new Set<string>();
  for (const [key, value] of Object.entries(profile)) {
    if (mode === "fill") {
      if (!(key in base)) {
        base[key] = value;
        changed.add(key);
      }
    } else {
      base[key] = deepMerge(base[key], value);
      changed.add(key);
    }
  }
  return changed;
}

function isTable(value: unknown): value is Record<string, TomlValue> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

function deepMerge(base: TomlValue | undefined, over: TomlValue): TomlValue {
  if (!isTable(base) || !isTable(over)) return over;
  const merged: Record<string, TomlValue> = { ...base };
  for (const [key, value] of Object.entries(over)) merged[key] = deepMerge(merged[key], value);
  return merged;
}

/** Keys the engine computes from the sample and pair sources. */
export function isSampleKey(key: string): boolean {
  return key === "samples_list" || key === "pairs_list" || key.startsWith("samples_");
}

/**
 * A value as text for lists and comparisons: like `String(value)`, except that a table becomes JSON
 * (parsed tables have no prototype, so `String` would throw on them).
 */
export function valueText(value: TomlValue): string {
  if (Array.isArray(value)) return value.map(valueText).join(",");
  if (typeof value === "object" && value !== null && !(value instanceof Date)) return JSON.stringify(value);
  return String(value);
}

function listOf(value: TomlValue | undefined): string[] {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value.map(valueText).filter(Boolean);
  return valueText(value)
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
}

/**
 * Injects `samples_list`, `samples_<group>` and `pairs_list`. A value the author wrote is merged (union,
 * sorted); under a `--samples` filter the author's list is filtered to the kept samples as well.
 */
export function injectSampleKeys(
  config: Record<string, TomlValue>,
  groups: SampleGroup[],
  pairs: Pair[],
  kept: Set<string> | null,
  injected: Set<string>,
): void {
  const samples = new Set<string>();
  for (const group of groups) for (const sample of group.samples) samples.add(sample);
  for (const pair of pairs) {
    samples.add(pair.experiment);
    if (pair.control) samples.add(pair.control);
  }
  if (samples.size > 0) {
    for (const sample of listOf(config.samples_list)) if (!kept || kept.has(sample)) samples.add(sample);
    config.samples_list = [...samples].sort().join(",");
    injected.add("samples_list");
  }
  for (const group of groups) {
    const key = `samples_${group.name}`;
    if (!(key in config) || injected.has(key)) {
      config[key] = group.samples.join(",");
      injected.add(key);
    }
  }
  if (pairs.length > 0) {
    const ids = new Set(pairs.map((pair) => pair.pair_id));
    for (const id of listOf(config.pairs_list)) if (!kept || pairs.some((pair) => pair.pair_id === id)) ids.add(id);
    config.pairs_list = [...ids].sort().join(",");
    injected.add("pairs_list");
  }
}

/** Standard reference paths derived from `reference_dir`. */
export const REFERENCE_LAYOUT: ReadonlyArray<[string, string]> = [
  ["reference_fasta", "genome.fa"],
  ["gene_annotation", "genes.gtf"],
  ["bwa_index", "bwa/genome.fa"],
  ["bwamem2_index", "bwamem2/genome.fa"],
  ["bowtie2_index", "bowtie2/genome.fa"],
  ["star_index", "star"],
  ["hisat2_index", "hisat2/genome.fa"],
  ["minimap2_index", "genome.fa.mmi"],
  ["gatk_dict", "genome.dict"],
  ["samtools_faidx", "genome.fa.fai"],
];

/** Adds the reference paths derived from `reference_dir` that the config does not already set. */
export function deriveReferencePaths(config: Record<string, TomlValue>, referenceDir: string, injected: Set<string>): void {
  const dir = referenceDir.replace(/\/+$/, "");
  for (const [key, file] of REFERENCE_LAYOUT) {
    if (!(key in config)) {
      config[key] = `${dir}/${file}`;
      injected.add(key);
    }
  }
}

const CONFIG_PLACEHOLDER = /\{config\.(\w+)\}/g;

/** Renders a config value: arrays space-joined in commands, as TOML text in paths; scalars as their text. */
export function renderConfigValue(value: TomlValue, context: "shell" | "path"): string {
  if (Array.isArray(value)) {
    if (context === "shell") return value.map((item) => renderConfigValue(item, "shell")).join(" ");
    return "[" + value.map((item) => (typeof item === "string" ? JSON.stringify(item) : renderConfigValue(item, "path"))).join(", ") + "]";
  }
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object" && value !== null) return JSON.stringify(value);
  return String(value);
}

/** Replaces `{config.KEY}` with config values, repeatedly (up to 32 passes) so values may refer to other keys. */
export function substituteConfig(text: string, config: Record<string, TomlValue>, context: "shell" | "path"): string {
  if (!text.includes("{config.")) return text;
  let current = text;
  for (let pass = 0; pass < 32; pass++) {
    let replaced = false;
    const next = current.replace(CONFIG_PLACEHOLDER, (whole, key: string) => {
      const value = config[key];
      if (value === undefined) return whole;
      replaced = true;
      return renderConfigValue(value, context);
    });
    current = next;
    if (!replaced || !current.includes("{config.")) break;
  }
  return current;
}

/** The config keys a text refers to with `{config.KEY}`. */
export function configKeysIn(text: string | undefined): string[] {
  if (!text || !text.includes("{config.")) return [];
  return [...text.matchAll(CONFIG_PLACEHOLDER)].map((match) => match[1]!);
}

/** Masks sensitive config values for display. */
export function maskedConfig(config: Record<string, TomlValue>, meta: Record<string, ConfigDeclaration>): Record<string, TomlValue> {
  const shown: Record<string, TomlValue> = {};
  for (const [key, value] of Object.entries(config)) shown[key] = meta[key]?.sensitive && value !== "" ? "********" : value;
  return shown;
}

/**
 * Checks effective values of declared config entries (required, type, choices, range, must_exist).
 * Run and dry-run refuse a pipeline with such errors.
 */
export function checkDeclaredConfig(config: Record<string, TomlValue>, meta: Record<string, ConfigDeclaration>, workdir: string | undefined): Finding[] {
  const findings: Finding[] = [];
  for (const [key, declaration] of Object.entries(meta)) {
    const value = config[key];
    const text = value === undefined ? "" : renderConfigValue(value, "shell");
    const help = declaration.help ? ` (${declaration.help})` : "";
    if (text === "") {
      if (declaration.required) {
        findings.push(
          makeFinding("CONFIG_ERROR", "error", `required config '${key}' not set${help}`, { suggestion: `Use --${key} <value> or --arg ${key}=<value>` }),
        );
      }
      continue;
    }
    const shown = declaration.sensitive ? "(hidden)" : `'${text}'`;
    if (declaration.choices && !declaration.choices.includes(text)) {
      findings.push(makeFinding("CONFIG_ERROR", "error", `config '${key}' is ${shown}, not one of: ${declaration.choices.join(", ")}`, { suggestion: `Use --${key} ${declaration.choices[0]}` }));
    }
    if (declaration.type === "int" && !/^[-+]?\d+$/.test(text)) {
      findings.push(makeFinding("CONFIG_ERROR", "error", `config '${key}' must be a whole number, got ${shown}`));
    }
    if (declaration.type === "float" && !/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) {
      findings.push(makeFinding("CONFIG_ERROR", "error", `config '${key}' must be a number, got ${shown}`));
    }
    if (declaration.type === "bool" && text !== "true" && text !== "false") {
      findings.push(makeFinding("CONFIG_ERROR", "error", `config '${key}' must be true or false, got ${shown}`));
    }
    if (declaration.range) {
      const problem = outOfRange(text, declaration.range);
      if (problem) findings.push(makeFinding("CONFIG_ERROR", "error", `config '${key}' ${problem}`));
    }
    // No workdir: a detached pipeline, whose paths are not looked at (its load noted it).
    if (declaration.must_exist && workdir !== undefined) {
      const path = isAbsolute(text) ? text : join(workdir, text);
      if (!existsSync(path)) findings.push(makeFinding("CONFIG_ERROR", "error", `config '${key}' names ${text}, which does not exist`, { suggestion: "check the path; relative paths are taken from the workflow's folder" }));
    }
  }
  return findings;
}

function outOfRange(text: string, range: string): string | null {
  const match = /^\s*(-?[\d.]*)\s*\.\.\s*(-?[\d.]*)\s*$/.exec(range);
  if (!match) return `has an unreadable range '${range}' (write min..max)`;
  const value = Number(text);
  if (Number.isNaN(value)) return `must be a number in ${range}, got '${text}'`;
  const min = match[1] === "" ? -Infinity : Number(match[1]);
  const max = match[2] === "" ? Infinity : Number(match[2]);
  if (value < min || value > max) return `is ${text}, outside the range ${range}`;
  return null;
}
