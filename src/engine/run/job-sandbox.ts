/**
 * The confinement a shared service gives the commands of its runs. The service runs the engine in one
 * sandbox (which may reach the scheduler to submit, and the network to fetch includes) and hands it, in
 * its environment, the sandbox every command the pipeline controls must run in — a job, a hook, a reference
 * build (`STRAND_JOB_SANDBOX`) and an environment set-up (`STRAND_SETUP_SANDBOX`, which may download) —
 * plus the limits each job gets (`STRAND_JOB_LIMITS`). On a person's own machine none is set and commands
 * run as they are.
 *
 * Limits are applied by the job's own shell before its command, as hard resource limits it cannot raise
 * again: its declared memory (RLIMIT_DATA: the memory a process writes to — heap and anonymous mappings —,
 * per process), a cap on its processes and threads (RLIMIT_NPROC, counted in the job's own user namespace,
 * so only the job's processes count), and the largest file it may write (RLIMIT_FSIZE, the user's workspace
 * quota). Its CPUs are those the executor gives it (affinity; a job may widen its own).
 */
import { findExecutable } from "./environments/environment-wrap.js";

/** `STRAND_JOB_LIMITS`: what the service holds each job to (absent fields: no limit). */
export interface JobLimits {
  /** Processes and threads one job may have at once. */
  processes?: number;
  /** The largest file a job may write, in bytes (the owner's workspace quota). */
  fileBytes?: number;
  /** Whether a job's declared memory is enforced. */
  memory?: boolean;
  /** Whether jobs are pinned to as many CPUs as they declare threads. */
  cpuAffinity?: boolean;
}

/** What the service gave the engine: sandbox prefixes (each a program and its arguments, ending with `--`) and limits. */
export interface JobConfinement {
  jobs?: readonly string[];
  setup?: readonly string[];
  limits: JobLimits;
}

/** A sandbox prefix from a variable: a JSON list of strings ending with "--"; anything malformed fails closed. */
function prefixFromEnv(env: NodeJS.ProcessEnv, name: string): string[] | undefined {
  const text = env[name];
  if (text === undefined || text === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  if (!Array.isArray(value) || value.length < 2 || !value.every((part) => typeof part === "string") || value[value.length - 1] !== "--") {
    // Fail closed: a service that asked for a sandbox must not get unsandboxed jobs because of a typo.
    throw new Error(`${name} must be a JSON list of the sandbox program and its arguments, ending with "--"`);
  }
  return value as string[];
}

/** The sandbox prefix a shared service gives its engines for jobs (`STRAND_JOB_SANDBOX`), or undefined. */
export function jobSandboxFromEnv(env: NodeJS.ProcessEnv): string[] | undefined {
  return prefixFromEnv(env, "STRAND_JOB_SANDBOX");
}

const positive = (value: unknown): number | undefined => (typeof value === "number" && Number.isInteger(value) && value > 0 ? value : undefined);

/** The confinement in the engine's environment (none on a person's own machine). */
export function jobConfinementFromEnv(env: NodeJS.ProcessEnv = process.env): JobConfinement {
  const jobs = jobSandboxFromEnv(env);
  const setup = prefixFromEnv(env, "STRAND_SETUP_SANDBOX") ?? jobs;
  let limits: JobLimits = {};
  if (env.STRAND_JOB_LIMITS) {
    let value: unknown;
    try {
      value = JSON.parse(env.STRAND_JOB_LIMITS);
    } catch {
      throw new Error("STRAND_JOB_LIMITS must be a JSON object such as {\"processes\": 1024}");
    }
    const record = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
    limits = { processes: positive(record.processes), fileBytes: positive(record.fileBytes), memory: record.memory === true, cpuAffinity: record.cpuAffinity === true };
  }
  return { jobs, setup, limits };
}

/** `argv` run inside `prefix` (or as it is without one). */
export function confined(prefix: readonly string[] | undefined, argv: string[]): string[] {
  return prefix ? [...prefix, ...argv] : argv;
}

/**
 * The shell lines that set a job's hard limits before its command (none without limits). `memoryMb` is the
 * job's declared memory; bash takes sizes in KiB (`-d`) and in 1024-byte blocks (`-f`).
 */
export function limitLines(limits: JobLimits, job: { memoryMb?: number }): string[] {
  const wanted: [string, number][] = [];
  if (limits.processes !== undefined) wanted.push(["-u", limits.processes]);
  if (limits.fileBytes !== undefined) wanted.push(["-f", Math.max(1, Math.floor(limits.fileBytes / 1024))]);
  if (limits.memory && job.memoryMb !== undefined && job.memoryMb > 0) wanted.push(["-d", Math.ceil(job.memoryMb * 1024)]);
  // Setting a hard limit fails only when it would raise one that is lower already: that lower one then stays, soft and hard.
  return wanted.map(([flag, value]) => `ulimit -S -H ${flag} ${value} 2>/dev/null || ulimit -S ${flag} "$(ulimit -H ${flag})"`);
}

/** `taskset -c <cpus>` for a job given those CPUs, when taskset is installed (else nothing: the job is not pinned). */
export function affinityPrefix(cpus: readonly number[] | undefined, env: NodeJS.ProcessEnv = process.env): string[] {
  if (!cpus || cpus.length === 0) return [];
  const taskset = findExecutable("taskset", env);
  return taskset ? [taskset, "-c", cpus.join(",")] : [];
}
