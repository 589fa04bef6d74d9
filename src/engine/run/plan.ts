/**
 * Planning: what a run would do and why. Expands the pipeline, builds the graph, applies `-t`/`--module`,
 * evaluates `when` conditions, and gives every job a reason (docs/reference/pipeline-format.md, decision 5).
 * Jobs downstream of a job that will run also run, even when their outputs look up to date now.
 *
 * Without a checkpoint, output freshness decides (every output present and newer than every input). With one
 * (docs/reference/pipeline-format.md §5.6), a job recorded as completed is up to date unless something it
 * depended on changed: a config value it references, its rule's definition, its script's content, an input
 * file's content (or the set of files behind a glob or folder), or an output went missing. Deleted temporary
 * outputs (tombstones) do not by themselves cause a re-run; their producer runs again ("upstream of …") when a
 * consumer must run.
 */
import { EngineError, makeFinding, type Finding } from "../findings.js";
import { undefinedConfigReferences } from "../check/config-references.js";
import { expandPipeline, type Expansion, type Job } from "../expand/expand.js";
import { evaluateCondition, parseCondition, type Condition } from "../expand/when.js";
import { checkDeclaredConfig } from "../format/config.js";
import type { Pipeline, Rule } from "../format/model.js";
import { buildGraph, type JobGraph } from "../dag/graph.js";
import { selectJobs, unknownRule, type Selection } from "../dag/select.js";
import type { CheckpointData, JobRecord } from "./checkpoint/checkpoint.js";
import { changedConfigKeys, changedRuleFields, InputFiles, ruleConfigKeys, ruleFieldDigests, ruleFingerprint, scriptDigest, type ManifestOptions } from "./checkpoint/fingerprint.js";
import { FileStatCache, outputState } from "./checkpoint/freshness.js";

/**
 * Why a job runs or not (docs/reference/pipeline-format.md, decision 5); the table of
 * docs/reference/pipeline-format.md §5.6 lists each code's text and when it applies.
 */
export type ReasonCode =
  | "never-completed"
  | "failed-before"
  | "rule-changed"
  | "script-changed"
  | "input-changed"
  | "config-changed"
  | "outputs-missing"
  | "downstream"
  | "upstream"
  | "forced"
  | "up-to-date"
  | "condition-false"
  | "not-selected";

export interface JobReason {
  code: ReasonCode;
  /** Human text, e.g. "never completed" or "downstream of align_S1". */
  text: string;
}

const NEVER_COMPLETED: JobReason = Object.freeze({ code: "never-completed", text: "never completed" });
const FAILED_BEFORE: JobReason = Object.freeze({ code: "failed-before", text: "failed in the last run" });
const UP_TO_DATE: JobReason = Object.freeze({ code: "up-to-date", text: "outputs up to date" });
const TOMBSTONED: JobReason = Object.freeze({ code: "up-to-date", text: "up to date (temporary outputs removed)" });
const CONDITION_FALSE: JobReason = Object.freeze({ code: "condition-false", text: "when condition false" });
const FORCED: JobReason = Object.freeze({ code: "forced", text: "forced (--rerun)" });

/** A job runs to make its outputs anew; what follows it runs too. */
const RUNS = 1;
/**
 * A job runs only because a consumer needs outputs it made before and that were deleted (tombstoned
 * temporaries, or outputs missing under --retry-failed): its other consumers do not follow. Should the
 * remade file differ, the next plan sees it in their input manifests.
 */
const REGENERATES = 2;

export interface PlannedJob {
  index: number;
  job: Job;
  run: boolean;
  reason: JobReason;
}

export interface PlanOptions extends Selection {
  /** Run every selected job, fresh or not (`--rerun`); wins over the options below. */
  rerun?: boolean;
  /** `-R/--forcerun`: run every job of these rules (exact names), and so everything downstream of them. */
  forceRules?: readonly string[];
  /** The workdir's checkpoint (`readCheckpoint`, or `CheckpointStore.data`): recorded jobs are judged by what they depended on. */
  checkpoint?: CheckpointData;
  /** Run only the jobs the checkpoint records as failed, what is downstream of them, and producers of missing inputs (`--retry-failed`). */
  retryFailed?: boolean;
  /** The same selection as `retryFailed`, named after `--resume-failed`. */
  resumeFailed?: boolean;
  /** References rebuilt before this run (names = config keys): jobs whose rule references one run again. */
  rebuiltReferences?: readonly string[];
  /** Content-hash limit for input manifests (tests lower it). */
  manifest?: ManifestOptions;
  /** When given, filled with the milliseconds spent in each stage (expand, graph, plan). */
  timings?: Partial<Record<"expand" | "graph" | "plan", number>>;
}

