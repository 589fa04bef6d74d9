/**
 * Gathers a `RunReport` (see report.ts) from what a run left on disk: its folder `.strand/runs/<run id>/`
 * (`run.json` and the event log), the workdir's checkpoint (the command each job ran), the failed jobs'
 * stderr logs (diagnosed by engine/run/diagnosis/diagnosis.ts) and the workflow file. The caller may hand in what it
 * knows better: the loaded pipeline (`strand run --report`), the run's resource samples and its status
 * (the service), and a log reader that refuses paths outside a workspace (the service again).
 */
import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { EngineError } from "../findings.js";
import { loadPipelineText } from "../format/load.js";
import type { Pipeline } from "../format/model.js";
import { effectiveEnvironment, environmentLabel } from "../format/rule-settings.js";
import { readCheckpoint, type CheckpointData } from "../run/checkpoint/checkpoint.js";
import { diagnoseRun, STDERR_TAIL_CHARS } from "../run/diagnosis/diagnosis.js";
import { parseEventLog, type RunEvent } from "../run/event-log.js";
import { processAlive } from "../run/file-lock.js";
import { engineVersion } from "../version.js";
import type { ReportFailure, ReportJob, ResourceSample, RunReport } from "./report.js";

/** What the caller knows beyond the run folder. */
export interface RunReportSources {
  /** The pipeline as it was loaded for the run; otherwise the workflow file named by the run is loaded. */
  pipeline?: Pipeline;
  /** The pipeline text (null: not to be had); otherwise the workflow file named by the run is read. */
  pipelineText?: string | null;
  /** The run's workdir (where its checkpoint is), instead of the one its log names. */
  workdir?: string;
  /** Load the pipeline text without reading anything beside it (text from an untrusted sender). */
  detached?: boolean;
  /** The run's status as its owner knows it (the service's run row), instead of reading it from the log. */
  status?: string;
  /** Samples of the whole run's CPU and memory. */
  resources?: ResourceSample[];
  /** Reads the last `bytes` of a job's log; undefined when it cannot or may not be read. Default: the file's end. */
  readLogTail?: (path: string, bytes: number) => string | undefined;
  /**
   * Reads a whole file of the run (its record, event log and checkpoint); undefined when it is absent or may
   * not be read. Default: the file system as it is. A service passes a reader confined to the workspace.
   */
  readText?: (path: string) => string | undefined;
  /** The event log to read, whatever the run's record names (a service never takes a path from a file a job could write). */
  eventsPath?: string;
}

/** The most of a failed job's stderr the report quotes. */
const STDERR_LINES = 40;
const STDERR_BYTES = 16 * 1024;

