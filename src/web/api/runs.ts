/**
 * What the run pages share about a run: its types as the service answers them, the query keys (all under
 * `["run", id]`, so one invalidation refreshes a run's views), which controls each state allows, and the
 * addresses of its files.
 */
import type { components } from "../../client/service-client.js";
import { api, baseUrl, dataOf } from "./client.js";

/** A run as `GET /api/runs/{id}` answers it. */
export type RunDetail = components["schemas"]["RunDetail"];
/** The live status view (`GET /api/runs/{id}/status`). */
export type RunStatusView = components["schemas"]["RunStatusView"];
/** The DAG with per-rule states (`GET /api/runs/{id}/dag-status`). */
export type RunDagStatus = components["schemas"]["RunDagStatus"];
/** A run's state. */
export type RunState = RunDetail["status"];

/** One job of a run as `GET /api/runs/{id}/jobs` lists it. */
export type JobRow = components["schemas"]["RunJobRow"];

/** A page of a run's jobs. */
export type JobPage = components["schemas"]["RunJobsPage"];

/** The columns the jobs endpoint sorts by. */
export type JobSort = "order" | "job" | "rule" | "status" | "started_at" | "duration_ms";

/** What a page of jobs is asked with. */
export interface JobQuery {
  offset: number;
  limit: number;
  sort?: JobSort;
  order?: "asc" | "desc";
  q?: string;
  status?: JobRow["status"];
  rule?: string;
}

/** The terminal states: nothing changes after them. */
export const TERMINAL: ReadonlySet<string> = new Set(["completed", "failed", "cancelled"]);

/** Whether a run is over. */
export function isTerminal(status: string | undefined): boolean {
  return status !== undefined && TERMINAL.has(status);
}

/** The controls a run's state allows (the service's transitions; a dry run has nothing to retry). */
export function allowedControls(run: Pick<RunDetail, "status" | "dry_run">): { pause: boolean; resume: boolean; cancel: boolean; retry: boolean } {
  return {
    pause: run.status === "running",
    resume: run.status === "paused",
    cancel: run.status === "queued" || run.status === "running" || run.status === "paused",
    retry: (run.status === "failed" || run.status === "cancelled") && !run.dry_run,
  };
}

/** Query keys of one run's views. */
export const runKeys = {
  all: (id: string) => ["run", id] as const,
  detail: (id: string) => ["run", id, "detail"] as const,
  status: (id: string) => ["run", id, "status"] as const,
  dag: (id: string) => ["run", id, "dag"] as const,
  jobs: (id: string, query: Omit<JobQuery, "offset" | "limit">) => ["run", id, "jobs", query] as const,
  timeline: (id: string) => ["run", id, "timeline"] as const,
  results: (id: string) => ["run", id, "results"] as const,
  diagnostics: (id: string) => ["run", id, "diagnostics"] as const,
  folder: (id: string, path: string) => ["run", id, "folder", path] as const,
};

/** The run with its log tail. */
export async function fetchRun(id: string): Promise<RunDetail> {
  return dataOf(await api.GET("/api/runs/{id}", { params: { path: { id } } }));
}

/** The live status without the jobs list (jobs come a page at a time from fetchJobs). */
export async function fetchStatus(id: string): Promise<RunStatusView> {
  return dataOf(await api.GET("/api/runs/{id}/status", { params: { path: { id }, query: { jobs: "false" } } }));
}

/** The rule-level DAG with each rule's state, without the jobs list. */
export async function fetchDagStatus(id: string): Promise<RunDagStatus> {
  return dataOf(await api.GET("/api/runs/{id}/dag-status", { params: { path: { id }, query: { jobs: "false" } } }));
}

/** One page of a run's jobs, sorted and filtered by the service. */
export async function fetchJobs(id: string, query: JobQuery): Promise<JobPage> {
  return dataOf(await api.GET("/api/runs/{id}/jobs", { params: { path: { id }, query } }));
}

/** A file or folder of the run's workspace: `download` makes it an attachment, `zip` a folder's archive. */
export function fileUrl(id: string, path: string, options: { download?: boolean; zip?: boolean } = {}): string {
  const search = new URLSearchParams();
  if (path) search.set("path", path);
  if (options.download) search.set("download", "1");
  if (options.zip) search.set("format", "zip");
  const query = search.toString();
  return `${baseUrl}api/runs/${encodeURIComponent(id)}/files${query ? `?${query}` : ""}`;
}

/** A folder of the run's workspace. */
export type FolderListing = components["schemas"]["RunFolder"];

/** A folder's entries (`GET /api/runs/{id}/files?path=` answers a folder as JSON). */
export async function fetchFolder(id: string, path: string): Promise<FolderListing> {
  return dataOf(await api.GET("/api/runs/{id}/files", { params: { path: { id }, query: path ? { path } : {} } })) as FolderListing;
}
