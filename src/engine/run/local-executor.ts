/**
 * Runs job attempts on this machine: `bash -c` in a process group of its own (so the whole tree can be
 * paused, resumed, timed out and cancelled with one signal), stdin closed, stdout and stderr appended to
 * the job's log files. CPU time comes from bash's `times` at exit; peak memory from sampling /proc.
 *
 * Under a shared service each attempt runs inside the job sandbox the service gave (job-sandbox.ts): the
 * sandbox program (bubblewrap) is the group's leader, its processes share the group, so signals reach the
 * job's shell as before; the shell sets the job's limits before its command, and with CPU affinity on, the
 * job is pinned to as many CPUs as it declares threads.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { accessSync, appendFileSync, closeSync, constants as fsConstants, existsSync, mkdirSync, openSync, readFileSync, rmSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { availableParallelism, constants as osConstants } from "node:os";
import type { AttemptCallbacks, AttemptResult, JobExecutor, JobSpec } from "./executor.js";
import { ProcessGroupSampler } from "./process-sampler.js";
import { affinityPrefix, confined, jobConfinementFromEnv, limitLines, type JobConfinement } from "./job-sandbox.js";

/** Exit code of an attempt that ran out of time, as GNU timeout reports it. */
export const TIMEOUT_EXIT_CODE = 124;

interface Running {
  pgid: number;
  cancelled: boolean;
  timedOut: boolean;
  killTimer?: NodeJS.Timeout;
  /** The time limit: paused jobs do not use it up, so the timer stops while the run is paused. */
  limit?: { remainingMs: number; startedAt: number; timer?: NodeJS.Timeout; onExpiry: () => void };
}

/** Sends a signal to a whole process group; a group that is already gone is not an error. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Parses the two lines of bash's `times` (shell, then children): user and system of each, summed, in ms. */
export function parseBashTimes(text: string): number | undefined {
  let total = 0;
  let seen = 0;
  for (const match of text.matchAll(/(\d+)m(\d+(?:\.\d+)?)s/g)) {
    total += Number(match[1]) * 60_000 + Number(match[2]) * 1000;
    seen++;
  }
  return seen === 4 ? Math.round(total) : undefined;
}

export interface LocalExecutorOptions {
  /** Milliseconds between SIGTERM and SIGKILL when an attempt times out (default 2 s). */
  timeoutGraceMs?: number;
  /** Extra environment variables for every job. */
  env?: Record<string, string>;
  sampler?: ProcessGroupSampler;
  /**
   * Folder for the CPU-time reports of running jobs: one file per job running at the same time, emptied and
   * reused, removed by close(). Without it each job gets a file beside its stderr log, removed after it.
   */
  timesDir?: string;
  /** The sandbox and limits of a shared service (default: from the environment; none on one's own machine). */
  confinement?: JobConfinement;
}

/** The executor for `strand run` without a cluster. */
export class LocalExecutor implements JobExecutor {
  readonly kind = "local" as const;
  private readonly running = new Set<Running>();
  private readonly sampler: ProcessGroupSampler;
  private paused = false;
  /** Numbers of the CPU-time files not in use, and how many were made (with `timesDir`). */
  private readonly freeTimesSlots: number[] = [];
  private timesSlots = 0;

  private readonly confinement: JobConfinement;
  /** Jobs pinned to each CPU (with CPU affinity), to give the next job the least used ones. */
  private readonly cpuUse: number[];

  constructor(private readonly options: LocalExecutorOptions = {}) {
    this.sampler = options.sampler ?? new ProcessGroupSampler();
    this.confinement = options.confinement ?? jobConfinementFromEnv(process.env);
    this.cpuUse = this.confinement.limits.cpuAffinity ? new Array<number>(availableParallelism()).fill(0) : [];
  }

  /** The least used CPUs for a job of `threads` threads (none without CPU affinity). */
  private takeCpus(threads: number): number[] {
    if (this.cpuUse.length === 0) return [];
    const wanted = Math.max(1, Math.min(threads, this.cpuUse.length));
    const chosen = this.cpuUse
      .map((use, cpu) => ({ use, cpu }))
      .sort((a, b) => a.use - b.use || a.cpu - b.cpu)
      .slice(0, wanted)
      .map(({ cpu }) => cpu)
      .sort((a, b) => a - b);
    for (const cpu of chosen) this.cpuUse[cpu]!++;
    return chosen;
  }

