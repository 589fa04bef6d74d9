/**
 * Where `{sample}` and the pair wildcards get their values: sample-group and pair files (TSV, CSV, JSON),
 * filesystem discovery patterns, and the command line's `--samples` selection.
 */
import { existsSync, readdirSync } from "node:fs";
import { readFile, readdir, stat } from "node:fs/promises";
import { extname, isAbsolute, join, posix, relative, resolve } from "node:path";
import { EngineError, makeFinding, type Finding, type SourcePosition } from "../findings.js";
import { parseDelimited, type Delimiter } from "./delimited.js";
import type { Pair, SampleGroup } from "./model.js";
import { formatBytes } from "./parse-source.js";
import { globSegmentMatcher, matchesWildcards, wildcardPattern } from "./path-patterns.js";

/** Largest samples or pairs file accepted. */
export const MAX_SAMPLE_FILE_BYTES = 50 * 1024 * 1024;

/** The group that `sample_pattern` discovery fills. */
export const AUTO_DISCOVERED_GROUP = "auto-discovered";

function delimiterFor(path: string, label: string, allowNone: boolean): Delimiter | "json" {
  const ext = extname(path).toLowerCase();
  if (ext === ".json") return "json";
  if (ext === ".csv") return ",";
  if (ext === ".tsv" || ext === ".txt" || (allowNone && ext === "")) return "\t";
  throw new EngineError("SOURCE_ERROR", `${label} '${path}' has an unsupported extension '${ext}'`, {
    suggestion: "use .tsv, .csv, .txt or .json",
  });
}

async function readSourceFile(path: string, label: string): Promise<string> {
  try {
    const info = await stat(path);
    // A device or pipe (/dev/zero, a FIFO) reports no size and may never end.
    if (!info.isFile()) throw new EngineError("SOURCE_ERROR", `${label} '${path}' is not a regular file`, { suggestion: "name a .tsv, .csv, .txt or .json file" });
    if (info.size > MAX_SAMPLE_FILE_BYTES) {
      throw new EngineError("LIMIT_ERROR", `${label} '${path}' is ${formatBytes(info.size)}; at most ${formatBytes(MAX_SAMPLE_FILE_BYTES)} is accepted`);
    }
    return await readFile(path, "utf8");
  } catch (error) {
    if (error instanceof EngineError) throw error;
    throw new EngineError("SOURCE_ERROR", `cannot read ${label} '${path}': ${(error as { code?: string }).code === "ENOENT" ? "no such file" : String(error)}`, {
      suggestion: `the path is relative to the workflow's folder`,
    });
  }
}

function headerIndex(header: string[], names: string[]): number {
  const lower = header.map((cell) => cell.toLowerCase());
  for (const name of names) {
    const at = lower.indexOf(name);
    if (at >= 0) return at;
  }
  return -1;
}

function splitSamples(cell: string): string[] {
  return cell
    .split(",")
    .map((sample) => sample.trim())
    .filter(Boolean);
}

