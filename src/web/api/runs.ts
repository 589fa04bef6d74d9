/**
 * Runs as the app reads and drives them: the list (a page at a time over the service's cursors), one run's
 * views (all keyed under `runKeys.run(id)`, so one invalidation refreshes a run's views), its jobs a page at
 * a time, its log, results and workspace files, its live events, starting one, and the controls each
 * state allows.
 */
import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient, type QueryClient } from "@tanstack/react-query";
import type { components } from "../../client/service-client.js";
import { api, dataOf } from "./client.js";
import { afterCacheWork, type AnswerOf, type Reactions } from "./reactions.js";
import { baseUrl } from "./service-address.js";

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

/** How the jobs are sorted and filtered (a page of them adds its offset and size). */
export type JobFilter = Omit<JobQuery, "offset" | "limit">;

/** What the runs list is narrowed to (absent: every run). */
export interface RunFilter {
  status?: RunState;
  q?: string;
}

/** Whether a run in each state has ended (a state the API gains is a compile error here). */
const ENDED: Record<RunDetail["status"], boolean> = { queued: false, running: false, paused: false, completed: true, failed: true, cancelled: true };

/** Whether a run is over. */
export function isTerminal(status: string | undefined): boolean {
  return status !== undefined && ENDED[status as RunDetail["status"]] === true;
}

/** Something a caller can ask of a run (`POST /api/runs/{id}/<action>`). */
export type RunAction = RunDetail["actions"][number];

/** A run's state, as the service names it. */
export type RunStatus = RunDetail["status"];

/** A job's state in the job table. */
export type JobStatus = JobRow["status"];

/**
 * The controls a run allows now: the service answers them with the run (`actions`, from its one table of
 * run states), so the app never re-derives the state machine.
 */
export function allowedControls(run: Pick<RunDetail, "actions">): Record<RunAction, boolean> {
  return { pause: run.actions.includes("pause"), resume: run.actions.includes("resume"), cancel: run.actions.includes("cancel"), retry: run.actions.includes("retry") };
}

/** Every run state, by the words the runs list's filter shows (a state the API gains is a compile error here). */
export const RUN_STATUS_WORDS: Record<RunStatus, string> = { queued: "queued", running: "running", paused: "paused", completed: "completed", failed: "failed", cancelled: "cancelled" };

/** Every job state, by the words the job table's filter shows. */
export const JOB_STATUS_WORDS: Record<JobStatus, string> = { queued: "queued", running: "running", completed: "completed", failed: "failed", skipped: "skipped", would_run: "would run", would_skip: "would skip" };

/** Query keys of the runs list and of each run's views. */
export const runKeys = {
  all: ["runs"] as const,
  lists: () => [...runKeys.all, "list"] as const,
  list: (filter: RunFilter) => [...runKeys.lists(), filter] as const,
  /** Every view of one run. */
  run: (id: string) => [...runKeys.all, "run", id] as const,
  detail: (id: string) => [...runKeys.run(id), "detail"] as const,
  status: (id: string) => [...runKeys.run(id), "status"] as const,
  dag: (id: string) => [...runKeys.run(id), "dag"] as const,
  /** Every page of the jobs, however sorted and filtered. */
  jobs: (id: string) => [...runKeys.run(id), "jobs"] as const,
  jobPage: (id: string, filter: JobFilter, page: number) => [...runKeys.jobs(id), filter, page] as const,
  timeline: (id: string) => [...runKeys.run(id), "timeline"] as const,
  results: (id: string) => [...runKeys.run(id), "results"] as const,
  diagnostics: (id: string) => [...runKeys.run(id), "diagnostics"] as const,
  folder: (id: string, path: string) => [...runKeys.run(id), "folder", path] as const,
  preview: (id: string, path: string) => [...runKeys.run(id), "preview", path] as const,
};