  private giveCpus(cpus: number[]): void {
    for (const cpu of cpus) this.cpuUse[cpu] = Math.max(0, this.cpuUse[cpu]! - 1);
  }

  async run(spec: JobSpec, callbacks: AttemptCallbacks): Promise<AttemptResult> {
    const { timesDir } = this.options;
    if (timesDir === undefined) {
      const timesPath = `${spec.stderrPath}.times`;
      rmSync(timesPath, { force: true });
      try {
        return await this.attempt(spec, callbacks, timesPath);
      } finally {
        rmSync(timesPath, { force: true });
      }
    }
    // A file per concurrent job rather than per job: on ext4 creating (and deleting) a file per job costs
    // more than everything else the engine does for a no-op job. Emptied before use, so a shell that never
    // ran its trap leaves nothing stale behind.
    const slot = this.freeTimesSlots.pop() ?? this.timesSlots++;
    const timesPath = join(timesDir, `cpu-times.${slot}`);
    try {
      closeSync(openSync(timesPath, "w"));
      return await this.attempt(spec, callbacks, timesPath);
    } finally {
      this.freeTimesSlots.push(slot);
    }
  }

  /** One attempt, its shell's `times` report written to `timesPath` (which exists empty or not at all). */
  private async attempt(spec: JobSpec, callbacks: AttemptCallbacks, timesPath: string): Promise<AttemptResult> {
    // The job runner usually made the folder already; this covers other callers.
    if (!existsSync(dirname(spec.stderrPath))) mkdirSync(dirname(spec.stderrPath), { recursive: true });
    if (!existsSync(dirname(spec.stdoutPath))) mkdirSync(dirname(spec.stdoutPath), { recursive: true });
    if (spec.attempt > 1) appendFileSync(spec.stderrPath, `[strand] attempt ${spec.attempt}\n`);
    const started = performance.now();
    // The trap reports CPU time of the shell and every child it waited for; a command that replaces the
    // shell (exec) or sets its own EXIT trap simply leaves the figure to the /proc sampler.
    const limits = limitLines(this.confinement.limits, spec);
    const text = [...limits, `trap 'times > "$STRAND_JOB_TIMES" 2>/dev/null' EXIT`, spec.command].join("\n");
    const cpus = this.takeCpus(spec.threads);
    const argv = confined(this.confinement.jobs, [...affinityPrefix(cpus), bashPath(), "-c", text]);
    // node's spawn with file descriptors we open ourselves: a job start is on the hot path of every run,
    // and this is measurably cheaper than a wrapper that opens the log files and buffers for us.
    const stdoutFd = openSync(spec.stdoutPath, "a");
    const stderrFd = spec.stderrPath === spec.stdoutPath ? stdoutFd : openSync(spec.stderrPath, "a");
    let child: ChildProcess;
    try {
      child = spawn(argv[0]!, argv.slice(1), {
        cwd: spec.cwd,
        detached: true,
        stdio: ["ignore", stdoutFd, stderrFd],
        env: { ...process.env, ...this.options.env, STRAND_JOB_NAME: spec.name, STRAND_JOB_TIMES: timesPath },
      });
    } catch (error) {
      this.giveCpus(cpus);
      throw error;
    } finally {
      closeSync(stdoutFd);
      if (stderrFd !== stdoutFd) closeSync(stderrFd);
    }
    const exited = new Promise<{ exitCode: number | null; signal: NodeJS.Signals | null; error?: Error }>((resolve) => {
      child.once("error", (error) => resolve({ exitCode: null, signal: null, error }));
      child.once("exit", (exitCode, signal) => resolve({ exitCode, signal }));
    });
    const pid = child.pid;
    if (pid === undefined) {
      const result = await exited;
      this.giveCpus(cpus);
      return { status: "failed", exitCode: 127, wallMs: performance.now() - started, message: `could not start ${this.confinement.jobs ? "the job sandbox" : "bash"}: ${result.error?.message ?? "unknown error"}` };
    }
    const entry: Running = { pgid: pid, cancelled: false, timedOut: false };
    this.running.add(entry);
    this.sampler.watch(pid);
    if (this.paused) signalGroup(pid, "SIGSTOP");
    callbacks.started();
    if (spec.timeLimitMs !== undefined && spec.timeLimitMs > 0) {
      entry.limit = {
        remainingMs: spec.timeLimitMs,
        startedAt: Date.now(),
        onExpiry: () => {
          entry.timedOut = true;
          this.terminate(entry, this.options.timeoutGraceMs ?? 2000);
        },
      };
      if (!this.paused) armLimit(entry);
    }
    const result = await exited;
    this.giveCpus(cpus);
    if (entry.limit?.timer) clearTimeout(entry.limit.timer);
    if (entry.killTimer) clearTimeout(entry.killTimer);
    // Processes the leader left behind in its group die with it when the attempt was stopped.
    if (entry.timedOut || entry.cancelled) signalGroup(pid, "SIGKILL");
    this.running.delete(entry);
    const usage = this.sampler.unwatch(pid);
    const wallMs = performance.now() - started;
    let cpuMs = usage.cpuMs;
    try {
      cpuMs = parseBashTimes(readFileSync(timesPath, "utf8")) ?? cpuMs;
    } catch {
      // no times file: the shell was replaced or killed
    }
    const signal = result.signal ?? undefined;
    const exitCode = typeof result.exitCode === "number" ? result.exitCode : signal ? 128 + (osConstants.signals[signal] ?? 0) : null;
    const base = { wallMs, cpuMs, peakMemoryMb: usage.peakMemoryMb, signal };
    if (entry.timedOut) {
      return { ...base, status: "timed-out", exitCode: TIMEOUT_EXIT_CODE, message: `timed out after ${formatSeconds(spec.timeLimitMs!)} (process group killed)` };
    }
    if (entry.cancelled) return { ...base, status: "cancelled", exitCode, message: "cancelled by a signal" };
    if (exitCode === 0) return { ...base, status: "succeeded", exitCode };
    return { ...base, status: "failed", exitCode, message: signal ? `killed by ${signal}` : `exit code ${exitCode}` };
  }

