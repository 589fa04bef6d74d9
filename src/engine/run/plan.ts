/**
 * Planning: what a run would do and why. Expands the pipeline, builds the graph, applies `-t`/`--module`,
 * evaluates `when` conditions and output freshness, and gives every job a reason (Decision 5). Jobs
 * downstream of a job that will run also run, even when their outputs look up to date now.
 */
import { EngineError, makeFinding, type Finding } from "../findings.js";
import { undefinedConfigReferences } from "../check/config-references.js";
import { expandPipeline, type Expansion, type Job } from "../expand/expand.js";
import { evaluateCondition, parseCondition, type Condition } from "../expand/when.js";
import { checkDeclaredConfig } from "../format/config.js";
import type { Pipeline, Rule } from "../format/model.js";
import { buildGraph, type JobGraph } from "../dag/graph.js";
import { selectJobs, type Selection } from "../dag/select.js";
import { FileStatCache, outputState } from "./freshness.js";

export type ReasonCode = "never-completed" | "outputs-missing" | "input-changed" | "up-to-date" | "condition-false" | "forced" | "downstream";

export interface JobReason {
  code: ReasonCode;
  /** Human text, e.g. "never completed" or "downstream of align_S1". */
  text: string;
}

const NEVER_COMPLETED: JobReason = Object.freeze({ code: "never-completed", text: "never completed" });
const UP_TO_DATE: JobReason = Object.freeze({ code: "up-to-date", text: "outputs up to date" });
const CONDITION_FALSE: JobReason = Object.freeze({ code: "condition-false", text: "when condition false" });
const FORCED: JobReason = Object.freeze({ code: "forced", text: "forced (--rerun)" });

export interface PlannedJob {
  index: number;
  job: Job;
  run: boolean;
  reason: JobReason;
}

export interface PlanOptions extends Selection {
  /** Run every selected job, fresh or not (`--rerun`). */
  rerun?: boolean;
  /** When given, filled with the milliseconds spent in each stage (expand, graph, plan). */
  timings?: Partial<Record<"expand" | "graph" | "plan", number>>;
}

export interface Plan {
  pipeline: Pipeline;
  expansion: Expansion;
  graph: JobGraph;
  /** Selected jobs in display order (level, then name). */
  jobs: PlannedJob[];
  counts: { total: number; run: number; upToDate: number; conditionFalse: number };
  warnings: Finding[];
}

/** Refuses what cannot run: undefined config references (E005), commandless rules with outputs, bad config values. */
export function checkRunnable(pipeline: Pipeline, expansion: Expansion): void {
  const problems: string[] = [];
  let first: { rule: Rule; field: string } | undefined;
  const seen = new Set<Rule>();
  for (const job of expansion.jobs) {
    if (seen.has(job.rule)) continue;
    seen.add(job.rule);
    const missing = undefinedConfigReferences(job.rule, pipeline.config);
    if (missing.length > 0) {
      problems.push(`rule '${job.template}': ${[...new Set(missing.map((reference) => `config.${reference.key}`))].join(", ")}`);
      first ??= { rule: job.rule, field: missing[0]!.field };
    }
  }
  if (problems.length > 0) {
    throw new EngineError("E005", `workflow references undefined config variable(s) — fix before running: ${problems.join("; ")}`, {
      rule: first?.rule.name,
      at: first ? first.rule.origin.source.locate([...first.rule.origin.path, first.field]) : null,
      suggestion: "add the keys to [config], or pass them with --arg KEY=VALUE",
    });
  }
  for (const rule of pipeline.rules) {
    if (rule.output.paths.length > 0 && rule.shell === undefined && rule.script === undefined && rule.transform === undefined) {
      throw new EngineError("E002", `rule '${rule.name}' has outputs but no shell, script or transform`, {
        rule: rule.name,
        at: rule.origin.source.locate(rule.origin.path),
        suggestion: 'add shell = "…" (or script = "…") to say how the outputs are made',
      });
    }
  }
  const configProblems = checkDeclaredConfig(pipeline.config, pipeline.configMeta, pipeline.dir);
  if (configProblems.length > 0) {
    const problem = configProblems[0]!;
    throw new EngineError("CONFIG_ERROR", configProblems.map((finding) => finding.message).join("; "), { suggestion: problem.suggestion });
  }
}

