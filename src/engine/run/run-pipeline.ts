/**
 * `strand run` as a library call: takes the workdir lock, builds references, plans against the
 * checkpoint, schedules the jobs on an executor, records every job in the checkpoint and the event log,
 * applies checkpoint re-entries, cleans temporary outputs, and sends webhooks. Pause, resume and cancel
 * come in through the returned controller (the CLI wires them to signals).
 */
import { randomBytes } from "node:crypto";
import { arch, availableParallelism, hostname, release, totalmem, type as osType } from "node:os";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { renderContext } from "../expand/render-command.js";
import { EngineError } from "../findings.js";
import type { Pipeline } from "../format/model.js";
import { effectiveMemory, effectiveThreads, memoryToMegabytes } from "../format/rule-settings.js";
import { engineVersion } from "../version.js";
import { dispatchWebhooks, readWebhooks, type WebhookSettings, type WebhookTargets } from "../notify/webhook.js";
import { openCheckpoint } from "./checkpoint/checkpoint.js";
import { EventLog, type RunEvent } from "./event-log.js";
import type { JobExecutor } from "./executor.js";
import { EXECUTORS, isExecutorKind, type ExecutorFactory, type ExecutorKind } from "./executor-kinds.js";
import { tryLock } from "./file-lock.js";
import { configSnapshot, createJobRecord, maskSecrets, ruleFingerprint } from "./checkpoint/fingerprint.js";
import { JobRunner } from "./job-runner.js";
import { planPipeline, type Plan } from "./plan.js";
import { adoptReferences, buildReference, planReferenceBuilds } from "./reference-builds.js";
import { ResourcePool } from "./resource-pool.js";
import { Scheduler, type SchedulerSummary, type SchedulerTask, type TaskOutcome } from "./scheduler.js";
import { cleanTemporaryOutputs } from "./temporary-outputs.js";
import { applyReentries, readReentry, type Reentry } from "./checkpoint/reentry.js";

export interface RunOptions {
  jobs?: number;
  maxThreads?: number;
  maxMemoryMb?: number;
  keepGoing?: boolean;
  retry?: number;
  timeoutMs?: number;
  targets?: string[];
  module?: string;
  /** `--until RULE`: only these rules' jobs and what they need. */
  until?: string[];
  rerun?: boolean;
  /** `-R/--forcerun RULE`: run these rules' jobs (and so what is downstream) whatever the checkpoint says. */
  forceRules?: string[];
  resumeFailed?: boolean;
  retryFailed?: boolean;
  runId?: string;
  /** Event log path; default `.strand/runs/<run id>/events.jsonl`. */
  eventsPath?: string;
  skipEnvSetup?: boolean;
  skipRefBuild?: boolean;
  executor?: ExecutorKind;
  maxSubmitted?: number;
  pollIntervalMs?: number;
  /** Where webhooks may go: `any` address (default: a person's own run, their own pipeline) or `public` ones only (a service's runs). */
  webhookTargets?: WebhookTargets;
  /** The command line, for the run record (secrets masked by the caller). */
  argv?: string[];
  /** Called with every event as it is written (progress display). */
  onEvent?: (event: RunEvent) => void;
}

export type RunStatus = "completed" | "failed" | "cancelled";

export interface RunResult {
  runId: string;
  status: RunStatus;
  eventsPath: string;
  runDir: string;
  counts: RunCounts;
  durationMs: number;
  /** Why the run failed before or outside the jobs (a reference build, a budget problem). */
  error?: string;
  /** The code of that failure (`BUDGET_ERROR`, `REENTRY_ERROR`, …). */
  errorCode?: string;
}

export interface RunCounts {
  total: number;
  succeeded: number;
  failed: number;
  non_required_failed: number;
  skipped: number;
  blocked: number;
  not_started: number;
  cancelled: number;
}

/** Controls a run in progress. */
export interface RunController {
  pause(): void;
  resume(): void;
  /** Cancels: nothing new starts, running jobs get SIGTERM then SIGKILL after `graceMs`. */
  cancel(reason: string, graceMs?: number): void;
  readonly result: Promise<RunResult>;
}

/** A sortable, readable run id: `20261121-103000-a1b2`. */
export function newRunId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `${stamp}-${randomBytes(2).toString("hex")}`;
}