  pause(): void {
    this.paused = true;
    for (const entry of this.running) {
      signalGroup(entry.pgid, "SIGSTOP");
      const limit = entry.limit;
      if (limit?.timer) {
        clearTimeout(limit.timer);
        limit.timer = undefined;
        limit.remainingMs = Math.max(0, limit.remainingMs - (Date.now() - limit.startedAt));
      }
    }
  }

  resume(): void {
    this.paused = false;
    for (const entry of this.running) {
      signalGroup(entry.pgid, "SIGCONT");
      if (entry.limit && !entry.limit.timer && !entry.timedOut) armLimit(entry);
    }
  }

  async cancelAll(graceMs: number): Promise<void> {
    for (const entry of this.running) {
      entry.cancelled = true;
      this.terminate(entry, graceMs);
    }
    const deadline = Date.now() + graceMs + 2000;
    while (this.running.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  async close(): Promise<void> {
    await Promise.resolve();
    const { timesDir } = this.options;
    if (timesDir !== undefined) for (let slot = 0; slot < this.timesSlots; slot++) rmSync(join(timesDir, `cpu-times.${slot}`), { force: true });
  }

  /** SIGTERM to the group (after SIGCONT, so a stopped group can act on it), SIGKILL after the grace period. */
  private terminate(entry: Running, graceMs: number): void {
    signalGroup(entry.pgid, "SIGTERM");
    signalGroup(entry.pgid, "SIGCONT");
    entry.killTimer ??= setTimeout(() => signalGroup(entry.pgid, "SIGKILL"), graceMs);
  }
}

let resolvedBash: string | undefined;

/** bash's absolute path, looked up on PATH once: the child then need not search PATH on every job start. */
function bashPath(): string {
  if (resolvedBash === undefined) {
    resolvedBash = "bash";
    for (const dir of (process.env.PATH ?? "").split(delimiter)) {
      if (!dir) continue;
      try {
        accessSync(join(dir, "bash"), fsConstants.X_OK);
        resolvedBash = join(dir, "bash");
        break;
      } catch {
        // not here
      }
    }
  }
  return resolvedBash;
}

/** Starts (or restarts after a pause) the countdown of a job's time limit. */
function armLimit(entry: Running): void {
  const limit = entry.limit!;
  limit.startedAt = Date.now();
  limit.timer = setTimeout(limit.onExpiry, limit.remainingMs);
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
