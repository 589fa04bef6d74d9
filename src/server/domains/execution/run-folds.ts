/**
 * A run's jobs as the views read them, kept between requests: the live fold of a run this process
 * supervises, or the fold of a run's event log (made in an engine worker), or a dry run's plan — with its
 * job table (`job-table.ts`). Folding the log of a run of 100,000 jobs takes seconds, and the run page
 * polls, so a fold is kept per run and made again only when the log changes (its size or modification
 * time); a live fold's table is remade when the fold has moved on. The cache is bounded by runs and by
 * jobs held.
 */
import { statSync } from "node:fs";
import type { DryRunPlan } from "../../runner/dry-run-plan.js";
import type { RunProgress } from "../../runner/run-progress.js";
import type { JobTable } from "./job-table.js";

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

/** A file's version for the cache: its size and modification time, or "absent". */
export function fileVersion(path: string): string {
  try {
    const stat = statSync(path);
    return `${stat.size}:${stat.mtimeMs}`;
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

function evict(): void {
  let jobs = 0;
  for (const entry of entries.values()) jobs += entry.jobs;
  for (const [runId, entry] of entries) {
    if (entries.size <= 1 || (entries.size <= LIMITS.runs && jobs <= LIMITS.jobs)) break;
    entries.delete(runId);
    jobs -= entry.jobs;
  }
}
