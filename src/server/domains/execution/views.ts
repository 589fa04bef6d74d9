/**
 * The read views of a run, all derived from what the run itself wrote — its event log (through the
 * supervisor's live fold, or a fold of the file once it has ended), its metrics file, its job logs and
 * the declared outputs of its pipeline — never from another run sharing the workspace. A dry run has no
 * event log (nothing ran): its views show the engine's plan instead, every job `would_run` or `would_skip`
 * with the engine's reason.
 */
import { EngineError } from "../../../engine/findings.js";
import { engineTasks } from "../../engine-pool.js";
import type { Caller } from "../../caller.js";
import { ServiceError } from "../../errors.js";
import type { DryRunPlan, DryRunJob } from "../../runner/dry-run-plan.js";
import { JobTable, type JobPage, type JobQuery } from "./job-table.js";
import { adoptEndedLiveFold, cachedFold, expandJobs, fileVersion, lazily, type RunFold } from "./run-folds.js";
import { PIPELINE_TEXT_MAX_BYTES, ranPipelinePath, runFiles, runRequestOf, type RunFiles } from "../../runner/engine-command.js";
import { readRemoteResults } from "../../runner/remote/remote-results.js";
import { readMetrics, summariseMetrics } from "../../runner/metrics-file.js";
import { RunProgress, type JobProgress } from "../../runner/run-progress.js";
import { readWorkspaceText } from "../../runner/workspace-reader.js";
import type { Run } from "../../store/runs/contract.js";
import { isTerminalRunStatus } from "../../store/runs/run-states.js";
import { dagOf, ruleMemory } from "../workflow/service.js";
import { diagnoseRun } from "../../../engine/run/diagnosis/diagnosis.js";
import { readLinePage } from "./log-pages.js";
import { readableRun, type ExecutionReadContext } from "./service.js";
import type { ExecutionTasks } from "./tasks.js";
import type { NodeStatus } from "../../runner/job-states.js";

/** Runs one of this domain's engine tasks in the engine pool. */
const work = engineTasks<ExecutionTasks>(new URL("./worker.js", import.meta.url));


interface RuleJobs {
  total: number;
  completed: number;
  failed: number;
  running: number;
  skipped: number;
}

/** A readable run with its files and its jobs (live when supervised here, else folded from its log, or a dry run's plan). */
async function runWithProgress(context: ExecutionReadContext, caller: Caller, id: string): Promise<{ run: Run; files: RunFiles | undefined; progress: RunProgress; plan: DryRunPlan | undefined; table: () => JobTable }> {
  const run = await readableRun(context, caller, id);
  const files = run.workspace ? runFiles(run.workspace, run.id) : undefined;
  return { run, files, ...(await runFold(context, run, files)) };
}

/** A run's fold and job table, kept between requests until the run's log (or plan) changes. */
async function runFold(context: ExecutionReadContext, run: Run, files: RunFiles | undefined): Promise<RunFold> {
  // A dry run writes no event log: its plan is its jobs, once it has one.
  if (files && runRequestOf(run)?.dry_run === true) {
    return cachedFold(run.id, `plan:${fileVersion(files.dryRunPlan)}`, async () => {
      const plan = await work("readPlan", { root: files.workspace, path: files.dryRunPlan }, "reading the dry run's plan");
      return { progress: new RunProgress(), plan, table: lazily(() => (plan ? JobTable.fromPlan(plan) : new JobTable([]))) };
    });
  }
  const live = context.supervisor.progress(run.id);
  if (live) return cachedFold(run.id, `live:${live.lastSeq}:${live.jobs.size}`, async () => ({ progress: live, plan: undefined, table: lazily(() => JobTable.fromProgress(live)) }));
  if (!files) return { progress: new RunProgress(), plan: undefined, table: () => new JobTable([]) };
  const version = `events:${fileVersion(files.events)}`;
  if (run.finished_at !== null) adoptEndedLiveFold(run.id, version);
  return cachedFold(run.id, version, async () => {
    const { snapshot, jobs, orders } = await work("foldEvents", { root: files.workspace, path: files.events }, "reading the run's event log");
    const progress = RunProgress.fromSnapshot({ ...snapshot, jobs: expandJobs(jobs) });
    return { progress, plan: undefined, table: lazily(() => JobTable.fromProgress(progress, orders)) };
  });
}

