/**
 * The pipeline tooling's work, free of HTTP, as it runs inside an engine worker (see `worker.ts`; callers
 * go through `service.ts`): parse, validate, prepare, dag, format, lint, stats, diff and export of TOML
 * text sent by a client, what a text says about itself for the domains that keep texts (saved pipelines,
 * templates), and the checks a run needs. The text is loaded "detached": nothing outside it is read (no
 * includes, sample sheets or file patterns) and relative paths resolve in an empty folder, so a request can
 * never make the service read or fetch anything. Large answers come in pages (`limit`, `cursor`). Engine
 * errors are thrown as they are; the routes give them codes.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse, TomlError } from "smol-toml";
import { lintPipeline } from "../../../engine/check/lint.js";
import { validatePipeline } from "../../../engine/check/validate.js";
import { buildGraph, criticalPath } from "../../../engine/dag/graph.js";
import { expandPipeline } from "../../../engine/expand/expand.js";
import { renderCommand, renderContext } from "../../../engine/expand/render-command.js";
import { EngineError, type Finding } from "../../../engine/findings.js";
import { formatPipelineText } from "../../../engine/format/canonical-format.js";
import { loadPipelineText } from "../../../engine/format/load.js";
import type { Pipeline } from "../../../engine/format/model.js";
import { effectiveEnvironment, effectiveMemory, effectiveThreads, environmentKind, environmentLabel, environmentSpec, memoryToMegabytes } from "../../../engine/format/rule-settings.js";
import { setupScript } from "../../../engine/run/environments/environment-setup.js";
import { diffPipelines, type DiffResult } from "../../../engine/tools/diff.js";
import { exportPipeline, type ExportResult } from "../../../engine/tools/export.js";
import { pipelineStats, type PipelineStats } from "../../../engine/tools/stats.js";
import { ServiceError } from "../../errors.js";

/** Page sizes of the answers that can be large: the default and the most one page holds. */
export const PAGE_LIMITS = { prepareJobs: { default: 1000, max: 10_000 }, dagNodes: { default: 5000, max: 20_000 } } as const;

/** A finding as the API shows it. */
export interface ApiFinding {
  code: string;
  severity: "error" | "warning" | "info";
  message: string;
  rule: string | null;
  suggestion: string | null;
  line: number | null;
  column: number | null;
}

/** Converts an engine finding to the API's shape. */
export function apiFinding(finding: Finding): ApiFinding {
  return {
    code: finding.code,
    severity: finding.severity,
    message: finding.message,
    rule: finding.rule ?? null,
    suggestion: finding.suggestion ?? null,
    line: finding.line ?? null,
    column: finding.column ?? null,
  };
}

let emptyFolder: string | undefined;

/** An empty folder that relative paths of sent pipelines resolve in (made once per process). */
function detachedDir(): string {
  emptyFolder ??= mkdtempSync(join(tmpdir(), "strand-detached-"));
  return emptyFolder;
}

/** Loads sent text on its own; `config` and `samples` act like `--arg` and `--samples`. */
export function loadDetached(text: string, options: { config?: Record<string, string>; samples?: string[]; name?: string } = {}): Promise<Pipeline> {
  const samples = options.samples && options.samples.length > 0 ? options.samples.join(",") : undefined;
  return loadPipelineText(text, { path: options.name ?? "pipeline.oxoflow", dir: detachedDir(), detached: true, overrides: options.config, samples });
}

/** A page's start from a cursor this module issued (the offset, as text); BAD_REQUEST for anything else. */
function pageStart(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  if (!/^\d{1,9}$/.test(cursor)) throw new ServiceError("BAD_REQUEST", "the cursor is not one this service issued", { suggestion: "pass next_cursor from the previous page, or leave cursor out for the first page" });
  return Number(cursor);
}

/** The cursor of the page after [start, start + count) of `total` items, or null at the end. */
function nextCursor(start: number, count: number, total: number): string | null {
  return start + count < total ? String(start + count) : null;
}

/** Codes of failures that mean the text could not be read as a pipeline at all. */
const PARSE_CODES = new Set(["PARSE_ERROR", "SCHEMA_ERROR", "IO_ERROR", "LIMIT_ERROR"]);