/** `GET /api/runs`, newest first, 50 a page; refreshed every 5 s while a run shown is active, else every 20 s. */
export function runsQuery(filter: RunFilter) {
  return infiniteQueryOptions({
    queryKey: runKeys.list(filter),
    initialPageParam: undefined as string | undefined,
    queryFn: async ({ pageParam }) => dataOf(await api.GET("/api/runs", { params: { query: { limit: 50, ...(pageParam ? { cursor: pageParam } : {}), ...filter } } })),
    getNextPageParam: (page) => page.next_cursor ?? undefined,
    // Active runs change by the second; a list of finished runs only gains new ones.
    refetchInterval: (query) => (query.state.data?.pages.some((page) => page.items.some((run) => !isTerminal(run.status))) ? 5_000 : 20_000),
  });
}

/** `GET /api/runs/{id}`: the run with its log tail. */
export function runQuery(id: string) {
  return queryOptions({ queryKey: runKeys.detail(id), queryFn: async (): Promise<RunDetail> => dataOf(await api.GET("/api/runs/{id}", { params: { path: { id } } })) });
}

/** `GET /api/runs/{id}/status`: the live status without the jobs list (jobs come a page at a time). */
export function runStatusQuery(id: string) {
  return queryOptions({
    queryKey: runKeys.status(id),
    queryFn: async (): Promise<RunStatusView> => dataOf(await api.GET("/api/runs/{id}/status", { params: { path: { id }, query: { jobs: "false" } } })),
  });
}

/** `GET /api/runs/{id}/dag-status`: the rule-level DAG with each rule's state, without the jobs list. */
export function runDagQuery(id: string) {
  return queryOptions({
    queryKey: runKeys.dag(id),
    queryFn: async (): Promise<RunDagStatus> => dataOf(await api.GET("/api/runs/{id}/dag-status", { params: { path: { id }, query: { jobs: "false" } } })),
  });
}

/** One page of a run's jobs, sorted and filtered by the service. */
async function fetchJobs(id: string, query: JobQuery): Promise<JobPage> {
  return dataOf(await api.GET("/api/runs/{id}/jobs", { params: { path: { id }, query } }));
}

/** Page `page` (of `pageSize` jobs) of the jobs as `filter` sorts and narrows them. */
export function jobPageQuery(id: string, filter: JobFilter, page: number, pageSize: number) {
  return queryOptions({ queryKey: runKeys.jobPage(id, filter, page), queryFn: () => fetchJobs(id, { offset: page * pageSize, limit: pageSize, ...filter }) });
}

/** The `limit` most recently started jobs in the engine's order, from the end (no sort of the whole run). */
export function timelineQuery(id: string, limit: number) {
  return queryOptions({ queryKey: runKeys.timeline(id), queryFn: () => fetchJobs(id, { offset: 0, limit, sort: "order", order: "desc" }) });
}

/** `GET /api/runs/{id}/results`: the declared outputs with their sizes. */
export function resultsQuery(id: string) {
  return queryOptions({ queryKey: runKeys.results(id), queryFn: async () => dataOf(await api.GET("/api/runs/{id}/results", { params: { path: { id } } })) });
}