/** Parses a JSON file that must hold an array. */
function parseJsonArray(text: string, displayPath: string, what: string): unknown[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new EngineError("SOURCE_ERROR", `${displayPath} is not valid JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(data)) throw new EngineError("SOURCE_ERROR", `${displayPath} must hold a JSON array of ${what}`);
  return data;
}

/** Reads `sample_groups_file`: a JSON array of groups, or a table with `name` and `samples` columns. */
export async function readSampleGroupsFile(path: string, displayPath: string): Promise<SampleGroup[]> {
  const label = "sample_groups_file";
  const kind = delimiterFor(path, label, true);
  const text = await readSourceFile(path, label);
  if (kind === "json") {
    return parseJsonArray(text, displayPath, "{name, samples, metadata} objects").map((entry, index) => {
      const group = entry as { name?: unknown; samples?: unknown; metadata?: unknown };
      if (typeof group.name !== "string" || !Array.isArray(group.samples)) {
        throw new EngineError("SOURCE_ERROR", `${displayPath}: entry ${index + 1} needs a string "name" and an array "samples"`);
      }
      const metadata: Record<string, string> = {};
      if (group.metadata && typeof group.metadata === "object") {
        for (const [key, value] of Object.entries(group.metadata)) metadata[key] = String(value);
      }
      return { name: group.name, samples: group.samples.map(String), metadata };
    });
  }
  const rows = parseDelimited(text, kind, displayPath);
  const header = rows[0]?.cells ?? [];
  const nameAt = headerIndex(header, ["name"]);
  const samplesAt = headerIndex(header, ["samples"]);
  if (nameAt < 0 || samplesAt < 0) {
    throw new EngineError("SOURCE_ERROR", `${displayPath}: the header row must name the columns 'name' and 'samples' (found: ${header.join(", ") || "nothing"})`, {
      at: { file: displayPath, line: rows[0]?.line ?? 1, column: 1 },
      suggestion: kind === "\t" ? "separate columns with tabs, and list a group's samples comma-separated in one cell" : "list a group's samples comma-separated in one quoted cell",
    });
  }
  return rows.slice(1).map((row) => ({ name: row.cells[nameAt] ?? "", samples: splitSamples(row.cells[samplesAt] ?? ""), metadata: {} }));
}

/** Reads `pairs_file`: a table with `pair_id`, `experiment`/`tumor`, `control`/`normal` and optional columns. */
export async function readPairsFile(path: string, displayPath: string): Promise<Pair[]> {
  const label = "pairs_file";
  const kind = delimiterFor(path, label, true);
  const text = await readSourceFile(path, label);
  if (kind === "json") {
    return parseJsonArray(text, displayPath, "pairs").map((entry, index) => pairFromRecord(entry as Record<string, unknown>, `${displayPath}: entry ${index + 1}`));
  }
  const rows = parseDelimited(text, kind, displayPath);
  const header = rows[0]?.cells ?? [];
  const idAt = headerIndex(header, ["pair_id"]);
  const experimentAt = headerIndex(header, ["experiment", "tumor"]);
  if (idAt < 0 || experimentAt < 0) {
    throw new EngineError("SOURCE_ERROR", `${displayPath}: the header row must name 'pair_id' and 'experiment' (or 'tumor') columns (found: ${header.join(", ") || "nothing"})`, {
      at: { file: displayPath, line: rows[0]?.line ?? 1, column: 1 },
    });
  }
  return rows.slice(1).map((row) => {
    const record: Record<string, unknown> = {};
    header.forEach((name, i) => {
      if (row.cells[i] !== undefined && row.cells[i] !== "") record[name.toLowerCase()] = row.cells[i];
    });
    return pairFromRecord(record, `${displayPath}:${row.line}`, { file: displayPath, line: row.line, column: 1 });
  });
}

const PAIR_COLUMNS = new Set(["pair_id", "experiment", "tumor", "control", "normal", "experiment_type", "tumor_type"]);

function pairFromRecord(record: Record<string, unknown>, where: string, at?: SourcePosition): Pair {
  const text = (key: string): string | undefined => (record[key] === undefined || record[key] === null ? undefined : String(record[key]));
  const pairId = text("pair_id");
  const experiment = text("experiment") ?? text("tumor");
  if (!pairId || !experiment) {
    throw new EngineError("SOURCE_ERROR", `${where}: a pair needs pair_id and experiment (or tumor)`, { at, suggestion: "fill in the pair_id and experiment (or tumor) cells of every row" });
  }
  const metadata: Record<string, string> = {};
  for (const [key, value] of Object.entries(record)) {
    if (!PAIR_COLUMNS.has(key) && key !== "metadata" && value !== undefined) metadata[key] = String(value);
  }
  if (record.metadata && typeof record.metadata === "object") {
    for (const [key, value] of Object.entries(record.metadata)) metadata[key] = String(value);
  }
  return { pair_id: pairId, experiment, control: text("control") ?? text("normal"), experiment_type: text("experiment_type") ?? text("tumor_type"), metadata };
}

/** Turns a pattern with `{name}` placeholders into an anchored regex with a named group per placeholder. */
function placeholderRegex(pattern: string, anyText: string): RegExp {
  const seen = new Set<string>();
  let source = "^";
  let last = 0;
  for (const match of pattern.matchAll(/\{(\w+)\}/g)) {
    source += escapeRegex(pattern.slice(last, match.index));
    const name = match[1]!;
    // A group name cannot start with a digit (`{1}`): such a placeholder matches without being captured.
    if (/^\d/.test(name)) source += `(?:${anyText})`;
    else source += seen.has(name) ? `\\k<${name}>` : `(?<${name}>${anyText})`;
    seen.add(name);
    last = match.index + match[0].length;
  }
  source += escapeRegex(pattern.slice(last)) + "$";
  return new RegExp(source);
}

/** Escapes text for use inside a regular expression. */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/** Discovers samples from `sample_pattern`: the file-name part is matched against one folder's entries. */
export async function discoverSamples(pattern: string, workdir: string): Promise<{ group: SampleGroup | null; warning: Finding | null }> {
  if (!pattern.includes("{sample}")) {
    throw new EngineError("SOURCE_ERROR", `sample_pattern '${pattern}' must contain {sample}`, {
      suggestion: 'for example sample_pattern = "raw/{sample}_R1.fastq.gz"',
    });
  }
  const slash = pattern.lastIndexOf("/");
  const dirPart = slash >= 0 ? pattern.slice(0, slash) : ".";
  const filePart = slash >= 0 ? pattern.slice(slash + 1) : pattern;
  const folder = isAbsolute(dirPart) ? dirPart : join(workdir, dirPart);
  let entries: string[] = [];
  try {
    entries = (await readdir(folder)).sort();
  } catch {
    entries = [];
  }
  const regex = placeholderRegex(filePart, "\\S+");
  // The regex backtracks without bound on a name that almost fits a pattern with many wildcards;
  // the linear matcher decides first whether it fits at all.
  const fits = wildcardPattern(filePart)!;
  const samples: string[] = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    if (!matchesWildcards(fits, entry)) continue;
    const sample = regex.exec(entry)?.groups?.sample;
    if (sample && !seen.has(sample)) {
      seen.add(sample);
      samples.push(sample);
    }
  }
  if (samples.length === 0) {
    return {
      group: null,
      warning: makeFinding("SOURCE_EMPTY", "warning", `sample_pattern '${pattern}' matched no files in ${relative(workdir, folder) || "."}/`, {
        suggestion: "put the input files in place, or name samples with [[sample_groups]] or --samples",
      }),
    };
  }
  return { group: { name: AUTO_DISCOVERED_GROUP, samples, metadata: {} }, warning: null };
}

/** Discovers pairs from `pairs_pattern` (which must name {pair_id}, {experiment} and {control}). */
export async function discoverPairs(pattern: string, workdir: string): Promise<{ pairs: Pair[]; warning: Finding | null }> {
  for (const required of ["{pair_id}", "{experiment}", "{control}"]) {
    if (!pattern.includes(required)) {
      throw new EngineError("SOURCE_ERROR", `pairs_pattern '${pattern}' must contain ${required}`, {
        suggestion: 'for example pairs_pattern = "calls/{pair_id}/{experiment}_vs_{control}.vcf"',
      });
    }
  }
  const glob = pattern.replace(/\{(pair_id|experiment|control|experiment_type)\}/g, "*");
  const files = globFiles(glob, workdir);
  const regex = placeholderRegex(pattern, "[^/]+?");
  const fits = wildcardPattern(pattern, /\//)!;
  const pairs = new Map<string, Pair>();
  for (const file of files) {
    const groups = matchesWildcards(fits, file) ? regex.exec(file)?.groups : undefined;
    if (!groups?.pair_id || !groups.experiment || pairs.has(groups.pair_id)) continue;
    pairs.set(groups.pair_id, {
      pair_id: groups.pair_id,
      experiment: groups.experiment,
      control: groups.control,
      experiment_type: groups.experiment_type,
      metadata: {},
    });
  }
  if (pairs.size === 0) {
    return { pairs: [], warning: makeFinding("SOURCE_EMPTY", "warning", `pairs_pattern '${pattern}' matched no files`) };
  }
  return { pairs: [...pairs.values()], warning: null };
}

/** Most directory entries one glob may look at. */
export const MAX_GLOB_ENTRIES = 1_000_000;

/** Lists files matching a glob whose segments may contain `*`, `?` and `[…]` (no `**`), relative to `base`. */
export function globFiles(pattern: string, base: string): string[] {
  const absolute = isAbsolute(pattern);
  const segments = pattern.split("/");
  let frontier: string[] = [absolute ? "/" : "."];
  // `/*/*/*/…` walks the whole filesystem (through symlink loops such as /proc/self/root, without end).
  let examined = 0;
  const examine = (count: number): void => {
    examined += count;
    if (examined > MAX_GLOB_ENTRIES) {
      throw new EngineError("LIMIT_ERROR", `glob '${pattern}' looks at more than ${MAX_GLOB_ENTRIES.toLocaleString("en-US")} files and folders`, {
        suggestion: "make the glob more specific: name the folders, use fewer * segments",
      });
    }
  };
  for (const [i, segment] of segments.entries()) {
    if (segment === "" || segment === ".") continue;
    const last = i === segments.length - 1;
    const next: string[] = [];
    const matches = /[*?[]/.test(segment) ? globSegmentMatcher(segment) : undefined;
    for (const dir of frontier) {
      if (!matches) {
        examine(1);
        const candidate = posix.join(dir, segment);
        if (!last || existsSync(resolve(base, candidate))) next.push(candidate);
        continue;
      }
      let entries: string[];
      try {
        entries = readdirSync(resolve(base, dir));
      } catch {
        continue;
      }
      examine(entries.length + 1);
      for (const entry of entries.sort()) if (matches(entry)) next.push(posix.join(dir, entry));
    }
    frontier = next;
  }
  return frontier.map((path) => (absolute ? path : path.replace(/^\.\//, "")));
}

/** Samples in workflow order: groups and their samples, then each pair's experiment and control. */
export function samplesInOrder(groups: SampleGroup[], pairs: Pair[]): string[] {
  const seen = new Set<string>();
  const ordered: string[] = [];
  const add = (sample: string | undefined): void => {
    if (sample && !seen.has(sample)) {
      seen.add(sample);
      ordered.push(sample);
    }
  };
  for (const group of groups) for (const sample of group.samples) add(sample);
  for (const pair of pairs) {
    add(pair.experiment);
    add(pair.control);
  }
  return ordered;
}

export interface SampleSelection {
  groups: SampleGroup[];
  pairs: Pair[];
  /** True when a filter was applied (the user's own samples_list must be filtered too). */
  filtered: boolean;
  kept: Set<string>;
}

/**
 * Applies `--samples`: comma-separated names, `first:N`, `@file` (replace all groups from a samplesheet)
 * and `+@file` (merge groups from a samplesheet). Pairs whose samples are all filtered out are dropped.
 */
export async function selectSamples(spec: string, groups: SampleGroup[], pairs: Pair[], workdir: string): Promise<SampleSelection> {
  let nextGroups = groups;
  const names: string[] = [];
  let firstN: number | null = null;
  for (const token of spec.split(",").map((part) => part.trim()).filter(Boolean)) {
    if (token.startsWith("+@") || token.startsWith("@")) {
      const file = token.slice(token.startsWith("+@") ? 2 : 1);
      const path = resolve(workdir, file);
      const fromFile = await readSampleSheet(path, file);
      if (token.startsWith("@")) nextGroups = fromFile;
      else nextGroups = mergeGroups(nextGroups, fromFile);
    } else if (/^first:\d+$/.test(token)) {
      firstN = Number(token.slice("first:".length));
    } else if (token.startsWith("first:")) {
      throw new EngineError("USAGE_ERROR", `--samples ${token}: expected first:N with a whole number N`);
    } else names.push(token);
  }
  if (names.length === 0 && firstN === null) return { groups: nextGroups, pairs, filtered: false, kept: new Set(samplesInOrder(nextGroups, pairs)) };
  if (nextGroups.length === 0 && pairs.length === 0 && firstN === null) {
    // Bare names with no other sample source declare the samples.
    const group = { name: "samples", samples: names, metadata: {} };
    return { groups: [group], pairs, filtered: false, kept: new Set(names) };
  }
  const kept = new Set<string>();
  const keptPairs = new Set<string>();
  const known = new Set(samplesInOrder(nextGroups, pairs));
  const unknown = names.filter((name) => !known.has(name) && !pairs.some((pair) => pair.pair_id === name));
  if (unknown.length > 0) {
    throw new EngineError("USAGE_ERROR", `--samples names unknown sample(s): ${unknown.join(", ")}`, {
      suggestion: `known samples: ${[...known].slice(0, 20).join(", ")}${known.size > 20 ? ", …" : ""}`,
    });
  }
  for (const name of names) {
    kept.add(name);
    for (const pair of pairs) if (pair.pair_id === name) keptPairs.add(pair.pair_id);
  }
  if (firstN !== null) {
    const groupSamples = samplesInOrder(nextGroups, []);
    for (const sample of groupSamples.slice(0, firstN)) kept.add(sample);
    for (const pair of pairs.slice(0, firstN)) keptPairs.add(pair.pair_id);
  }
  for (const pair of pairs) {
    if (keptPairs.has(pair.pair_id)) {
      kept.add(pair.experiment);
      if (pair.control) kept.add(pair.control);
    }
  }
  const filteredGroups = nextGroups.map((group) => ({ ...group, samples: group.samples.filter((sample) => kept.has(sample)) })).filter((group) => group.samples.length > 0);
  const filteredPairs = pairs.filter((pair) => kept.has(pair.experiment) && (!pair.control || kept.has(pair.control)));
  return { groups: filteredGroups, pairs: filteredPairs, filtered: true, kept };
}

async function readSampleSheet(path: string, label: string): Promise<SampleGroup[]> {
  try {
    return await readSampleGroupsFile(path, label);
  } catch (error) {
    if (error instanceof EngineError && /header row/.test(error.message)) {
      // A plain list of sample names, one per line, is accepted too.
      const text = await readFile(path, "utf8");
      const samples = text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line && !line.startsWith("#"));
      return [{ name: "samples", samples, metadata: {} }];
    }
    throw error;
  }
}

function mergeGroups(base: SampleGroup[], extra: SampleGroup[]): SampleGroup[] {
  const merged = base.map((group) => ({ ...group, samples: [...group.samples] }));
  for (const group of extra) {
    const existing = merged.find((candidate) => candidate.name === group.name);
    if (existing) {
      for (const sample of group.samples) if (!existing.samples.includes(sample)) existing.samples.push(sample);
    } else merged.push(group);
  }
  return merged;
}