const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** Starts a run of a loaded pipeline; throws EngineError for problems found before anything runs. */
export function startRun(pipeline: Pipeline, options: RunOptions = {}): RunController {
  const runId = options.runId ?? newRunId();
  if (!RUN_ID.test(runId)) throw new EngineError("USAGE_ERROR", `run id '${runId}' may only contain letters, digits, '.', '_' and '-'`, { suggestion: "pass --run-id with a simple name" });
  const workdir = pipeline.dir;
  const strandDir = join(workdir, ".strand");
  // A wrong [webhook] table is refused before anything starts (CONFIG_ERROR naming the field).
  const webhooks = readWebhooks(pipeline.webhook, { version: engineVersion() });
  const lock = tryLock(join(strandDir, "lock"), `strand run ${runId}`);
  if (!("release" in lock)) {
    const owner = lock.heldBy;
    // A dead owner on this host was taken over already; one on another host cannot be checked from here.
    const elsewhere = owner.host !== hostname();
    throw new EngineError("LOCKED", `workdir is locked by another strand process (pid ${owner.pid} on ${owner.host}, ${owner.purpose}, since ${owner.started_at}): ${join(strandDir, "lock")}`, {
      suggestion: elsewhere
        ? `wait for that run to finish; if it is gone (its machine crashed or was restarted), clear the lock with: strand unlock --force ${workdir}`
        : `wait for that run to finish, or stop it (strand status shows it); once it is gone, strand unlock ${workdir} clears the lock`,
    });
  }
  const runDir = join(strandDir, "runs", runId);
  const eventsPath = options.eventsPath ? resolve(options.eventsPath) : join(runDir, "events.jsonl");
  let events: EventLog;
  try {
    mkdirSync(runDir, { recursive: true });
    events = new EventLog(eventsPath, runId);
    writeFileSync(join(runDir, "run.json"), `${JSON.stringify({ run_id: runId, events: eventsPath, workflow: pipeline.path, workdir, pid: process.pid, started_at: new Date().toISOString(), argv: options.argv ?? [] }, null, 2)}\n`);
    writeFileSync(join(strandDir, "runs", "latest"), `${runId}\n`);
  } catch (error) {
    lock.release();
    throw new EngineError("IO_ERROR", `cannot write the run folder ${runDir}: ${(error as Error).message}`, { suggestion: "check that the workdir is writable" });
  }
  if (options.onEvent) events.subscribe(options.onEvent);
  const run = new PipelineRun(pipeline, options, runId, runDir, eventsPath, events, webhooks);
  const result = run.execute().finally(() => {
    events.close();
    lock.release();
  });
  return {
    pause: () => run.pause(),
    resume: () => run.resume(),
    cancel: (reason, graceMs) => run.cancel(reason, graceMs ?? 5000),
    result,
  };
}

class PipelineRun {
  private executor: JobExecutor | undefined;
  /** How the executor was made: whether its jobs share this machine's budgets. */
  private executorFactory: ExecutorFactory | undefined;
  private runner: JobRunner | undefined;
  private scheduler: Scheduler | undefined;
  private paused = false;
  private cancelling = false;
  /** The failed job that stopped the run (no keep-going): running jobs are stopped, nothing new starts. */
  private stoppedBy: string | undefined;
  /** The workflow_started delivery: the final webhook waits for it, so receivers see them in order. */
  private startedDelivery: Promise<unknown> = Promise.resolve();
  private readonly started = performance.now();
  private errorCode: string | undefined;
  private readonly counts: RunCounts = { total: 0, succeeded: 0, failed: 0, non_required_failed: 0, skipped: 0, blocked: 0, not_started: 0, cancelled: 0 };

  constructor(
    private readonly pipeline: Pipeline,
    private readonly options: RunOptions,
    private readonly runId: string,
    private readonly runDir: string,
    private readonly eventsPath: string,
    private readonly events: EventLog,
    private readonly webhooks: WebhookSettings,
  ) {}

  /** Whether webhooks may reach loopback, private and link-local addresses (unless told `public`, they may). */
  private get webhooksMayGoPrivate(): boolean {
    return this.options.webhookTargets !== "public";
  }

  pause(): void {
    if (this.paused || this.cancelling) return;
    this.paused = true;
    this.scheduler?.pause();
    this.executor?.pause();
    this.events.emit("run_paused", {});
  }

  resume(): void {
    if (!this.paused || this.cancelling) return;
    this.paused = false;
    this.executor?.resume();
    this.scheduler?.resume();
    this.events.emit("run_resumed", {});
  }

  cancel(reason: string, graceMs: number): void {
    if (this.cancelling) return;
    this.cancelling = true;
    this.events.emit("run_cancelling", { reason });
    this.scheduler?.cancel();
    if (this.paused) this.executor?.resume();
    void this.executor?.cancelAll(graceMs);
    void this.runner?.cancelHooks(graceMs);
  }

