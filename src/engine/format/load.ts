/**
 * Loading: from a workflow file (or text) to a `Pipeline` with includes merged, profile and command-line
 * config applied, sample and pair sources read, engine keys injected and reference builds resolved.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { EngineError, makeFinding, type Finding } from "../findings.js";
import { readConfigFile } from "./config-file.js";
import { coerceOverride, deriveReferencePaths, injectSampleKeys, mergeProfileConfig, substituteConfig } from "./config.js";
import { checkContracts, mergeIncludes, parseFile, type IncludeContext, type ParsedFile } from "./includes.js";
import type { ConfigDeclaration, Defaults, Pair, Pipeline, Rule, SampleGroup, TomlValue, WorkflowMeta } from "./model.js";
import { defaultCacheDir } from "./module-cache.js";
import { parseTomlText, readPipelineText } from "./parse-source.js";
import { injectReferenceKeys, readReferences, standardReferenceBuilds } from "./references.js";
import { discoverPairs, discoverSamples, readPairsFile, readSampleGroupsFile, selectSamples } from "./sample-sources.js";
import { profileSchema } from "./schema.js";
import { linearRegexProblem } from "./linear-regex.js";
import { SourceFile } from "./source-positions.js";

export interface LoadOptions {
  /** Config values from the command line (`--arg K=V`, `K=V`, `--KEY VALUE`); they win over file and profile. */
  overrides?: Record<string, string>;
  /** Profile name: `profiles/NAME.toml` (or `.oxoflow`) next to the workflow; `a,b` applies several in order (later wins). */
  profile?: string;
  /** Config files (`--configfile`: TOML, JSON or YAML), merged in order over the profiles; overrides still win. */
  configFiles?: string[];
  /** The `--samples` selection: names, `first:N`, `@file`, `+@file`. */
  samples?: string;
  /** Cache folder for `repo` + `ref` includes. */
  cacheDir?: string;
  /** Working folder that relative paths resolve against (default: the workflow file's folder). */
  workdir?: string;
  /**
   * Text from an untrusted sender (the HTTP service): nothing outside the text is read — no includes,
   * sample sheets, pair files, file patterns or profiles; each one skipped is noted as an info finding.
   */
  detached?: boolean;
}

export interface TextLoadOptions extends LoadOptions {
  /** Name used in messages for text that has no file (default `pipeline.oxoflow`). */
  path?: string;
  /** Folder that relative paths resolve against (default: the process's current folder). */
  dir?: string;
}

/** The workflow table without its file-based sample and pair sources, each dropped one noted. */
function detachedWorkflow(workflow: WorkflowMeta, source: SourceFile, warnings: Finding[]): WorkflowMeta {
  const kept = { ...workflow };
  for (const key of ["pairs_file", "sample_groups_file", "sample_pattern", "pairs_pattern"] as const) {
    if (kept[key] === undefined) continue;
    warnings.push(
      makeFinding("SOURCE_NOT_READ", "info", `workflow.${key} is not read for a pipeline checked on its own; its samples are not part of this check`, {
        at: source.locate(["workflow", key]),
        suggestion: "run strand validate on the workflow folder to check it with its sample sources",
      }),
    );
    delete kept[key];
  }
  return kept;
}

/** Finds the workflow file for a path argument: a file as given; a folder (or nothing) means `main.oxoflow`, else the first `*.oxoflow`. */
export function discoverWorkflow(argument: string | undefined, cwd: string = process.cwd()): string {
  const target = resolve(cwd, argument ?? ".");
  if (!existsSync(target)) {
    throw new EngineError("IO_ERROR", `no such workflow file or folder: ${argument ?? "."}`, {
      suggestion: "give the path of a .oxoflow file, or a folder that holds main.oxoflow",
    });
  }
  if (!statSync(target).isDirectory()) return target;
  const main = join(target, "main.oxoflow");
  if (existsSync(main)) return main;
  const candidates = readdirSync(target)
    .filter((name) => name.endsWith(".oxoflow"))
    .sort();
  if (candidates.length === 0) {
    throw new EngineError("IO_ERROR", `no workflow in ${argument ?? "the current folder"}: there is no main.oxoflow and no *.oxoflow file`, {
      suggestion: "give the path of the workflow file",
    });
  }
  return join(target, candidates[0]!);
}

/** Loads a workflow file and everything it refers to. */
export async function loadPipeline(path: string, options: LoadOptions = {}): Promise<Pipeline> {
  const absolute = resolve(path);
  const text = await readPipelineText(absolute, path);
  const file = parseFile(text, absolute, dirname(absolute));
  return assemble(file, options.workdir ?? dirname(absolute), options);
}

