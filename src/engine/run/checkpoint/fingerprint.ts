/**
 * What a job's result depended on, in a form the next run can compare: the rule's definition (a
 * fingerprint, plus short per-field digests so a change can be named), the content of the script it runs,
 * the config values it references, and its input files (a manifest of paths, sizes, times and content
 * hashes). `createJobRecord` puts them together when a job ends; the planner compares them
 * (docs/reference/pipeline-format.md §5.5 and §5.6).
 *
 * Work is cached so that a hundred thousand jobs of one rule hash the rule's text once: rule digests per
 * rule, config digests per key, file hashes per (path, size, modification time).
 */
import { createHash, hash } from "node:crypto";
import { closeSync, openSync, readdirSync, readSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { configReferences } from "../../check/config-references.js";
import type { Job } from "../../expand/expand.js";
import { scriptInterpreter } from "../../expand/render-command.js";
import { fillText, type Bindings } from "../../expand/template.js";
import { configKeysIn, isSampleKey, renderConfigValue, substituteConfig } from "../../format/config.js";
import type { Pipeline, Rule, TomlValue } from "../../format/model.js";
import { effectiveEnvironment } from "../../format/rule-settings.js";
import type { JobRecord, ManifestEntry } from "./checkpoint.js";

/** Input files up to this size (64 MiB) are content-hashed; larger ones compare by size and modification time. */
export const CONTENT_HASH_LIMIT = 64 * 1024 * 1024;

/** How much of a job's stderr a record keeps. */
export const STDERR_TAIL_CHARS = 2048;

/** One-shot hashing: twice as fast as createHash for the short texts fingerprints are made of. */
function sha256(text: string): string {
  return hash("sha256", text, "hex");
}

/** A short digest for naming changed fields; the full fingerprint stays the authority. */
function shortDigest(text: string): string {
  return sha256(text).slice(0, 16);
}

/** JSON with object keys sorted, so equal values give equal text whatever order they were written in. */
function canonical(value: unknown): string {
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

// ---------------------------------------------------------------------------------------------------------
// Rule and job fingerprints

interface RuleDefinition {
  /** Hex digest over the rule-level fields. */
  digest: string;
  /** Short digests of the non-empty rule-level fields. */
  fields: Record<string, string>;
}

/** Per pipeline (a run's pipeline object), per rule: rules are shared by all their jobs. */
const definitions = new WeakMap<Pipeline, WeakMap<Rule, RuleDefinition>>();

function ruleDefinition(rule: Rule, pipeline: Pipeline): RuleDefinition {
  let byRule = definitions.get(pipeline);
  if (!byRule) definitions.set(pipeline, (byRule = new WeakMap()));
  let definition = byRule.get(rule);
  if (definition) return definition;
  const environment = effectiveEnvironment(rule, pipeline.defaults);
  const interpreter = rule.script !== undefined ? scriptInterpreter(rule.interpreter, rule.script, pipeline.workflow.interpreter_map) : rule.interpreter;
  const envGroup = rule.env_group !== undefined ? `${rule.env_group}\u0000${canonical(pipeline.env_groups[rule.env_group] ?? null)}` : undefined;
  // The fields of docs/reference/pipeline-format.md §5.5, of the unrendered rule; inputs and outputs are the job's
  // own (see jobFields).
  const labelled: [string, string | undefined][] = [
    ["name", rule.name],
    ["shell_prelude", pipeline.defaults.shell_prelude],
    ["shell", rule.shell],
    ["script", rule.script],
    ["envvars", Object.keys(rule.envvars).length > 0 ? canonical(rule.envvars) : undefined],
    ["params", Object.keys(rule.params).length > 0 ? canonical(rule.params) : undefined],
    ["when", rule.when],
    ["pre_exec", rule.pre_exec],
    ["on_success", rule.on_success],
    ["on_failure", rule.on_failure],
    ["input_function", rule.input_function],
    ["env_group", envGroup],
    ["interpreter", interpreter],
    ["environment", Object.keys(environment).length > 0 ? canonical(environment) : undefined],
  ];
  const digest = createHash("sha256");
  const fields: Record<string, string> = {};
  for (const [label, value] of labelled) {
    digest.update(label).update("\u0000").update(value ?? "").update("\u0000");
    if (value !== undefined && value !== "") fields[label] = shortDigest(value);
  }
  definition = { digest: digest.digest("hex"), fields };
  byRule.set(rule, definition);
  return definition;
}

/** Canonical text of a bindings object; jobs of one instance share theirs, so it is computed once per instance. */
const bindingTexts = new WeakMap<Bindings, string>();

function bindingsText(bindings: Bindings): string {
  let text = bindingTexts.get(bindings);
  if (text === undefined) {
    text = Object.keys(bindings).length === 0 ? "" : canonical(bindings);
    bindingTexts.set(bindings, text);
  }
  return text;
}

/** The job's own fields: its paths (with their names) and wildcard values. Paths are strings, so plain JSON is canonical. */
function jobFields(job: Job): [string, string][] {
  return [
    ["input", JSON.stringify(job.input.names ? [job.input.paths, job.input.names] : job.input.paths)],
    ["output", JSON.stringify(job.output.names ? [job.output.paths, job.output.names] : job.output.paths)],
    ["wildcards", bindingsText(job.bindings)],
  ];
}

/**
 * `sha256:<hex>` over the labelled, NUL-separated fields of the job's rule as written (name, shell
 * prelude, shell, script path, envvars, params, when, hooks, input function, env group, interpreter,
 * environment; not threads, memory or resources) and the job's own inputs, outputs and wildcard values.
 */
export function ruleFingerprint(job: Job, pipeline: Pipeline): string {
  return fingerprintOf(ruleDefinition(job.rule, pipeline), jobFields(job));
}

function fingerprintOf(definition: RuleDefinition, own: [string, string][]): string {
  // One string, one update: a hundred thousand jobs make every call into the hash count.
  let text = `rule\u0000${definition.digest}`;
  for (const [label, value] of own) text += `\u0000${label}\u0000${value}`;
  return `sha256:${sha256(text)}`;
}

function fieldDigestsOf(definition: RuleDefinition, own: [string, string][]): Record<string, string> {
  const fields = { ...definition.fields };
  for (const [label, value] of own) if (value !== "" && value !== "[]") fields[label] = shortDigest(value);
  return fields;
}

/** Short digests of each non-empty definition field, for naming what changed when a fingerprint differs. */
export function ruleFieldDigests(job: Job, pipeline: Pipeline): Record<string, string> {
  return fieldDigestsOf(ruleDefinition(job.rule, pipeline), jobFields(job));
}

/** The fields whose digests differ (a field absent on one side counts as changed), in a stable order. */
export function changedRuleFields(recorded: Record<string, string>, current: Record<string, string>): string[] {
  const names = new Set([...Object.keys(recorded), ...Object.keys(current)]);
  return [...names].filter((name) => recorded[name] !== current[name]).sort();
}

// ---------------------------------------------------------------------------------------------------------
// File content hashes

const CHUNK = Buffer.allocUnsafe(1 << 20);
const contentHashes = new Map<string, { size: number; mtimeMs: number; hash: string }>();

/** `sha256:<hex>` of a file's content, read in 1 MiB chunks; cached per (path, size, modification time). */
function hashFile(absolute: string, size: number, mtimeMs: number): string | undefined {
  const known = contentHashes.get(absolute);
  if (known && known.size === size && known.mtimeMs === mtimeMs) return known.hash;
  let fd: number | undefined;
  try {
    fd = openSync(absolute, "r");
    const content = createHash("sha256");
    for (;;) {
      const read = readSync(fd, CHUNK, 0, CHUNK.length, null);
      if (read === 0) break;
      content.update(CHUNK.subarray(0, read));
    }
    const digest = `sha256:${content.digest("hex")}`;
    contentHashes.set(absolute, { size, mtimeMs, hash: digest });
    return digest;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * A file's content digest for change detection: `sha256:<hex>` up to the hash limit, else its size and
 * modification time; folders by modification time; `missing` when it cannot be read.
 */
export function fileDigest(absolute: string, hashLimit = CONTENT_HASH_LIMIT): string {
  try {
    const stats = statSync(absolute);
    if (stats.isDirectory()) return `dir:${stats.mtimeMs}`;
    if (stats.size > hashLimit) return `size:${stats.size}:mtime:${stats.mtimeMs}`;
    return hashFile(absolute, stats.size, stats.mtimeMs) ?? "missing";
  } catch {
    return "missing";
  }
}

// ---------------------------------------------------------------------------------------------------------
// Scripts: the content of a script file counts, reported apart from the rule definition
// (docs/reference/pipeline-format.md, decision 5)

/** The script file a job runs (the first word of `script`, config and wildcards filled), or undefined. */
export function scriptPath(job: Job, pipeline: Pipeline): string | undefined {
  const script = job.rule.script;
  if (script === undefined) return undefined;
  let first = script.trim().split(/\s+/)[0] ?? "";
  if (first.includes("{")) first = fillText(substituteConfig(first, pipeline.config, "path"), job.bindings);
  return first === "" ? undefined : first;
}

/** The job's script and `sha256:<hex>` of its content (null when the file is missing); undefined for rules without a script. */
export function scriptDigest(job: Job, pipeline: Pipeline): { path: string; digest: string | null } | undefined {
  const path = scriptPath(job, pipeline);
  if (path === undefined) return undefined;
  const absolute = isAbsolute(path) ? path : join(pipeline.dir, path);
  try {
    const stats = statSync(absolute);
    if (!stats.isFile()) return { path, digest: null };
    return { path, digest: hashFile(absolute, stats.size, stats.mtimeMs) ?? null };
  } catch {
    return { path, digest: null };
  }
}

// ---------------------------------------------------------------------------------------------------------
// Input manifests

const GLOB_CHARS = /[*?[]/;

interface FileState {
  path: string;
  absolute: string;
  size: number;
  mtimeMs: number;
}

export interface ManifestOptions {
  /** Files up to this many bytes are content-hashed (default CONTENT_HASH_LIMIT). */
  hashLimit?: number;
}

const byPath = (a: { path: string }, b: { path: string }): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/** One glob segment as a regular expression (`*`, `?`, `[…]`, `[!…]`). */
function segmentPattern(segment: string): RegExp {
  let source = "";
  for (let i = 0; i < segment.length; i++) {
    const char = segment[i]!;
    if (char === "*") source += "[^/]*";
    else if (char === "?") source += "[^/]";
    else if (char === "[") {
      const close = segment.indexOf("]", i + 2);
      if (close < 0) source += "\\[";
      else {
        const body = segment.slice(i + 1, close);
        const negated = body.startsWith("!");
        const members = (negated ? body.slice(1) : body).replace(/[\\^]/g, "\\$&");
        source += `[${negated ? "^" : ""}${members}]`;
        i = close;
      }
    } else source += char.replace(/[.+^${}()|\\\]]/g, "\\$&");
  }
  return new RegExp(`^${source}$`);
}

/**
 * The files behind a job's inputs: a file is itself, a folder is every file under it, a glob is every file
 * it matches (so files added or removed count). Folder listings and stats are cached per instance, so make
 * one per plan (files do not change while planning) and a fresh one whenever files may have changed.
 */
export class InputFiles {
  private readonly expanded = new Map<string, FileState[]>();
  private readonly listings = new Map<string, Set<string> | null>();
  private readonly hashLimit: number;

  private readonly prefix: string;

  constructor(
    private readonly workdir: string,
    options: ManifestOptions = {},
  ) {
    this.hashLimit = options.hashLimit ?? CONTENT_HASH_LIMIT;
    this.prefix = workdir.endsWith("/") ? workdir : `${workdir}/`;
  }

  /** The manifest of a job's inputs: sorted by path, de-duplicated, content hashes for files within the limit. */
  manifest(job: Job): ManifestEntry[] {
    return this.files(job).map((file) => {
      const entry: ManifestEntry = { path: file.path, size: file.size, mtime_ms: file.mtimeMs };
      if (file.size <= this.hashLimit) {
        const contentHash = hashFile(file.absolute, file.size, file.mtimeMs);
        if (contentHash !== undefined) entry.hash = contentHash;
      }
      return entry;
    });
  }

  /**
   * The first difference between a recorded manifest and the files now, as text (`data/a.txt`,
   * `data/c.txt (added)`, `data/b.txt (removed)`), or undefined. Files whose size and time are unchanged
   * are not read; a hashed file whose time changed is hashed again, so touching alone changes nothing.
   * Paths in `deletedTemporaries` (tombstoned outputs) may be missing without counting as removed.
   */
  change(recorded: readonly ManifestEntry[], job: Job, deletedTemporaries?: ReadonlySet<string>): string | undefined {
    const current = this.files(job);
    let i = 0;
    let k = 0;
    while (i < recorded.length || k < current.length) {
      const before = recorded[i];
      const now = current[k];
      if (before === undefined || (now !== undefined && now.path < before.path)) return `${now!.path} (added)`;
      if (now === undefined || before.path < now.path) {
        i++;
        // A temporary deleted after the run (a tombstone) is gone on purpose, not changed.
        if (deletedTemporaries?.has(before.path)) continue;
        return `${before.path} (removed)`;
      }
      i++;
      k++;
      if (before.size !== now.size) return now.path;
      if (before.mtime_ms === now.mtimeMs) continue;
      if (before.hash === undefined || now.size > this.hashLimit) return now.path;
      if (hashFile(now.absolute, now.size, now.mtimeMs) !== before.hash) return now.path;
    }
    return undefined;
  }

  /** True when the path exists; answered from cached folder listings, without a stat per file. */
  exists(path: string): boolean {
    const absolute = this.absolute(trimSlashes(path));
    const slash = absolute.lastIndexOf("/");
    const folder = slash <= 0 ? "/" : absolute.slice(0, slash);
    let names = this.listings.get(folder);
    if (names === undefined) {
      try {
        names = new Set(readdirSync(folder));
      } catch {
        names = null;
      }
      this.listings.set(folder, names);
    }
    return names !== null && names.has(absolute.slice(slash + 1));
  }

  /** Every file behind the job's inputs, sorted by path, each once. */
  private files(job: Job): FileState[] {
    const paths = job.input.paths;
    if (paths.length === 1) return this.expand(paths[0]!);
    const seen = new Map<string, FileState>();
    for (const input of paths) for (const file of this.expand(input)) seen.set(file.path, file);
    return [...seen.values()].sort(byPath);
  }

  private expand(input: string): FileState[] {
    let files = this.expanded.get(input);
    if (files) return files;
    const path = trimSlashes(input);
    // An unresolved placeholder names no file yet.
    if (path.includes("{")) files = [];
    else if (GLOB_CHARS.test(path)) files = this.glob(path);
    else files = this.fileOrFolder(path, this.absolute(path));
    files.sort(byPath);
    this.expanded.set(input, files);
    return files;
  }

  /** The OS resolves `./` and `../` itself; joining by hand saves normalising every path. */
  private absolute(path: string): string {
    return isAbsolute(path) ? path : this.prefix + path;
  }

  private fileOrFolder(path: string, absolute: string): FileState[] {
    let stats;
    try {
      stats = statSync(absolute, { throwIfNoEntry: false });
    } catch {
      return [];
    }
    if (stats === undefined) return [];
    if (stats.isFile()) return [{ path, absolute, size: stats.size, mtimeMs: stats.mtimeMs }];
    if (stats.isDirectory()) return this.walk(path, absolute);
    return [];
  }

  /** Every file under a folder (symbolic links followed, each real folder visited once). */
  private walk(path: string, absolute: string): FileState[] {
    const files: FileState[] = [];
    const visited = new Set<string>();
    const stack: [string, string][] = [[path, absolute]];
    while (stack.length > 0) {
      const [folder, folderAbsolute] = stack.pop()!;
      let real: string;
      let entries;
      try {
        real = realpathSync(folderAbsolute);
        if (visited.has(real)) continue;
        visited.add(real);
        entries = readdirSync(folderAbsolute, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const entry of entries) {
        const childPath = folder === "/" ? `/${entry.name}` : `${folder}/${entry.name}`;
        const childAbsolute = join(folderAbsolute, entry.name);
        if (entry.isDirectory()) stack.push([childPath, childAbsolute]);
        else if (entry.isFile() || entry.isSymbolicLink()) {
          try {
            const stats = statSync(childAbsolute);
            if (stats.isFile()) files.push({ path: childPath, absolute: childAbsolute, size: stats.size, mtimeMs: stats.mtimeMs });
            else if (stats.isDirectory()) stack.push([childPath, childAbsolute]);
          } catch {
            // A dangling link is no input.
          }
        }
      }
    }
    return files;
  }

  /** Files matching a glob; `**` matches any number of folders; names starting with a dot only match a dot. */
  private glob(pattern: string): FileState[] {
    const absolute = isAbsolute(pattern);
    const segments = pattern.split("/").filter((segment, i) => segment !== "" || i === 0);
    let matches: { path: string; absolute: string }[] = [{ path: absolute ? "" : ".", absolute: absolute ? "/" : this.workdir }];
    if (absolute) segments.shift();
    const child = (parent: { path: string; absolute: string }, name: string) => ({
      path: parent.path === "." ? name : parent.path === "" ? `/${name}` : `${parent.path}/${name}`,
      absolute: join(parent.absolute, name),
    });
    for (const segment of segments) {
      const next: { path: string; absolute: string }[] = [];
      if (segment === "**") {
        const stack = [...matches];
        while (stack.length > 0) {
          const folder = stack.pop()!;
          next.push(folder);
          for (const entry of this.list(folder.absolute)) if (entry.folder && !entry.name.startsWith(".")) stack.push(child(folder, entry.name));
        }
      } else if (!GLOB_CHARS.test(segment)) {
        for (const folder of matches) next.push(child(folder, segment));
      } else {
        const regex = segmentPattern(segment);
        const dotted = segment.startsWith(".");
        for (const folder of matches) {
          for (const entry of this.list(folder.absolute)) if ((dotted || !entry.name.startsWith(".")) && regex.test(entry.name)) next.push(child(folder, entry.name));
        }
      }
      matches = next;
    }
    const files: FileState[] = [];
    const seen = new Set<string>();
    for (const match of matches) {
      for (const file of this.fileOrFolder(match.path, match.absolute)) {
        if (seen.has(file.path)) continue;
        seen.add(file.path);
        files.push(file);
      }
    }
    return files;
  }

  private list(folder: string): { name: string; folder: boolean }[] {
    try {
      return readdirSync(folder, { withFileTypes: true }).map((entry) => ({ name: entry.name, folder: entry.isDirectory() || (entry.isSymbolicLink() && isFolder(join(folder, entry.name))) }));
    } catch {
      return [];
    }
  }
}

function trimSlashes(path: string): string {
  return path.length > 1 && path.endsWith("/") ? path.replace(/\/+$/, "") || "/" : path;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The manifest of a job's inputs as the files are now: sorted, de-duplicated, globs and folders expanded. */
export function inputManifest(job: Job, workdir: string, options: ManifestOptions = {}): ManifestEntry[] {
  return new InputFiles(workdir, options).manifest(job);
}

// ---------------------------------------------------------------------------------------------------------
// Config values

const SECRET_NAME = /secret|password|passwd|passphrase|token|apikey|accesskey|credential|privatekey/i;

/** True for keys declared `sensitive` and keys whose name says they hold a secret (password, token, api key …). */
export function isSensitiveConfigKey(key: string, pipeline: Pipeline): boolean {
  return pipeline.configMeta[key]?.sensitive === true || SECRET_NAME.test(key.replace(/[-_.]/g, ""));
}

interface ConfigCache {
  digests: Map<string, string | undefined>;
  byRule: WeakMap<Rule, Record<string, string>>;
  secrets?: string[];
}

/**
 * Per pipeline object. A run changes its pipeline's config only through re-entry, which rewrites the sample
 * and pair lists — keys left out of records — so the cached digests stay true for the whole run.
 */
const configCaches = new WeakMap<Pipeline, ConfigCache>();

function configCache(pipeline: Pipeline): ConfigCache {
  let cache = configCaches.get(pipeline);
  if (!cache) configCaches.set(pipeline, (cache = { digests: new Map(), byRule: new WeakMap() }));
  return cache;
}

/** A config value as the job sees it: rendered, with references to other keys filled in. */
function renderedConfig(value: TomlValue, pipeline: Pipeline): string {
  return substituteConfig(renderConfigValue(value, "shell"), pipeline.config, "shell");
}

/** How a config value is recorded: its rendered text, or `sha256:<hex>` of it for sensitive keys; undefined when unset. */
export function configValueDigest(key: string, pipeline: Pipeline): string | undefined {
  const cache = configCache(pipeline);
  if (cache.digests.has(key)) return cache.digests.get(key);
  const value = Object.hasOwn(pipeline.config, key) ? pipeline.config[key] : undefined;
  const digest = value === undefined ? undefined : isSensitiveConfigKey(key, pipeline) ? `sha256:${sha256(renderedConfig(value, pipeline))}` : renderedConfig(value, pipeline);
  cache.digests.set(key, digest);
  return digest;
}

/** Every config key → its recorded form, except the sample and pair lists (they show up as changed inputs). */
export function configSnapshot(pipeline: Pipeline): Record<string, string> {
  const snapshot: Record<string, string> = {};
  for (const key of Object.keys(pipeline.config).sort()) {
    if (isSampleKey(key)) continue;
    const digest = configValueDigest(key, pipeline);
    if (digest !== undefined) snapshot[key] = digest;
  }
  return snapshot;
}

const ruleKeys = new WeakMap<Rule, string[]>();

/**
 * The config keys a rule references: `{config.KEY}` in shell, script, inputs, outputs, expand_inputs,
 * envvars, params, log and hooks, and `config.KEY` in `when`. Sorted, each once.
 */
export function ruleConfigKeys(rule: Rule): string[] {
  let keys = ruleKeys.get(rule);
  if (keys) return keys;
  const found = new Set(configReferences(rule).map((reference) => reference.key));
  const more = [rule.log, rule.pre_exec, rule.on_success, rule.on_failure, ...Object.values(rule.envvars)];
  if (Object.keys(rule.params).length > 0) more.push(JSON.stringify(rule.params));
  for (const text of more) for (const key of configKeysIn(text)) found.add(key);
  keys = [...found].sort();
  ruleKeys.set(rule, keys);
  return keys;
}

/** The config values a job's rule references, as recorded (sample lists left out, as in the snapshot). */
export function jobConfig(job: Job, pipeline: Pipeline): Record<string, string> {
  const cache = configCache(pipeline);
  let config = cache.byRule.get(job.rule);
  if (config) return config;
  config = {};
  for (const key of ruleConfigKeys(job.rule)) {
    if (isSampleKey(key)) continue;
    const digest = configValueDigest(key, pipeline);
    if (digest !== undefined) config[key] = digest;
  }
  cache.byRule.set(job.rule, config);
  return config;
}

/** The referenced config keys whose value differs from the record's (a key set or unset since counts). */
export function changedConfigKeys(recorded: Record<string, string>, job: Job, pipeline: Pipeline): string[] {
  const current = jobConfig(job, pipeline);
  const changed: string[] = [];
  for (const key of Object.keys(recorded)) if (current[key] !== recorded[key]) changed.push(key);
  for (const key of Object.keys(current)) if (!Object.hasOwn(recorded, key)) changed.push(key);
  return changed.sort();
}

/** Replaces the values of sensitive config keys in a text (a command, a stderr tail) with `***`. */
export function maskSecrets(text: string, pipeline: Pipeline): string {
  const cache = configCache(pipeline);
  cache.secrets ??= Object.keys(pipeline.config)
    .filter((key) => isSensitiveConfigKey(key, pipeline))
    .map((key) => renderedConfig(pipeline.config[key]!, pipeline))
    .filter((value) => value !== "")
    .sort((a, b) => b.length - a.length);
  let masked = text;
  for (const secret of cache.secrets) if (masked.includes(secret)) masked = masked.replaceAll(secret, "***");
  return masked;
}

// ---------------------------------------------------------------------------------------------------------
// Records

/** How a job ended, as the run loop knows it. */
export interface JobOutcome {
  status: "completed" | "failed";
  exit_code: number | null;
  wall_time_secs: number;
  cpu_seconds?: number;
  max_memory_mb?: number;
  /** Attempts beyond the first. */
  retries: number;
  /** The command as run (masked here). */
  command: string;
  /** The job's stderr, or its end (the last 2048 characters are kept, masked). */
  stderr_tail: string;
  /** When the job ended (default: now). */
  finished_at?: Date;
}

/**
 * The checkpoint record of a job that just ended: fingerprint, script digest, referenced config, input
 * manifest (completed jobs only: a failed job runs again whatever its inputs) and the outcome, with
 * sensitive config values masked in the command and stderr.
 */
export function createJobRecord(job: Job, pipeline: Pipeline, outcome: JobOutcome, options: ManifestOptions = {}): JobRecord {
  const definition = ruleDefinition(job.rule, pipeline);
  const own = jobFields(job);
  const record: JobRecord = {
    status: outcome.status,
    rule: job.template,
    fingerprint: fingerprintOf(definition, own),
    rule_fields: fieldDigestsOf(definition, own),
    inputs: outcome.status === "completed" ? inputManifest(job, pipeline.dir, options) : [],
    config: { ...jobConfig(job, pipeline) },
    outputs: [...job.output.paths],
    exit_code: outcome.exit_code,
    wall_time_secs: outcome.wall_time_secs,
    retries: outcome.retries,
    finished_at: (outcome.finished_at ?? new Date()).toISOString(),
    command: maskSecrets(outcome.command, pipeline),
    // Masked before cutting, so a secret is not cut in two and half of it kept.
    stderr_tail: maskSecrets(outcome.stderr_tail.slice(-4 * STDERR_TAIL_CHARS), pipeline).slice(-STDERR_TAIL_CHARS),
  };
  const script = scriptDigest(job, pipeline);
  if (script) record.script = script;
  if (outcome.cpu_seconds !== undefined) record.cpu_seconds = outcome.cpu_seconds;
  if (outcome.max_memory_mb !== undefined) record.max_memory_mb = outcome.max_memory_mb;
  return record;
}
