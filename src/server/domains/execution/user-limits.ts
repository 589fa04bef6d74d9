/**
 * Per-user limits on runs, so one user cannot take a shared service's machine for themselves:
 * `SERVICE_USER_MAX_RUNS` counts a user's active runs (queued, running or paused) and
 * `SERVICE_USER_MAX_THREADS` the threads those runs may use at once — each run's `jobs` (the engine's cap
 * on jobs at once, 1 when not given), not the sum of its rules' threads, since only `jobs` of them run
 * together. A dry run counts as a run but uses no threads (nothing executes). Retries count like new runs.
 * Administrators are held to the limits too (the limits protect the machine; an administrator raises them).
 * A run over a limit is refused with 429 USER_LIMIT naming the limit, the current use and the setting.
 *
 * The check and the recording of the run happen under a per-owner lock, so two requests at once cannot both
 * take the last slot; one service process owns its runs, so an in-process lock is enough. The store is the
 * count (a restarted service counts the runs it re-attached), and each run's `jobs` comes from the request
 * file kept beside it.
 */
import { ServiceError } from "../../errors.js";
import { runRequestOf, type RunRequest } from "../../runner/engine-command.js";
import { megabytes, type WorkspaceQuota } from "../../runner/workspace-quota.js";
import type { Run, RunStatus, RunStore } from "../../store/runs/contract.js";
import { ACTIVE_RUN_STATUSES } from "../../store/runs/run-states.js";

/** The limits per user; 0 means no limit. */
export interface UserLimits {
  /** Active (queued, running or paused) runs per user (`SERVICE_USER_MAX_RUNS`). */
  maxRuns: number;
  /** Threads (jobs at once) over a user's active runs (`SERVICE_USER_MAX_THREADS`). */
  maxThreads: number;
}

/** No limits (personal mode, embeddings and tests unless they set some). */
export const NO_USER_LIMITS: UserLimits = Object.freeze({ maxRuns: 0, maxThreads: 0 });

const ACTIVE: readonly RunStatus[] = ACTIVE_RUN_STATUSES;

/** The threads a run may use at once: its jobs setting; a dry run executes nothing. */
export function runThreads(request: Pick<RunRequest, "jobs" | "dry_run">): number {
  return request.dry_run ? 0 : (request.jobs ?? 1);
}

/** What an owner uses now. */
interface Usage {
  runs: number;
  threads: number;
}

/** Admits runs within the per-user limits, one owner's at a time. */
export class UserRunLimits {
  /** The tail of each owner's queue of admissions (removed when the owner's queue empties). */
  private readonly tails = new Map<string, Promise<unknown>>();
  /** Threads of runs already read, by run id (a run's request never changes). */
  private readonly threads = new Map<string, number>();

  constructor(
    private readonly store: RunStore,
    readonly limits: UserLimits,
    /** Each user's workspaces against `SERVICE_USER_WORKSPACE_MB` (none when absent). */
    private readonly quota?: WorkspaceQuota,
  ) {}

  /** Whether any limit is set. */
  get active(): boolean {
    return this.limits.maxRuns > 0 || this.limits.maxThreads > 0 || this.quota !== undefined;
  }

  /**
   * Runs `record` (which records the run `runId` as queued) if `owner` has room for a run with this request,
   * else throws 429 USER_LIMIT. Admissions of one owner run one after another, so the count `record` changes
   * is the count the next one sees.
   */
  async admit<T>(owner: string, runId: string, request: RunRequest, record: () => Promise<T>): Promise<T> {
    if (!this.active) return record();
    const previous = this.tails.get(owner) ?? Promise.resolve();
    const mine = previous.then(async () => {
      await this.checkQuota(owner);
      this.check(await this.usage(owner), runThreads(request));
      this.remember(runId, runThreads(request));
      return record();
    });
    const tail = mine.catch(() => undefined);
    this.tails.set(owner, tail);
    try {
      return await mine;
    } finally {
      if (this.tails.get(owner) === tail) this.tails.delete(owner);
    }
  }

