/**
 * The read views of a run, all derived from what the run itself wrote — its event log (through the
 * supervisor's live fold, or a fold of the file once it has ended), its metrics file, its job logs and
 * the declared outputs of its pipeline — never from another run sharing the workspace.
 */
import { existsSync, lstatSync, readdirSync, readFileSync, statSync } from "node:fs";
import { isAbsolute, join, relative } from "node:path";
import { expandPipeline } from "../../../engine/expand/expand.js";
import { readEventLog, type RunEvent } from "../../../engine/run/event-log.js";
import { readTail } from "../../../engine/run/job-runner.js";
import { loadPipelineText } from "../../../engine/format/load.js";
import { effectiveMemory, memoryToMegabytes } from "../../../engine/format/rule-settings.js";
import type { Caller } from "../../caller.js";
import { ServiceError } from "../../errors.js";
import { runFiles, type RunFiles } from "../../runner/engine-command.js";
import { readMetrics, summariseMetrics } from "../../runner/metrics-file.js";
import { progressOf, type JobProgress, type RunProgress } from "../../runner/run-progress.js";
import { readRequest } from "../../runner/supervisor.js";
import type { Run } from "../../store/store.js";
import { dagOf, loadDetached } from "../workflow/service.js";
import { diagnoseRun } from "./diagnosis.js";
import { readLinePage } from "./log-pages.js";
import { readableRun, type ExecutionContext } from "./service.js";

type NodeStatus = "pending" | "running" | "completed" | "failed" | "skipped";

interface RuleJobs {
  total: number;
  completed: number;
  failed: number;
  running: number;
  skipped: number;
}

/** A readable run with its files and its progress (live when supervised here, else folded from its log). */
async function runWithProgress(context: ExecutionContext, caller: Caller, id: string): Promise<{ run: Run; files: RunFiles | undefined; progress: RunProgress; events?: RunEvent[] }> {
  const run = await readableRun(context, caller, id);
  const files = run.workspace ? runFiles(run.workspace, run.id) : undefined;
  const live = context.supervisor.progress(run.id);
  if (live) return { run, files, progress: live };
  const events = files && existsSync(files.events) ? readEventLog(files.events) : [];
  return { run, files, progress: progressOf(events), events };
}

