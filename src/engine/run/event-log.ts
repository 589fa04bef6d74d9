/**
 * The run's event log (docs/reference/pipeline-format.md, decision 11): one JSON object per line, appended
 * and handed to the operating system per event, so a control plane can follow a run by reading the file and
 * pick it up again after a restart. Every event has `seq`, `time`, `type` and `run_id`; `RUN_EVENT_FIELDS`
 * lists the rest, and docs/reference/events.md is written from it.
 */
import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from "node:fs";
import { dirname } from "node:path";

export type RunEventType =
  | "run_started"
  | "job_queued"
  | "job_started"
  | "job_retrying"
  | "job_completed"
  | "job_failed"
  | "job_skipped"
  | "reference_build_started"
  | "reference_build_completed"
  | "reference_build_failed"
  | "reentry"
  | "run_paused"
  | "run_resumed"
  | "run_cancelling"
  | "warning"
  | "run_finished";

/**
 * The fields each event type adds to `seq`, `time`, `type` and `run_id`, for the events reference
 * (`docs/reference/events.md`): a type added above without its fields here does not compile.
 */
export const RUN_EVENT_FIELDS: { readonly [T in RunEventType]: string } = {
  run_started: "`workflow` (path), `workflow_name`, `workdir`, `pid` (the engine; its process group holds every local job), `executor` (`local`, `slurm`, …), `engine_version`, `node_version`, `os` (`Linux 6.8.0 (x64)`), `argv`, `events`, `jobs_total` (selected jobs), `jobs_to_run`",
  job_queued: "`job`, `rule`, `reason {code, text}` (why it runs: see the re-run reasons in docs/guide/running.md), `outputs` (the job's declared outputs)",
  job_started: "`job`, `rule`, `attempt`, `attempts`, `native_id` (scheduler job id, cluster runs), `stdout`, `stderr` (log paths)",
  job_retrying: "`job`, `rule`, `attempt` (the one that failed), `attempts`, `exit_code`, `error`, `delay_ms`",
  job_completed: "`job`, `rule`, `exit_code`, `duration_ms`, `cpu_ms`, `peak_memory_mb`, `native_id`, `attempts`",
  job_failed: "`job`, `rule`, `exit_code` (124 time-out, 128+N signal, −1 outputs missing, null when it never started), `signal`, `timed_out`, `cancelled`, `error` (the cause, with the last line of stderr), `duration_ms`, `cpu_ms`, `peak_memory_mb`, `native_id`, `attempts`, `required`, `stderr` (log path)",
  job_skipped: "`job`, `rule`, `reason {code, text}`: `up-to-date`, `condition-false`, `not-selected`, `optional-inputs-missing`, `no-command`, `blocked` (downstream of a failure), `stopped` (the run stopped after a failure), `cancelled`; `outputs` when the planner skips it (before it could run)",
  reference_build_started: "`reference`, `output`, `reason`, `description`",
  reference_build_completed: "`reference`, `duration_ms`",
  reference_build_failed: "`reference`, `exit_code`, `error`, `stderr_tail`, `duration_ms`",
  reentry: "`round`, `rule` (the checkpoint job), `group`, `samples`, `pairs` (pair ids)",
  run_paused: "—",
  run_resumed: "—",
  run_cancelling: "`reason` (`received SIGTERM`, …)",
  warning: "`message`, and `job` when it concerns one (environment set-up, webhook delivery, scheduler retries)",
  run_finished: "`status` (`completed`, `failed`, `cancelled`), `error` and `error_code` (a failure outside the jobs: `BUDGET_ERROR`, `REENTRY_ERROR`, …), `counts {total, succeeded, failed, non_required_failed, skipped, blocked, not_started, cancelled}` (`total` is every selected job; `skipped` includes jobs that were up to date), `duration_ms`",
};

export interface RunEvent {
  seq: number;
  time: string;
  type: RunEventType;
  run_id: string;
  [field: string]: unknown;
}

/** Appends events to a file; each `emit` is one `write` of one complete line. */
export class EventLog {
  private fd: number | undefined;
  private seq = 0;
  private readonly listeners: ((event: RunEvent) => void)[] = [];

  constructor(
    readonly path: string,
    readonly runId: string,
  ) {
    mkdirSync(dirname(path), { recursive: true });
    this.fd = openSync(path, "a");
  }

  /** Calls `listener` with every event after it is written (the progress display uses this). */
  subscribe(listener: (event: RunEvent) => void): void {
    this.listeners.push(listener);
  }

  /** Writes one event; fields with undefined values are left out. */
  emit(type: RunEventType, fields: Record<string, unknown> = {}): RunEvent {
    const event: RunEvent = { seq: ++this.seq, time: new Date().toISOString(), type, run_id: this.runId, ...fields };
    if (this.fd !== undefined) {
      try {
        writeSync(this.fd, `${JSON.stringify(event)}\n`);
      } catch {
        // A full disk must not stop the run; the checkpoint still records every job.
      }
    }
    for (const listener of this.listeners) listener(event);
    return event;
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

/** Reads an event log; a torn last line (the writer was killed mid-write) is ignored. */
export function readEventLog(path: string): RunEvent[] {
  return parseEventLog(readFileSync(path, "utf8"));
}

/** The events of an event log's text: torn, foreign and non-event lines are ignored. */
export function parseEventLog(text: string): RunEvent[] {
  const events: RunEvent[] = [];
  for (const line of text.split("\n")) {
    const event = parseEventLine(line);
    if (event) events.push(event);
  }
  return events;
}

/** One line of an event log as an event, or undefined (blank, torn, or not an event object). */
export function parseEventLine(line: string): RunEvent | undefined {
  if (line.trim() === "") return undefined;
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === "object" && value !== null && !Array.isArray(value) && typeof (value as RunEvent).type === "string" ? (value as RunEvent) : undefined;
  } catch {
    return undefined; // torn or foreign line
  }
}
