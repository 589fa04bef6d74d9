/**
 * The run page's job table (`GET /api/runs/{id}/jobs`): every job of a run as a row, filtered, sorted and
 * paged on the server, so a run of 100,000 jobs costs the browser one page at a time. Rows come from the
 * run's fold (live, or the fold of its event log) or a dry run's plan; each row keeps its position in the
 * engine's order as `index`. A sort's order of all rows is computed once per version of the rows and
 * kept with them (see `run-folds.ts`), so a page is a scan, not a sort.
 */
import type { DryRunPlan } from "../../runner/dry-run-plan.js";
import type { JobRowStatus } from "../../runner/job-states.js";
import type { JobReason, RunProgress } from "../../runner/run-progress.js";

export type { JobRowStatus } from "../../runner/job-states.js";

/** One row of the job table. */
export interface JobRow {
  index: number;
  job: string;
  rule: string;
  status: JobRowStatus;
  reason: JobReason | null;
  started_at: string | null;
  finished_at: string | null;
  duration_ms: number | null;
  exit_code: number | null;
}

/** The columns the table sorts by; `order` is the engine's order. */
export const JOB_SORTS = ["order", "job", "rule", "status", "started_at", "duration_ms"] as const;
export type JobSort = (typeof JOB_SORTS)[number];

/** What a page asks for. */
export interface JobQuery {
  offset?: number;
  limit?: number;
  sort?: JobSort;
  order?: "asc" | "desc";
  q?: string;
  status?: JobRowStatus;
  rule?: string;
}

/** One page of rows; `total` counts the rows the filters keep. */
export interface JobPage {
  items: JobRow[];
  total: number;
  offset: number;
  limit: number;
}

/** Row positions in a sort's ascending order, and how many of them have a value (those without come last). */
export interface SortedOrder {
  order: Int32Array;
  valued: number;
}

/** One order per sort. */
export type SortedOrders = Record<JobSort, SortedOrder>;

/** A run's rows with the sorted orders computed so far (indexes into `rows`). */
export class JobTable {
  private readonly sorted = new Map<JobSort, SortedOrder>();
  /** Lower-cased job ids and rules, made on the first search. */
  private searchText: string[] | undefined;

  /** `orders`: sorted orders made elsewhere (an engine worker sorts a finished run's jobs with its fold). */
  constructor(
    readonly rows: JobRow[],
    orders?: SortedOrders,
  ) {
    if (orders) for (const [sort, order] of Object.entries(orders) as [JobSort, SortedOrder][]) this.sorted.set(sort, order);
  }

  /** Every sort's order, computed now (to send along with the rows). */
  allOrders(): SortedOrders {
    return Object.fromEntries(JOB_SORTS.map((sort) => [sort, this.orderOf(sort)])) as SortedOrders;
  }

  /** The rows of a run's fold, in the engine's order; once the run has ended, a job left queued or running was not run (skipped, as the run's counts have it). */
  static fromProgress(progress: RunProgress, orders?: SortedOrders): JobTable {
    const rows: JobRow[] = [];
    let index = 0;
    const ended = progress.finish !== null;
    for (const job of progress.jobs.values()) {
      const status = ended && (job.state === "queued" || job.state === "running") ? "skipped" : job.state;
      rows.push({ index: index++, job: job.job, rule: job.rule, status, reason: job.reason, started_at: job.started_at, finished_at: job.finished_at, duration_ms: job.duration_ms, exit_code: job.exit_code });
    }
    return new JobTable(rows, orders);
  }

  /** The rows of a dry run's plan: nothing ran, so no times or exit codes. */
  static fromPlan(plan: DryRunPlan): JobTable {
    return new JobTable(plan.jobs.map((job, index) => ({ index, job: job.job, rule: job.rule, status: job.status, reason: job.reason, started_at: null, finished_at: null, duration_ms: null, exit_code: null })));
  }

  /** One page: filtered by status, rule and search text, sorted, then sliced. */
  page(query: JobQuery): JobPage {
    const offset = query.offset ?? 0;
    const limit = query.limit ?? 100;
    const { order, valued } = this.orderOf(query.sort ?? "order");
    const needle = query.q?.trim().toLowerCase() || undefined;
    const search = needle === undefined ? undefined : this.searchTexts();
    const keep = (row: JobRow, at: number) =>
      (query.status === undefined || row.status === query.status) && (query.rule === undefined || row.rule === query.rule) && (search === undefined || search[at]!.includes(needle!));
    const items: JobRow[] = [];
    let total = 0;
    const descending = query.order === "desc";
    const count = order.length;
    for (let step = 0; step < count; step++) {
      // Descending reverses the rows that have a value; rows without one stay last, in the engine's order.
      const at = order[descending && step < valued ? valued - 1 - step : step]!;
      const row = this.rows[at]!;
      if (!keep(row, at)) continue;
      if (total >= offset && items.length < limit) items.push(row);
      total++;
    }
    return { items, total, offset, limit };
  }

  private searchTexts(): string[] {
    this.searchText ??= this.rows.map((row) => `${row.job}\n${row.rule}`.toLowerCase());
    return this.searchText;
  }

  /** Row positions in ascending order of a column (ties keep the engine's order), and how many have a value (rows without one are last). */
  private orderOf(sort: JobSort): SortedOrder {
    const known = this.sorted.get(sort);
    if (known) return known;
    const order = Int32Array.from(this.rows, (_, at) => at);
    let valued = order.length;
    if (sort !== "order") {
      const keys = this.rows.map(sortKey(sort));
      valued = keys.filter((key) => key !== null).length;
      order.sort((a, b) => {
        const x = keys[a]!;
        const y = keys[b]!;
        if (x === y) return a - b;
        if (x === null) return 1;
        if (y === null) return -1;
        return x < y ? -1 : 1;
      });
    }
    this.sorted.set(sort, { order, valued });
    return { order, valued };
  }
}

function sortKey(sort: Exclude<JobSort, "order">): (row: JobRow) => string | number | null {
  switch (sort) {
    case "job":
      return (row) => row.job;
    case "rule":
      return (row) => row.rule;
    case "status":
      return (row) => row.status;
    case "started_at":
      // ISO times of one clock sort as text.
      return (row) => row.started_at;
    case "duration_ms":
      return (row) => row.duration_ms;
  }
}
