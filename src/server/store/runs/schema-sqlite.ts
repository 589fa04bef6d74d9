/** The SQLite tables of this area (runs and the runner's bookkeeping); drizzle-kit generates `drizzle/sqlite/` from every area's. */
import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { RUN_STATUSES } from "./run-states.js";
import type { RunCounts, RunRemote, RunRequestRecord, RunTarget } from "./contract.js";

/** Runs; pipeline_id is deliberately not a foreign key, so a run's history outlives its pipeline. */
export const runs = sqliteTable(
  "runs",
  {
    id: text().primaryKey(),
    status: text({ enum: RUN_STATUSES }).notNull(),
    pipeline_id: text(),
    pipeline_revision: integer(),
    workflow_name: text().notNull(),
    owner: text().notNull(),
    target: text({ mode: "json" }).$type<RunTarget>().notNull(),
    created_at: text().notNull(),
    started_at: text(),
    finished_at: text(),
    exit_code: integer(),
    counts: text({ mode: "json" }).$type<RunCounts>().notNull(),
    retry_of: text(),
    workspace: text(),
    pid: integer(),
    events_path: text(),
    error: text(),
    /** The run's options as the service accepted them (jobs, keep_going, dry_run, samples, targets, config, retry_failed). */
    request: text({ mode: "json" }).$type<RunRequestRecord>(),
    /** A remote cluster run's persisted state (cluster, remote workspace, engine pid, phase); null for local runs. */
    remote: text({ mode: "json" }).$type<RunRemote>(),
  },
  (t) => [
    index("runs_created_idx").on(t.created_at, t.id),
    index("runs_status_created_idx").on(t.status, t.created_at, t.id),
    check(
      "runs_status_check",
      sql`${t.status} in ('queued', 'running', 'paused', 'completed', 'failed', 'cancelled')`,
    ),
  ],
);