/** `jobs`: a page of the run's job table, filtered, sorted and paged here. */
export async function runJobs(context: ExecutionReadContext, caller: Caller, id: string, query: JobQuery): Promise<JobPage> {
  const { table } = await runWithProgress(context, caller, id);
  return table().page(query);
}

/** The text of the pipeline a readable run ran, with the samples and config it ran with (undefined when its file is gone). */
export async function runPipelineText(context: ExecutionReadContext, caller: Caller, id: string): Promise<{ text: string | undefined; samples?: string[]; config?: Record<string, string> }> {
  const run = await readableRun(context, caller, id);
  const files = run.workspace ? runFiles(run.workspace, run.id) : undefined;
  const request = runRequestOf(run);
  const config = request?.config ? Object.fromEntries(Object.entries(request.config).map(([key, value]) => [key, String(value)])) : undefined;
  return { text: pipelineText(files), samples: request?.samples, config };
}

/** The text of the pipeline the run ran, read as any file a job could have written (workspace-reader.ts). */
function pipelineText(files: RunFiles | undefined): string | undefined {
  return files ? readWorkspaceText(files.workspace, ranPipelinePath(files), PIPELINE_TEXT_MAX_BYTES) : undefined;
}

/** Jobs grouped by rule, in the order the rules first appear. */
function jobsByRule(progress: RunProgress, ruleNames: string[]): Map<string, JobProgress[]> {
  const groups = new Map<string, JobProgress[]>(ruleNames.map((name) => [name, []]));
  for (const job of progress.jobs.values()) {
    if (!groups.has(job.rule)) groups.set(job.rule, []);
    groups.get(job.rule)!.push(job);
  }
  return groups;
}

function ruleJobs(jobs: JobProgress[]): RuleJobs {
  const counts = { total: jobs.length, completed: 0, failed: 0, running: 0, skipped: 0 };
  for (const job of jobs) if (job.state !== "queued") counts[job.state]++;
  return counts;
}

/** A rule's jobs in a dry run's plan: counted as skipped (nothing ran), the node marked by what would happen. */
function plannedNode(jobs: DryRunJob[]): { status: NodeStatus; jobs: RuleJobs } {
  const wouldRun = jobs.some((job) => job.status === "would_run");
  return { status: wouldRun ? "would_run" : "would_skip", jobs: { total: jobs.length, completed: 0, failed: 0, running: 0, skipped: jobs.length } };
}

/** A dry run's planned jobs grouped by rule, in the order the rules first appear. */
function plannedByRule(plan: DryRunPlan, ruleNames: string[]): Map<string, DryRunJob[]> {
  const groups = new Map<string, DryRunJob[]>(ruleNames.map((name) => [name, []]));
  for (const job of plan.jobs) {
    if (!groups.has(job.rule)) groups.set(job.rule, []);
    groups.get(job.rule)!.push(job);
  }
  return groups;
}

/** Every job the run's views list, with its state and the engine's reason (a dry run: its plan); none when the caller pages them through `…/jobs`. */
function jobList(table: () => JobTable, withJobs: boolean) {
  return withJobs ? table().rows.map(({ job, rule, status, reason }) => ({ job, rule, status, reason })) : [];
}

function nodeStatus(jobs: RuleJobs): NodeStatus {
  if (jobs.failed > 0) return "failed";
  if (jobs.running > 0) return "running";
  if (jobs.total > 0 && jobs.completed + jobs.skipped === jobs.total) return jobs.completed > 0 ? "completed" : "skipped";
  if (jobs.completed > 0) return "running"; // some done, the rest still to come
  return "pending";
}

/** Wall time from a rule's first job start to its last job end (or now, while one runs). */
function ruleDuration(jobs: JobProgress[]): number | null {
  // Loops, not Math.min(...): a rule can have more jobs than a call takes arguments.
  let first = Infinity;
  for (const job of jobs) if (job.started_at !== null) first = Math.min(first, Date.parse(job.started_at));
  if (first === Infinity) return null;
  if (jobs.some((job) => job.state === "running")) return Math.max(0, Date.now() - first);
  let last = first;
  for (const job of jobs) if (job.finished_at) last = Math.max(last, Date.parse(job.finished_at));
  return Math.max(0, last - first);
}


