/**
 * What a run's event log says about it, folded event by event: each job's state, the API's counts and a
 * timeline. The runner folds live events as they arrive; the status views fold a finished run's log on
 * demand. The event log is the only source — the engine's human output is never parsed.
 */
import type { RunEvent } from "../../engine/run/event-log.js";
import type { RunCounts } from "../store/runs/contract.js";
import type { JobState } from "./job-states.js";

export type { JobState } from "./job-states.js";

/** One job as the event log describes it. */
export interface JobProgress {
  job: string;
  rule: string;
  state: JobState;
  started_at: string | null;
  finished_at: string | null;
  duration_ms: number | null;
  exit_code: number | null;
  attempt: number;
  stdout: string | null;
  stderr: string | null;
  error: string | null;
  /** Why the engine ran the job (`job_queued`) or skipped it (`job_skipped`): its reason code and text. */
  reason: JobReason | null;
}

/** The engine's reason for running or skipping a job (`never-completed`, `config-changed`, `up-to-date`, …). */
export interface JobReason {
  code: string;
  text: string;
}

/** One line of the status view's timeline. */
export interface TimelineEntry {
  time: string;
  type: string;
  rule: string | null;
  job: string | null;
  message: string;
}

/** How the engine said the run ended (its last event). */
export interface EngineFinish {
  status: "completed" | "failed" | "cancelled";
  error: string | null;
  error_code: string | null;
  time: string;
}

/** A fold as plain data, to cross a thread (a finished run's log is folded in an engine worker). */
export interface ProgressSnapshot {
  jobs: JobProgress[];
  timeline: TimelineEntry[];
  timelineTotal: number;
  jobsTotal: number;
  startedAt: string | null;
  finish: EngineFinish | null;
  enginePid: number | null;
  lastSeq: number;
}

/** The newest timeline entries kept in memory (the event log keeps them all). */
export const TIMELINE_CAP = 500;

/**
 * The most jobs followed one by one. The event log is in the workspace, where jobs write: a job appending
 * events for made-up jobs must not grow the service's memory without end. A real run has at most this many
 * jobs with events in the service's views (the engine plans more only for a dry run).
 */
export const MAX_TRACKED_JOBS = 1_000_000;

/** Folds run events into job states, counts and a timeline. */
export class RunProgress {
  readonly jobs = new Map<string, JobProgress>();
  private readonly maxJobs: number;

  constructor(options: { maxJobs?: number } = {}) {
    this.maxJobs = options.maxJobs ?? MAX_TRACKED_JOBS;
  }

  /** The newest timeline entries (at most `TIMELINE_CAP`). */
  readonly timeline: TimelineEntry[] = [];
  /** Every timeline entry noted, the ones dropped from `timeline` included. */
  timelineTotal = 0;
  jobsTotal = 0;
  startedAt: string | null = null;
  finish: EngineFinish | null = null;
  /** The engine's process id, as it reported it. */
  enginePid: number | null = null;
  /** The last event's sequence number (events are folded once, in order). */
  lastSeq = 0;

  /** Folds one event; returns false for an event already seen (a re-read after a restart). */
  apply(event: RunEvent): boolean {
    if (typeof event.seq === "number") {
      if (event.seq <= this.lastSeq) return false;
      this.lastSeq = event.seq;
    }
    const job = typeof event.job === "string" ? event.job : undefined;
    const rule = typeof event.rule === "string" ? event.rule : null;
    switch (event.type) {
      case "run_started":
        this.startedAt = event.time;
        this.jobsTotal = numberOr(event.jobs_total, 0);
        this.enginePid = numberOr(event.pid, 0) || null;
        this.note(event, null, null, `run started: ${numberOr(event.jobs_to_run, 0)} of ${this.jobsTotal} jobs to run (${String(event.executor ?? "local")})`);
        break;
      case "job_queued":
        if (job) {
          const progress = this.jobOf(job, rule);
          progress.state = "queued";
          progress.reason = reasonOf(event.reason) ?? progress.reason;
        }
        break;
      case "job_started":
        if (job) {
          const progress = this.jobOf(job, rule);
          progress.state = "running";
          progress.started_at ??= event.time;
          progress.attempt = numberOr(event.attempt, 1);
          progress.stdout = stringOr(event.stdout, progress.stdout);
          progress.stderr = stringOr(event.stderr, progress.stderr);
          this.note(event, rule, job, progress.attempt > 1 ? `started (attempt ${progress.attempt})` : "started");
        }
        break;
      case "job_retrying":
        if (job) this.note(event, rule, job, `attempt ${numberOr(event.attempt, 1)} failed (${String(event.error ?? "error")}); retrying`);
        break;
      case "job_completed":
      case "job_failed":
      case "job_skipped":
        if (job) {
          const progress = this.jobOf(job, rule);
          // A job stopped because the run was cancelled did not fail: it did not get to finish.
          const stopped = event.type === "job_failed" && event.cancelled === true;
          progress.state = event.type === "job_completed" ? "completed" : event.type === "job_failed" && !stopped ? "failed" : "skipped";
          progress.finished_at = event.time;
          progress.duration_ms = typeof event.duration_ms === "number" ? event.duration_ms : progress.duration_ms;
          progress.exit_code = typeof event.exit_code === "number" ? event.exit_code : progress.exit_code;
          progress.error = typeof event.error === "string" ? event.error : null;
          progress.stderr = stringOr(event.stderr, progress.stderr);
          const reason = (event.reason as { text?: string } | undefined)?.text;
          if (event.type === "job_skipped") progress.reason = reasonOf(event.reason) ?? progress.reason;
          const message =
            event.type === "job_completed"
              ? `completed in ${formatMs(progress.duration_ms)}`
              : stopped
                ? `stopped: ${progress.error ?? "the run was cancelled"}`
                : event.type === "job_failed"
                ? `failed: ${progress.error ?? `exit code ${progress.exit_code}`}`
                : `skipped: ${reason ?? "not needed"}`;
          this.note(event, rule, job, message);
        }
        break;
      case "run_paused":
        this.note(event, null, null, "paused");
        break;
      case "run_resumed":
        this.note(event, null, null, "resumed");
        break;
      case "run_cancelling":
        this.note(event, null, null, `cancelling: ${String(event.reason ?? "")}`.trim());
        break;
      case "warning":
        this.note(event, rule, job ?? null, String(event.message ?? "warning"));
        break;
      case "reference_build_started":
      case "reference_build_completed":
      case "reference_build_failed":
        this.note(event, null, null, `${event.type.replace("reference_build_", "reference build ")}: ${String(event.reference ?? "")}`);
        break;
      case "run_finished": {
        const status = event.status === "completed" || event.status === "cancelled" ? event.status : "failed";
        this.finish = { status, error: typeof event.error === "string" ? event.error : null, error_code: typeof event.error_code === "string" ? event.error_code : null, time: event.time };
        this.note(event, null, null, status === "completed" ? "run completed" : `run ${status}${this.finish.error ? `: ${this.finish.error}` : ""}`);
        break;
      }
      default:
        break;
    }
    return true;
  }