export interface Plan {
  pipeline: Pipeline;
  expansion: Expansion;
  graph: JobGraph;
  /** Selected jobs in display order (level, then name). */
  jobs: PlannedJob[];
  counts: { total: number; run: number; upToDate: number; conditionFalse: number; notSelected: number };
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
  const configProblems = checkDeclaredConfig(pipeline.config, pipeline.configMeta, pipeline.detached ? undefined : pipeline.dir);
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
  const forced = forcedRules(graph, options.forceRules);
  const files = new FileStatCache(pipeline.dir);
  const conditions = new Map<string, Condition>();
  const n = graph.jobs.length;
  // RUNS, or REGENERATES for a producer that runs only to remake deleted inputs (nothing follows from that).
  const runs = new Uint8Array(n);
  const reasons = new Array<JobReason | undefined>(n);
  // Branches switched off by an empty list (W027): the same warnings validate gives.
  const warnings: Finding[] = [...expansion.warnings];
  const checkpoint = options.checkpoint;
  const retryFlag = options.rerun ? undefined : options.retryFailed ? "--retry-failed" : options.resumeFailed ? "--resume-failed" : undefined;
  const rebuilt = new RebuiltReferences(options.rebuiltReferences);
  // Producers may have to run again for a consumer only when something other than file freshness decided them.
  const inputs = (checkpoint && !options.rerun) || retryFlag !== undefined ? new InputFiles(pipeline.dir, options.manifest) : undefined;
  const judge = checkpoint && inputs && retryFlag === undefined ? new RecordJudge(pipeline, graph, checkpoint, files, inputs, rebuilt) : undefined;

  // Level order is a topological order, so every predecessor is decided before its dependents.
  for (const index of graph.order) {
    if (selected && !selected[index]) continue;
    const job = graph.jobs[index]!;
    const condition = job.rule.when ? conditionFor(job.rule, conditions) : undefined;
    if (condition && !evaluateCondition(condition, { config: pipeline.config, bindings: job.bindings, workdir: pipeline.detached ? undefined : pipeline.dir })) {
      reasons[index] = CONDITION_FALSE;
      continue;
    }
    if (options.rerun) {
      runs[index] = RUNS;
      reasons[index] = FORCED;
      continue;
    }
    if (forced?.has(job.template)) {
      // Dependents then run as "downstream of" this job through the usual checks below.
      runs[index] = RUNS;
      reasons[index] = { code: "forced", text: `forced (-R ${job.template})` };
    } else if (retryFlag !== undefined) {
      if (recordOf(checkpoint, job.name)?.status === "failed") {
        runs[index] = RUNS;
        reasons[index] = FAILED_BEFORE;
      } else {
        const upstream = runningPredecessor(graph, index, runs);
        if (upstream >= 0) {
          runs[index] = RUNS;
          reasons[index] = { code: "downstream", text: `downstream of ${graph.jobs[upstream]!.name}` };
        } else reasons[index] = { code: "not-selected", text: `not selected (${retryFlag})` };
      }
    } else if (judge) {
      const reason = judge.judge(job, () => runningPredecessor(graph, index, runs));
      if (reason.code !== "up-to-date") runs[index] = RUNS;
      reasons[index] = reason;
    } else {
      const state = outputState(job, files);
      const reference = state.state === "fresh" ? rebuilt.usedBy(job.rule) : undefined;
      if (reference !== undefined) {
        runs[index] = RUNS;
        reasons[index] = referenceRebuilt(reference);
      } else if (state.state === "fresh") {
        const upstream = runningPredecessor(graph, index, runs);
        if (upstream < 0) reasons[index] = UP_TO_DATE;
        else {
          runs[index] = RUNS;
          reasons[index] = { code: "downstream", text: `downstream of ${graph.jobs[upstream]!.name}` };
        }
      } else {
        runs[index] = RUNS;
        if (state.state === "partial") reasons[index] = { code: "outputs-missing", text: `outputs missing: ${state.missing}` };
        else if (state.state === "stale") reasons[index] = { code: "input-changed", text: `input changed: ${state.input} is newer than the outputs` };
        else reasons[index] = NEVER_COMPLETED;
      }
    }
    if (inputs && runs[index]) regenerateMissingInputs(graph, index, runs, reasons, selected, inputs);
  }

