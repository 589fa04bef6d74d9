/**
 * The contract between the scheduler and the places jobs run: the local machine (process groups) and HPC
 * schedulers (SLURM, PBS, SGE, LSF); executor-kinds.ts lists the kinds and makes them. The scheduler decides
 * *when* a job runs; an executor only runs one attempt of a fully prepared command and reports how it ended.
 */

/** Cluster directives of one job, for executors that submit to a scheduler. */
export interface ClusterDirectives {
  partition?: string;
  account?: string;
  /** `resources.time_limit` or the profile's walltime, as written (`2h`, `04:00:00`, `1-00:00:00`). */
  walltime?: string;
  gpu?: number;
  gpu_spec?: { count?: number; model?: string; memory_gb?: number; compute_capability?: string };
  extra_args: string[];
}

/** One attempt of one job, ready to run. */
export interface JobSpec {
  /** Job instance name (`align_S1`); unique in the run. */
  name: string;
  /** The rule as written in the pipeline (`align`). */
  rule: string;
  /** The complete bash text: envvars, shell prelude and environment wrapping already applied. */
  command: string;
  /** Absolute folder the command runs in. */
  cwd: string;
  threads: number;
  /** Memory as written (`8G`), for cluster directives. */
  memory?: string;
  memoryMb?: number;
  /** Per-attempt time limit in milliseconds; undefined = none. */
  timeLimitMs?: number;
  /** Absolute paths of the attempt's log files. */
  stdoutPath: string;
  stderrPath: string;
  /** 1 for the first attempt. */
  attempt: number;
  /** A digest of everything that defines the job, so a restarted engine can recognise a job it submitted. */
  fingerprint: string;
  cluster?: ClusterDirectives;
}

export type AttemptStatus = "succeeded" | "failed" | "timed-out" | "cancelled";

/** How an attempt ended. `succeeded` means exit code 0; the scheduler still checks the declared outputs. */
export interface AttemptResult {
  status: AttemptStatus;
  /** Exit code; 124 for a time-out, 128+N for a signal; null when unknown. */
  exitCode: number | null;
  /** Signal name when the process was killed by one (`SIGKILL`). */
  signal?: string;
  wallMs: number;
  cpuMs?: number;
  peakMemoryMb?: number;
  /** The scheduler's job id (SLURM job id, …). */
  nativeId?: string;
  /** A short explanation when the executor knows more than the exit code (e.g. "submission failed: …"). */
  message?: string;
}

export interface AttemptCallbacks {
  /** Called once the job is really running or submitted; `nativeId` for scheduler jobs. */
  started(nativeId?: string): void;
  /** Optional diagnostics (retrying a failed sbatch, …) for the engine log. */
  log?(message: string): void;
}

/** Runs job attempts somewhere. */
export interface JobExecutor {
  /** Its kind's name in executor-kinds.ts (`local`, `slurm`), which the run_started event reports. */
  readonly kind: string;
  /** At most this many attempts in flight at once (`max_submitted` for schedulers); undefined = no limit of its own. */
  readonly maxInFlight?: number;
  /** Runs one attempt and resolves when it has ended (never rejects for a job failure). */
  run(spec: JobSpec, callbacks: AttemptCallbacks): Promise<AttemptResult>;
  /** Stops running jobs where the backend can (SIGSTOP for local process groups). */
  pause(): void;
  resume(): void;
  /** Terminates every running attempt (SIGTERM, then SIGKILL after `graceMs`; scancel, …); their `run` promises resolve as cancelled. */
  cancelAll(graceMs: number): Promise<void>;
  /** Releases pollers and timers. */
  close(): Promise<void>;
}