/** Reads the run in `runDir` (a `.strand/runs/<run id>` folder) into a report. */
export async function loadRunReport(runDir: string, sources: RunReportSources = {}): Promise<RunReport> {
  const readText = sources.readText ?? readIfPresent;
  const record = readRunRecord(runDir, readText);
  const eventsPath = sources.eventsPath ?? (typeof record.events === "string" ? record.events : join(runDir, "events.jsonl"));
  const eventsText = readText(eventsPath);
  if (eventsText === undefined) {
    throw new EngineError("IO_ERROR", `no event log for the run in ${runDir} (looked for ${eventsPath})`, {
      suggestion: "name a run folder .strand/runs/<run id>, or a workdir with --run ID (strand status lists the latest run)",
    });
  }
  const events = parseEventLog(eventsText);
  const started = events.find((event) => event.type === "run_started");
  const finished = events.findLast((event) => event.type === "run_finished");
  const runId = text(started?.run_id) ?? text(record.run_id) ?? runDir.split(/[\\/]/).filter(Boolean).at(-1) ?? "run";
  const workdir = sources.workdir ?? text(started?.workdir) ?? text(record.workdir) ?? resolve(runDir, "..", "..", "..");
  const workflowPath = text(started?.workflow) ?? text(record.workflow);
  const readTail = sources.readLogTail ?? readFileTail;

  const pipelineText = sources.pipelineText !== undefined ? sources.pipelineText : ((workflowPath ? readText(workflowPath) : undefined) ?? null);
  const pipeline = sources.pipeline ?? (pipelineText !== null ? await loadQuietly(pipelineText, workflowPath ?? "pipeline.oxoflow", workdir, sources.detached ?? false) : undefined);

  const jobs = foldJobs(events);
  const checkpoint = safely(() => readCheckpoint(workdir, { readText }));
  const startedAt = text(started?.time) ?? text(record.started_at) ?? events[0]?.time ?? null;
  const finishedAt = finished?.time ?? null;
  const diagnostics = diagnoseRun(events, (path) => readTail(path, STDERR_TAIL_CHARS));
  const failures = diagnostics.failures.map((diagnosis): ReportFailure => {
    const failed = diagnosis.job === null ? undefined : events.findLast((event) => event.type === "job_failed" && event.job === diagnosis.job);
    const stderrPath = text(failed?.stderr) ?? (diagnosis.job ? (jobs.get(diagnosis.job)?.stderr ?? null) : null);
    const stderr = stderrPath ? (readTail(stderrPath, STDERR_BYTES) ?? "") : diagnosis.job?.startsWith("reference:") ? text(events.findLast((event) => event.type === "reference_build_failed")?.stderr_tail) ?? "" : "";
    return {
      job: diagnosis.job,
      rule: diagnosis.rule,
      exit_code: diagnosis.exit_code,
      error: text(failed?.error) ?? (diagnosis.job === null ? text(finished?.error) : null),
      command: diagnosis.job ? commandOf(checkpoint, diagnosis.job, startedAt, finishedAt) : null,
      diagnosis: { pattern: diagnosis.pattern, category: diagnosis.category, likely_cause: diagnosis.likely_cause, suggestions: diagnosis.suggestions },
      stderr_tail: lastLines(stderr, STDERR_LINES),
      stderr_path: stderrPath,
    };
  });

  const pid = typeof started?.pid === "number" ? started.pid : undefined;
  const status = sources.status ?? text(finished?.status) ?? (pid !== undefined && processAlive(pid) ? "running" : "interrupted");
  const durationMs = typeof finished?.duration_ms === "number" ? finished.duration_ms : startedAt && finishedAt ? Date.parse(finishedAt) - Date.parse(startedAt) : null;
  const reportJobs = [...jobs.values()].map((job) => job.report);
  return {
    generated_at: new Date().toISOString(),
    pipeline: {
      name: pipeline?.workflow.name ?? text(started?.workflow_name) ?? "pipeline",
      version: pipeline?.workflow.version ?? null,
      description: pipeline?.workflow.description ?? null,
      path: workflowPath,
      text: pipelineText,
    },
    run: {
      id: runId,
      status,
      started_at: startedAt,
      finished_at: finishedAt,
      duration_ms: durationMs,
      executor: text(started?.executor),
      workdir,
      command_line: Array.isArray(started?.argv) ? started.argv.map(String) : Array.isArray(record.argv) ? record.argv.map(String) : null,
      error: text(finished?.error),
      error_code: text(finished?.error_code),
    },
    counts: countsOf(finished, reportJobs),
    jobs: reportJobs,
    failures,
    warnings: diagnostics.warnings.map((warning) => warning.message),
    resources: sources.resources ?? [],
    environment: {
      strand_version: text(started?.engine_version),
      report_strand_version: engineVersion(),
      node_version: text(started?.node_version),
      os: text(started?.os),
      environments: pipeline ? environmentsUsed(pipeline, reportJobs) : [],
    },
  };
}

/** The run folder of a workdir's run: `--run ID`, else the one `.strand/runs/latest` names. */
export function runFolderOf(workdir: string, runId?: string): string {
  const runs = join(workdir, ".strand", "runs");
  const id = runId ?? readIfPresent(join(runs, "latest"))?.trim();
  if (!id) {
    throw new EngineError("IO_ERROR", `no runs recorded in ${workdir} (no .strand/runs/latest)`, { suggestion: "run the pipeline first (strand run), or name the workdir of a run" });
  }
  return join(runs, id);
}

/** Whether a folder is a run folder (it holds a run record or an event log) rather than a workdir. */
export function isRunFolder(dir: string): boolean {
  return existsSync(join(dir, "run.json")) || existsSync(join(dir, "events.jsonl"));
}

interface FoldedJob {
  report: ReportJob;
  stderr: string | null;
}

