/**
 * A run's jobs as the views read them, kept between requests: the live fold of a run this process
 * supervises, or the fold of a run's event log (made in an engine worker), or a dry run's plan — with its
 * job table (`job-table.ts`). Folding the log of a run of 100,000 jobs takes seconds, and the run page
 * polls, so a fold is kept per run and made again only when the log changes (its size or modification
 * time); a live fold's table is remade when the fold has moved on. The cache is bounded by runs and by
 * jobs held.
 */
import { lstatSync } from "node:fs";
import type { DryRunPlan } from "../../runner/dry-run-plan.js";
import type { JobProgress, JobReason, JobState, RunProgress } from "../../runner/run-progress.js";
import { JobTable } from "./job-table.js";
import { JOB_STATES } from "../../runner/job-states.js";

/** A run's jobs: the fold (empty for a dry run), the dry run's plan, and the table built from them (made on first use). */
export interface RunFold {
  progress: RunProgress;
  plan: DryRunPlan | undefined;
  table: () => JobTable;
}

/** `make`, called once on first use: a status poll of a live run needs no table. */
export function lazily<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/** What the cache may hold at once: runs, and jobs over all of them. */
const LIMITS = { runs: 16, jobs: 300_000 } as const;

interface Entry {
  version: string;
  jobs: number;
  fold: Promise<RunFold>;
}

const entries = new Map<string, Entry>();

/** A file's version for the cache: its size, modification time and identity, or "absent" (a link is not looked through). */
export function fileVersion(path: string): string {
  try {
    const stat = lstatSync(path);
    return `${stat.size}:${stat.mtimeMs}:${stat.ino}`;
  } catch {
    return "absent";
  }
}

/**
 * The fold of a run at `version`, from the cache or made by `make` (concurrent requests share one making).
 * A failed making is not kept.
 */
export async function cachedFold(runId: string, version: string, make: () => Promise<RunFold>): Promise<RunFold> {
  const known = entries.get(runId);
  if (known && known.version === version) {
    // Most recently used last: the first entry is the one to evict.
    entries.delete(runId);
    entries.set(runId, known);
    return known.fold;
  }
  const entry: Entry = { version, jobs: 0, fold: make() };
  entries.set(runId, entry);
  try {
    const fold = await entry.fold;
    entry.jobs = Math.max(fold.progress.jobs.size, fold.plan?.jobs.length ?? 0);
    evict();
    return fold;
  } catch (error) {
    if (entries.get(runId) === entry) entries.delete(runId);
    throw error;
  }
}

/**
 * Keeps the supervisor's fold of a run that has just ended as the fold of its finished event log: that fold
 * has read every event of the log (the supervisor drains it before letting go), so the first view after the
 * end need not read the log again (seconds for 100,000 jobs, just when the run page refreshes). The job
 * table is made again from the final fold, since one made while the run worked is out of date. Does nothing
 * unless the cache holds a live fold of the run.
 */
export function adoptEndedLiveFold(runId: string, version: string): void {
  const known = entries.get(runId);
  if (!known?.version.startsWith("live:")) return;
  known.version = version;
  known.fold = known.fold.then((fold) => ({ ...fold, table: lazily(() => JobTable.fromProgress(fold.progress)) }));
}

function evict(): void {
  let jobs = 0;
  for (const entry of entries.values()) jobs += entry.jobs;
  for (const [runId, entry] of entries) {
    if (entries.size <= 1 || (entries.size <= LIMITS.runs && jobs <= LIMITS.jobs)) break;
    entries.delete(runId);
    jobs -= entry.jobs;
  }
}

/**
 * A fold's jobs by column, to cross from the engine worker: a thread copies typed arrays and strings far
 * faster than 100,000 small objects, and the copy is made on the event loop.
 */
export interface CompactJobs {
  job: string[];
  /** Distinct rule names, and each job's index into them. */
  rules: string[];
  rule: Int32Array;
  state: Uint8Array;
  started_at: (string | null)[];
  finished_at: (string | null)[];
  /** NaN for null. */
  duration_ms: Float64Array;
  exit_code: Float64Array;
  attempt: Int32Array;
  stdout: (string | null)[];
  stderr: (string | null)[];
  error: (string | null)[];
  /** Distinct reasons, and each job's index into them (-1: none). */
  reasons: JobReason[];
  reason: Int32Array;
}

const STATES: readonly JobState[] = JOB_STATES;

/** A fold's jobs by column. */
export function compactJobs(jobs: JobProgress[]): CompactJobs {
  const count = jobs.length;
  const ruleIds = new Map<string, number>();
  const reasonIds = new Map<string, number>();
  const compact: CompactJobs = {
    job: new Array<string>(count),
    rules: [],
    rule: new Int32Array(count),
    state: new Uint8Array(count),
    started_at: new Array<string | null>(count),
    finished_at: new Array<string | null>(count),
    duration_ms: new Float64Array(count),
    exit_code: new Float64Array(count),
    attempt: new Int32Array(count),
    stdout: new Array<string | null>(count),
    stderr: new Array<string | null>(count),
    error: new Array<string | null>(count),
    reasons: [],
    reason: new Int32Array(count),
  };
  jobs.forEach((job, at) => {
    let rule = ruleIds.get(job.rule);
    if (rule === undefined) ruleIds.set(job.rule, (rule = compact.rules.push(job.rule) - 1));
    let reason = -1;
    if (job.reason) {
      const key = `${job.reason.code}\n${job.reason.text}`;
      reason = reasonIds.get(key) ?? -1;
      if (reason === -1) reasonIds.set(key, (reason = compact.reasons.push(job.reason) - 1));
    }
    compact.job[at] = job.job;
    compact.rule[at] = rule;
    compact.state[at] = STATES.indexOf(job.state);
    compact.started_at[at] = job.started_at;
    compact.finished_at[at] = job.finished_at;
    compact.duration_ms[at] = job.duration_ms ?? NaN;
    compact.exit_code[at] = job.exit_code ?? NaN;
    compact.attempt[at] = job.attempt;
    compact.stdout[at] = job.stdout;
    compact.stderr[at] = job.stderr;
    compact.error[at] = job.error;
    compact.reason[at] = reason;
  });
  return compact;
}

/** The jobs again, as the fold holds them. */
export function expandJobs(compact: CompactJobs): JobProgress[] {
  const jobs = new Array<JobProgress>(compact.job.length);
  const orNull = (value: number) => (Number.isNaN(value) ? null : value);
  for (let at = 0; at < jobs.length; at++) {
    const reason = compact.reason[at]!;
    jobs[at] = {
      job: compact.job[at]!,
      rule: compact.rules[compact.rule[at]!]!,
      state: STATES[compact.state[at]!]!,
      started_at: compact.started_at[at]!,
      finished_at: compact.finished_at[at]!,
      duration_ms: orNull(compact.duration_ms[at]!),
      exit_code: orNull(compact.exit_code[at]!),
      attempt: compact.attempt[at]!,
      stdout: compact.stdout[at]!,
      stderr: compact.stderr[at]!,
      error: compact.error[at]!,
      reason: reason === -1 ? null : compact.reasons[reason]!,
    };
  }
  return jobs;
}