/** Loads a pipeline from text (the service's tooling endpoints, tests). */
export async function loadPipelineText(text: string, options: TextLoadOptions = {}): Promise<Pipeline> {
  const dir = resolve(options.workdir ?? options.dir ?? process.cwd());
  const path = options.path ?? "pipeline.oxoflow";
  const file = parseFile(text, path, dir);
  return assemble(file, dir, options);
}

async function assemble(file: ParsedFile, dir: string, options: LoadOptions): Promise<Pipeline> {
  const context: IncludeContext = { cacheDir: options.cacheDir ?? defaultCacheDir(), sources: new Map([[file.source.path, file.source]]), detached: options.detached };
  const decoded = file.decoded;
  const merged = await mergeIncludes(file, context);
  const warnings: Finding[] = [...merged.warnings];
  const config = merged.config;
  const configMeta = merged.configMeta;
  const overridden = new Set<string>();
  const injected = new Set<string>();
  let defaults: Defaults = decoded.defaults ?? {};
  let cluster = decoded.cluster;
  const workflow = options.detached ? detachedWorkflow(decoded.workflow, file.source, warnings) : decoded.workflow;
  if (options.detached && (options.profile || options.samples?.includes("@"))) {
    throw new EngineError("USAGE_ERROR", "profiles and sample sheets are not read for a pipeline sent on its own", { suggestion: "send sample names instead of a file" });
  }

  if (options.profile) {
    const profile = await readProfiles(options.profile, dir);
    for (const key of mergeProfileConfig(config, (profile.config ?? {}) as Record<string, TomlValue>, workflow.profile_mode)) overridden.add(key);
    defaults = mergeDefaults(defaults, profile.defaults ?? {}, workflow.profile_mode);
    if (profile.cluster) cluster = { ...(cluster ?? { extra_args: [] }), ...stripUndefined(profile.cluster) };
  }
  for (const file of options.configFiles ?? []) {
    for (const key of mergeProfileConfig(config, readConfigFile(file), "override")) overridden.add(key);
  }
  for (const [key, value] of Object.entries(options.overrides ?? {})) {
    config[key] = coerceOverride(value, config[key], configMeta[key]);
    overridden.add(key);
  }

  const pairs: Pair[] = [...(decoded.pairs ?? [])];
  if (workflow.pairs_file) {
    const path = resolve(dir, substituteConfig(workflow.pairs_file, config, "path"));
    pairs.push(...(await sourced(() => readPairsFile(path, workflow.pairs_file!), file.source, ["workflow", "pairs_file"])));
  }
  if (workflow.pairs_pattern) {
    const found = await sourced(() => discoverPairs(substituteConfig(workflow.pairs_pattern!, config, "path"), dir), file.source, ["workflow", "pairs_pattern"]);
    pairs.push(...found.pairs);
    if (found.warning) warnings.push({ ...found.warning, ...position(file.source, ["workflow", "pairs_pattern"]) });
  }
  let groups: SampleGroup[] = [...(decoded.sample_groups ?? [])];
  if (workflow.sample_groups_file) {
    const path = resolve(dir, substituteConfig(workflow.sample_groups_file, config, "path"));
    groups.push(...(await sourced(() => readSampleGroupsFile(path, workflow.sample_groups_file!), file.source, ["workflow", "sample_groups_file"])));
  }
  if (workflow.sample_pattern) {
    const found = await sourced(() => discoverSamples(substituteConfig(workflow.sample_pattern!, config, "path"), dir), file.source, ["workflow", "sample_pattern"]);
    if (found.group) groups.push(found.group);
    if (found.warning) warnings.push({ ...found.warning, ...position(file.source, ["workflow", "sample_pattern"]) });
  }
  const groupNamesBefore = groups.map((group) => group.name);
  let selectedPairs = pairs;
  let kept: Set<string> | null = null;
  if (options.samples) {
    const selection = await selectSamples(options.samples, groups, pairs, dir);
    groups = selection.groups;
    selectedPairs = selection.pairs;
    if (selection.filtered) kept = selection.kept;
  }
  injectSampleKeys(config, groups, selectedPairs, kept, injected);
  // A declared sample source that holds nothing (a header-only sheet) still defines its lists, as empty
  // ones: `{config.samples_list}` renders as nothing and expand_inputs over it adds no inputs.
  const declaredSources = [decoded.sample_groups?.length, decoded.pairs?.length, workflow.sample_groups_file, workflow.sample_pattern, workflow.pairs_file, workflow.pairs_pattern];
  if (declaredSources.some(Boolean)) {
    for (const key of ["samples_list", ...(decoded.pairs?.length || workflow.pairs_file || workflow.pairs_pattern ? ["pairs_list"] : [])]) {
      if (!(key in config)) {
        config[key] = "";
        injected.add(key);
      }
    }
  }
  // A group that --samples emptied still defines samples_<group> (as ""), so rules that use it plan.
  for (const name of groupNamesBefore) {
    const key = `samples_${name}`;
    if (!(key in config)) {
      config[key] = "";
      injected.add(key);
    }
  }

  const referenceDirValue = decoded.reference_dir ?? (typeof config.reference_dir === "string" ? config.reference_dir : undefined);
  const referenceDir = referenceDirValue ? substituteConfig(referenceDirValue, config, "path") : undefined;
  if (referenceDir) deriveReferencePaths(config, referenceDir, injected);
  let references = readReferences(decoded, file.source);
  if (referenceDir && references.length === 0) references = standardReferenceBuilds(referenceDir);
  injectReferenceKeys(config, references, injected);

  if (options.detached) warnings.push(...unreadFileChecks(merged.rules, configMeta, file.source));
  checkDuplicateRules(merged.rules);
  checkExecutionGroups(decoded.execution_group ?? [], merged.rules, file.source);
  checkWildcardConstraints(decoded.wildcard_constraints ?? {}, file.source);
  warnings.push(...checkContracts(merged.modules, merged.rules, decoded.include ?? [], file.source));

  return {
    path: file.source.path,
    dir,
    ...(options.detached ? { detached: true } : {}),
    source: file.source,
    workflow,
    config,
    configMeta,
    injectedConfig: injected,
    overriddenConfig: overridden,
    references,
    reference_dir: referenceDir,
    defaults,
    report: decoded.report as Record<string, TomlValue> | undefined,
    rules: merged.rules,
    plugins: decoded.plugins as Record<string, TomlValue> | undefined,
    include: decoded.include ?? [],
    execution_group: decoded.execution_group ?? [],
    citation: decoded.citation as Record<string, TomlValue> | undefined,
    cluster,
    resource_budget: decoded.resource_budget as Record<string, TomlValue> | undefined,
    resource_groups: decoded.resource_groups ?? {},
    reference_db: (decoded.reference_db ?? []) as Record<string, TomlValue>[],
    env_groups: decoded.env_groups ?? {},
    wildcard_constraints: decoded.wildcard_constraints ?? {},
    pairs: selectedPairs,
    sample_groups: groups,
    values: decoded.values ?? [],
    webhook: (decoded.webhook ?? []) as Record<string, TomlValue>[],
    modules: merged.modules,
    warnings,
    raw: file.table,
  };
}

