/**
 * Running scheduler commands (sbatch, squeue, qsub, bjobs, …) with retries. A busy controller answers
 * "Socket timed out" or "Unable to contact slurm controller" for a while; such failures are retried with
 * exponential backoff instead of failing the run. Answers that will not change on a retry (an invalid
 * account, an unknown option, a missing program) fail at once.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { EngineError } from "../../findings.js";

/** A scheduler command: program, arguments, and optionally text fed to its stdin (a job script). */
export interface CommandLine {
  file: string;
  args: string[];
  /**
   * Text for the program's stdin: job scripts are submitted this way, from the engine's memory, never by a
   * path in the run's folder, which a job could swap between the engine writing it and the scheduler reading it.
   */
  stdin?: string;
  cwd?: string;
}

export interface CommandOutcome {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export interface RetryPolicy {
  /** Delay before the first retry; doubled for each further one. */
  baseMs: number;
  /** Retries after the first try (5 → delays of 1, 2, 4, 8, 16 s with the default base). */
  maxRetries: number;
  /** No single delay is longer than this. */
  maxDelayMs: number;
  /** A try that runs longer than this is killed and counts as a transient failure. */
  timeoutMs: number;
}

/** 1, 2, 4, 8, 16 s between six tries; each try may take up to a minute. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { baseMs: 1000, maxRetries: 5, maxDelayMs: 60_000, timeoutMs: 60_000 };

export interface RunOptions {
  /** Non-zero exits whose stderr matches are answers, not failures (`squeue`: "Invalid job id specified"). */
  answers?: RegExp;
  /** Called before each retry, for the engine log. */
  log?: (message: string) => void;
  signal?: AbortSignal;
}

/** Runs one scheduler command line, retrying transient failures; resolves with the output or throws an EngineError. */
export type RunSchedulerCommand = (command: CommandLine, options?: RunOptions) => Promise<CommandOutcome>;

/** The first non-empty line of a command's output. */
export function firstLine(text: string): string | undefined {
  return text.split("\n").map((line) => line.trim()).find((line) => line !== "");
}

// Failures a retry cannot fix: the request itself is wrong, so retrying only delays the error. Grid Engine's
// qsub (real GE 8.1.9) says "Unable to run job: Job was rejected because job requests unknown queue …",
// "… job rejected: the requested parallel environment … does not exist", "… unknown resource "gpu"" and
// "… attribute "h_vmem" is not a memory value"; its "Unable to run job: failed receiving gdi request …" is a
// qmaster that did not answer, worth retrying.
const PERMANENT_FAILURE =
  /invalid (account|partition|qos|generic resource|gres|feature|node name|option|dependency|time limit)|unrecognized option|unknown option|illegal option|requested node configuration is not available|more processors requested than permitted|memory specification can not be satisfied|permission denied|no such file|job (?:was )?rejected|unknown resource|is not a \w+ value/i;

/** Whether a failed command is worth trying again. */
export function isTransientFailure(stderr: string): boolean {
  return !PERMANENT_FAILURE.test(stderr);
}

/** Delay before retry `n` (1-based): base × 2^(n-1), capped. */
export function backoffDelay(policy: RetryPolicy, retry: number): number {
  return Math.min(policy.maxDelayMs, policy.baseMs * 2 ** (retry - 1));
}

function describe(command: CommandLine): string {
  return [command.file, ...command.args].join(" ") + (command.stdin !== undefined ? " < (the job script)" : "");
}

function firstLines(text: string): string {
  const trimmed = text.trim();
  const lines = trimmed.split("\n");
  return lines.length > 3 ? `${lines.slice(0, 3).join(" | ")} …` : lines.join(" | ");
}

/**
 * A command runner with the given retry policy and environment (tests put fake programs on PATH).
 * `confined` (a shared service's engine, whose jobs run in a sandbox): the commands run in `/` with `HOME=/`,
 * never in the workspace or its home, which jobs write — SGE's qsub reads `.sge_request` from both (a `-S`
 * there would choose the shell that runs the job script outside the sandbox), and other schedulers' tools
 * read dot files of their own.
 */
export function schedulerCommandRunner(policy: RetryPolicy = DEFAULT_RETRY_POLICY, env?: NodeJS.ProcessEnv, confined = false): RunSchedulerCommand {
  const commandEnv = confined ? { ...(env ?? process.env), HOME: "/" } : env;
  return async (command, options = {}) => {
    let lastProblem = "";
    for (let attempt = 0; attempt <= policy.maxRetries; attempt++) {
      if (attempt > 0) {
        const delay = backoffDelay(policy, attempt);
        options.log?.(`${command.file} failed (${lastProblem}); retry ${attempt} of ${policy.maxRetries} in ${delay} ms`);
        await sleep(delay, undefined, { signal: options.signal });
      }
      // Loaded when first needed: most runs never call it, and loading it costs every start of strand.
      const { execa } = await import("execa");
      const result = await execa(command.file, command.args, {
        reject: false,
        env: commandEnv,
        extendEnv: commandEnv === undefined,
        cwd: confined ? "/" : command.cwd,
        timeout: policy.timeoutMs,
        ...(command.stdin !== undefined ? { input: command.stdin } : { stdin: "ignore" as const }),
        cancelSignal: options.signal,
      });
      const stdout = String(result.stdout ?? "");
      const stderr = String(result.stderr ?? "");
      if (result.exitCode === 0) return { stdout, stderr, exitCode: 0 };
      if (typeof result.exitCode === "number" && options.answers?.test(stderr)) return { stdout, stderr, exitCode: result.exitCode };
      if ((result as { code?: string }).code === "ENOENT") {
        throw new EngineError("CLUSTER_ERROR", `${command.file} was not found: the scheduler's commands are not installed here`, {
          suggestion: `run strand on a login node of the cluster, or put ${command.file} on PATH`,
        });
      }
      if (options.signal?.aborted) throw new EngineError("CLUSTER_ERROR", `${describe(command)} was stopped`);
      lastProblem = result.timedOut
        ? `no answer within ${policy.timeoutMs >= 1000 ? `${Math.round(policy.timeoutMs / 1000)} s` : `${policy.timeoutMs} ms`}`
        : `exit ${result.exitCode ?? result.signal ?? "?"}${stderr.trim() ? `: ${firstLines(stderr)}` : ""}`;
      if (!result.timedOut && !isTransientFailure(stderr)) {
        throw new EngineError("CLUSTER_ERROR", `${describe(command)} failed: ${lastProblem}`, {
          suggestion: "the scheduler refused the request; check the partition, account and resources in the profile's [cluster] table",
        });
      }
    }
    throw new EngineError("CLUSTER_ERROR", `${describe(command)} failed ${policy.maxRetries + 1} times; last: ${lastProblem}`, {
      suggestion: "the scheduler did not answer; check that its controller is up (sinfo / qstat / bqueues) and try again",
    });
  };
}