/** Plans a pipeline: every selected job with whether it would run and why. */
export function planPipeline(pipeline: Pipeline, options: PlanOptions = {}): Plan {
  let started = performance.now();
  const lap = (stage: "expand" | "graph" | "plan"): void => {
    const now = performance.now();
    if (options.timings) options.timings[stage] = now - started;
    started = now;
  };
  const expansion = expandPipeline(pipeline, "plan");
  checkRunnable(pipeline, expansion);
  lap("expand");
  const graph = buildGraph(expansion);
  lap("graph");
  const selected = selectJobs(graph, options, pipeline.modules);
  const files = new FileStatCache(pipeline.dir);
  const conditions = new Map<string, Condition>();
  const n = graph.jobs.length;
  const runs = new Uint8Array(n);
  const reasons = new Array<JobReason | undefined>(n);
  const warnings: Finding[] = [];

  // Level order is a topological order, so every predecessor is decided before its dependents.
  for (const index of graph.order) {
    if (selected && !selected[index]) continue;
    const job = graph.jobs[index]!;
    const condition = job.rule.when ? conditionFor(job.rule, conditions) : undefined;
    if (condition && !evaluateCondition(condition, { config: pipeline.config, bindings: job.bindings, workdir: pipeline.dir })) {
      reasons[index] = CONDITION_FALSE;
      continue;
    }
    if (options.rerun) {
      runs[index] = 1;
      reasons[index] = FORCED;
      continue;
    }
    const state = outputState(job, files);
    if (state.state === "fresh") {
      const upstream = runningPredecessor(graph, index, runs);
      if (upstream < 0) {
        reasons[index] = UP_TO_DATE;
        continue;
      }
      runs[index] = 1;
      reasons[index] = { code: "downstream", text: `downstream of ${graph.jobs[upstream]!.name}` };
      continue;
    }
    runs[index] = 1;
    if (state.state === "partial") reasons[index] = { code: "outputs-missing", text: `outputs missing: ${state.missing}` };
    else if (state.state === "stale") reasons[index] = { code: "input-changed", text: `input changed: ${state.input} is newer than the outputs` };
    else reasons[index] = NEVER_COMPLETED;
  }

  const jobs: PlannedJob[] = [];
  const counts = { total: 0, run: 0, upToDate: 0, conditionFalse: 0 };
  for (const index of graph.order) {
    const reason = reasons[index];
    if (!reason) continue;
    jobs.push({ index, job: graph.jobs[index]!, run: runs[index] === 1, reason });
    counts.total++;
    if (runs[index]) counts.run++;
    else if (reason.code === "up-to-date") counts.upToDate++;
    else counts.conditionFalse++;
  }
  lap("plan");
  if (counts.total === 0 && pipeline.rules.length > 0) {
    warnings.push(makeFinding("EMPTY_PLAN", "warning", "the selection has no jobs", { suggestion: "check -t, --module and --samples" }));
  }
  return { pipeline, expansion, graph, jobs, counts, warnings };
}

function conditionFor(rule: Rule, cache: Map<string, Condition>): Condition {
  const text = rule.when!;
  let condition = cache.get(text);
  if (!condition) {
    try {
      condition = parseCondition(text);
    } catch (error) {
      throw new EngineError("E017", `rule '${rule.name}': cannot read when = "${text}": ${(error as Error).message}`, {
        rule: rule.name,
        at: rule.origin.source.locate([...rule.origin.path, "when"]),
      });
    }
    cache.set(text, condition);
  }
  return condition;
}

/** The first predecessor that will run, or -1. */
function runningPredecessor(graph: JobGraph, index: number, runs: Uint8Array): number {
  for (let k = graph.predStart[index]!; k < graph.predStart[index + 1]!; k++) {
    const parent = graph.pred[k]!;
    if (runs[parent]) return parent;
  }
  return -1;
}
