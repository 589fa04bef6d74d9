/**
 * `validate`: the E codes of the format (plus E017 for unreadable `when` conditions and E018 for container
 * images that are not image names), checked on the rules as written, each finding placed at its line and
 * column; plus what expansion would stop at or switch off (fan-out errors, W027 empty lists).
 */
import { existsSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { EngineError, makeFinding, type Finding, type Severity } from "../findings.js";
import { fanOutFindings } from "../expand/empty-fan-outs.js";
import { expandPipeline } from "../expand/expand.js";
import { PAIR_WILDCARDS } from "../expand/instances.js";
import { ConditionError, parseCondition } from "../expand/when.js";
import type { Environment, Pipeline, Rule } from "../format/model.js";
import { dockerImageProblem, singularityImageProblem } from "../format/image-reference.js";
import type { ValuePath } from "../format/source-positions.js";
import { buildGraph, type JobGraph } from "../dag/graph.js";
import { forEachProducer, OutputIndex } from "../dag/edges.js";
import { dangerousCommand } from "./command-patterns.js";
import { configReferences } from "./config-references.js";

export interface ValidationResult {
  valid: boolean;
  findings: Finding[];
  rules: number;
  dependencies: number;
  /** Concrete inputs that neither exist nor are produced by a rule. */
  missingInputs: string[];
  /** The rule graph, when it could be built (not with `asInclude`, not for a cycle). */
  graph: JobGraph | undefined;
}

export interface ValidateOptions {
  /** Check a file meant to be included: missing inputs are not errors and no graph is built. */
  asInclude?: boolean;
}

const RULE_NAME = /^[A-Za-z0-9_:-]+$/;
const DURATION = /^\d+[smhd]$/i;
const LEGACY_MEMORY = /^\s*\d+(\.\d+)?\s*[GMKT]\s*$/i;
const STRICT_MEMORY = /^\s*(\d+)\s*([TGMK])?\s*$/i;

/** Places a finding at a rule's field. */
export function ruleFinding(rule: Rule, code: string, severity: Severity, message: string, field: ValuePath | null, suggestion?: string): Finding {
  return makeFinding(code, severity, message, {
    rule: rule.name,
    suggestion,
    at: rule.origin.source.locate(field ? [...rule.origin.path, ...field] : rule.origin.path),
  });
}

/** Runs every validation check. */
export function validatePipeline(pipeline: Pipeline, options: ValidateOptions = {}): ValidationResult {
  const findings: Finding[] = [];
  const names = new Set(pipeline.rules.map((rule) => rule.name));
  if (pipeline.workflow.name === "") {
    findings.push(makeFinding("E001", "error", "workflow name is empty", { at: pipeline.source.locate(["workflow", "name"]), suggestion: 'name = "my-pipeline"' }));
  }
  for (const rule of pipeline.rules) findings.push(...ruleSyntaxFindings(rule));
  for (const rule of pipeline.rules) findings.push(...wildcardFindings(rule, pipeline));
  for (const rule of pipeline.rules) findings.push(...configFindings(rule, pipeline));
  for (const rule of pipeline.rules) findings.push(...checkpointFindings(rule, pipeline));
  for (const rule of pipeline.rules) findings.push(...referenceFindings(rule, pipeline, names));
  for (const rule of pipeline.rules) findings.push(...dangerFindings(rule));
  for (const rule of pipeline.rules) findings.push(...pathFindings(rule));
  for (const rule of pipeline.rules) findings.push(...imageFindings(rule.environment, (kind, message, suggestion) => ruleFinding(rule, "E018", "error", `rule '${rule.name}': ${message}`, ["environment", kind], suggestion)));
  findings.push(...imageFindings(pipeline.defaults.environment ?? {}, (kind, message, suggestion) => makeFinding("E018", "error", `[defaults]: ${message}`, { at: pipeline.source.locate(["defaults", "environment", kind]), suggestion })));
  // Scatter, transform, [[values]] and sample-source lists, resolved by the functions expansion uses.
  findings.push(...fanOutFindings(pipeline));

  const expansion = expandPipeline(pipeline, "template");
  const missingInputs: string[] = [];
  if (!options.asInclude) {
    const outputs = new OutputIndex(expansion.jobs);
    for (const rule of pipeline.rules) findings.push(...missingInputFindings(rule, pipeline, outputs, missingInputs));
  }
  let graph: JobGraph | undefined;
  if (!options.asInclude) {
    try {
      graph = buildGraph(expansion);
    } catch (error) {
      if (!(error instanceof EngineError)) throw error;
      findings.push({ ...error.finding, code: "E006", message: `DAG error: ${error.message}` });
    }
  }
  return { valid: !findings.some((finding) => finding.severity === "error"), findings, rules: pipeline.rules.length, dependencies: graph?.edges.count ?? 0, missingInputs, graph };
}

function ruleSyntaxFindings(rule: Rule): Finding[] {
  const findings: Finding[] = [];
  if (rule.name.trim() === "") findings.push(ruleFinding(rule, "E002", "error", "rule name is empty", ["name"], "give every rule a name"));
  else if (!RULE_NAME.test(rule.name)) {
    findings.push(ruleFinding(rule, "E002", "error", `rule name '${rule.name}' may only contain letters, digits, '_', '-' and ':'`, ["name"], `rename it to '${rule.name.replace(/[^A-Za-z0-9_:-]+/g, "_")}'`));
  }
  if (rule.output.paths.length > 0 && rule.shell === undefined && rule.script === undefined && rule.transform === undefined) {
    findings.push(ruleFinding(rule, "E002", "error", `rule '${rule.name}' has outputs but no shell, script or transform`, null, 'add shell = "…" to say how the outputs are made'));
  }
  if (rule.threads === 0) findings.push(ruleFinding(rule, "E002", "error", `rule '${rule.name}' asks for 0 threads`, ["threads"], "threads must be at least 1"));
  if (rule.memory !== undefined && !LEGACY_MEMORY.test(rule.memory)) {
    findings.push(ruleFinding(rule, "E002", "error", `rule '${rule.name}': memory "${rule.memory}" is not a size like 8G or 512M`, ["memory"], 'write memory = "8G"'));
  }
  if (rule.retry_delay !== undefined && !DURATION.test(rule.retry_delay)) {
    findings.push(ruleFinding(rule, "E002", "error", `rule '${rule.name}': retry_delay "${rule.retry_delay}" is not a duration`, ["retry_delay"], 'write a whole number and a unit: "30s", "5m", "1h" or "1d"'));
  }
  for (const [field, memory] of [["memory", rule.memory], ["resources", rule.resources.memory]] as const) {
    if (memory === undefined) continue;
    const match = STRICT_MEMORY.exec(memory);
    const tooSmall = match && (match[2] ?? "").toUpperCase() === "K" && Number(match[1]) < 1024;
    if (!match || tooSmall) {
      const path: ValuePath = field === "memory" ? ["memory"] : ["resources", "memory"];
      findings.push(ruleFinding(rule, "E004", "error", `rule '${rule.name}': memory "${memory}" cannot be read`, path, 'write a whole number with an optional unit K, M, G or T (e.g. "8G", "1536M"); no decimals, no "B"'));
    }
  }
  return findings;
}

/** E003: a wildcard in an output that no input, sample source or value table can determine. */
function wildcardFindings(rule: Rule, pipeline: Pipeline): Finding[] {
  if (rule.input.paths.length === 0 && rule.expand_inputs.length === 0) return [];
  const fromInputs = new Set<string>();
  for (const path of [...rule.input.paths, ...rule.expand_inputs.map((entry) => entry.pattern)]) for (const match of path.matchAll(/\{(\w+)\}/g)) fromInputs.add(match[1]!);
  const allowed = declaredWildcards(pipeline);
  if (rule.scatter) allowed.add(rule.scatter.variable);
  if (rule.transform) allowed.add(rule.transform.split.by);
  const findings: Finding[] = [];
  const reported = new Set<string>();
  rule.output.paths.forEach((path, index) => {
    for (const match of path.matchAll(/\{(\w+)\}/g)) {
      const name = match[1]!;
      if (fromInputs.has(name) || allowed.has(name) || name.startsWith("_") || reported.has(name)) continue;
      reported.add(name);
      findings.push(ruleFinding(rule, "E003", "error", `rule '${rule.name}': output wildcard {${name}} does not appear in any input`, ["output", index], `use {${name}} in an input too, or define it with [[sample_groups]], [[pairs]] or [[values]]`));
    }
  });
  return findings;
}

/** Wildcard names the pipeline's sample sources and value tables define. */
export function declaredWildcards(pipeline: Pipeline): Set<string> {
  const names = new Set<string>(pipeline.values.map((table) => table.name));
  if (pipeline.pairs.length > 0 || pipeline.workflow.pairs_file || pipeline.workflow.pairs_pattern) {
    for (const name of PAIR_WILDCARDS) names.add(name);
    for (const pair of pipeline.pairs) for (const key of Object.keys(pair.metadata)) names.add(key);
  }
  if (pipeline.sample_groups.length > 0 || pipeline.workflow.sample_groups_file || pipeline.workflow.sample_pattern) {
    names.add("group");
    names.add("sample");
    for (const group of pipeline.sample_groups) for (const key of Object.keys(group.metadata)) names.add(key);
  }
  if (pipeline.pairs.length > 0 || pipeline.workflow.pairs_file || pipeline.workflow.pairs_pattern) names.add("sample");
  return names;
}

/** E005 (undefined config keys) and E017 (unreadable `when`). */
function configFindings(rule: Rule, pipeline: Pipeline): Finding[] {
  const findings: Finding[] = [];
  const reported = new Set<string>();
  for (const reference of configReferences(rule)) {
    if (reference.key in pipeline.config || reported.has(reference.key)) continue;
    reported.add(reference.key);
    findings.push(ruleFinding(rule, "E005", "error", `rule '${rule.name}' uses config.${reference.key} in ${reference.field}, but [config] has no key '${reference.key}'`, [reference.field], `add ${reference.key} = "…" to [config], or pass --arg ${reference.key}=…`));
  }
  if (rule.when !== undefined) {
    try {
      parseCondition(rule.when);
    } catch (error) {
      if (!(error instanceof ConditionError)) throw error;
      findings.push(
        makeFinding("E017", "error", `rule '${rule.name}': cannot read when = "${rule.when}": ${error.message} (column ${error.column} of the condition)`, {
          rule: rule.name,
          at: rule.origin.source.locateInString([...rule.origin.path, "when"], error.column),
          suggestion: "conditions use config.KEY, wildcard.NAME, file_exists(\"path\"), true/false, !, &&, || and comparisons (== != < <= > >=)",
        }),
      );
    }
  }
  return findings;
}

/** E013 (checkpoint without manifest, a warning) and E014 (checkpoint rule fanned out per sample or pair). */
function checkpointFindings(rule: Rule, pipeline: Pipeline): Finding[] {
  if (!rule.checkpoint) return [];
  const findings: Finding[] = [];
  if (!rule.checkpoint_manifest) {
    findings.push(ruleFinding(rule, "E013", "warning", `checkpoint rule '${rule.name}' has no checkpoint_manifest; a run will fail when it completes`, ["checkpoint"], 'add checkpoint_manifest = "path/to/manifest.toml"'));
  }
  const texts = [rule.shell ?? "", ...rule.input.paths, ...rule.output.paths];
  const fanned = ["sample", "group", ...PAIR_WILDCARDS, ...pipeline.pairs.flatMap((pair) => Object.keys(pair.metadata))].find((name) => texts.some((text) => text.includes(`{${name}}`)));
  if (fanned) {
    findings.push(ruleFinding(rule, "E014", "error", `checkpoint rule '${rule.name}' uses the {${fanned}} wildcard; a checkpoint rule must run once`, ["checkpoint"], "move the per-sample work into another rule that depends on the checkpoint"));
  }
  return findings;
}

/** E018: a docker or singularity environment whose image is not an image name (a leading '-' would be an option). */
function imageFindings(environment: Environment, finding: (kind: "docker" | "singularity", message: string, suggestion: string) => Finding): Finding[] {
  const findings: Finding[] = [];
  const docker = environment.docker === undefined ? undefined : dockerImageProblem(environment.docker);
  if (docker) findings.push(finding("docker", `docker image "${environment.docker}" is not usable: ${docker}`, 'write an image reference, e.g. docker = "quay.io/biocontainers/samtools:1.21--h50ea8bc_0"'));
  const singularity = environment.singularity === undefined ? undefined : singularityImageProblem(environment.singularity);
  if (singularity) findings.push(finding("singularity", `singularity image "${environment.singularity}" is not usable: ${singularity}`, 'write an image URI or file, e.g. singularity = "docker://ubuntu:24.04" or "images/tool.sif"'));
  return findings;
}

/** E007 (depends_on unknown), E008 (extends unknown), E010 (env_group undefined). */
function referenceFindings(rule: Rule, pipeline: Pipeline, names: Set<string>): Finding[] {
  const findings: Finding[] = [];
  rule.depends_on.forEach((dependency, index) => {
    if (!names.has(dependency)) findings.push(ruleFinding(rule, "E007", "error", `rule '${rule.name}' depends on unknown rule '${dependency}'`, ["depends_on", index], nearestName(dependency, names)));
  });
  if (rule.extends !== undefined && !names.has(rule.extends)) {
    findings.push(ruleFinding(rule, "E008", "error", `rule '${rule.name}' extends unknown rule '${rule.extends}'`, ["extends"], nearestName(rule.extends, names)));
  }
  if (rule.env_group !== undefined && !Object.hasOwn(pipeline.env_groups, rule.env_group)) {
    findings.push(ruleFinding(rule, "E010", "error", `rule '${rule.name}' uses env_group '${rule.env_group}', which [env_groups] does not define`, ["env_group"], `add [env_groups.${rule.env_group}] with the environment`));
  }
  return findings;
}

function nearestName(name: string, names: Set<string>): string {
  const candidates = [...names].filter((candidate) => candidate.endsWith(`::${name}`) || candidate.includes(name) || name.includes(candidate));
  return candidates.length > 0 ? `did you mean '${candidates[0]}'?` : "check the rule name (included rules may carry a namespace prefix, ns::rule)";
}

/** E011: commands that match a blocking pattern. */
function dangerFindings(rule: Rule): Finding[] {
  const findings: Finding[] = [];
  for (const field of ["shell", "pre_exec", "on_success", "on_failure"] as const) {
    const text = rule[field];
    const match = text === undefined ? undefined : dangerousCommand(text);
    if (match) {
      findings.push(ruleFinding(rule, "E011", "error", `${field} command in rule '${rule.name}' matches dangerous pattern [${match.category}]: ${match.description}`, [field], "remove the command; pipelines must not touch the system outside their working folder"));
    }
  }
  return findings;
}

/** E009 (`..` in paths), W017 (absolute paths), W018 (`~` paths). */
function pathFindings(rule: Rule): Finding[] {
  const findings: Finding[] = [];
  for (const field of ["input", "output"] as const) {
    rule[field].paths.forEach((path, index) => {
      if (/(^|\/)\.\.(\/|$)/.test(path)) {
        findings.push(ruleFinding(rule, "E009", "error", `rule '${rule.name}': ${field} path ${path} climbs out of the working folder with '..'`, [field, index], "keep paths inside the workflow folder, or pass outside locations through [config]"));
      } else if (path.startsWith("/")) {
        findings.push(ruleFinding(rule, "W017", "warning", `rule '${rule.name}': ${field} path ${path} is absolute`, [field, index], "absolute paths tie the pipeline to one machine; put them in [config]"));
      } else if (path.startsWith("~")) {
        findings.push(ruleFinding(rule, "W018", "warning", `rule '${rule.name}': ${field} path ${path} starts with ~`, [field, index], "the shell does not expand ~ inside quoted paths; use a [config] value"));
      }
    });
  }
  return findings;
}

/**
 * Whether checks may look at the files a pipeline names on this machine. A shared service turns it off
 * (`STRAND_HOST_PATH_CHECKS=off` in its check workers): an answer would tell a user which files exist there.
 */
export function hostPathChecks(): boolean {
  return process.env.STRAND_HOST_PATH_CHECKS !== "off";
}

/** E010/W020: concrete inputs that do not exist and that no rule produces. */
function missingInputFindings(rule: Rule, pipeline: Pipeline, outputs: OutputIndex, missing: string[]): Finding[] {
  const findings: Finding[] = [];
  rule.input.paths.forEach((input, index) => {
    if (/[{*?]/.test(input) || input.includes("..")) return;
    let produced = false;
    forEachProducer(outputs, input, () => (produced = true));
    if (produced || !hostPathChecks() || existsSync(isAbsolute(input) ? input : join(pipeline.dir, input))) return;
    missing.push(input);
    if (isAbsolute(input) && !rule.optional) {
      findings.push(ruleFinding(rule, "E010", "error", `rule '${rule.name}': input ${input} does not exist and no rule produces it`, ["input", index], "check the path, or mark the rule optional = true"));
    } else {
      findings.push(ruleFinding(rule, "W020", "warning", `rule '${rule.name}': input ${input} does not exist yet and no rule produces it`, ["input", index], "it must be in place before the rule runs"));
    }
  });
  return findings;
}