/** `status`: nodes grouped by rule with job counts, the timeline and resources. */
export async function runStatus(context: ExecutionReadContext, caller: Caller, id: string, options: { jobs?: boolean } = {}) {
  const { run, files, progress, plan, table } = await runWithProgress(context, caller, id);
  const text = pipelineText(files);
  // The pipeline's rules in DAG order (rules without jobs yet show as pending); the jobs alone otherwise.
  const rules = text === undefined ? [] : await dagOf(text).then((dag) => dag.nodes.map((node) => node.rule), () => []);
  const nodes = plan
    ? [...plannedByRule(plan, [...new Set(rules)])].map(([rule, jobs]) => ({ rule, ...plannedNode(jobs), duration_ms: null }))
    : [...jobsByRule(progress, [...new Set(rules)])].map(([rule, jobs]) => {
        const counts = ruleJobs(jobs);
        return { rule, status: nodeStatus(counts), jobs: counts, duration_ms: ruleDuration(jobs) };
      });
  const samples = files ? readMetrics(files.workspace, files.metrics) : [];
  const summary = summariseMetrics(samples);
  return {
    status: run.status,
    nodes,
    jobs: jobList(table, options.jobs !== false),
    timeline: progress.timeline,
    timeline_total: progress.timelineTotal,
    resources: {
      cpu_pct: summary?.cpu_pct ?? 0,
      memory_mb: summary?.memory_mb ?? 0,
      peak_memory_mb: summary?.peak_memory_mb ?? 0,
      disk_mb: files ? Math.round(((await workspaceBytes(files.workspace)) / 1024 / 1024) * 10) / 10 : 0,
    },
  };
}

/** `dag-status`: the rule DAG with per-node live status and job counts, plus totals and an ETA. */
export async function runDagStatus(context: ExecutionReadContext, caller: Caller, id: string, options: { jobs?: boolean } = {}) {
  const { run, files, progress, plan, table } = await runWithProgress(context, caller, id);
  const text = pipelineText(files);
  if (text === undefined) throw new ServiceError("NOT_FOUND", `run ${id}'s pipeline file is gone`);
  const dag = await dagOf(text);
  const withJobs = options.jobs !== false;
  if (plan) {
    const planned = plannedByRule(plan, dag.nodes.map((node) => node.rule));
    const nodes = dag.nodes.map((node) => ({ ...node, ...plannedNode(planned.get(node.rule) ?? []) }));
    return { ...dag, nodes, status: run.status, completed: 0, failed: 0, running: 0, pending: 0, skipped: plan.total, jobs: jobList(table, withJobs), eta_ms: 0 };
  }
  const groups = jobsByRule(progress, dag.nodes.map((node) => node.rule));
  const nodes = dag.nodes.map((node) => {
    const counts = ruleJobs(groups.get(node.rule) ?? []);
    return { ...node, status: nodeStatus(counts), jobs: counts };
  });
  const counts = progress.counts();
  const terminal = isTerminalRunStatus(run.status);
  const finished = [...progress.jobs.values()].filter((job) => job.state === "completed" && job.duration_ms !== null);
  let etaMs: number | null = null;
  if (terminal) etaMs = 0;
  else if (finished.length > 0) {
    const mean = finished.reduce((sum, job) => sum + job.duration_ms!, 0) / finished.length;
    const parallel = Math.max(1, runRequestOf(run)?.jobs || 1);
    etaMs = Math.round((mean * (counts.pending + counts.running)) / parallel);
  }
  return { ...dag, nodes, status: run.status, completed: counts.completed, failed: counts.failed, running: counts.running, pending: counts.pending, skipped: counts.skipped, jobs: jobList(table, withJobs), eta_ms: etaMs };
}