/** Info findings for what a detached pipeline's expansion and plan do not look at: transform globs, `file_exists` conditions, `must_exist` config. */
function unreadFileChecks(rules: Rule[], configMeta: Record<string, ConfigDeclaration>, source: SourceFile): Finding[] {
  const findings: Finding[] = [];
  const note = (message: string, rule: string | undefined, at: ReturnType<SourceFile["locate"]>) =>
    findings.push(makeFinding("SOURCE_NOT_READ", "info", message, { ...(rule ? { rule } : {}), at, suggestion: "run strand validate on the workflow folder to check it with its files" }));
  for (const rule of rules) {
    if (rule.transform?.split.glob !== undefined) note(`the files of rule '${rule.name}''s split.glob are not listed for a pipeline checked on its own; the transform expands to no values here`, rule.name, rule.origin.source.locate([...rule.origin.path, "transform", "split", "glob"]));
    if (rule.when?.includes("file_exists")) note(`file_exists in rule '${rule.name}''s when is false for a pipeline checked on its own (no file is looked at)`, rule.name, rule.origin.source.locate([...rule.origin.path, "when"]));
  }
  for (const [key, declaration] of Object.entries(configMeta)) {
    if (declaration.must_exist) note(`config '${key}' must exist, which is not checked for a pipeline checked on its own`, undefined, source.locate(["config", key]));
  }
  return findings;
}

/** Runs a sample-source reader, pointing its errors at the workflow key that named the source. */
async function sourced<T>(read: () => Promise<T>, source: SourceFile, path: (string | number)[]): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof EngineError && error.finding.line === null) {
      throw new EngineError(error.code, error.message, { at: source.locate(path), suggestion: error.finding.suggestion });
    }
    throw error;
  }
}

function position(source: SourceFile, path: (string | number)[]): Pick<Finding, "file" | "line" | "column"> {
  const at = source.locate(path);
  return { file: at.file, line: at.line, column: at.column };
}

