/**
 * Runs job attempts as HPC scheduler jobs (SLURM, PBS, SGE, LSF). Each attempt becomes a job script under
 * the run folder and one submission; its id is recorded durably before the engine waits, and every job in
 * flight is polled with one status command per interval. After an engine restart, a job whose record
 * matches (same fingerprint) and that the scheduler still knows is adopted rather than submitted again.
 * Records sit where the run's jobs can write, so a run whose id was given adopts or cancels only a job the
 * scheduler itself names as one of that run's.
 *
 * Jobs are named at the scheduler by run and submission number, never by their instance names, which hold
 * sample names (see scheduler-job-names.ts).
 *
 * Pause and resume do nothing: a scheduler's jobs cannot be frozen portably (SLURM's suspend is for
 * operators, and holds only affect jobs that have not started), so pausing a run stops the engine from
 * submitting new jobs while the submitted ones carry on.
 */
import { constants } from "node:fs";
import { lstat, mkdir, open, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { Cluster } from "../../format/model.js";
import { parseDuration, walltime } from "../durations.js";
import type { AttemptCallbacks, AttemptResult, ClusterDirectives, JobExecutor, JobSpec } from "../executor.js";
import { isFinished, type JobStatus, type SchedulerBackend } from "./scheduler-backend.js";
import { createBackend, type BackendName } from "./scheduler-registry.js";
import { renderJobScript } from "./job-script.js";
import { jobConfinementFromEnv, limitLines, type JobLimits } from "../job-sandbox.js";
import { DEFAULT_RETRY_POLICY, schedulerCommandRunner, type CommandLine, type RunOptions, type RunSchedulerCommand } from "./scheduler-commands.js";
import { runIdOfJobName, schedulerJobName } from "./scheduler-job-names.js";
import { highestRecordedJobNumber, jobFileName, readRecord, removeRecord, writeDurably, writeRecord, type SubmissionRecord } from "./submission-records.js";

export interface ClusterExecutorOptions {
  backend: BackendName;
  /** The profile's `[cluster]` table: partition, account, walltime and extra_args fill what a job leaves unset. */
  cluster?: Cluster;
  /** The workflow's working folder; submission records live in `<workdir>/.strand/cluster/`. */
  workdir: string;
  /** The run folder; job scripts go to `<runDir>/jobs/<job>/job.sh`. */
  runDir: string;
  /** The run id the engine was given (`--run-id`, a shared service's runs): jobs are named `strand-<run id>-<n>`; without it `<rule>-<n>`. */
  runId?: string;
  /** Milliseconds between status polls (default: the profile's poll_interval, else 5 s). */
  pollIntervalMs?: number;
  /** First retry delay of a failed scheduler command, doubled per retry (default 1000). */
  retryBaseMs?: number;
  /** Retries of a failed scheduler command before the attempt fails (default 5). */
  maxRetries?: number;
  /** Longest a single scheduler command may take (default 60 s). */
  commandTimeoutMs?: number;
  /** Engine-wide diagnostics (poll retries, adoption, stale records). */
  log?: (message: string) => void;
  /** Environment of the scheduler commands (default: this process's). */
  env?: NodeJS.ProcessEnv;
}

/** A submitted job the executor is waiting for. */
interface TrackedJob {
  id: string;
  spec: JobSpec;
  submittedAtMs: number;
  runningAtMs?: number;
  /** Polls in a row in which the scheduler did not know the job. */
  unknownPolls: number;
  cancelRequested: boolean;
  resolve: (result: AttemptResult) => void;
}

const DEFAULT_POLL_MS = 5000;
const DEFAULT_MAX_SUBMITTED = 50;
/** A job the scheduler has not known for this many polls in a row has vanished (purged, or the id was wrong). */
const UNKNOWN_POLL_LIMIT = 3;
/** Submissions at once: enough to fill a queue quickly without flooding the controller. */
const SUBMIT_CONCURRENCY = 4;
/** Adoption checks that arrive within this window share one status command. */
const LOOKUP_WINDOW_MS = 20;

/** A tracked job's result, boxed so that awaiting the start of an attempt does not wait for its end. */
interface Waiting {
  result: Promise<AttemptResult>;
}

/** Runs attempts as scheduler jobs; one instance per run. */
export class ClusterExecutor implements JobExecutor {
  readonly kind: BackendName;
  readonly maxInFlight: number;
  private readonly backend: SchedulerBackend;
  private readonly pollIntervalMs: number;
  private readonly runCommand: RunSchedulerCommand;
  private readonly abort = new AbortController();
  private readonly inFlight = new Map<string, TrackedJob>();
  /** Attempts between `run` and being tracked (adoption check, script, submission): cancelAll waits for them. */
  private readonly starting = new Set<Promise<unknown>>();
  /** Bumped by cancelAll; an attempt that sees a newer generation before submitting does not submit. */
  private generation = 0;
  private pollTimer: NodeJS.Timeout | undefined;
  private polling = false;
  private pollAgain = false;
  private closed = false;
  private submitSlots = SUBMIT_CONCURRENCY;
  private readonly submitQueue: (() => void)[] = [];
  private lookups = new Map<string, { resolve: (status: JobStatus | undefined) => void; reject: (error: unknown) => void }[]>();
  private lookupTimer: NodeJS.Timeout | undefined;
  /** The number of the run's latest submission (scheduler names end with it); read from the records on first use. */
  private lastJobNumber: Promise<number> | undefined;

  /** The bubblewrap prefix of a shared service's jobs (STRAND_JOB_SANDBOX), undefined on one's own machine. */
  private readonly sandbox: readonly string[] | undefined;
  /** What the service holds each job to (STRAND_JOB_LIMITS); none on one's own machine. */
  private readonly limits: JobLimits;

  constructor(private readonly options: ClusterExecutorOptions) {
    const confinement = jobConfinementFromEnv(process.env);
    this.sandbox = confinement.jobs;
    this.limits = confinement.limits;
    this.kind = options.backend;
    this.backend = createBackend(options.backend);
    this.maxInFlight = options.cluster?.max_submitted ?? DEFAULT_MAX_SUBMITTED;
    const configured = options.cluster?.poll_interval !== undefined ? parseDuration(options.cluster.poll_interval) : undefined;
    if (options.cluster?.poll_interval !== undefined && configured === undefined) {
      options.log?.(`[cluster] poll_interval '${options.cluster.poll_interval}' is not a duration (5s, 1m); polling every 5 s`);
    }
    this.pollIntervalMs = options.pollIntervalMs ?? configured ?? DEFAULT_POLL_MS;
    this.runCommand = schedulerCommandRunner(
      {
        ...DEFAULT_RETRY_POLICY,
        baseMs: options.retryBaseMs ?? DEFAULT_RETRY_POLICY.baseMs,
        maxRetries: options.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries,
        timeoutMs: options.commandTimeoutMs ?? DEFAULT_RETRY_POLICY.timeoutMs,
      },
      options.env,
      this.sandbox !== undefined,
    );
  }

  /** Submits (or adopts) the job and resolves when the scheduler reports it finished; never rejects. */
  async run(spec: JobSpec, callbacks: AttemptCallbacks): Promise<AttemptResult> {
    if (this.closed) return { status: "failed", exitCode: null, wallMs: 0, message: "the cluster executor is closed" };
    const generation = this.generation;
    const started = Date.now();
    let outcome: Waiting | AttemptResult;
    const starting = this.start(spec, callbacks, generation);
    this.starting.add(starting);
    try {
      outcome = await starting;
    } catch (error) {
      return { status: "failed", exitCode: null, wallMs: Date.now() - started, message: `${this.backendLabel()}: ${messageOf(error)}` };
    } finally {
      this.starting.delete(starting);
    }
    return "result" in outcome ? outcome.result : outcome;
  }

  /** Adopts or submits the job; resolves once it is tracked, with the promise of its result. */
  private async start(spec: JobSpec, callbacks: AttemptCallbacks, generation: number): Promise<Waiting | AttemptResult> {
    const adopted = await this.adopt(spec, callbacks);
    if (adopted) return adopted;
    if (generation !== this.generation) return { status: "cancelled", exitCode: null, wallMs: 0, message: "cancelled before submission" };

    const script = join(this.options.runDir, "jobs", jobFileName(spec.name), "job.sh");
    const jobName = schedulerJobName(await this.nextJobNumber(), { runId: this.options.runId, rule: spec.rule });
    // The scheduler enforces CPUs and memory on its nodes itself; a sandbox still holds the job to its process cap and file size.
    const limits = this.sandbox ? limitLines({ ...this.limits, cpuAffinity: false }, spec) : [];
    // Refuses (throws) a job whose directive values cannot be written safely; nothing is submitted then.
    const rendered = renderJobScript(this.kind, {
      ...spec,
      jobName,
      cluster: this.directives(spec),
      sandbox: this.sandbox,
      limits,
      environment: this.sandbox ? (this.options.env ?? process.env) : undefined,
    });
    for (const warning of rendered.warnings) callbacks.log?.(warning);
    await writeScriptCopy(script, rendered.text).catch((error: unknown) =>
      callbacks.log?.(`job ${spec.name}: the copy of its job script could not be written to ${script} (${messageOf(error)}); the job is submitted all the same`),
    );
    // The scheduler opens the log files before the script runs: their folders must exist beforehand. A
    // sandboxed job's scheduler writes to /dev/null, and its logs are opened inside the sandbox.
    if (!this.sandbox) await Promise.all([dirname(spec.stdoutPath), dirname(spec.stderrPath)].map((folder) => mkdir(folder, { recursive: true })));

    const id = await this.submit(rendered.text, spec, callbacks);
    const submittedAt = new Date();
    const record: SubmissionRecord = { id, name: jobName, backend: this.kind, fingerprint: spec.fingerprint, submitted_at: submittedAt.toISOString(), attempt: spec.attempt, script };
    await writeRecord(this.options.workdir, spec.name, record);
    await writeDurably(join(dirname(script), "job.id"), `${id}\n`);
    callbacks.started(id);
    return this.track(id, spec, submittedAt.getTime());
  }

  /**
   * The next submission's number. A restarted engine goes on after the numbers of the jobs it may adopt
   * (their records), so two jobs of the run in the queue never share a name.
   */
  private async nextJobNumber(): Promise<number> {
    const previous = this.lastJobNumber ?? highestRecordedJobNumber(this.options.workdir);
    const next = previous.then((number) => number + 1);
    this.lastJobNumber = next;
    return next;
  }

  /** The job's directives: its own settings, with the profile's filling the gaps. */
  private directives(spec: JobSpec): ClusterDirectives {
    const own = spec.cluster;
    const profile = this.options.cluster;
    return {
      partition: own?.partition ?? profile?.partition,
      account: own?.account ?? profile?.account,
      walltime: own?.walltime ?? profile?.walltime ?? (spec.timeLimitMs !== undefined ? walltime(spec.timeLimitMs) : undefined),
      gpu: own?.gpu,
      gpu_spec: own?.gpu_spec,
      extra_args: own?.extra_args?.length ? own.extra_args : (profile?.extra_args ?? []),
    };
  }

  /** Submits the script's text (on the submit program's stdin) and returns the job id. */
  private async submit(script: string, spec: JobSpec, callbacks: AttemptCallbacks): Promise<string> {
    await this.submitSlot();
    try {
      const outcome = await this.command(this.backend.submitCommand(script, spec.cwd), { log: callbacks.log });
      const id = this.backend.parseJobId(outcome.stdout);
      if (id === undefined) throw new Error(`${this.backend.submitProgram} printed no job id: ${outcome.stdout.trim() || "(nothing)"}`);
      return id;
    } finally {
      this.releaseSubmitSlot();
    }
  }

  private async submitSlot(): Promise<void> {
    if (this.submitSlots > 0) {
      this.submitSlots--;
      return;
    }
    await new Promise<void>((resolve) => this.submitQueue.push(resolve));
  }

  private releaseSubmitSlot(): void {
    const next = this.submitQueue.shift();
    if (next) next();
    else this.submitSlots++;
  }

  /** Adopts the job's earlier submission when it matches and the scheduler still has it running or succeeded. */
  private async adopt(spec: JobSpec, callbacks: AttemptCallbacks): Promise<Waiting | AttemptResult | undefined> {
    const record = await readRecord(this.options.workdir, spec.name);
    if (!record) return undefined;
    const label = `${this.backendLabel()} job ${record.id}`;
    if (record.backend === this.kind && !(await this.isOwnJob(record))) {
      this.log(`job ${spec.name}: its submission record names ${label}, which is not one of this run's jobs at the scheduler; that job is left alone, and this one is submitted`);
      await removeRecord(this.options.workdir, spec.name);
      return undefined;
    }
    if (record.backend !== this.kind || record.fingerprint !== spec.fingerprint) {
      this.log(`job ${spec.name}: ${label} was submitted for a different definition of the job; it is cancelled if still queued, and the job is submitted anew`);
      if (record.backend === this.kind) await this.command(this.backend.cancelCommand([record.id]), { answers: this.backend.cancelAnswers }).catch(() => undefined);
      await removeRecord(this.options.workdir, spec.name);
      return undefined;
    }
    const tracked = this.inFlight.get(record.id);
    if (tracked) return { result: new Promise((resolve) => (tracked.resolve = chain(tracked.resolve, resolve))) };
    const status = await this.lookup(record.id);
    if (status && (status.state === "pending" || status.state === "running" || status.state === "succeeded")) {
      this.log(`job ${spec.name}: adopting ${label}, submitted ${record.submitted_at} (${status.native})`);
      callbacks.started(record.id);
      const submittedAtMs = Number.isNaN(Date.parse(record.submitted_at)) ? Date.now() : Date.parse(record.submitted_at);
      if (status.state === "succeeded") {
        await removeRecord(this.options.workdir, spec.name);
        return { status: "succeeded", exitCode: 0, wallMs: Date.now() - submittedAtMs, nativeId: record.id, message: `adopted ${label}, which had already succeeded` };
      }
      return this.track(record.id, spec, submittedAtMs, status.state === "running" ? Date.now() : undefined);
    }
    this.log(`job ${spec.name}: ${label} ${status ? `ended ${status.native}` : "is no longer known to the scheduler"}; submitting again`);
    await removeRecord(this.options.workdir, spec.name);
    return undefined;
  }

  /**
   * Whether a record's job is this run's own. Records live in the run's folder, which its jobs can write,
   * and a shared service submits every user's jobs as one account: a record a job forged could make the
   * engine cancel, or adopt and later cancel, another user's job. So a run whose id was given trusts a
   * record only when the scheduler names that job `strand-<this run's id>-<n>` too; a sandboxed run without
   * an id trusts none. A person's own runs (no id, no sandbox) trust their records as before.
   */
  private async isOwnJob(record: SubmissionRecord): Promise<boolean> {
    const { runId } = this.options;
    if (runId === undefined) return this.sandbox === undefined;
    if (record.name === undefined || runIdOfJobName(record.name) !== runId) return false;
    // A scheduler that does not answer fails the attempt, as a failed status lookup does: no duplicate is submitted.
    return (await this.backend.jobName(record.id, this.statusRunner())) === record.name;
  }

  /** The status of one job; lookups made close together share one status command. */
  private lookup(id: string): Promise<JobStatus | undefined> {
    return new Promise((resolve, reject) => {
      const waiting = this.lookups.get(id) ?? [];
      waiting.push({ resolve, reject });
      this.lookups.set(id, waiting);
      this.lookupTimer ??= setTimeout(() => void this.flushLookups(), LOOKUP_WINDOW_MS);
    });
  }

  private async flushLookups(): Promise<void> {
    const batch = this.lookups;
    this.lookups = new Map();
    this.lookupTimer = undefined;
    try {
      const statuses = await this.backend.queryStatus([...batch.keys()], this.statusRunner());
      for (const [id, waiting] of batch) for (const waiter of waiting) waiter.resolve(statuses.get(id));
    } catch (error) {
      for (const waiting of batch.values()) for (const waiter of waiting) waiter.reject(error);
    }
  }

  private track(id: string, spec: JobSpec, submittedAtMs: number, runningAtMs?: number): Waiting {
    const result = new Promise<AttemptResult>((resolve) => {
      this.inFlight.set(id, { id, spec, submittedAtMs, runningAtMs, unknownPolls: 0, cancelRequested: false, resolve });
    });
    this.schedulePoll(this.pollIntervalMs);
    return { result };
  }

  private schedulePoll(delayMs: number): void {
    if (this.closed || this.inFlight.size === 0) return;
    if (this.polling) {
      if (delayMs === 0) this.pollAgain = true;
      return;
    }
    if (this.pollTimer && delayMs > 0) return;
    clearTimeout(this.pollTimer);
    this.pollTimer = setTimeout(() => {
      this.pollTimer = undefined;
      void this.poll();
    }, delayMs);
  }

  /** One status command for every job in flight; finished jobs resolve their attempts. */
  private async poll(): Promise<void> {
    this.polling = true;
    const jobs = [...this.inFlight.values()];
    try {
      const statuses = await this.backend.queryStatus(
        jobs.map((job) => job.id),
        this.statusRunner(),
      );
      for (const job of jobs) if (this.inFlight.get(job.id) === job) await this.observe(job, statuses.get(job.id));
    } catch (error) {
      if (!this.closed) {
        // The jobs may well still be running: their records stay, so a retry or a restart adopts them.
        const reason = `could not get job states from ${this.backendLabel()}: ${messageOf(error)}`;
        this.log(reason);
        for (const job of jobs) if (this.inFlight.get(job.id) === job) await this.finish(job, this.result(job, "failed", null, `${reason}; job ${job.id} may still be running`), true);
      }
    } finally {
      this.polling = false;
      const again = this.pollAgain;
      this.pollAgain = false;
      this.schedulePoll(again ? 0 : this.pollIntervalMs);
    }
  }

  private async observe(job: TrackedJob, status: JobStatus | undefined): Promise<void> {
    if (status === undefined) {
      job.unknownPolls++;
      if (job.unknownPolls >= UNKNOWN_POLL_LIMIT) {
        await this.finish(job, this.result(job, job.cancelRequested ? "cancelled" : "failed", null, `${this.backendLabel()} no longer knows job ${job.id}`));
      }
      return;
    }
    job.unknownPolls = 0;
    if (status.state === "running") job.runningAtMs ??= Date.now();
    const finished = status.state;
    if (!isFinished(finished)) return;
    // A job killed because we asked is cancelled, whatever exit status the scheduler gives the kill.
    const state = job.cancelRequested && finished !== "succeeded" ? "cancelled" : finished;
    let detail = state === "succeeded" ? undefined : `${this.backendLabel()} job ${job.id} ended ${status.native}${status.exitCode !== null ? ` (exit ${status.exitCode})` : ""}; see ${job.spec.stderrPath}`;
    // A sandboxed job's script can say nothing before its sandbox starts (the scheduler's output is /dev/null).
    if (detail && this.sandbox && status.exitCode === 127 && (await isEmptyOrMissing(job.spec.stderrPath))) detail += ` (empty: is bubblewrap, ${this.sandbox[0]}, installed on the node?)`;
    await this.finish(job, this.result(job, state, status.exitCode, detail));
  }

  private result(job: TrackedJob, status: AttemptResult["status"], exitCode: number | null, message?: string): AttemptResult {
    const result: AttemptResult = { status, exitCode, wallMs: Date.now() - (job.runningAtMs ?? job.submittedAtMs), nativeId: job.id };
    if (message !== undefined) result.message = message;
    return result;
  }

  private async finish(job: TrackedJob, result: AttemptResult, keepRecord = false): Promise<void> {
    this.inFlight.delete(job.id);
    if (!keepRecord) await removeRecord(this.options.workdir, job.spec.name).catch(() => undefined);
    job.resolve(result);
  }

  /** Nothing to do: scheduler jobs keep running while a run is paused (see the module comment). */
  pause(): void {}

  /** Nothing to do (see pause). */
  resume(): void {}

  /** Cancels every job in flight with one cancel command and waits (up to graceMs, at least two polls) for the scheduler to confirm. */
  async cancelAll(graceMs: number): Promise<void> {
    this.generation++;
    await Promise.allSettled([...this.starting]);
    const jobs = [...this.inFlight.values()];
    if (jobs.length === 0) return;
    for (const job of jobs) job.cancelRequested = true;
    const done = Promise.all(jobs.map((job) => new Promise<void>((resolve) => (job.resolve = chain(job.resolve, () => resolve())))));
    try {
      await this.command(this.backend.cancelCommand(jobs.map((job) => job.id)), { answers: this.backend.cancelAnswers, log: this.options.log });
    } catch (error) {
      this.log(`cancelling ${jobs.length} ${this.backendLabel()} job(s) failed: ${messageOf(error)}`);
    }
    this.schedulePoll(0);
    const waitMs = Math.max(graceMs, 2 * this.pollIntervalMs, 1000);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)));
    await Promise.race([done, timeout]);
    clearTimeout(timer);
    for (const job of jobs) {
      if (this.inFlight.get(job.id) === job) {
        await this.finish(job, this.result(job, "cancelled", null, `cancel sent for ${this.backendLabel()} job ${job.id}; not yet confirmed after ${Math.round(waitMs / 1000)} s`));
      }
    }
  }

  /** Stops polling; attempts still in flight resolve as failed and keep their records, so a restart adopts them. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.pollTimer);
    clearTimeout(this.lookupTimer);
    this.abort.abort();
    // Rejected, not "unknown": an unknown job would have its record dropped and be submitted again.
    for (const waiting of this.lookups.values()) for (const waiter of waiting) waiter.reject(new Error("the cluster executor is closed"));
    this.lookups.clear();
    for (const job of [...this.inFlight.values()]) {
      await this.finish(job, this.result(job, "failed", null, `the engine stopped waiting for ${this.backendLabel()} job ${job.id}; a restart adopts it`), true);
    }
  }

  private command(command: CommandLine, options: RunOptions = {}) {
    return this.runCommand(command, { ...options, signal: this.abort.signal });
  }

  private statusRunner(): RunSchedulerCommand {
    return (command, options = {}) => this.command(command, { ...options, log: this.options.log });
  }

  private backendLabel(): string {
    return this.kind.toUpperCase();
  }

  private log(message: string): void {
    this.options.log?.(message);
  }
}

/**
 * Writes the copy of a job script people read (the scheduler gets the text itself, and nothing reads this
 * back). Whatever a job left at the path — a link, a FIFO — is removed, not followed or opened.
 */
async function writeScriptCopy(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await rm(path, { force: true });
  const handle = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o755);
  try {
    await handle.writeFile(text);
  } finally {
    await handle.close();
  }
}

/** Whether a log file is missing or empty (looked at, not followed). */
async function isEmptyOrMissing(path: string): Promise<boolean> {
  try {
    const stat = await lstat(path);
    return stat.isFile() && stat.size === 0;
  } catch {
    return true;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A resolver that calls both, for a second waiter on the same job. */
function chain<T>(first: (value: T) => void, second: (value: T) => void): (value: T) => void {
  return (value) => {
    first(value);
    second(value);
  };
}