/** `logs`: a page of the engine's log, or of one job's stdout or stderr. */
export async function runLogs(context: ExecutionReadContext, caller: Caller, id: string, query: { job?: string; stream?: "stdout" | "stderr" | "engine"; offset?: number; limit?: number }) {
  const { files, progress } = await runWithProgress(context, caller, id);
  const stream = query.stream ?? (query.job ? "stderr" : "engine");
  let path: string | undefined;
  if (stream === "engine") {
    if (query.job) throw new ServiceError("BAD_REQUEST", "the engine stream belongs to the run, not to a job", { suggestion: "leave out job, or ask for stream stdout or stderr" });
    path = files?.engineLog;
  } else {
    if (!query.job) throw new ServiceError("BAD_REQUEST", `stream ${stream} needs a job`, { suggestion: "add job=<job name> (GET …/status lists them), or use stream=engine" });
    // Only jobs the run's own event log names: a job name is never used to build a path.
    const job = progress.jobs.get(query.job);
    if (!job) throw new ServiceError("NOT_FOUND", `run ${id} has no job '${query.job}'`, { suggestion: `jobs of this run: ${[...progress.jobs.keys()].slice(0, 10).join(", ") || "(none yet)"}` });
    path = stream === "stdout" ? (job.stdout ?? undefined) : (job.stderr ?? undefined);
  }
  // Job logs are read only inside the run's workspace and never through a link (a job may replace its log).
  const page = path && files ? readLinePage(files.workspace, path, query.offset ?? 0, query.limit ?? 1000) : { lines: [], next_offset: 0, eof: true };
  return { job: query.job ?? null, stream, ...page };
}

/**
 * `results`: the declared outputs of the run that exist inside its workspace, with sizes — declared as the
 * run's sandboxed engine wrote them down (its event log, a dry run's plan), never by loading the pipeline
 * here (see run-files.ts).
 */
export async function runResults(context: ExecutionReadContext, caller: Caller, id: string) {
  const run = await readableRun(context, caller, id);
  if (!run.workspace) return { files: [], total_size_bytes: 0, truncated: false, remote: null };
  const files = runFiles(run.workspace, run.id);
  const request = runRequestOf(run);
  const config = request?.config ? Object.fromEntries(Object.entries(request.config).map(([key, value]) => [key, String(value)])) : undefined;
  try {
    // Results left on a remote cluster are listed from what its workspace held when the run ended.
    const remote = run.remote?.results === "remote" ? readRemoteResults(files) : undefined;
    const listed = await work("existingOutputs", { workspace: files.workspace, eventsPath: files.events, planPath: files.dryRunPlan, text: pipelineText(files), config, samples: request?.samples, remoteFiles: remote?.files }, "listing the run's outputs");
    return { ...listed, remote: remote ? { cluster_id: remote.cluster_id, workspace: remote.workspace } : null };
  } catch (error) {
    if (!(error instanceof EngineError)) throw error;
    throw new ServiceError("RUN_ERROR", `run ${id}'s pipeline cannot be expanded to list its outputs: ${error.message}`);
  }
}

/** `diagnostics`: one diagnosis per failed job (and for a run that failed before any job), warnings, bottlenecks. */
export async function runDiagnostics(context: ExecutionReadContext, caller: Caller, id: string) {
  const run = await readableRun(context, caller, id);
  if (!run.workspace) return diagnoseRun([], () => undefined);
  const files = runFiles(run.workspace, run.id);
  const text = pipelineText(files);
  const declared = text === undefined ? {} : await ruleMemory(text);
  // The whole event log and each failed job's own stderr (its end is where the cause is), read in a worker.
  return work("diagnose", { eventsPath: files.events, workspace: files.workspace, declaredMemoryMb: declared }, "diagnosing the run");
}


const workspaceSizes = new Map<string, { bytes: number; at: number }>();

/** A workspace's size, measured at most every 10 s (status views are polled; a walk is not free). */
async function workspaceBytes(workspace: string): Promise<number> {
  const cached = workspaceSizes.get(workspace);
  if (cached && Date.now() - cached.at < 10_000) return cached.bytes;
  const bytes = await work("folderBytes", { root: workspace }, "measuring the run's workspace");
  if (workspaceSizes.size >= 1000) workspaceSizes.clear();
  workspaceSizes.set(workspace, { bytes, at: Date.now() });
  return bytes;
}
