/**
 * Runs and the runner's bookkeeping: the records and the store contract of this area. Field names follow the API's JSON
 * (snake_case); timestamps are RFC 3339 UTC strings in both implementations.
 */
import type { Page } from "../keyset-cursor.js";
import type { RunStatus } from "./run-states.js";

export { RUN_STATUSES, type RunStatus } from "./run-states.js";

/** Where a run executes: `{type: local|slurm|…, …backend options}`. */
export interface RunTarget {
  type: string;
  [option: string]: unknown;
}

/**
 * A run's options as the service accepted them, kept with the run (not only in a file of its workspace,
 * which its jobs could rewrite): the runner reads them through its own check of their shape.
 */
export type RunRequestRecord = Record<string, unknown>;

/** Where a run on a remote cluster is in its life: its files going up, its engine running, its results coming back. */
export const REMOTE_RUN_PHASES = ["staging", "running", "collecting", "done"] as const;
export type RemoteRunPhase = (typeof REMOTE_RUN_PHASES)[number];

/**
 * The persisted state of a run on a remote cluster (docs/guide/hpc.md, "Remote clusters"): enough for a
 * restarted service to find its engine on the login node again and go on following it.
 */
export interface RunRemote {
  cluster_id: string;
  /** The run's workspace on the cluster (under the cluster's remote folder, per user); null until made. */
  workspace: string | null;
  /** The process id of the remote engine's wrapper, which leads the engine's process group; null until started. */
  pid: number | null;
  /** The scheduler the remote engine submits jobs to (`none`: they run on the login node); null until known. */
  scheduler: string | null;
  /** Whether results come back to the service (`pull`) or stay on the cluster with their paths listed (`remote`). */
  results: "pull" | "remote";
  phase: RemoteRunPhase;
  /**
   * The scheduler job the remote engine runs in, on a cluster that places engines in jobs (absent or null:
   * the engine runs on the login node, as `pid`). `state` is what the scheduler said last.
   */
  engine_job?: RemoteEngineJob | null;
}

/** A remote engine's own scheduler job. */
export interface RemoteEngineJob {
  id: string;
  state: "queued" | "running" | "ended";
}

/** Job counts of a run, as the API shows them. */
export interface RunCounts {
  total: number;
  completed: number;
  failed: number;
  running: number;
  skipped: number;
  pending: number;
}

/** A run, with the runner's bookkeeping (workspace, pid, events_path, error) next to the API fields. */
export interface Run {
  id: string;
  status: RunStatus;
  pipeline_id: string | null;
  pipeline_revision: number | null;
  workflow_name: string;
  owner: string;
  target: RunTarget;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  exit_code: number | null;
  counts: RunCounts;
  retry_of: string | null;
  workspace: string | null;
  pid: number | null;
  events_path: string | null;
  error: string | null;
  /** The options the run was started with; null for runs recorded before runs kept them (their request.json). */
  request: RunRequestRecord | null;
  /** Where the run executes when that is a remote cluster; null for runs on the service's own machine. */
  remote: RunRemote | null;
}

/** What a caller supplies to record a new run; status defaults to queued, counts to zeros. */
export type NewRun = Partial<Omit<Run, "workflow_name" | "owner">> & Pick<Run, "workflow_name" | "owner">;

/** The fields a run update may change; absent fields keep their value. */
export type RunPatch = Partial<Omit<Run, "id" | "created_at">>;

/** Compare-and-set for run updates, so the runner and a cancel request cannot both win. */
export interface RunUpdateOptions {
  /** Refuse with CONFLICT unless the run is currently in one of these states. */
  expectedStatus?: RunStatus | readonly RunStatus[];
}

/** Which runs a page holds. */
export interface RunQuery {
  /** Page size (default 50, clamped to 1..500). */
  limit?: number;
  /** The `next_cursor` of the previous page; absent for the first page. */
  cursor?: string | null;
  status?: RunStatus;
  owner?: string;
  /** A case-insensitive substring of the workflow name. */
  q?: string;
}

/** A page of runs with the number of runs the filters match. */
export interface RunPage extends Page<Run> {
  total: number;
}

/** Runs and the runner's bookkeeping: what the services may read and change. */
export interface RunStore {
  /** Records a new run. CONFLICT if the id is taken. */
  createRun(input: NewRun): Promise<Run>;

  /** The run with this id. NOT_FOUND if there is none. */
  getRun(id: string): Promise<Run>;

  /** Changes some fields of a run. NOT_FOUND if there is none, CONFLICT if `expectedStatus` does not hold. */
  updateRun(id: string, patch: RunPatch, options?: RunUpdateOptions): Promise<Run>;

  /** Runs newest first, a page at a time; pages neither repeat nor skip runs while runs are being created. */
  listRuns(query?: RunQuery): Promise<RunPage>;
}

/** The reads of runs, for code that must never write them (the AI's capabilities). */
export type RunReads = Pick<RunStore, "getRun" | "listRuns">;