/** Several profiles (`a,b`) read as one: each later profile's values win over the earlier ones'. */
async function readProfiles(names: string, dir: string) {
  let merged: Awaited<ReturnType<typeof readProfile>> | undefined;
  for (const name of names.split(",").map((part) => part.trim()).filter(Boolean)) {
    const profile = await readProfile(name, dir);
    if (!merged) {
      merged = profile;
      continue;
    }
    const config = { ...((merged.config ?? {}) as Record<string, TomlValue>) };
    mergeProfileConfig(config, (profile.config ?? {}) as Record<string, TomlValue>, "override");
    merged = {
      ...merged,
      config,
      defaults: { ...stripUndefined(merged.defaults ?? {}), ...stripUndefined(profile.defaults ?? {}) },
      cluster: merged.cluster || profile.cluster ? { ...stripUndefined(merged.cluster ?? {}), ...stripUndefined(profile.cluster ?? {}) } : undefined,
    } as typeof merged;
  }
  if (!merged) throw new EngineError("USAGE_ERROR", `--profile '${names}' names no profile`, { suggestion: "give profile names, e.g. --profile slurm,big" });
  return merged;
}

async function readProfile(name: string, dir: string) {
  const candidates = [join(dir, "profiles", `${name}.toml`), join(dir, "profiles", `${name}.oxoflow`)];
  if (isAbsolute(name) || name.endsWith(".toml")) candidates.unshift(resolve(dir, name));
  const path = candidates.find((candidate) => existsSync(candidate));
  if (!path) {
    const folder = join(dir, "profiles");
    const available = existsSync(folder) ? readdirSync(folder).filter((entry) => /\.(toml|oxoflow)$/.test(entry)).map((entry) => entry.replace(/\.(toml|oxoflow)$/, "")) : [];
    throw new EngineError("CONFIG_ERROR", `profile '${name}' not found (looked for profiles/${name}.toml and profiles/${name}.oxoflow)`, {
      suggestion: available.length > 0 ? `available profiles: ${available.join(", ")}` : "create profiles/<name>.toml next to the workflow",
    });
  }
  const text = await readPipelineText(path);
  const table = parseTomlText(text, path);
  const result = profileSchema.safeParse(table);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const source = new SourceFile(path, text);
    throw new EngineError("SCHEMA_ERROR", `profile ${basename(path)}: ${issue.path.join(".")}: ${issue.message}`, { at: source.locate(issue.path as (string | number)[]) });
  }
  return result.data;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as Partial<T>;
}

function mergeDefaults(base: Defaults, profile: Defaults, mode: "fill" | "override"): Defaults {
  if (mode === "override") return { ...base, ...stripUndefined(profile) };
  return { ...stripUndefined(profile), ...stripUndefined(base) };
}

function checkDuplicateRules(rules: Pipeline["rules"]): void {
  const seen = new Map<string, Pipeline["rules"][number]>();
  for (const rule of rules) {
    const first = seen.get(rule.name);
    if (first) {
      const firstAt = first.origin.source.locate(first.origin.path);
      throw new EngineError("SCHEMA_ERROR", `duplicate rule name: '${rule.name}' (first defined at line ${firstAt.line})`, {
        rule: rule.name,
        at: rule.origin.source.locate([...rule.origin.path, "name"]),
        suggestion: "rule names must be unique; rename one of them",
      });
    }
    seen.set(rule.name, rule);
  }
}

function checkExecutionGroups(groups: Pipeline["execution_group"], rules: Pipeline["rules"], source: SourceFile): void {
  const names = new Set(rules.map((rule) => rule.name));
  const owner = new Map<string, string>();
  groups.forEach((group, index) => {
    for (const name of group.rules) {
      if (!names.has(name)) {
        throw new EngineError("SCHEMA_ERROR", `execution group '${group.name}' names unknown rule '${name}'`, { at: source.locate(["execution_group", index, "rules"]) });
      }
      const previous = owner.get(name);
      if (previous) {
        throw new EngineError("SCHEMA_ERROR", `rule '${name}' is in two execution groups ('${previous}' and '${group.name}')`, { at: source.locate(["execution_group", index, "rules"]) });
      }
      owner.set(name, group.name);
    }
  });
}

function checkWildcardConstraints(constraints: Record<string, string>, source: SourceFile): void {
  for (const [name, pattern] of Object.entries(constraints)) {
    const problem = linearRegexProblem(pattern);
    if (problem === undefined) continue;
    throw new EngineError("SCHEMA_ERROR", `wildcard constraint for '${name}' is not a valid regular expression: ${problem}`, {
      at: source.locate(["wildcard_constraints", name]),
      suggestion: "write an RE2 pattern (the syntax of oxo-flow's regex engine: no look-around or back-references), e.g. ^[A-Za-z0-9_-]+$",
    });
  }
}