/** Each job's last state in the log, in the order jobs first appear. */
function foldJobs(events: RunEvent[]): Map<string, FoldedJob> {
  const jobs = new Map<string, FoldedJob>();
  const get = (event: RunEvent): FoldedJob | undefined => {
    const name = text(event.job);
    if (name === null) return undefined;
    let job = jobs.get(name);
    if (!job) {
      job = { report: { name, rule: text(event.rule) ?? name, state: "queued", reason: null, started_at: null, finished_at: null, duration_ms: null, cpu_ms: null, peak_memory_mb: null, exit_code: null, attempts: null }, stderr: null };
      jobs.set(name, job);
    }
    return job;
  };
  for (const event of events) {
    if (!event.type.startsWith("job_")) continue;
    const job = get(event);
    if (!job) continue;
    const report = job.report;
    switch (event.type) {
      case "job_queued":
        report.reason = reasonText(event.reason);
        break;
      case "job_started":
        // A retried job keeps the start of its first attempt: the bar covers all its attempts.
        report.started_at ??= event.time;
        report.state = "running";
        report.attempts = number(event.attempt);
        job.stderr = text(event.stderr) ?? job.stderr;
        break;
      case "job_completed":
      case "job_failed":
        report.state = event.type === "job_completed" ? "completed" : event.cancelled === true ? "cancelled" : "failed";
        report.finished_at = event.time;
        report.duration_ms = number(event.duration_ms);
        report.cpu_ms = number(event.cpu_ms);
        report.peak_memory_mb = number(event.peak_memory_mb);
        report.exit_code = number(event.exit_code);
        report.attempts = number(event.attempts) ?? report.attempts;
        if (event.type === "job_failed") report.reason = text(event.error) ?? report.reason;
        break;
      case "job_skipped":
        report.state = reasonCode(event.reason) === "cancelled" ? "cancelled" : "skipped";
        report.reason = reasonText(event.reason);
        break;
      default:
        break;
    }
  }
  return jobs;
}

function countsOf(finished: RunEvent | undefined, jobs: ReportJob[]): Record<string, number> {
  const recorded = finished?.counts;
  if (typeof recorded === "object" && recorded !== null) {
    return Object.fromEntries(Object.entries(recorded).filter((entry): entry is [string, number] => typeof entry[1] === "number"));
  }
  const counts: Record<string, number> = { total: jobs.length };
  for (const job of jobs) counts[job.state] = (counts[job.state] ?? 0) + 1;
  return counts;
}

/** The environments of the rules that had jobs in this run, each with its rules. */
function environmentsUsed(pipeline: Pipeline, jobs: ReportJob[]): { label: string; rules: string[] }[] {
  const ruleNames = new Set(jobs.map((job) => job.rule));
  const byLabel = new Map<string, string[]>();
  for (const rule of pipeline.rules) {
    if (!ruleNames.has(rule.name)) continue;
    const label = environmentLabel(effectiveEnvironment(rule, pipeline.defaults));
    byLabel.set(label, [...(byLabel.get(label) ?? []), rule.name]);
  }
  return [...byLabel].map(([label, rules]) => ({ label, rules }));
}

/** The command the checkpoint recorded for a job, when that record is from this run. */
function commandOf(checkpoint: CheckpointData | undefined, job: string, startedAt: string | null, finishedAt: string | null): string | null {
  const record = checkpoint?.jobs[job];
  if (!record) return null;
  // A workdir's checkpoint keeps each job's last record: one from an earlier or a later run is not this run's.
  const finished = Date.parse(record.finished_at);
  if (startedAt && finished < Date.parse(startedAt)) return null;
  if (finishedAt && finished > Date.parse(finishedAt) + 1000) return null;
  return record.command || null;
}

async function loadQuietly(pipelineText: string, path: string, workdir: string, detached: boolean): Promise<Pipeline | undefined> {
  try {
    return await loadPipelineText(pipelineText, { path, dir: existsSync(workdir) ? workdir : dirname(path), detached });
  } catch {
    // The file changed since the run (or never loads): the report goes on without its version and environments.
    return undefined;
  }
}

function readRunRecord(runDir: string, readText: (path: string) => string | undefined): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(readText(join(runDir, "run.json")) ?? "{}");
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The last `bytes` of a file as text; undefined when it cannot be read. */
function readFileTail(path: string, bytes: number): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return undefined;
  }
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, bytes);
    const buffer = Buffer.alloc(length);
    let filled = 0;
    while (filled < length) {
      const count = readSync(fd, buffer, filled, length - filled, size - length + filled);
      if (count === 0) break;
      filled += count;
    }
    return buffer.subarray(0, filled).toString("utf8");
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

function lastLines(textBlock: string, count: number): string {
  const lines = textBlock.replace(/\n+$/, "").split("\n");
  return lines.slice(-count).join("\n");
}

function readIfPresent(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

function safely<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

function reasonText(reason: unknown): string | null {
  if (typeof reason === "string") return reason;
  if (typeof reason === "object" && reason !== null) return text((reason as Record<string, unknown>).text) ?? text((reason as Record<string, unknown>).code);
  return null;
}

function reasonCode(reason: unknown): string | null {
  return typeof reason === "object" && reason !== null ? text((reason as Record<string, unknown>).code) : null;
}

function text(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

function number(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}