/** True for engine errors that come from reading the text (syntax, schema). */
export function isParseFailure(error: unknown): error is EngineError {
  return error instanceof EngineError && PARSE_CODES.has(error.code);
}

/** The structure of a pipeline. */
export async function parsePipeline(text: string) {
  const pipeline = await loadDetached(text);
  return {
    workflow: {
      name: pipeline.workflow.name,
      version: pipeline.workflow.version,
      description: pipeline.workflow.description ?? null,
      author: pipeline.workflow.author ?? null,
    },
    rules: pipeline.rules.map((rule) => ({
      name: rule.name,
      description: rule.description ?? null,
      input: rule.input.paths,
      output: rule.output.paths,
      shell: rule.shell ?? null,
      script: rule.script ?? null,
      threads: effectiveThreads(rule, pipeline.defaults),
      memory: effectiveMemory(rule, pipeline.defaults) ?? null,
      environment: environmentLabel(effectiveEnvironment(rule, pipeline.defaults)),
      when: rule.when ?? null,
      depends_on: rule.depends_on,
      line: rule.origin.source.locate(rule.origin.path)?.line ?? null,
    })),
    config: Object.fromEntries(Object.entries(pipeline.config).filter(([key]) => !pipeline.injectedConfig.has(key))),
    sample_groups: pipeline.sample_groups.map((group) => ({ name: group.name, samples: group.samples })),
    pairs: pipeline.pairs.map((pair) => ({ ...pair })),
    includes: pipeline.include.map((include) => ({ path: include.path, namespace: include.namespace ?? null, repo: include.repo ?? null, ref: include.ref ?? null })),
  };
}

/** Validation: a text that cannot be read is a result with one PARSE_ERROR finding, not a failure. */
export async function validateText(text: string) {
  let pipeline: Pipeline;
  try {
    pipeline = await loadDetached(text);
  } catch (error) {
    if (!(error instanceof EngineError)) throw error;
    const finding = apiFinding(error.finding);
    if (isParseFailure(error)) finding.code = "PARSE_ERROR";
    return { valid: false, errors: [finding], warnings: [], rules: 0, dependencies: 0, missing_inputs: [] };
  }
  const result = validatePipeline(pipeline);
  const info = pipeline.warnings.map(apiFinding);
  return {
    valid: result.valid,
    errors: result.findings.filter((finding) => finding.severity === "error").map(apiFinding),
    warnings: [...result.findings.filter((finding) => finding.severity !== "error").map(apiFinding), ...info],
    rules: result.rules,
    dependencies: result.dependencies,
    missing_inputs: result.missingInputs,
  };
}

/** Lint: errors, warnings and info findings. */
export async function lintText(text: string, strict = false) {
  const pipeline = await loadDetached(text);
  const result = lintPipeline(pipeline, { strict });
  const all = [...result.findings, ...pipeline.warnings].map(apiFinding);
  return {
    valid: result.passed,
    errors: all.filter((finding) => finding.severity === "error"),
    warnings: all.filter((finding) => finding.severity === "warning"),
    info: all.filter((finding) => finding.severity === "info"),
  };
}

/** Expansion into jobs: a page of `limit` jobs with rendered commands from `cursor`, counts per rule, environment set-ups. */
export async function prepareText(text: string, options: { samples?: string[]; config?: Record<string, string>; limit?: number; cursor?: string }) {
  const pipeline = await loadDetached(text, { samples: options.samples, config: options.config });
  const expansion = expandPipeline(pipeline, "plan");
  const context = renderContext(pipeline);
  const limit = Math.min(options.limit ?? PAGE_LIMITS.prepareJobs.default, PAGE_LIMITS.prepareJobs.max);
  const start = pageStart(options.cursor);
  const environments = new Map<string, { kind: string; spec: string; command: string | null }>();
  for (const rule of pipeline.rules) {
    const environment = effectiveEnvironment(rule, pipeline.defaults);
    const kind = environmentKind(environment);
    if (kind === "system") continue;
    const key = `${kind}:${environmentSpec(environment)}`;
    if (!environments.has(key)) environments.set(key, { kind, spec: environmentSpec(environment), command: setupScript(environment, detachedDir()) ?? null });
  }
  return {
    jobs_total: expansion.jobs.length,
    rules: [...expansion.instancesOf].map(([rule, indices]) => ({ rule, jobs: indices.length })),
    jobs: expansion.jobs.slice(start, start + limit).map((job) => {
      let command: string | null;
      try {
        command = renderCommand(job, context, pipeline.workflow.interpreter_map);
      } catch {
        command = null; // an unsafe value: validate and dry-run explain it
      }
      return {
        name: job.name,
        rule: job.template,
        inputs: job.input.paths,
        outputs: job.output.paths,
        command,
        environment: environmentLabel(effectiveEnvironment(job.rule, pipeline.defaults)),
        threads: effectiveThreads(job.rule, pipeline.defaults),
        memory: effectiveMemory(job.rule, pipeline.defaults) ?? null,
        bindings: { ...job.bindings },
      };
    }),
    environment_setup: [...environments.values()],
    next_cursor: nextCursor(start, limit, expansion.jobs.length),
  };
}