/** `GET /api/runs/{id}/diagnostics`: the failed jobs, each with its likely cause and what to try. */
export function diagnosticsQuery(id: string) {
  return queryOptions({ queryKey: runKeys.diagnostics(id), queryFn: async () => dataOf(await api.GET("/api/runs/{id}/diagnostics", { params: { path: { id } } })) });
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
export function folderQuery(id: string, path: string) {
  return queryOptions({
    queryKey: runKeys.folder(id, path),
    queryFn: async () => dataOf(await api.GET("/api/runs/{id}/files", { params: { path: { id }, query: path ? { path } : {} } })) as FolderListing,
  });
}

/** The start of a workspace file: its text (null when binary), its whole size, and whether it is cut. */
export interface FilePreview {
  text: string | null;
  size: number;
  partial: boolean;
}

/** The first `bytes` of a workspace file, asked with a Range request (the typed client reads JSON, this needs the raw bytes). */
export function filePreviewQuery(id: string, path: string, bytes: number) {
  return queryOptions({
    queryKey: runKeys.preview(id, path),
    staleTime: 60_000,
    queryFn: async (): Promise<FilePreview> => {
      const response = await fetch(fileUrl(id, path), { headers: { Range: `bytes=0-${bytes - 1}` }, credentials: "same-origin" });
      if (!response.ok && response.status !== 206) {
        const body = (await response.json().catch(() => ({}))) as { message?: string };
        throw new Error(body.message ?? `the service answered ${response.status}`);
      }
      const type = response.headers.get("Content-Type") ?? "";
      const range = response.headers.get("Content-Range");
      const size = range ? Number(range.split("/")[1]) : Number(response.headers.get("Content-Length") ?? 0);
      const content = new Uint8Array(await response.arrayBuffer());
      const binary = !/^text\/|json|xml|csv|tab-separated|yaml|toml|javascript/.test(type) && content.slice(0, 4096).includes(0);
      return { text: binary ? null : new TextDecoder().decode(content), size, partial: content.length < size };
    },
  });
}

/** What a page of a log is asked with: a job's stream, or the engine's log. */
export interface LogQuery {
  job?: string;
  stream: "stdout" | "stderr" | "engine";
  limit: number;
  offset?: number;
}

/** One page of a run's log (`GET /api/runs/{id}/logs`, offset paging): its lines, where the next page starts, whether it is the end. */
export async function fetchLogPage(id: string, query: LogQuery) {
  return dataOf(await api.GET("/api/runs/{id}/logs", { params: { path: { id }, query } }));
}

/** The address of the service's event stream, narrowed to one run's events. */
export function runEventsUrl(id: string): string {
  return `${baseUrl}api/events?run_id=${encodeURIComponent(id)}`;
}

/** Marks every view of a run stale (a state change, or events missed). */
export function invalidateRun(client: QueryClient, id: string): Promise<void> {
  return client.invalidateQueries({ queryKey: runKeys.run(id) });
}

/** Marks a run's progress stale: the status (the header counts from it too) and the jobs (the run row and the timeline keep their own pace). */
export function invalidateRunProgress(client: QueryClient, id: string): Promise<void> {
  return Promise.all([client.invalidateQueries({ queryKey: runKeys.status(id) }), client.invalidateQueries({ queryKey: runKeys.jobs(id) })]).then(() => undefined);
}

/** A control of a run. */
export type RunControl = "pause" | "resume" | "cancel" | "retry";

const controlRun = async ({ id, control }: { id: string; control: RunControl }) => {
  const path = { params: { path: { id } } };
  if (control === "pause") return dataOf(await api.POST("/api/runs/{id}/pause", path));
  if (control === "resume") return dataOf(await api.POST("/api/runs/{id}/resume", path));
  if (control === "cancel") return dataOf(await api.POST("/api/runs/{id}/cancel", path));
  return dataOf(await api.POST("/api/runs/{id}/retry", path));
};

/** Pause, resume, cancel or retry a run; its views and the list are refreshed (a retry answers the new run). */
export function useRunControl(reactions?: Reactions<AnswerOf<typeof controlRun>, { id: string; control: RunControl }>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: controlRun,
    ...afterCacheWork((_answer, { id }) => {
      void invalidateRun(client, id);
      void client.invalidateQueries({ queryKey: runKeys.lists() });
    }, reactions),
  });
}

type NewRun = components["schemas"]["CreateRun"];
const startRun = async (body: NewRun) => dataOf(await api.POST("/api/runs", { body }));

/** Starting a run; the runs list goes stale. */
export function useStartRun(reactions?: Reactions<AnswerOf<typeof startRun>, NewRun>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: startRun, ...afterCacheWork(() => void client.invalidateQueries({ queryKey: runKeys.lists() }), reactions) });
}
