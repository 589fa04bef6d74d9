/**
 * The run's event log (Decision 11): one JSON object per line, appended and handed to the operating
 * system per event, so a control plane can follow a run by reading the file and pick it up again after
 * a restart. Every event has `seq`, `time`, `type` and `run_id`; the README lists every type and field.
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