function pipelineText(files: RunFiles | undefined): string | undefined {
  try {
    return files ? readFileSync(files.pipeline, "utf8") : undefined;
  } catch {
    return undefined;
  }
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

function nodeStatus(jobs: RuleJobs): NodeStatus {
  if (jobs.failed > 0) return "failed";
  if (jobs.running > 0) return "running";
  if (jobs.total > 0 && jobs.completed + jobs.skipped === jobs.total) return jobs.completed > 0 ? "completed" : "skipped";
  if (jobs.completed > 0) return "running"; // some done, the rest still to come
  return "pending";
}

/** Wall time from a rule's first job start to its last job end (or now, while one runs). */
function ruleDuration(jobs: JobProgress[]): number | null {
  const starts = jobs.map((job) => job.started_at).filter((time): time is string => time !== null);
  if (starts.length === 0) return null;
  const first = Math.min(...starts.map(Date.parse));
  const running = jobs.some((job) => job.state === "running");
  const last = running ? Date.now() : Math.max(...jobs.map((job) => (job.finished_at ? Date.parse(job.finished_at) : first)));
  return Math.max(0, last - first);
}


/** `status`: nodes grouped by rule with job counts, the timeline and resources. */
export async function runStatus(context: ExecutionContext, caller: Caller, id: string) {
  const { run, files, progress } = await runWithProgress(context, caller, id);
  const text = pipelineText(files);
  // The pipeline's rules in DAG order (rules without jobs yet show as pending); the jobs alone otherwise.
  const rules = text === undefined ? [] : await dagOf(text).then((dag) => dag.nodes.map((node) => node.rule), () => []);
  const nodes = [...jobsByRule(progress, [...new Set(rules)])].map(([rule, jobs]) => {
    const counts = ruleJobs(jobs);
    return { rule, status: nodeStatus(counts), jobs: counts, duration_ms: ruleDuration(jobs) };
  });
  const samples = files ? readMetrics(files.metrics) : [];
  const summary = summariseMetrics(samples);
  return {
    status: run.status,
    nodes,
    timeline: progress.timeline,
    resources: {
      cpu_pct: summary?.cpu_pct ?? 0,
      memory_mb: summary?.memory_mb ?? 0,
      peak_memory_mb: summary?.peak_memory_mb ?? 0,
      disk_mb: files ? Math.round((workspaceBytes(files.workspace) / 1024 / 1024) * 10) / 10 : 0,
    },
  };
}

/** `dag-status`: the rule DAG with per-node live status and job counts, plus totals and an ETA. */
export async function runDagStatus(context: ExecutionContext, caller: Caller, id: string) {
  const { run, files, progress } = await runWithProgress(context, caller, id);
  const text = pipelineText(files);
  if (text === undefined) throw new ServiceError(404, "NOT_FOUND", `run ${id}'s pipeline file is gone`);
  const dag = await dagOf(text);
  const groups = jobsByRule(progress, dag.nodes.map((node) => node.rule));
  const nodes = dag.nodes.map((node) => {
    const counts = ruleJobs(groups.get(node.rule) ?? []);
    return { ...node, status: nodeStatus(counts), jobs: counts };
  });
  const counts = progress.counts();
  const terminal = run.status === "completed" || run.status === "failed" || run.status === "cancelled";
  const finished = [...progress.jobs.values()].filter((job) => job.state === "completed" && job.duration_ms !== null);
  let etaMs: number | null = null;
  if (terminal) etaMs = 0;
  else if (finished.length > 0) {
    const mean = finished.reduce((sum, job) => sum + job.duration_ms!, 0) / finished.length;
    const parallel = Math.max(1, (files && readRequest(files)?.jobs) || 1);
    etaMs = Math.round((mean * (counts.pending + counts.running)) / parallel);
  }
  return { ...dag, nodes, status: run.status, completed: counts.completed, failed: counts.failed, running: counts.running, pending: counts.pending, skipped: counts.skipped, eta_ms: etaMs };
}

/** `logs`: a page of the engine's log, or of one job's stdout or stderr. */
export async function runLogs(context: ExecutionContext, caller: Caller, id: string, query: { job?: string; stream?: "stdout" | "stderr" | "engine"; offset?: number; limit?: number }) {
  const { files, progress } = await runWithProgress(context, caller, id);
  const stream = query.stream ?? (query.job ? "stderr" : "engine");
  let path: string | undefined;
  if (stream === "engine") {
    if (query.job) throw new ServiceError(400, "BAD_REQUEST", "the engine stream belongs to the run, not to a job", { suggestion: "leave out job, or ask for stream stdout or stderr" });
    path = files?.engineLog;
  } else {
    if (!query.job) throw new ServiceError(400, "BAD_REQUEST", `stream ${stream} needs a job`, { suggestion: "add job=<job name> (GET …/status lists them), or use stream=engine" });
    // Only jobs the run's own event log names: a job name is never used to build a path.
    const job = progress.jobs.get(query.job);
    if (!job) throw new ServiceError(404, "NOT_FOUND", `run ${id} has no job '${query.job}'`, { suggestion: `jobs of this run: ${[...progress.jobs.keys()].slice(0, 10).join(", ") || "(none yet)"}` });
    path = stream === "stdout" ? (job.stdout ?? undefined) : (job.stderr ?? undefined);
  }
  const page = path ? readLinePage(path, query.offset ?? 0, query.limit ?? 1000) : { lines: [], next_offset: 0, eof: true };
  return { job: query.job ?? null, stream, ...page };
}

/** `results`: the declared outputs of the run's pipeline that exist, with sizes. */
export async function runResults(context: ExecutionContext, caller: Caller, id: string) {
  const run = await readableRun(context, caller, id);
  const files = run.workspace ? runFiles(run.workspace, run.id) : undefined;
  const text = pipelineText(files);
  if (!files || text === undefined) return { files: [], total_size_bytes: 0 };
  const request = readRequest(files);
  const overrides = request?.config ? Object.fromEntries(Object.entries(request.config).map(([key, value]) => [key, String(value)])) : undefined;
  let outputs: { path: string; rule: string }[];
  try {
    const pipeline = await loadPipelineText(text, { path: files.pipeline, dir: files.workspace, overrides, samples: request?.samples?.join(",") });
    outputs = expandPipeline(pipeline, "plan").jobs.flatMap((job) => job.output.paths.map((path) => ({ path, rule: job.template })));
  } catch (error) {
    throw new ServiceError(400, "RUN_ERROR", `run ${id}'s pipeline cannot be expanded to list its outputs: ${error instanceof Error ? error.message : String(error)}`);
  }
  const seen = new Set<string>();
  const found = [];
  let total = 0;
  for (const output of outputs) {
    const absolute = isAbsolute(output.path) ? output.path : join(files.workspace, output.path);
    if (seen.has(absolute)) continue;
    seen.add(absolute);
    let stat;
    try {
      stat = statSync(absolute);
    } catch {
      continue; // not made (yet)
    }
    const size = stat.isDirectory() ? folderBytes(absolute) : stat.size;
    total += size;
    found.push({ path: isAbsolute(output.path) ? output.path : relative(files.workspace, absolute), size_bytes: size, rule: output.rule, modified_at: stat.mtime.toISOString() });
    if (found.length >= 10_000) break;
  }
  return { files: found, total_size_bytes: total };
}

/** `diagnostics`: one diagnosis per failed job (and for a run that failed before any job), warnings, bottlenecks. */
export async function runDiagnostics(context: ExecutionContext, caller: Caller, id: string) {
  const { files, events } = await runWithProgress(context, caller, id);
  const all = events ?? (files && existsSync(files.events) ? readEventLog(files.events) : []);
  // Each job's own stderr, as the engine named it in the event log; its end is where the cause is.
  const declared = await declaredMemory(pipelineText(files));
  return diagnoseRun(all, (path: string) => readTail(path, 64 * 1024) || undefined, { declaredMemoryMb: (rule) => declared.get(rule) });
}

/** Each rule's declared memory in MB (for memory bottlenecks); empty when the pipeline cannot be read. */
async function declaredMemory(text: string | undefined): Promise<Map<string, number>> {
  const memory = new Map<string, number>();
  if (text === undefined) return memory;
  try {
    const pipeline = await loadDetached(text);
    for (const rule of pipeline.rules) {
      const mb = memoryToMegabytes(effectiveMemory(rule, pipeline.defaults));
      if (mb !== undefined) memory.set(rule.name, mb);
    }
  } catch {
    // an unreadable pipeline has no declared figures
  }
  return memory;
}


const workspaceSizes = new Map<string, { bytes: number; at: number }>();

/** A workspace's size, measured at most every 10 s (status views are polled; a walk is not free). */
function workspaceBytes(workspace: string): number {
  const cached = workspaceSizes.get(workspace);
  if (cached && Date.now() - cached.at < 10_000) return cached.bytes;
  const bytes = folderBytes(workspace);
  if (workspaceSizes.size >= 1000) workspaceSizes.clear();
  workspaceSizes.set(workspace, { bytes, at: Date.now() });
  return bytes;
}

/** Bytes under a folder, counting at most 100,000 entries and not following symbolic links. */
function folderBytes(root: string): number {
  let total = 0;
  let entries = 0;
  const stack = [root];
  while (stack.length > 0 && entries < 100_000) {
    const dir = stack.pop()!;
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      entries++;
      try {
        const stat = lstatSync(join(dir, name));
        if (stat.isDirectory()) stack.push(join(dir, name));
        else total += stat.size;
      } catch {
        // removed while walking
      }
    }
  }
  return total;
}
