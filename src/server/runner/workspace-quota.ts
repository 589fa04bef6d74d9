/**
 * Each user's run workspaces against `SERVICE_USER_WORKSPACE_MB`. Workspaces are folders jobs fill, on a
 * file system the service does not control, so the quota is kept in three places: no job may write a file
 * bigger than the quota (its RLIMIT_FSIZE, job-sandbox.ts), the space a user's workspaces take is measured
 * every few seconds while they have runs going (and the runs are stopped, with the quota named, once it is
 * used up), and a user whose workspaces are full starts no run (429 USER_LIMIT). Space is measured as the
 * disk blocks the files take (`du`, links not followed), so sparse files count what they use. A
 * measurement that cannot be made (du killed at its time limit — a workspace of millions of files — or no
 * total) counts as over the quota: a quota that fails open is no quota.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

/** How a user's use is measured: the bytes under these folders (tests give their own). */
export type SpaceMeasure = (folders: string[]) => Promise<number>;

export interface WorkspaceQuotaOptions {
  /** The quota per user, in bytes. */
  bytes: number;
  /** `SERVICE_DATA_DIR`: users' workspaces are under `users/<id>/runs` and `users/<id>/pipelines`. */
  dataDir: string;
  /** How often a user's use is measured while they have runs going (default 3 s). */
  intervalMs?: number;
  /** Called when a measurement finds a user over the quota. */
  onExceeded(owner: string, usedBytes: number): void;
  /** How use is measured (default: `du -s -B1`, at most 60 s per measurement). */
  measure?: SpaceMeasure;
}

/** How long one measurement may take. */
const MEASURE_TIMEOUT_MS = 60_000;

/** Disk use of folders, with `du` (links not followed; a folder that is missing counts nothing); rejects when du cannot tell. */
export const measureWithDu: SpaceMeasure = (folders) => {
  const present = folders.filter((folder) => existsSync(folder));
  if (present.length === 0) return Promise.resolve(0);
  return new Promise((resolve, reject) => {
    execFile("du", ["-s", "-B1", "-c", "-P", "--", ...present], { timeout: MEASURE_TIMEOUT_MS, maxBuffer: 1024 * 1024 }, (error, stdout) => {
      if (error?.killed) return reject(new Error(`du did not finish within ${MEASURE_TIMEOUT_MS / 1000} s`));
      // du reports what it could read even when some folder could not be (exit 1): the total is the last line.
      const total = /^(\d+)\s+total$/m.exec(String(stdout));
      if (total) resolve(Number(total[1]));
      else reject(new Error(`du gave no total${error ? `: ${error.message}` : ""}`));
    });
  });
};

interface Watched {
  runs: number;
  timer: NodeJS.Timeout;
  measuring?: Promise<number>;
  last?: { bytes: number; at: number };
}

/** Measures users' workspaces while they have runs going, and on demand before a run starts. */
export class WorkspaceQuota {
  private readonly watched = new Map<string, Watched>();
  private readonly lastKnown = new Map<string, { bytes: number; at: number }>();
  private readonly measure: SpaceMeasure;

  constructor(private readonly options: WorkspaceQuotaOptions) {
    this.measure = options.measure ?? measureWithDu;
  }

  /** The quota in bytes. */
  get bytes(): number {
    return this.options.bytes;
  }

  /** The folders a user's workspaces are in. */
  foldersOf(owner: string): string[] {
    const base = join(this.options.dataDir, "users", owner);
    return [join(base, "runs"), join(base, "pipelines")];
  }

  /** Starts measuring `owner` while one of their runs goes (counted: call `unwatch` once per `watch`). */
  watch(owner: string): void {
    const known = this.watched.get(owner);
    if (known) {
      known.runs++;
      return;
    }
    const timer = setInterval(() => void this.check(owner), this.options.intervalMs ?? 3_000);
    timer.unref();
    this.watched.set(owner, { runs: 1, timer });
  }

  /** One of `owner`'s runs has ended. */
  unwatch(owner: string): void {
    const known = this.watched.get(owner);
    if (!known) return;
    if (--known.runs > 0) return;
    clearInterval(known.timer);
    this.watched.delete(owner);
  }

  /** What `owner`'s workspaces take, measured now (or within the last `maxAgeMs`). */
  async used(owner: string, maxAgeMs = 0): Promise<number> {
    const last = this.lastKnown.get(owner);
    if (last && Date.now() - last.at <= maxAgeMs) return last.bytes;
    const watched = this.watched.get(owner);
    if (watched?.measuring) return watched.measuring;
    const measuring = this.measure(this.foldersOf(owner)).then(
      (bytes) => {
        if (this.lastKnown.size >= 10_000) this.lastKnown.clear();
        this.lastKnown.set(owner, { bytes, at: Date.now() });
        return bytes;
      },
      // Not measured: over the quota (megabytes() words it), and not remembered, so the next try measures again.
      () => UNMEASURED,
    );
    if (watched) watched.measuring = measuring.finally(() => (watched.measuring = undefined));
    return measuring;
  }

  /** Measures `owner` and reports them when over the quota. */
  private async check(owner: string): Promise<void> {
    if (this.watched.get(owner)?.measuring) return; // the previous measurement is still going
    const bytes = await this.used(owner);
    if (bytes > this.options.bytes && this.watched.has(owner)) this.options.onExceeded(owner, bytes);
  }

  /** Stops every measurement. */
  close(): void {
    for (const watched of this.watched.values()) clearInterval(watched.timer);
    this.watched.clear();
  }
}

/** What `used` answers when the space could not be measured: more than any quota. */
const UNMEASURED = Number.POSITIVE_INFINITY;

/** A size in MB for messages. */
export function megabytes(bytes: number): string {
  if (bytes === UNMEASURED) return `an amount that could not be measured (du did not finish within ${MEASURE_TIMEOUT_MS / 1000} s: too many files?)`;
  return `${Math.round(bytes / 1024 / 1024)} MB`;
}