  async execute(): Promise<RunResult> {
    const { pipeline, options, events, webhooks } = this;
    const warn = (message: string): void => void events.emit("warning", { message });
    for (const message of webhooks.warnings) warn(message);
    const checkpoint = openCheckpoint(pipeline.dir, { warn, workflowPath: pipeline.path });
    let error: string | undefined;
    try {
      applyReentries(pipeline, checkpoint.data.reentries ?? []);
      const render = renderContext(pipeline);
      const rebuilt = options.skipRefBuild ? [] : await this.buildReferences(render);
      if (rebuilt === null) {
        error = "a reference build failed";
        return this.finish("failed", error, webhooks);
      }
      let plan = planPipeline(pipeline, {
        targets: options.targets,
        module: options.module,
        until: options.until,
        rerun: options.rerun,
        forceRules: options.forceRules,
        checkpoint: checkpoint.data,
        retryFailed: options.retryFailed,
        resumeFailed: options.resumeFailed,
        rebuiltReferences: rebuilt,
      });
      checkpoint.setConfigSnapshot(configSnapshot(pipeline));
      const executor = await this.makeExecutor();
      this.executor = executor;
      if (this.paused) executor.pause();
      events.emit("run_started", {
        workflow: pipeline.path,
        workflow_name: pipeline.workflow.name,
        workdir: pipeline.dir,
        pid: process.pid,
        executor: executor.kind,
        engine_version: engineVersion(),
        node_version: process.version,
        os: `${osType()} ${release()} (${arch()})`,
        argv: options.argv,
        events: this.eventsPath,
        jobs_total: plan.counts.total,
        jobs_to_run: plan.counts.run,
      });
      this.checkBudget(plan);
      this.startedDelivery = dispatchWebhooks(webhooks.endpoints, "workflow_started", { workflow_name: pipeline.workflow.name, data: { total_rules: plan.counts.total } }, { warn, allowPrivate: this.webhooksMayGoPrivate });

      const statuses = new Map<number, TaskOutcome | "up-to-date">();
      const runner = new JobRunner({
        pipeline,
        render,
        workdir: pipeline.dir,
        runDir: this.runDir,
        executor,
        events,
        options: { retry: options.retry ?? 0, timeoutMs: options.timeoutMs, skipEnvSetup: options.skipEnvSetup ?? false },
        cluster: pipeline.cluster,
        record: (job, outcome) => checkpoint.record(job.name, createJobRecord(job, pipeline, outcome)),
        mask: (text) => maskSecrets(text, pipeline),
        cancelled: () => (this.cancelling ? "cancelled by a signal" : this.stoppedBy ? `cancelled: the run stopped after ${this.stoppedBy} failed (use -k to keep going)` : undefined),
        fingerprint: (job) => ruleFingerprint(job, pipeline),
      });
      this.runner = runner;
      const reentries: Reentry[] = [...(checkpoint.data.reentries ?? [])];
      for (let round = 0; ; round++) {
        const summary = await this.runPlan(plan, runner, executor, statuses, round);
        this.addCounts(summary);
        if (this.cancelling || summary.failed > 0) break;
        const next = this.reentriesOf(plan, statuses, round + reentries.length);
        if (next.length === 0) break;
        if (round >= 32) {
          warn("checkpoint re-entry stopped after 32 rounds");
          break;
        }
        for (const reentry of next) {
          reentries.push(reentry);
          events.emit("reentry", { round: reentry.round, rule: reentry.rule, group: reentry.group, samples: reentry.samples, pairs: reentry.pairs.map((pair) => pair.pair_id) });
        }
        applyReentries(pipeline, next);
        checkpoint.setReentries(reentries);
        statuses.clear();
        plan = planPipeline(pipeline, { targets: options.targets, module: options.module, until: options.until, checkpoint: checkpoint.data });
      }
      await executor.close();
      const status: RunStatus = this.cancelling ? "cancelled" : this.counts.failed > 0 ? "failed" : "completed";
      if (status === "completed" || this.counts.failed === 0) {
        for (const tomb of cleanTemporaryOutputs(plan, statuses, status === "completed")) checkpoint.tombstone(tomb.job, tomb.paths);
      }
      return this.finish(status, undefined, webhooks);
    } catch (caught) {
      error = caught instanceof EngineError ? caught.message : (caught as Error).message;
      if (caught instanceof EngineError && caught.finding.suggestion) error += ` (${caught.finding.suggestion})`;
      this.errorCode = caught instanceof EngineError ? caught.code : "INTERNAL";
      return this.finish(this.cancelling ? "cancelled" : "failed", error, webhooks);
    } finally {
      checkpoint.compact();
    }
  }

