/** Complete runs and the runner's bookkeeping rows from what callers supply, shared by both implementations. */
import { randomUUID } from "node:crypto";
import type { NewRun, Run, RunCounts } from "./contract.js";

/** Job counts of a run nothing has happened to yet. */
export const ZERO_COUNTS: RunCounts = { total: 0, completed: 0, failed: 0, running: 0, skipped: 0, pending: 0 };

/** A new run, queued unless the caller says otherwise. */
export function newRunRow(input: NewRun, now: string): Run {
  return {
    id: input.id ?? randomUUID(),
    status: input.status ?? "queued",
    pipeline_id: input.pipeline_id ?? null,
    pipeline_revision: input.pipeline_revision ?? null,
    workflow_name: input.workflow_name,
    owner: input.owner,
    target: input.target ?? { type: "local" },
    created_at: input.created_at ?? now,
    started_at: input.started_at ?? null,
    finished_at: input.finished_at ?? null,
    exit_code: input.exit_code ?? null,
    counts: input.counts ?? { ...ZERO_COUNTS },
    retry_of: input.retry_of ?? null,
    workspace: input.workspace ?? null,
    pid: input.pid ?? null,
    events_path: input.events_path ?? null,
    error: input.error ?? null,
    request: input.request ?? null,
    remote: input.remote ?? null,
  };
}