/**
 * The rule graph (or with `expanded` the job graph): nodes, edges, levels, critical path and metrics of the
 * whole graph. A graph of more than `limit` nodes comes in pages: the nodes from `cursor` on, the edges
 * into them, no `levels` (each node has its level) and the critical path's first `limit` names; `metrics`
 * always describe the whole graph.
 */
export async function dagOf(text: string, options: { expanded?: boolean; limit?: number; cursor?: string } = {}) {
  const pipeline = await loadDetached(text);
  const graph = buildGraph(expandPipeline(pipeline, options.expanded ? "plan" : "template"));
  const total = graph.jobs.length;
  const limit = Math.min(options.limit ?? PAGE_LIMITS.dagNodes.default, PAGE_LIMITS.dagNodes.max);
  const start = pageStart(options.cursor);
  const paged = start > 0 || total > limit;
  const end = Math.min(total, start + limit);
  const levels: string[][] = Array.from({ length: paged ? 0 : graph.levelCount }, () => []);
  let maxWidth = 0;
  const widths = new Int32Array(graph.levelCount);
  for (let index = 0; index < total; index++) maxWidth = Math.max(maxWidth, ++widths[graph.level[index]!]!);
  const nodes = graph.jobs.slice(start, end).map((job, offset) => {
    const index = start + offset;
    if (!paged) levels[graph.level[index]!]!.push(job.name);
    return {
      id: job.name,
      label: job.name,
      rule: job.template,
      environment: environmentLabel(effectiveEnvironment(job.rule, pipeline.defaults)),
      threads: effectiveThreads(job.rule, pipeline.defaults),
      memory: effectiveMemory(job.rule, pipeline.defaults) ?? null,
      level: graph.level[index]!,
    };
  });
  const edges = [];
  for (let k = 0; k < graph.edges.count; k++) {
    const to = graph.edges.to[k]!;
    if (to < start || to >= end) continue;
    edges.push({ from: graph.jobs[graph.edges.from[k]!]!.name, to: graph.jobs[to]!.name, kind: graph.edges.kind[k] === 1 ? ("declared" as const) : ("file" as const) });
  }
  return {
    nodes,
    edges,
    levels,
    critical_path: criticalPath(graph).slice(0, limit),
    metrics: { nodes: total, edges: graph.edges.count, max_depth: graph.levelCount, max_width: maxWidth },
    next_cursor: nextCursor(start, end - start, total),
  };
}

/** The canonical layout of the text (comments kept). */
export function formatText(text: string): { formatted: string; changed: boolean } {
  const formatted = formatPipelineText(text, "pipeline.oxoflow");
  return { formatted, changed: formatted !== text };
}

/** Pipeline statistics. */
export async function statsOf(text: string): Promise<PipelineStats> {
  return pipelineStats(await loadDetached(text));
}

/** Structured and textual differences between two pipelines. */
export async function diffTexts(a: string, b: string): Promise<DiffResult> {
  const [left, right] = await Promise.all([loadDetached(a, { name: "a.oxoflow" }), loadDetached(b, { name: "b.oxoflow" })]);
  return diffPipelines(left, right, a, b, { a: "a.oxoflow", b: "b.oxoflow" });
}