  private async runPlan(plan: Plan, runner: JobRunner, executor: JobExecutor, statuses: Map<number, TaskOutcome | "up-to-date">, round: number): Promise<SchedulerSummary> {
    const { events, pipeline, options } = this;
    const tasks: SchedulerTask[] = [];
    for (const planned of plan.jobs) {
      const job = planned.job;
      if (!planned.run) {
        statuses.set(planned.index, "up-to-date");
        if (planned.reason.code !== "not-selected") {
          // Jobs with nothing to do are counted as skipped, so counts add up to the selection
          // (docs/reference/pipeline-format.md §5.2).
          this.counts.total++;
          this.counts.skipped++;
        }
        // Outputs are named so that a control plane can list a run's results from what the engine wrote, without loading the pipeline itself.
        if (round === 0 || planned.reason.code !== "up-to-date") events.emit("job_skipped", { job: job.name, rule: job.template, reason: planned.reason, outputs: job.output.paths });
        continue;
      }
      this.counts.total++;
      events.emit("job_queued", { job: job.name, rule: job.template, reason: planned.reason, outputs: job.output.paths });
      tasks.push({
        index: planned.index,
        name: job.name,
        priority: job.rule.priority,
        required: job.rule.required,
        resources: {
          threads: effectiveThreads(job.rule, pipeline.defaults),
          memoryMb: memoryToMegabytes(effectiveMemory(job.rule, pipeline.defaults)) ?? 0,
          groups: job.rule.resources.groups,
        },
      });
    }
    const cpus = availableParallelism();
    const local = this.executorFactory?.usesThisMachine ?? false;
    const pool = new ResourcePool({
      threads: local ? (options.maxThreads ?? cpus) : Infinity,
      memoryMb: local ? (options.maxMemoryMb ?? Math.floor(totalmem() / 1024 / 1024)) : Infinity,
      groups: Object.fromEntries(Object.entries(pipeline.resource_groups).map(([name, group]) => [name, group.max])),
    });
    const scheduler = new Scheduler(plan.graph, tasks, pool, { jobs: options.jobs ?? 1, maxInFlight: executor.maxInFlight, keepGoing: options.keepGoing ?? false }, {
      runTask: async (task) => {
        const outcome = await runner.run(plan.graph.jobs[task.index]!);
        statuses.set(task.index, outcome);
        return outcome;
      },
      notStarted: (task, reason) => {
        statuses.set(task.index, "skipped");
        const job = plan.graph.jobs[task.index]!;
        events.emit("job_skipped", { job: job.name, rule: job.template, reason });
      },
      stopRunning: (failed) => {
        this.stoppedBy = failed.name;
        void executor.cancelAll(5000);
      },
      impossible: (task, message) => {
        statuses.set(task.index, "failed");
        const job = plan.graph.jobs[task.index]!;
        events.emit("job_failed", { job: job.name, rule: job.template, exit_code: null, error: message, required: job.rule.required });
      },
    });
    this.scheduler = scheduler;
    if (this.paused) scheduler.pause();
    if (this.cancelling) scheduler.cancel();
    return scheduler.run();
  }

  private addCounts(summary: SchedulerSummary): void {
    this.counts.succeeded += summary.succeeded;
    this.counts.failed += summary.failed;
    this.counts.non_required_failed += summary.nonRequiredFailed;
    this.counts.skipped += summary.skipped;
    this.counts.blocked += summary.blocked;
    this.counts.not_started += summary.notStarted;
    this.counts.cancelled += summary.cancelled;
  }

  /** Re-entries announced by checkpoint jobs that succeeded in this round. */
  private reentriesOf(plan: Plan, statuses: Map<number, TaskOutcome | "up-to-date">, round: number): Reentry[] {
    const found: Reentry[] = [];
    for (const planned of plan.jobs) {
      const rule = planned.job.rule;
      if (!rule.checkpoint || rule.checkpoint_manifest === undefined || statuses.get(planned.index) !== "succeeded") continue;
      found.push(readReentry(this.pipeline, planned.job, round + 1));
    }
    return found.filter((reentry) => reentry.samples.length > 0 || reentry.pairs.length > 0);
  }