  /** The fold as plain data. */
  snapshot(): ProgressSnapshot {
    const { timeline, timelineTotal, jobsTotal, startedAt, finish, enginePid, lastSeq } = this;
    return { jobs: [...this.jobs.values()], timeline, timelineTotal, jobsTotal, startedAt, finish, enginePid, lastSeq };
  }

  /** A fold rebuilt from its snapshot. */
  static fromSnapshot(snapshot: ProgressSnapshot): RunProgress {
    const progress = new RunProgress();
    for (const job of snapshot.jobs) progress.jobs.set(job.job, job);
    progress.timeline.push(...snapshot.timeline);
    progress.timelineTotal = snapshot.timelineTotal;
    progress.jobsTotal = snapshot.jobsTotal;
    progress.startedAt = snapshot.startedAt;
    progress.finish = snapshot.finish;
    progress.enginePid = snapshot.enginePid;
    progress.lastSeq = snapshot.lastSeq;
    return progress;
  }

  /** The API's job counts; once the run has finished, jobs that never ran count as skipped. */
  counts(): RunCounts {
    let completed = 0;
    let failed = 0;
    let running = 0;
    let skipped = 0;
    for (const job of this.jobs.values()) {
      if (job.state === "completed") completed++;
      else if (job.state === "failed") failed++;
      else if (job.state === "running") running++;
      else if (job.state === "skipped") skipped++;
    }
    const total = Math.max(this.jobsTotal, this.jobs.size);
    if (this.finish) {
      // A stopped run leaves no job running or pending: what did not finish was not run.
      skipped += running + (total - completed - failed - running - skipped);
      running = 0;
    }
    return { total, completed, failed, running, skipped, pending: Math.max(0, total - completed - failed - running - skipped) };
  }

  private jobOf(job: string, rule: string | null): JobProgress {
    let progress = this.jobs.get(job);
    if (!progress) {
      progress = { job, rule: rule ?? job, state: "queued", started_at: null, finished_at: null, duration_ms: null, exit_code: null, attempt: 0, stdout: null, stderr: null, error: null, reason: null };
      // Past the cap a job is folded into a record that is not kept (the run's total still counts it).
      if (this.jobs.size < this.maxJobs) this.jobs.set(job, progress);
    }
    return progress;
  }

  private note(event: RunEvent, rule: string | null, job: string | null, message: string): void {
    this.timeline.push({ time: event.time, type: event.type, rule, job, message });
    this.timelineTotal++;
    if (this.timeline.length > TIMELINE_CAP) this.timeline.splice(0, this.timeline.length - TIMELINE_CAP);
  }
}

/** Folds a whole event log. */
export function progressOf(events: Iterable<RunEvent>): RunProgress {
  const progress = new RunProgress();
  for (const event of events) progress.apply(event);
  return progress;
}

function reasonOf(value: unknown): JobReason | null {
  if (typeof value !== "object" || value === null) return null;
  const { code, text } = value as { code?: unknown; text?: unknown };
  if (typeof code !== "string") return null;
  return { code, text: typeof text === "string" ? text : code };
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}

function stringOr(value: unknown, fallback: string | null): string | null {
  return typeof value === "string" ? value : fallback;
}

function formatMs(ms: number | null): string {
  if (ms === null) return "?";
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}