  const jobs: PlannedJob[] = [];
  const counts = { total: 0, run: 0, upToDate: 0, conditionFalse: 0, notSelected: 0 };
  for (const index of graph.order) {
    const reason = reasons[index];
    if (!reason) continue;
    jobs.push({ index, job: graph.jobs[index]!, run: runs[index] !== 0, reason });
    counts.total++;
    if (runs[index]) counts.run++;
    else if (reason.code === "up-to-date") counts.upToDate++;
    else if (reason.code === "not-selected") counts.notSelected++;
    else counts.conditionFalse++;
  }
  lap("plan");
  if (counts.total === 0 && pipeline.rules.length > 0) {
    warnings.push(makeFinding("EMPTY_PLAN", "warning", "the selection has no jobs", { suggestion: "check -t, --module and --samples" }));
  }
  return { pipeline, expansion, graph, jobs, counts, warnings };
}

/** The `-R` rule names as a set, after checking that each names a rule with jobs. */
function forcedRules(graph: JobGraph, rules: readonly string[] | undefined): Set<string> | undefined {
  if (!rules || rules.length === 0) return undefined;
  const names = new Set(graph.jobs.map((job) => job.template));
  for (const rule of rules) if (!names.has(rule)) throw unknownRule("-R/--forcerun", rule, [...names]);
  return new Set(rules);
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

/** The first predecessor that will run (to make new outputs, not only to remake deleted ones), or -1. */
function runningPredecessor(graph: JobGraph, index: number, runs: Uint8Array): number {
  for (let k = graph.predStart[index]!; k < graph.predStart[index + 1]!; k++) {
    const parent = graph.pred[k]!;
    if (runs[parent] === RUNS) return parent;
  }
  return -1;
}

/** References rebuilt before the run, and which rules use them (through `{config.<name>}`), answered once per rule. */
class RebuiltReferences {
  private readonly names: Set<string>;
  private readonly byRule = new WeakMap<Rule, string | null>();

  constructor(names: readonly string[] = []) {
    this.names = new Set(names);
  }

  /** The first rebuilt reference the rule uses, or undefined. */
  usedBy(rule: Rule): string | undefined {
    if (this.names.size === 0) return undefined;
    let found = this.byRule.get(rule);
    if (found === undefined) {
      found = ruleConfigKeys(rule).find((key) => this.names.has(key)) ?? null;
      this.byRule.set(rule, found);
    }
    return found ?? undefined;
  }
}

function referenceRebuilt(name: string): JobReason {
  return { code: "input-changed", text: `reference rebuilt: ${name}` };
}

function recordOf(checkpoint: CheckpointData | undefined, name: string): JobRecord | undefined {
  return checkpoint && Object.hasOwn(checkpoint.jobs, name) ? checkpoint.jobs[name] : undefined;
}

/** True when one of the job's outputs is not on disk (an unresolved placeholder counts as missing). */
function outputsMissing(job: Job, files: InputFiles): boolean {
  for (const output of job.output.paths) if (output.includes("{") || !files.exists(output)) return true;
  return false;
}

/**
 * A job that runs needs its inputs: every producer that is not running and whose outputs are missing
 * (deleted temporaries, or a producer left out by --retry-failed) runs too ("upstream of …"), and so on up.
 * Each job is marked at most once, so the whole plan stays linear.
 */
function regenerateMissingInputs(graph: JobGraph, start: number, runs: Uint8Array, reasons: (JobReason | undefined)[], selected: Uint8Array | undefined, files: InputFiles): void {
  const stack = [start];
  while (stack.length > 0) {
    const index = stack.pop()!;
    for (let k = graph.predStart[index]!; k < graph.predStart[index + 1]!; k++) {
      const parent = graph.pred[k]!;
      if (runs[parent] || (selected && !selected[parent])) continue;
      const reason = reasons[parent];
      if (!reason || reason.code === "condition-false") continue;
      if (!outputsMissing(graph.jobs[parent]!, files)) continue;
      runs[parent] = REGENERATES;
      reasons[parent] = { code: "upstream", text: `upstream of ${graph.jobs[index]!.name}` };
      stack.push(parent);
    }
  }
}

/**
 * Judges jobs against their checkpoint records. Checks run cheapest and most telling first: config values,
 * the rule's fingerprint, the script's content, input files (stat first; hashed only when a file's time
 * changed), outputs. Files are looked at only for jobs that have a record.
 */
class RecordJudge {
  private tombstoned: Set<string> | undefined;

  constructor(
    private readonly pipeline: Pipeline,
    private readonly graph: JobGraph,
    private readonly checkpoint: CheckpointData,
    private readonly files: FileStatCache,
    private readonly inputs: InputFiles,
    private readonly rebuilt: RebuiltReferences,
  ) {}

  /**
   * Why the job runs, or "up-to-date". `runningParent` names a predecessor that runs (or -1): a job's own
   * definition changes are named first, then the cascade, since inputs a running producer remakes are
   * bound to differ from the record.
   */
  judge(job: Job, runningParent: () => number): JobReason {
    const record = recordOf(this.checkpoint, job.name);
    if (!record) {
      // Not recorded (a new job, or one finished before the checkpoint existed): the files decide.
      if (outputState(job, this.files).state !== "fresh") return NEVER_COMPLETED;
      const reference = this.rebuilt.usedBy(job.rule);
      return reference !== undefined ? referenceRebuilt(reference) : this.downstream(runningParent) ?? UP_TO_DATE;
    }
    if (record.status === "failed") return FAILED_BEFORE;
    const pipeline = this.pipeline;
    const keys = changedConfigKeys(record.config, job, pipeline);
    if (keys.length > 0) return { code: "config-changed", text: `config key${keys.length === 1 ? "" : "s"} changed: ${keys.join(", ")}` };
    const reference = this.rebuilt.usedBy(job.rule);
    if (reference !== undefined) return referenceRebuilt(reference);
    if (ruleFingerprint(job, pipeline) !== record.fingerprint) {
      const fields = record.rule_fields ? changedRuleFields(record.rule_fields, ruleFieldDigests(job, pipeline)) : [];
      return { code: "rule-changed", text: fields.length > 0 ? `rule definition changed: ${fields.join(", ")}` : "rule definition changed" };
    }
    const script = scriptDigest(job, pipeline);
    if (script && (script.path !== record.script?.path || script.digest !== record.script.digest)) {
      return { code: "script-changed", text: `script file changed: ${script.path}${script.digest === null ? " (missing)" : ""}` };
    }
    const downstream = this.downstream(runningParent);
    if (downstream) return downstream;
    const input = this.inputs.change(record.inputs, job, this.deletedTemporaries());
    if (input !== undefined) return { code: "input-changed", text: `input changed: ${input}` };
    const missing = this.missingOutputs(job);
    if (missing === "tombstoned") return TOMBSTONED;
    if (missing !== undefined) return { code: "outputs-missing", text: `outputs missing: ${missing}` };
    // A record without a manifest (inputs that did not exist yet) still has the freshness gate.
    if (record.inputs.length === 0 && job.input.paths.length > 0) {
      const state = outputState(job, this.files);
      if (state.state === "stale") return { code: "input-changed", text: `input changed: ${state.input} is newer than the outputs` };
    }
    return UP_TO_DATE;
  }

  private downstream(runningParent: () => number): JobReason | undefined {
    const parent = runningParent();
    return parent < 0 ? undefined : { code: "downstream", text: `downstream of ${this.graph.jobs[parent]!.name}` };
  }

  /** Every tombstoned path: consumers may find them missing without that being a change of their inputs. */
  private deletedTemporaries(): ReadonlySet<string> {
    if (!this.tombstoned) {
      this.tombstoned = new Set();
      for (const name of Object.keys(this.checkpoint.tombstones)) for (const path of this.checkpoint.tombstones[name]!) this.tombstoned.add(path);
    }
    return this.tombstoned;
  }

  /** The first missing output that was not deleted as a temporary; "tombstoned" when only deleted temporaries are missing. */
  private missingOutputs(job: Job): string | "tombstoned" | undefined {
    let tombstoned = false;
    const deleted = Object.hasOwn(this.checkpoint.tombstones, job.name) ? this.checkpoint.tombstones[job.name]! : [];
    for (const output of job.output.paths) {
      if (!output.includes("{") && this.inputs.exists(output)) continue;
      if (!deleted.includes(output)) return output;
      tombstoned = true;
    }
    return tombstoned ? "tombstoned" : undefined;
  }
}