  /** A user whose workspaces fill the quota starts nothing more (measured at most 5 s ago). */
  private async checkQuota(owner: string): Promise<void> {
    if (!this.quota) return;
    const used = await this.quota.used(owner, 5_000);
    if (used < this.quota.bytes) return;
    const quotaMb = Math.round(this.quota.bytes / 1024 / 1024);
    throw new ServiceError("USER_LIMIT", `your workspaces use ${megabytes(used)}; the workspace quota is ${megabytes(this.quota.bytes)} (SERVICE_USER_WORKSPACE_MB=${quotaMb})`, {
      suggestion: "ask an administrator to remove workspaces of runs you no longer need (under the data folder's users/<your id>/), or to raise SERVICE_USER_WORKSPACE_MB",
      fields: { limit: "SERVICE_USER_WORKSPACE_MB", allowed: quotaMb, in_use: Math.round(used / 1024 / 1024), requested: 0 },
    });
  }

  private check(usage: Usage, wanted: number): void {
    const { maxRuns, maxThreads } = this.limits;
    if (maxRuns > 0 && usage.runs + 1 > maxRuns) {
      throw new ServiceError("USER_LIMIT", `you have ${usage.runs} active runs (queued, running or paused); one user may have ${maxRuns} at once (SERVICE_USER_MAX_RUNS=${maxRuns})`, {
        suggestion: "wait for one of your runs to end or cancel one (GET /api/runs?status=running lists them), or ask an administrator to raise SERVICE_USER_MAX_RUNS",
        fields: { limit: "SERVICE_USER_MAX_RUNS", allowed: maxRuns, in_use: usage.runs, requested: 1 },
      });
    }
    if (maxThreads > 0 && usage.threads + wanted > maxThreads) {
      const alone = wanted > maxThreads;
      const message = alone
        ? `this run asks for ${wanted} jobs at once; one user may use ${maxThreads} threads at once (SERVICE_USER_MAX_THREADS=${maxThreads})`
        : `your active runs use ${usage.threads} threads (jobs at once) and this one asks for ${wanted}; one user may use ${maxThreads} at once (SERVICE_USER_MAX_THREADS=${maxThreads})`;
      throw new ServiceError("USER_LIMIT", message, {
        suggestion: alone
          ? `send "jobs": ${maxThreads} or fewer, or ask an administrator to raise SERVICE_USER_MAX_THREADS`
          : maxThreads - usage.threads >= 1
            ? `send "jobs": ${maxThreads - usage.threads} or fewer, wait for a run to end, or ask an administrator to raise SERVICE_USER_MAX_THREADS`
            : "wait for one of your runs to end (or cancel one), or ask an administrator to raise SERVICE_USER_MAX_THREADS",
        fields: { limit: "SERVICE_USER_MAX_THREADS", allowed: maxThreads, in_use: usage.threads, requested: wanted },
      });
    }
  }

  /** The owner's active runs and the threads they may use, from the store. */
  private async usage(owner: string): Promise<Usage> {
    const usage: Usage = { runs: 0, threads: 0 };
    for (const status of ACTIVE) {
      let cursor: string | null = null;
      do {
        const page = await this.store.listRuns({ owner, status, limit: 500, cursor });
        for (const run of page.items) {
          usage.runs++;
          usage.threads += this.threadsOf(run);
        }
        cursor = page.next_cursor;
      } while (cursor !== null);
    }
    return usage;
  }

  private threadsOf(run: Run): number {
    let known = this.threads.get(run.id);
    if (known === undefined) {
      const request = runRequestOf(run);
      known = request ? runThreads(request) : 1;
      this.remember(run.id, known);
    }
    return known;
  }

  private remember(runId: string, threads: number): void {
    // Bounded: the cache only saves reading small files, so it is dropped whole when large.
    if (this.threads.size >= 10_000) this.threads.clear();
    this.threads.set(runId, threads);
  }
}
