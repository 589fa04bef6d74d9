/**
 * One job from start to end (docs/reference/pipeline-format.md §5.3): inputs present, output folders made,
 * environment set up, `pre_exec`, attempts with retries and time limits, every declared output checked, hooks,
 * and on failure the attempt's partial outputs removed (or set aside when they existed before). Every step that
 * goes wrong becomes a job failure with its cause; nothing here throws to the scheduler.
 */
import { appendFileSync, closeSync, existsSync, fstatSync, mkdirSync, openSync, readSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import type { Job } from "../expand/expand.js";
import { renderJobText, type RenderContext } from "../expand/render-command.js";
import { EngineError } from "../findings.js";
import type { Pipeline } from "../format/model.js";
import { effectiveEnvironment, effectiveMemory, effectiveThreads, memoryToMegabytes } from "../format/rule-settings.js";
import { parseDuration } from "./durations.js";
import { ensureEnvironment } from "./environments/environment-setup.js";
import { wrapCommand } from "./environments/environment-wrap.js";
import type { EventLog } from "./event-log.js";
import type { JobOutcome as RecordedOutcome } from "./checkpoint/fingerprint.js";
import type { AttemptResult, ClusterDirectives, JobExecutor } from "./executor.js";
import { jobScript, withAbsolutePaths } from "./job-command.js";
import { LocalExecutor } from "./local-executor.js";
import type { TaskOutcome } from "./scheduler.js";

/** What the checkpoint and the summary learn about a finished job: the recorded outcome plus the scheduler id and cause. */
export interface JobOutcome extends RecordedOutcome {
  native_id?: string;
  message?: string;
}

export interface JobRunOptions {
  /** Extra attempts for every job (`--retry`); a rule's own `retries` wins when larger. */
  retry: number;
  /** Per-attempt limit from `--timeout` when the rule sets no `resources.time_limit`. */
  timeoutMs?: number;
  skipEnvSetup: boolean;
}

export interface JobRunnerContext {
  pipeline: Pipeline;
  render: RenderContext;
  workdir: string;
  /** `.strand/runs/<run id>`: logs go to `jobs/<job>/stdout.log` and `stderr.log`. */
  runDir: string;
  executor: JobExecutor;
  events: EventLog;
  options: JobRunOptions;
  cluster?: Omit<ClusterDirectives, "extra_args"> & { extra_args?: string[] };
  /** Records a finished job in the checkpoint. */
  record(job: Job, outcome: JobOutcome): void;
  /** Masks sensitive config values in text written to logs and the checkpoint. */
  mask(text: string): string;
  /** Why no further attempts may start (the run is being cancelled or stopped), or undefined. */
  cancelled(): string | undefined;
  /** A fingerprint of the job's definition, for executors that reconcile after a restart. */
  fingerprint(job: Job): string;
}

const GLOB = /[*?[]/;
const STDERR_TAIL_BYTES = 2048;
let scratchCounter = 0;

/** Runs jobs for the scheduler. */
export class JobRunner {
  /** Folders made in this run: thousands of jobs writing into one folder need one mkdir, not thousands. */
  private readonly madeFolders = new Set<string>();
  private readonly hookExecutor = new LocalExecutor();

  constructor(private readonly context: JobRunnerContext) {}

  private makeFolder(path: string): void {
    if (this.madeFolders.has(path)) return;
    mkdirSync(path, { recursive: true });
    this.madeFolders.add(path);
  }

  /** Log file paths of a job (the name made safe for a folder name: sample names are data). */
  logPaths(job: Job): { stdout: string; stderr: string } {
    const dir = join(this.context.runDir, "jobs", job.name.replace(/[^A-Za-z0-9._:-]/g, "_").replace(/^\.+/, "_"));
    return { stdout: join(dir, "stdout.log"), stderr: join(dir, "stderr.log") };
  }

  async run(job: Job): Promise<TaskOutcome> {
    const { events } = this.context;
    try {
      return await this.runChecked(job);
    } catch (error) {
      // Rendering refusals (UNSAFE_VALUE), environment problems and file system errors end up here.
      const message = error instanceof EngineError ? error.message + (error.finding.suggestion ? ` (${error.finding.suggestion})` : "") : (error as Error).message;
      events.emit("job_failed", { job: job.name, rule: job.template, exit_code: null, error: message, required: job.rule.required });
      this.context.record(job, { status: "failed", exit_code: null, wall_time_secs: 0, retries: 0, command: "", stderr_tail: "", message });
      return "failed";
    }
  }

  private async runChecked(job: Job): Promise<TaskOutcome> {
    const { pipeline, workdir, events } = this.context;
    for (const [name, value] of Object.entries(job.bindings)) {
      // A wildcard value that climbs out of a folder would put outputs (and logs) anywhere on the machine.
      if (value.startsWith("/") || value === ".." || value.startsWith("../") || value.includes("/../") || value.endsWith("/..")) {
        return this.fail(job, null, `${name} '${value}' is a path that leaves its folder ('/' or '..'); rename it to letters, digits, '.', '_' or '-'`, "", 0);
      }
    }
    const missingInput = job.input.paths.find((path) => !path.includes("{") && !GLOB.test(path) && !existsSync(resolvePath(workdir, path)));
    if (missingInput !== undefined) {
      if (job.rule.optional) {
        events.emit("job_skipped", { job: job.name, rule: job.template, reason: { code: "optional-inputs-missing", text: `optional inputs missing: ${missingInput}` } });
        return "skipped";
      }
      return this.fail(job, null, `missing input file: ${missingInput} (no job in this run makes it, and it does not exist)`, "", 0);
    }

    let runJob = job;
    let cwd = workdir;
    if (job.rule.scratch) {
      cwd = join(workdir, ".strand", "scratch", `${job.name}-${Date.now()}-${++scratchCounter}`);
      mkdirSync(cwd, { recursive: true });
      runJob = withAbsolutePaths(job, workdir);
      const log = job.rule.log;
      if (log !== undefined && !isAbsolute(log)) runJob = { ...runJob, rule: { ...runJob.rule, log: join(workdir, log) } };
    }
    const script = jobScript(runJob, pipeline, this.context.render);
    if (script === undefined) {
      events.emit("job_skipped", { job: job.name, rule: job.template, reason: { code: "no-command", text: "no shell or script defined" } });
      return "skipped";
    }

    for (const path of [...job.output.paths, ...(job.rule.log !== undefined ? [renderJobText(job.rule.log, job, this.context.render)] : [])]) {
      if (path.includes("{")) continue;
      const parent = dirname(resolvePath(workdir, path.replace(/\/+$/, "")));
      try {
        this.makeFolder(parent);
      } catch (error) {
        return this.fail(job, null, `cannot create the output folder ${parent}: ${(error as NodeJS.ErrnoException).code === "EACCES" ? "permission denied" : (error as Error).message}`, "", 0);
      }
    }

    const environment = effectiveEnvironment(job.rule, pipeline.defaults);
    await ensureEnvironment(environment, { workdir, skipSetup: this.context.options.skipEnvSetup, ruleName: job.template, log: (message: string) => events.emit("warning", { job: job.name, message }) });
    const memory = effectiveMemory(job.rule, pipeline.defaults);
    const memoryMb = memoryToMegabytes(memory);
    const command = wrapCommand(environment, script, { workdir, memoryMb, machineMemoryMb: this.context.render.machine.memoryMb });
    const logs = this.logPaths(job);
    this.makeFolder(dirname(logs.stderr));

    const snapshot = snapshotOutputs(job, workdir);
    if (job.rule.pre_exec !== undefined) {
      const code = await this.hook(runJob, "pre_exec", job.rule.pre_exec, cwd, logs.stderr);
      if (code !== 0) return this.fail(job, code, `pre_exec failed with exit code ${code}`, command, 0, logs.stderr, snapshot);
    }

    const attempts = 1 + Math.max(this.context.options.retry, job.rule.retries);
    const delayMs = job.rule.retry_delay !== undefined ? (parseDuration(job.rule.retry_delay) ?? 0) : 0;
    const timeLimit = job.rule.resources.time_limit !== undefined ? parseDuration(job.rule.resources.time_limit) : undefined;
    const timeLimitMs = timeLimit ?? this.context.options.timeoutMs;
    let result: AttemptResult | undefined;
    let missingOutput: string | undefined;
    let attempt = 0;
    for (attempt = 1; attempt <= attempts; attempt++) {
      if (this.context.cancelled()) break;
      result = await this.context.executor.run(
        {
          name: job.name,
          rule: job.template,
          command,
          cwd,
          threads: effectiveThreads(job.rule, pipeline.defaults),
          memory,
          memoryMb,
          timeLimitMs: timeLimitMs !== undefined && timeLimitMs > 0 ? timeLimitMs : undefined,
          stdoutPath: logs.stdout,
          stderrPath: logs.stderr,
          attempt,
          fingerprint: this.context.fingerprint(job),
          cluster: this.clusterDirectives(job),
        },
        {
          started: (nativeId) =>
            events.emit("job_started", { job: job.name, rule: job.template, attempt, attempts, native_id: nativeId, stdout: logs.stdout, stderr: logs.stderr }),
          log: (message) => events.emit("warning", { job: job.name, message }),
        },
      );
      missingOutput = undefined;
      if (result.status === "succeeded") {
        missingOutput = job.output.paths.find((path) => !path.includes("{") && !existsSync(resolvePath(workdir, path)));
        if (missingOutput === undefined) break;
      }
      if (result.status === "cancelled" || attempt === attempts || this.context.cancelled()) break;
      const why = missingOutput !== undefined ? `declared output missing: ${missingOutput}` : (result.message ?? `exit code ${result.exitCode}`);
      events.emit("job_retrying", { job: job.name, rule: job.template, attempt, attempts, exit_code: result.exitCode, error: why, delay_ms: delayMs });
      if (delayMs > 0) await sleep(delayMs);
    }
    const retries = Math.max(0, Math.min(attempt, attempts) - 1);
    if (!result || result.status === "cancelled") {
      cleanFailedOutputs(job, workdir, snapshot);
      events.emit("job_failed", { job: job.name, rule: job.template, exit_code: result?.exitCode ?? null, error: this.context.cancelled() ?? "cancelled", cancelled: true, native_id: result?.nativeId, duration_ms: Math.round(result?.wallMs ?? 0), required: job.rule.required });
      return "cancelled";
    }
    const stderrTail = this.context.mask(readTail(logs.stderr, STDERR_TAIL_BYTES));
    if (result.status === "succeeded" && missingOutput === undefined) {
      if (job.rule.on_success !== undefined) await this.hook(runJob, "on_success", job.rule.on_success, cwd, logs.stderr);
      if (job.rule.scratch) rmSync(cwd, { recursive: true, force: true });
      const outcome = this.outcome("completed", result, retries, command, stderrTail);
      this.context.record(job, outcome);
      events.emit("job_completed", {
        job: job.name,
        rule: job.template,
        exit_code: result.exitCode,
        duration_ms: Math.round(result.wallMs),
        cpu_ms: result.cpuMs,
        peak_memory_mb: result.peakMemoryMb,
        native_id: result.nativeId,
        attempts: retries + 1,
      });
      return "succeeded";
    }
    const cause =
      missingOutput !== undefined
        ? `the command exited 0 but declared output ${missingOutput} does not exist`
        : `${result.message ?? `exit code ${result.exitCode}`}${lastLine(stderrTail) ? `: ${lastLine(stderrTail)}` : ""}`;
    if (job.rule.on_failure !== undefined) await this.hook(runJob, "on_failure", job.rule.on_failure, cwd, logs.stderr);
    return this.fail(job, missingOutput !== undefined ? -1 : result.exitCode, cause, command, retries, logs.stderr, snapshot, result);
  }

  private fail(job: Job, exitCode: number | null, cause: string, command: string, retries: number, stderrPath?: string, snapshot?: OutputSnapshot, result?: AttemptResult): TaskOutcome {
    const { workdir, events } = this.context;
    if (snapshot) cleanFailedOutputs(job, workdir, snapshot);
    for (const path of job.rule.temp_output) {
      const rendered = job.output.paths.includes(path) ? path : renderPathSafely(path, job, this.context.render);
      if (rendered !== undefined && !rendered.includes("{")) rmSync(resolvePath(workdir, rendered), { recursive: true, force: true });
    }
    const stderrTail = stderrPath ? this.context.mask(readTail(stderrPath, STDERR_TAIL_BYTES)) : "";
    const outcome: JobOutcome = {
      ...(result ? this.outcome("failed", result, retries, command, stderrTail) : { status: "failed", exit_code: exitCode, wall_time_secs: 0, retries, command: this.context.mask(command), stderr_tail: stderrTail }),
      exit_code: exitCode,
      message: cause,
    };
    this.context.record(job, outcome);
    events.emit("job_failed", {
      job: job.name,
      rule: job.template,
      exit_code: exitCode,
      signal: result?.signal,
      timed_out: result?.status === "timed-out" || undefined,
      error: cause,
      duration_ms: result ? Math.round(result.wallMs) : 0,
      cpu_ms: result?.cpuMs,
      peak_memory_mb: result?.peakMemoryMb,
      native_id: result?.nativeId,
      attempts: retries + 1,
      required: job.rule.required,
      stderr: stderrPath,
    });
    return "failed";
  }

  private outcome(status: "completed" | "failed", result: AttemptResult, retries: number, command: string, stderrTail: string): JobOutcome {
    return {
      status,
      exit_code: result.exitCode,
      wall_time_secs: Math.round(result.wallMs) / 1000,
      cpu_seconds: result.cpuMs !== undefined ? result.cpuMs / 1000 : undefined,
      max_memory_mb: result.peakMemoryMb,
      retries,
      command: this.context.mask(command),
      stderr_tail: stderrTail,
      native_id: result.nativeId,
    };
  }

  private clusterDirectives(job: Job): ClusterDirectives | undefined {
    const cluster = this.context.cluster;
    if (!cluster) return undefined;
    const resources = job.rule.resources;
    return {
      partition: resources.partition ?? cluster.partition,
      account: cluster.account,
      walltime: resources.time_limit ?? cluster.walltime,
      gpu: resources.gpu,
      gpu_spec: resources.gpu_spec,
      extra_args: cluster.extra_args ?? [],
    };
  }

  /** Runs a hook with bash in the job's folder, its output appended to the job's stderr log. */
  private async hook(job: Job, name: string, text: string, cwd: string, stderrPath: string): Promise<number> {
    let rendered: string;
    try {
      rendered = renderJobText(text, job, this.context.render);
    } catch (error) {
      appendFileSync(stderrPath, `[strand] ${name} not run: ${(error as Error).message}\n`);
      return 1;
    }
    appendFileSync(stderrPath, `[strand] ${name}\n`);
    // Hooks run on this machine in a process group of their own, under the job's time limit, so a hook
    // that hangs can be timed out and cancelled like a job.
    const result = await this.hookExecutor.run(
      { name: `${job.name}:${name}`, rule: job.template, command: rendered, cwd, threads: 1, stdoutPath: stderrPath, stderrPath, attempt: 1, fingerprint: "", timeLimitMs: this.hookTimeLimit(job) },
      { started: () => undefined },
    );
    if (result.status === "timed-out") appendFileSync(stderrPath, `[strand] ${name} ${result.message ?? "timed out"}\n`);
    return result.exitCode ?? 1;
  }

  private hookTimeLimit(job: Job): number | undefined {
    const own = job.rule.resources.time_limit !== undefined ? parseDuration(job.rule.resources.time_limit) : undefined;
    const limit = own ?? this.context.options.timeoutMs;
    return limit !== undefined && limit > 0 ? limit : undefined;
  }

  /** Stops hooks that are running (the run is being cancelled). */
  async cancelHooks(graceMs: number): Promise<void> {
    await this.hookExecutor.cancelAll(graceMs);
  }
}

type OutputSnapshot = Map<string, { mtimeMs: number; size: number } | null>;

function snapshotOutputs(job: Job, workdir: string): OutputSnapshot {
  const snapshot: OutputSnapshot = new Map();
  for (const path of job.output.paths) {
    if (path.includes("{")) continue;
    try {
      const stats = statSync(resolvePath(workdir, path));
      snapshot.set(path, { mtimeMs: stats.mtimeMs, size: stats.size });
    } catch {
      snapshot.set(path, null);
    }
  }
  return snapshot;
}

/** Removes outputs the failed attempt created; moves changed pre-existing ones to `<name>.strand-failed`. */
function cleanFailedOutputs(job: Job, workdir: string, snapshot: OutputSnapshot): void {
  for (const [path, before] of snapshot) {
    const absolute = resolvePath(workdir, path);
    let now;
    try {
      now = statSync(absolute);
    } catch {
      continue;
    }
    try {
      if (before === null) rmSync(absolute, { recursive: true, force: true });
      else if (now.mtimeMs !== before.mtimeMs || now.size !== before.size) renameSync(absolute, `${absolute.replace(/\/+$/, "")}.strand-failed`);
    } catch {
      // a write-protected folder: nothing more we can do, the failure message already says why
    }
  }
}

function renderPathSafely(path: string, job: Job, context: RenderContext): string | undefined {
  try {
    return renderJobText(path, job, context);
  } catch {
    return undefined;
  }
}

function resolvePath(workdir: string, path: string): string {
  return isAbsolute(path) ? path : join(workdir, path);
}

/** The last `bytes` bytes of a file, as text ("" when it cannot be read). */
export function readTail(path: string, bytes: number): string {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const size = fstatSync(fd).size;
    const length = Math.min(size, bytes);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    return buffer.toString("utf8");
  } catch {
    return "";
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function lastLine(text: string): string {
  const lines = text.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("[strand] "));
  const last = lines.at(-1)?.trim() ?? "";
  return last.length > 300 ? `${last.slice(0, 300)}…` : last;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
