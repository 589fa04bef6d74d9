/**
 * `lint`: everything `validate` finds (all severities), what loading noticed, the W codes of the format,
 * unknown keys with the nearest known key, and a secret scan. Each finding is reported once.
 */
import { readFileSync, statSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { makeFinding, type Finding } from "../findings.js";
import type { Pipeline, Rule } from "../format/model.js";
import { effectiveEnvironment, effectiveMemory, effectiveThreads, environmentKind } from "../format/rule-settings.js";
import type { JobGraph } from "../dag/graph.js";
import { hookConcerns, riskyConstructs } from "./command-patterns.js";
import { scanSecrets } from "./secrets.js";
import { findUnknownKeys, findUnknownRuleKeys } from "./unknown-keys.js";
import { declaredWildcards, hostPathChecks, ruleFinding, validatePipeline } from "./validate.js";

export interface LintResult {
  findings: Finding[];
  errors: number;
  warnings: number;
  infos: number;
  /** No errors, and with `strict` no warnings either. */
  passed: boolean;
  strict: boolean;
}

/** Largest script file that W021 reads to look for other rules' outputs. */
const MAX_SCRIPT_BYTES = 4 * 1024 * 1024;

const ENGINE_PLACEHOLDERS = new Set(["input", "output", "log", "threads", "memory", "effective_threads", "effective_memory_mb"]);

/** Runs validation, lint checks, the unknown-key check and the secret scan. */
export function lintPipeline(pipeline: Pipeline, options: { strict?: boolean } = {}): LintResult {
  const validation = validatePipeline(pipeline);
  const findings: Finding[] = [...validation.findings, ...pipeline.warnings];
  findings.push(...workflowFindings(pipeline));
  const graph = validation.graph;
  const declared = declaredWildcards(pipeline);
  pipeline.rules.forEach((rule, index) => {
    findings.push(...ruleFindings(rule, pipeline));
    findings.push(...undeclaredWildcardFindings(rule, declared));
    if (graph) findings.push(...graphFindings(rule, index, graph, pipeline));
  });
  findings.push(...unknownKeyFindings(pipeline));
  for (const source of new Set([pipeline.source, ...pipeline.rules.map((rule) => rule.origin.source)])) {
    for (const secret of scanSecrets(source.text)) {
      findings.push(
        makeFinding("S008", "warning", `possible ${secret.kind} written in the pipeline file`, {
          at: { file: source.path, line: secret.line, column: secret.column },
          suggestion: "keep credentials out of pipeline files: use an environment variable or a sensitive declared config entry",
        }),
      );
    }
  }
  const errors = findings.filter((finding) => finding.severity === "error").length;
  const warnings = findings.filter((finding) => finding.severity === "warning").length;
  const infos = findings.length - errors - warnings;
  const strict = options.strict ?? false;
  return { findings, errors, warnings, infos, passed: errors === 0 && (!strict || warnings === 0), strict };
}

function workflowFindings(pipeline: Pipeline): Finding[] {
  const findings: Finding[] = [];
  const at = pipeline.source.locate(["workflow"]);
  if (!pipeline.workflow.description) findings.push(makeFinding("W001", "warning", "the workflow has no description", { at, suggestion: 'add description = "…" under [workflow]' }));
  if (!pipeline.workflow.author) findings.push(makeFinding("W002", "warning", "the workflow has no author", { at, suggestion: 'add author = "…" under [workflow]' }));
  return findings;
}

function ruleFindings(rule: Rule, pipeline: Pipeline): Finding[] {
  const findings: Finding[] = [];
  const threads = effectiveThreads(rule, pipeline.defaults);
  const memory = effectiveMemory(rule, pipeline.defaults);
  if (!rule.description) findings.push(ruleFinding(rule, "W003", "warning", `rule '${rule.name}' has no description`, null, 'add description = "…"'));
  if (rule.shell !== undefined && rule.log === undefined) findings.push(ruleFinding(rule, "W004", "warning", `rule '${rule.name}' has a shell command but no log`, ["shell"], 'add log = "logs/<rule>.log" and send the tool\'s messages there'));
  if (threads > 32 && memory === undefined) findings.push(ruleFinding(rule, "W009", "warning", `rule '${rule.name}' asks for ${threads} threads but no memory`, null, 'add memory under [rules.resources], e.g. memory = "64G"'));
  else if (threads > 8 && memory === undefined) findings.push(ruleFinding(rule, "W005", "warning", `rule '${rule.name}' asks for ${threads} threads but no memory`, null, 'add memory under [rules.resources], e.g. memory = "16G"'));
  if (rule.threads !== undefined || rule.memory !== undefined) {
    findings.push(ruleFinding(rule, "W025", "info", `rule '${rule.name}' uses the legacy rule-level ${rule.threads !== undefined ? "threads" : "memory"}`, [rule.threads !== undefined ? "threads" : "memory"], "move threads and memory into [rules.resources]"));
  }
  if (rule.name.includes("-")) findings.push(ruleFinding(rule, "W006", "info", `rule name '${rule.name}' contains '-'`, ["name"], "prefer '_' in rule names"));
  if (rule.shell !== undefined && environmentKind(effectiveEnvironment(rule, pipeline.defaults)) === "system") {
    findings.push(ruleFinding(rule, "W008", "info", `rule '${rule.name}' runs in the system environment`, ["shell"], "declare a conda, pixi or container environment so the tools are reproducible"));
  }
  if (rule.checkpoint && rule.output.paths.length === 0) findings.push(ruleFinding(rule, "W010", "warning", `checkpoint rule '${rule.name}' has no outputs`, ["checkpoint"]));
  if (rule.shadow !== undefined && rule.input.paths.length === 0) findings.push(ruleFinding(rule, "W011", "warning", `rule '${rule.name}' sets shadow but has no inputs`, ["shadow"]));
  if (rule.retries > 0 && rule.retry_delay === undefined) findings.push(ruleFinding(rule, "W012", "info", `rule '${rule.name}' retries without a retry_delay`, ["retries"], 'add retry_delay = "30s" so a transient failure has time to clear'));
  if (rule.on_failure !== undefined && rule.retries === 0) findings.push(ruleFinding(rule, "W013", "info", `rule '${rule.name}' has on_failure but no retries`, ["on_failure"]));
  const environment = effectiveEnvironment(rule, pipeline.defaults);
  if (environment.conda && !/\.lock(\.ya?ml)?$/.test(environment.conda)) {
    findings.push(ruleFinding(rule, "W016", "info", `rule '${rule.name}': conda environment ${environment.conda} is not a lock file`, ["environment"], "pin exact versions with a lock file (conda-lock) for reproducible results"));
  } else if (environment.pixi && !environment.pixi.endsWith(".lock")) {
    findings.push(ruleFinding(rule, "W016", "info", `rule '${rule.name}': pixi environment ${environment.pixi} is not a lock file`, ["environment"], "point at pixi.lock for reproducible results"));
  }
  const hooks = [
    ["pre_exec", "W020"],
    ["on_success", "W021"],
    ["on_failure", "W022"],
  ] as const;
  for (const [field, code] of hooks) {
    const text = rule[field];
    const concerns = text === undefined ? [] : hookConcerns(text);
    if (concerns.length > 0) findings.push(ruleFinding(rule, code, "warning", `rule '${rule.name}': ${field} contains ${concerns.join(", ")}`, [field], `keep ${field} to one simple command`));
  }
  for (const field of ["shell", "pre_exec", "on_success", "on_failure"] as const) {
    const text = rule[field];
    const risky = text === undefined ? [] : riskyConstructs(text);
    if (risky.length > 0) findings.push(ruleFinding(rule, "W023", "warning", `rule '${rule.name}': ${field} uses ${risky.join(", ")}`, [field], "check that these commands are intended"));
  }
  return findings;
}

/** W024: wildcards no sample source, value table or scatter defines (bash `${VAR}` is not a wildcard). */
function undeclaredWildcardFindings(rule: Rule, declared: Set<string>): Finding[] {
  if (rule.when?.trim() === "false") return [];
  const allowed = new Set(declared);
  if (rule.scatter) allowed.add(rule.scatter.variable);
  if (rule.transform) allowed.add(rule.transform.split.by);
  const findings: Finding[] = [];
  const reported = new Set<string>();
  const fields: [string, string[]][] = [
    ["shell", rule.shell ? [rule.shell] : []],
    ["script", rule.script ? [rule.script] : []],
    ["input", rule.input.paths],
    ["output", rule.output.paths],
  ];
  for (const [field, texts] of fields) {
    for (const text of texts) {
      for (const match of text.matchAll(/(\$?)\{(\w+)\}/g)) {
        const name = match[2]!;
        if (match[1] === "$" || ENGINE_PLACEHOLDERS.has(name) || allowed.has(name) || name.startsWith("_") || reported.has(name)) continue;
        reported.add(name);
        findings.push(ruleFinding(rule, "W024", "warning", `rule '${rule.name}' uses {${name}}, which no sample source, [[values]] table or scatter defines; it will stay literal`, [field], name === "sample" ? "add [[sample_groups]], sample_pattern or --samples" : `define it with [[values]] name = "${name}", or write \${${name}} for a shell variable`));
      }
    }
  }
  return findings;
}

/** W007, W019 (nothing uses the rule) and W021 (a script reads another rule's output without an edge). */
function graphFindings(rule: Rule, index: number, graph: JobGraph, pipeline: Pipeline): Finding[] {
  const findings: Finding[] = [];
  const dependents = graph.succStart[index + 1]! - graph.succStart[index]!;
  const executes = rule.shell !== undefined || rule.script !== undefined || rule.transform !== undefined;
  if (dependents === 0 && rule.output.paths.length > 0 && !rule.target) {
    findings.push(ruleFinding(rule, "W007", "info", `rule '${rule.name}' produces final outputs`, null, "mark it target = true to document that its outputs are results"));
  }
  if (dependents === 0 && executes && rule.output.paths.length === 0 && rule.when?.trim() !== "false") {
    findings.push(ruleFinding(rule, "W019", "warning", `rule '${rule.name}' has no outputs and nothing depends on it`, null, "declare its outputs so the engine can tell whether it ran"));
  }
  if (rule.script !== undefined) findings.push(...scriptReadFindings(rule, index, graph, pipeline));
  return findings;
}

function scriptReadFindings(rule: Rule, index: number, graph: JobGraph, pipeline: Pipeline): Finding[] {
  const scriptPath = rule.script!.trim().split(/\s+/)[0] ?? "";
  let content = rule.script!;
  try {
    if (!hostPathChecks()) throw new Error("a shared service does not read files a pipeline names");
    // Only a regular file of reasonable size: the path is the pipeline's to choose (/dev/zero, a FIFO).
    const file = isAbsolute(scriptPath) ? scriptPath : join(pipeline.dir, scriptPath);
    const info = statSync(file);
    if (info.isFile() && info.size <= MAX_SCRIPT_BYTES) content += "\n" + readFileSync(file, "utf8");
  } catch {
    // The script may not exist yet; its path text is still checked.
  }
  const connected = new Set<number>();
  for (let k = graph.predStart[index]!; k < graph.predStart[index + 1]!; k++) connected.add(graph.pred[k]!);
  for (let k = graph.succStart[index]!; k < graph.succStart[index + 1]!; k++) connected.add(graph.succ[k]!);
  const findings: Finding[] = [];
  graph.jobs.forEach((other, otherIndex) => {
    if (otherIndex === index || connected.has(otherIndex)) return;
    for (const output of other.output.paths) {
      const prefix = output.split(/[{*[]/)[0]!.replace(/\/+$/, "");
      if (prefix.length >= 4 && content.includes(prefix)) {
        findings.push(ruleFinding(rule, "W021", "warning", `rule '${rule.name}': its script mentions ${prefix}, an output of rule '${other.name}', but does not depend on it`, ["script"], `list the file as an input, or add depends_on = ["${other.name}"]`));
        return;
      }
    }
  });
  return findings;
}

function unknownKeyFindings(pipeline: Pipeline): Finding[] {
  const unknown = findUnknownKeys(pipeline.raw).map((entry) => ({ entry, source: pipeline.source }));
  for (const rule of pipeline.rules) {
    for (const entry of findUnknownRuleKeys(rule.raw, rule.origin.path, `rule '${rule.name}'`)) unknown.push({ entry, source: rule.origin.source });
  }
  return unknown.map(({ entry, source }) =>
    makeFinding("W026", "warning", `unknown key '${entry.key}' in ${entry.table} is ignored`, {
      at: source.locate(entry.path),
      suggestion: entry.nearest ? `did you mean '${entry.nearest}'?` : "remove it, or check the spelling against the format reference",
    }),
  );
}