  /** Refuses, before anything starts, a job that can never fit an explicit --max-threads or --max-memory. */
  private checkBudget(plan: Plan): void {
    const { maxThreads, maxMemoryMb } = this.options;
    if (maxThreads === undefined && maxMemoryMb === undefined) return;
    for (const planned of plan.jobs) {
      if (!planned.run) continue;
      const rule = planned.job.rule;
      const threads = effectiveThreads(rule, this.pipeline.defaults);
      const memory = memoryToMegabytes(effectiveMemory(rule, this.pipeline.defaults)) ?? 0;
      if (maxThreads !== undefined && threads > maxThreads) {
        throw new EngineError("BUDGET_ERROR", `job ${planned.job.name} needs ${threads} threads but --max-threads is ${maxThreads}`, { rule: planned.job.template, suggestion: `raise --max-threads to ${threads}, or lower the rule's threads` });
      }
      if (maxMemoryMb !== undefined && memory > maxMemoryMb) {
        throw new EngineError("BUDGET_ERROR", `job ${planned.job.name} needs ${memory} MB but --max-memory is ${maxMemoryMb} MB`, { rule: planned.job.template, suggestion: `raise --max-memory to ${Math.ceil(memory)}, or lower the rule's memory` });
      }
    }
  }

  /** The executor of `--executor`, else of the profile's `[cluster] backend`, else the local one (executor-kinds.ts). */
  private async makeExecutor(): Promise<JobExecutor> {
    const kind = this.options.executor ?? this.pipeline.cluster?.backend ?? "local";
    if (!isExecutorKind(kind)) throw new EngineError("USAGE_ERROR", `the ${kind} executor is not available here`);
    this.executorFactory = EXECUTORS[kind];
    return this.executorFactory.create({
      workdir: this.pipeline.dir,
      runDir: this.runDir,
      runId: this.runId,
      givenRunId: this.options.runId,
      cluster: this.pipeline.cluster ?? { extra_args: [] },
      maxSubmitted: this.options.maxSubmitted,
      pollIntervalMs: this.options.pollIntervalMs,
      log: (message) => void this.events.emit("warning", { message }),
    });
  }

  /** Builds what needs building; returns the names rebuilt, or null when a build failed. */
  private async buildReferences(render: ReturnType<typeof renderContext>): Promise<string[] | null> {
    const { pipeline, events } = this;
    if (pipeline.references.length === 0) return [];
    const plans = await planReferenceBuilds(pipeline);
    adoptReferences(pipeline, plans);
    const rebuilt: string[] = [];
    for (const plan of plans) {
      if (!plan.build) continue;
      const reference = pipeline.references.find((candidate) => candidate.name === plan.name)!;
      events.emit("reference_build_started", { reference: plan.name, output: plan.output, reason: plan.reason, description: reference.description });
      const result = await buildReference(reference, plan, pipeline, render, { logDir: join(this.runDir, "references"), skipEnvSetup: this.options.skipEnvSetup ?? false });
      if (!result.ok) {
        events.emit("reference_build_failed", { reference: plan.name, exit_code: result.exitCode, error: result.error, stderr_tail: result.stderr, duration_ms: result.durationMs });
        return null;
      }
      events.emit("reference_build_completed", { reference: plan.name, duration_ms: result.durationMs });
      rebuilt.push(plan.name);
    }
    return rebuilt;
  }

  private async finish(status: RunStatus, error: string | undefined, webhooks: WebhookSettings): Promise<RunResult> {
    const durationMs = Math.round(performance.now() - this.started);
    const counts = this.counts;
    const data = {
      total_rules: counts.total,
      succeeded: counts.succeeded,
      failed: counts.failed + counts.non_required_failed,
      skipped: counts.skipped + counts.blocked + counts.not_started,
      duration_ms: durationMs,
      ...(status === "completed" ? {} : { error: error ?? (status === "cancelled" ? "cancelled" : `${counts.failed} job(s) failed`) }),
    };
    // Notifications go out before run_finished, so their warnings are in the log and run_finished stays last.
    await this.startedDelivery;
    await dispatchWebhooks(webhooks.endpoints, status === "completed" ? "workflow_completed" : "workflow_failed", { workflow_name: this.pipeline.workflow.name, data }, {
      warn: (message) => void this.events.emit("warning", { message }),
      allowPrivate: this.webhooksMayGoPrivate,
    });
    const errorCode = error ? (this.errorCode ?? "RUN_ERROR") : undefined;
    this.events.emit("run_finished", { status, error, error_code: errorCode, counts, duration_ms: durationMs });
    return { runId: this.runId, status, eventsPath: this.eventsPath, runDir: this.runDir, counts, durationMs, error, errorCode };
  }

}