/** A Dockerfile or Apptainer definition for the pipeline. */
export async function exportText(text: string, format: "docker" | "singularity"): Promise<ExportResult> {
  return exportPipeline(await loadDetached(text), format);
}

/** What a kept text says about itself (saved pipelines and templates store it beside the text). */
export interface TextFacts {
  name: string;
  version: string | null;
  description: string | null;
  rules_count: number;
}

/** The lint result kept texts carry. */
export interface Validation {
  valid: boolean;
  errors: ApiFinding[];
  warnings: ApiFinding[];
  info: ApiFinding[];
}

function text(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value : null;
}

/** Reads the facts of a text to keep; PARSE_ERROR for text that is not TOML or has no workflow name. */
export function textFacts(toml: string, source = "toml_content"): TextFacts {
  let document: Record<string, unknown>;
  try {
    document = parse(toml) as Record<string, unknown>;
  } catch (error) {
    const where = error instanceof TomlError ? `line ${error.line}, column ${error.column}` : undefined;
    const reason = (error as Error).message.split("\n")[0] ?? "not valid TOML";
    throw new ServiceError("PARSE_ERROR", `${source} is not valid TOML: ${reason}`, { ...(where ? { detail: where } : {}), suggestion: "fix the TOML syntax at the position shown (POST /api/pipelines/validate shows every problem)" });
  }
  const workflow = document.workflow;
  const name = workflow && typeof workflow === "object" && !Array.isArray(workflow) ? text((workflow as Record<string, unknown>).name) : null;
  if (name === null) {
    throw new ServiceError("PARSE_ERROR", `${source} has no [workflow] name`, { detail: "line 1, column 1", suggestion: 'start the pipeline with [workflow] and name = "my-pipeline"' });
  }
  const table = workflow as Record<string, unknown>;
  return {
    name,
    version: text(table.version),
    description: text(table.description),
    rules_count: Array.isArray(document.rules) ? document.rules.length : 0,
  };
}

/** The lint result kept with a text; a text the engine cannot load is one error finding, not a failure. */
export async function validationOf(toml: string): Promise<Validation> {
  try {
    return await lintText(toml);
  } catch (error) {
    if (!(error instanceof EngineError)) throw error;
    return { valid: false, errors: [apiFinding(error.finding)], warnings: [], info: [] };
  }
}

/** What a text to keep says about itself, and its lint result; `lenient` gives null facts instead of PARSE_ERROR. */
export async function describeText(text: string, options: { source?: string; lenient?: boolean } = {}): Promise<{ facts: TextFacts | null; validation: Validation }> {
  let facts: TextFacts | null;
  try {
    facts = textFacts(text, options.source);
  } catch (error) {
    if (!options.lenient) throw error;
    facts = null;
  }
  return { facts, validation: await validationOf(text) };
}

/** The errors that stop a run of this text with these samples and config (none: it may start), and its workflow name. */
export async function validateForRun(text: string, options: { config?: Record<string, string>; samples?: string[] }): Promise<{ workflow_name: string | null; errors: ApiFinding[] }> {
  let pipeline: Pipeline;
  try {
    pipeline = await loadDetached(text, options);
  } catch (error) {
    if (!(error instanceof EngineError)) throw error;
    const finding = apiFinding(error.finding);
    if (isParseFailure(error)) finding.code = "PARSE_ERROR";
    return { workflow_name: null, errors: [finding] };
  }
  const errors = validatePipeline(pipeline).findings.filter((finding) => finding.severity === "error").map(apiFinding);
  return { workflow_name: pipeline.workflow.name, errors };
}

/** Each rule's declared memory in MB (for memory bottlenecks); empty when the text cannot be read. */
export async function ruleMemory(text: string): Promise<Record<string, number>> {
  const memory: Record<string, number> = {};
  try {
    const pipeline = await loadDetached(text);
    for (const rule of pipeline.rules) {
      const mb = memoryToMegabytes(effectiveMemory(rule, pipeline.defaults));
      if (mb !== undefined) memory[rule.name] = mb;
    }
  } catch {
    // an unreadable pipeline has no declared figures
  }
  return memory;
}
