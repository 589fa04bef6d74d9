/**
 * The run supervisor: starts `strand run … --events <file> --run-id <id>` as its own process group,
 * follows the event log to keep the run row and the live job states current, publishes run and job events,
 * samples the engine's process tree into the run's metrics file, and records the end from the engine's
 * exit. Engines outlive the service (they are detached, with output in files), so after a restart — even
 * a `kill -9` of the service — `recover()` re-attaches to engines that are still running and finishes the
 * others from their event logs. Pause, resume and cancel are signals to the engine, which owns its jobs.
 * An engine gets an environment built from an allow-list (`engine-environment.ts`), never the service's
 * secrets; with a sandbox policy it runs inside bubblewrap (`sandbox.ts`), and the pid this supervisor
 * signals, samples and records is then the engine's own inside the sandbox, found among bwrap's children.
 */
import { closeSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { availableParallelism, constants } from "node:os";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import type { RunEvent } from "../../engine/run/event-log.js";
import type { EventBus } from "../events/event-bus.js";
import { isStoreError } from "../store/store-error.js";
import type { Run, RunPatch, RunStatus, RunStore } from "../store/runs/contract.js";
import { ACTIVE_RUN_STATUSES } from "../store/runs/run-states.js";
import { engineInvocation, PIPELINE_TEXT_MAX_BYTES, runFiles, runRequestOf, type RunFiles, type RunRequest } from "./engine-command.js";
import { PLAN_MAX_BYTES, planLogLines, readDryRunPlan } from "./dry-run-plan.js";
import { EventLogFollower, readWorkspaceEventLog } from "./event-log-follower.js";
import { MetricsFile } from "./metrics-file.js";
import { procChildren, procStatFields } from "../../engine/run/process-sampler.js";
import { engineEnvironment } from "./engine-environment.js";
import { appendLinkFree, assertLinkFree, openLinkFree, writeLinkFree } from "./link-guard.js";
import { ProcessTreeSampler } from "./process-tree.js";
import { engineSandboxCommand, handOverWorkspace, jobSandboxPrefix, type SandboxPolicy } from "./sandbox.js";
import { isSchedulerTarget } from "./run-targets.js";
import { RunProgress } from "./run-progress.js";
import { readWorkspaceFile, readWorkspaceJson, readWorkspaceTail } from "./workspace-reader.js";
import { REMOTE_LISTING_MAX, remoteResultsPath } from "./remote/remote-results.js";
import { noteInEngineLog, RemoteEngine, remoteEngineStarted, RemoteStartError, type RemoteClusters, type RemoteConnection } from "./remote/remote-engine.js";
import { megabytes, WorkspaceQuota } from "./workspace-quota.js";

const STRAND_BIN = fileURLToPath(new URL("../../../bin/strand.js", import.meta.url));

export interface SupervisorOptions {
  store: RunStore;
  events: EventBus;
  /** The engine program and its leading arguments (default: this package's `strand` on this Node). */
  engineCommand?: string[];
  /** Engines starting at once (default: the CPU count, at least 2); more new runs wait in `queued`. */
  maxStartingEngines?: number;
  /** Extra environment for engines (on top of the allowed part of the service's own; no secret-looking names), e.g. a PATH with site tools. */
  env?: Record<string, string>;
  /** Runs' webhooks may reach loopback, private and link-local addresses (`SERVICE_WEBHOOK_ALLOW_PRIVATE=1`; default: public addresses only). */
  webhooksAllowPrivate?: boolean;
  /** Runs engines in bubblewrap with this policy (default: no sandbox). */
  sandbox?: SandboxPolicy;
  /** How often the process tree is sampled into the metrics file (default 2 s). */
  sampleIntervalMs?: number;
  /** How long a cancelled engine has to stop its jobs before it is told again, then killed (default 10 s). */
  cancelGraceMs?: number;
  /** Where supervision problems are reported. */
  log?: (line: string) => void;
  /** The cluster registry and the key to its credentials, for runs on remote clusters (none: such runs fail with a reason). */
  remote?: RemoteClusters;
  /** Each user's workspaces against `SERVICE_USER_WORKSPACE_MB` (bytes; 0 or absent: no quota). */
  workspaceQuota?: { bytes: number; dataDir: string; intervalMs?: number };
}

/** A run being supervised by this process. */
interface Supervised {
  run: Run;
  files: RunFiles;
  request: RunRequest;
  progress: RunProgress;
  follower?: EventLogFollower;
  pid?: number;
  sampler?: NodeJS.Timeout;
  liveness?: NodeJS.Timeout;
  /** RunStore writes of this run, in order (the final write must land last). */
  writes: Promise<unknown>;
  countsTimer?: NodeJS.Timeout;
  cancelTimers: NodeJS.Timeout[];
  /** True once events are new (not the re-read of an existing log after a restart). */
  live: boolean;
  finished: Promise<void>;
  resolveFinished: () => void;
  finishing: boolean;
  /** A cancel arrived (perhaps before the engine had a process id). */
  cancelRequested?: boolean;
  /** Gives the run's engine-start slot back (once it has reported its start, or ended). */
  started?: () => void;
  /** Its owner's workspaces are measured against the quota while it goes. */
  quotaWatched?: boolean;
  /** The engine on a remote cluster, for a run there. */
  remote?: RemoteEngine;
}

/** Job events that subscribers of GET /api/events see. */
const PUBLISHED_JOB_EVENTS = new Set(["job_started", "job_completed", "job_failed", "job_skipped"]);
const ACTIVE: RunStatus[] = ["running", "paused"];

/** Launches, follows and controls engine processes for runs. */
export class RunSupervisor {
  private readonly runs = new Map<string, Supervised>();
  /** Runs handed to `launch` whose engine is not started yet, by id. */
  private readonly queued = new Map<string, Run>();
  /** Workspaces claimed by a run being created (before it is handed to `launch`), and that run's id. */
  private readonly claims = new Map<string, string>();
  /** Runs waiting for an engine-start slot, oldest first. */
  private readonly waiting: { run: Run; request: RunRequest }[] = [];
  private starting = 0;
  private readonly engine: string[];
  private closed = false;

  /** Each user's workspaces against their quota (undefined: no quota). */
  readonly quota: WorkspaceQuota | undefined;

  constructor(private readonly options: SupervisorOptions) {
    this.engine = options.engineCommand ?? [process.execPath, STRAND_BIN];
    const quota = options.workspaceQuota;
    this.quota = quota && quota.bytes > 0 ? new WorkspaceQuota({ ...quota, onExceeded: (owner, used) => this.overQuota(owner, used) }) : undefined;
  }

  /**
   * A user's workspaces have outgrown the quota: their active runs stop, each cancelled with the reason (the
   * space is not freed: the user decides what to delete).
   */
  private overQuota(owner: string, usedBytes: number): void {
    const quota = this.quota!;
    const error = `stopped: your workspaces use ${megabytes(usedBytes)}, over the workspace quota of ${megabytes(quota.bytes)} (SERVICE_USER_WORKSPACE_MB); ask an administrator to remove workspaces of runs you no longer need, or to raise the quota`;
    for (const supervised of this.runs.values()) {
      if (supervised.run.owner !== owner || supervised.finishing || supervised.cancelRequested) continue;
      const runId = supervised.run.id;
      void this.options.store.updateRun(runId, { status: "cancelled", error }, { expectedStatus: ACTIVE }).then(
        () => {
          this.noteStatus(runId, "cancelled");
          this.cancel(runId);
          this.options.events.publish("run_cancelled", { run_id: runId, status: "cancelled", cancelled_at: new Date().toISOString(), error }, owner);
          this.options.log?.(`run ${runId}: ${error}`);
        },
        (caught: unknown) => {
          if (!isStoreError(caught, "CONFLICT")) this.options.log?.(`run ${runId}: could not stop it over the quota: ${describe(caught)}`);
        },
      );
    }
  }

  /** The environment engines start with (the service's, plus the configured extras). */
  engineEnvironment(): NodeJS.ProcessEnv {
    return { ...process.env, ...this.options.env };
  }

  /** The sandbox runs' engines start in (undefined: none). */
  sandboxPolicy(): SandboxPolicy | undefined {
    return this.options.sandbox;
  }

  /** Whether the engine program runs are started with is there (a broken install cannot run anything). */
  engineAvailability(): { available: boolean; detail?: string } {
    const script = this.engine[1];
    if (script && script.endsWith(".js") && !existsSync(script)) return { available: false, detail: `the engine program ${script} is missing` };
    const built = fileURLToPath(new URL("../../../dist/cli/main.js", import.meta.url));
    if (this.options.engineCommand === undefined && !existsSync(built)) return { available: false, detail: "the engine is not built: run npm run build" };
    return { available: true };
  }

  /** Live job states of a run this process supervises (undefined once it has finished). */
  progress(runId: string): RunProgress | undefined {
    return this.runs.get(runId)?.progress;
  }

  /** Resolves when the supervised run has been finished (at once if it is not supervised). */
  async whenFinished(runId: string): Promise<void> {
    await this.runs.get(runId)?.finished;
  }

  /** Runs this process supervises: active (running or paused) and queued (about to start), for /api/metrics. */
  counts(): { active: number; queued: number } {
    return { active: this.runs.size, queued: this.queued.size };
  }

  /**
   * The run working in this workspace — being created, queued, starting, running or ending under this
   * process — or undefined when it is free (a second engine there would be refused by the engine's lock).
   */
  busyWorkspace(workspace: string): Pick<Run, "id" | "status"> | undefined {
    for (const { run } of this.runs.values()) if (run.workspace === workspace) return run;
    for (const run of this.queued.values()) if (run.workspace === workspace) return run;
    const claimed = this.claims.get(workspace);
    return claimed === undefined ? undefined : { id: claimed, status: "queued" };
  }

  /**
   * Claims a free workspace for a run being created, so two requests at once cannot both find it free:
   * returns the run in the way, or undefined once the claim is this run's. `launch` ends the claim (the
   * run is then queued there); `releaseWorkspace` ends it when the run is not created after all.
   */
  claimWorkspace(workspace: string, runId: string): Pick<Run, "id" | "status"> | undefined {
    const busy = this.busyWorkspace(workspace);
    if (busy) return busy;
    this.claims.set(workspace, runId);
    return undefined;
  }

  /** Gives up a claim `claimWorkspace` made for this run (no-op when the run holds none). */
  releaseWorkspace(workspace: string, runId: string): void {
    if (this.claims.get(workspace) === runId) this.claims.delete(workspace);
  }

  /**
   * Starts a queued run's engine in the background (failures end the run as failed with a reason). At most
   * `maxStartingEngines` engines start at once — starting is the costly part of a run (loading and planning)
   * — so a burst of new runs waits in `queued` instead of starving the service and each other of CPU.
   */
  launch(run: Run, request: RunRequest): void {
    this.queued.set(run.id, run);
    if (run.workspace) this.releaseWorkspace(run.workspace, run.id);
    this.waiting.push({ run, request });
    this.startWaiting();
  }

  private startWaiting(): void {
    const limit = this.options.maxStartingEngines ?? Math.max(2, availableParallelism());
    while (this.starting < limit && this.waiting.length > 0 && !this.closed) {
      const { run, request } = this.waiting.shift()!;
      this.starting++;
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        this.starting--;
        this.startWaiting();
      };
      // An engine that never reports its start still gives its slot back.
      setTimeout(release, 15_000).unref();
      void this.launchNow(run, request, release)
        .catch((error: unknown) => {
          release();
          this.options.log?.(`run ${run.id}: launch failed: ${describe(error)}`);
        })
        .finally(() => this.queued.delete(run.id));
    }
  }

  private async launchNow(queued: Run, request: RunRequest, started: () => void): Promise<void> {
    const files = runFiles(queued.workspace!, queued.id);
    let run: Run;
    try {
      run = await this.options.store.updateRun(queued.id, { status: "running", started_at: new Date().toISOString() }, { expectedStatus: "queued" });
    } catch (error) {
      started();
      if (isStoreError(error, "CONFLICT")) return; // cancelled before it started
      throw error;
    }
    const supervised = this.track(run, files, request, true);
    supervised.started = started;
    this.watchQuota(supervised);
    let child;
    try {
      // Jobs of earlier runs wrote in this workspace: nothing the service writes or copies here may go through a link.
      const ws = files.workspace;
      for (const path of [files.dir, files.pipeline, files.workspacePipeline, files.engineLog, files.dryRunPlan, files.metrics, join(ws, ".strand", "home")]) assertLinkFree(ws, path);
      mkdirSync(files.dir, { recursive: true });
      // The engine runs the workspace's pipeline file: this run's own text, put there now that the
      // workspace is this run's (runs of a saved pipeline share it; a retry may follow a newer run).
      const text = readWorkspaceFile(ws, files.pipeline, PIPELINE_TEXT_MAX_BYTES);
      if (text) writeLinkFree(ws, files.workspacePipeline, text);
      if (run.remote) return await this.launchRemote(supervised, request);
      const invocation = engineInvocation(run.id, files, request, this.options.webhooksAllowPrivate ? "any" : "public");
      if (invocation.profile) {
        assertLinkFree(ws, invocation.profile.path);
        mkdirSync(dirname(invocation.profile.path), { recursive: true });
        writeLinkFree(ws, invocation.profile.path, invocation.profile.text);
      }
      // File descriptors, not execa's `{file}` (which pipes through this process): the engine must keep
      // writing its output when the service is gone.
      // The engine's home and temporary folders are inside the run: nothing of the service's account. HOME is
      // the workspace's, so what tools keep there (conda environments, caches) serves the next run of a
      // saved pipeline too; the temporary folder is this run's.
      const folders = { home: join(files.workspace, ".strand", "home"), tmp: join(files.dir, "tmp") };
      mkdirSync(folders.home, { recursive: true });
      mkdirSync(folders.tmp, { recursive: true });
      // A root service's sandboxes run under an unprivileged account, which must own what the engine writes in.
      const relative = (path: string) => path.slice(ws.length + 1);
      handOverWorkspace(this.options.sandbox, ws, [".strand", ".strand/runs", relative(files.dir), relative(folders.home), relative(folders.tmp)]);
      // The extras configured for engines are chosen for them, so they pass (secret-looking names still do not).
      // Every command of the pipeline runs in the job sandbox (sandbox.ts); scheduler jobs start it on their node.
      const env = engineEnvironment(process.env, folders, { ...this.options.env, ...invocation.env, ...this.confinement(ws), FORCE_COLOR: "0", NO_COLOR: "1" });
      const plain = [...this.engine, ...invocation.args];
      const command = this.options.sandbox ? engineSandboxCommand(this.options.sandbox, ws, plain, { scheduler: isSchedulerTarget(request.target.type) && !request.dry_run }) : plain;
      const log = openLinkFree(ws, files.engineLog, "append");
      const out = request.dry_run ? openLinkFree(ws, files.dryRunPlan, "truncate") : log;
      try {
        child = execa(command[0]!, command.slice(1), {
          cwd: files.workspace,
          env,
          extendEnv: false,
          stdin: "ignore",
          stdout: descriptor(out),
          stderr: descriptor(log),
          // Its own process group, not killed with the service: a restart re-attaches to it.
          detached: true,
          cleanup: false,
          reject: false,
        });
      } finally {
        closeSync(log);
        if (out !== log) closeSync(out);
      }
    } catch (error) {
      started();
      await this.finish(supervised, null, `the engine could not be started: ${describe(error)}`);
      return;
    }
    child.unref?.();
    // In a sandbox the child is bwrap, which passes on no signal: the engine inside is the one to signal.
    const sandboxed = this.options.sandbox !== undefined && child.pid !== undefined && !request.dry_run;
    supervised.pid = sandboxed ? ((await sandboxedEngine(child.pid!, run.id, child)) ?? child.pid) : child.pid;
    if (supervised.cancelRequested) this.cancel(run.id);
    this.write(supervised, { pid: supervised.pid ?? null });
    this.options.events.publish("run_started", { run_id: run.id, workflow_name: run.workflow_name, started_at: run.started_at, retry_of: run.retry_of }, run.owner);
    this.follow(supervised);
    this.startSampling(supervised);
    void child.then((result) => {
      // bwrap gone: whatever is left of its sandbox (an init whose engine it outlived) goes with it.
      if (this.options.sandbox && child.pid !== undefined) killGroup(child.pid);
      const code = typeof result.exitCode === "number" ? result.exitCode : signalExitCode(result.signal);
      void this.finish(supervised, code).catch((error: unknown) => this.options.log?.(`run ${run.id}: finishing failed: ${describe(error)}`));
    });
  }

  /**
   * Starts a run on its remote cluster (remote/remote-engine.ts): staging, the detached engine, then the
   * mirror of its logs, which the run's own follower reads as for a local run. A run the cluster cannot
   * start (a refused host key, no engine there) ends failed with the reason.
   */
  private async launchRemote(supervised: Supervised, request: RunRequest): Promise<void> {
    const { run, files } = supervised;
    // Starting on a cluster costs this machine little: the slot goes to the next run at once.
    supervised.started?.();
    if (!run.remote?.workspace || !this.options.remote) {
      await this.finish(supervised, null, "this service is not set up to run on remote clusters");
      return;
    }
    const engine = this.remoteEngine(supervised, { ...run.remote, workspace: run.remote.workspace });
    try {
      const state = await engine.launch(request, (line) => noteInEngineLog(files, line));
      this.write(supervised, { remote: state });
    } catch (error) {
      engine.close();
      noteInEngineLog(files, `strand service: ${describe(error)}`);
      await this.finish(supervised, null, error instanceof RemoteStartError ? error.message : `the run could not be started on cluster '${run.remote.cluster_id}': ${describe(error)}`);
      return;
    }
    this.options.events.publish("run_started", { run_id: run.id, workflow_name: run.workflow_name, started_at: run.started_at, retry_of: run.retry_of }, run.owner);
    this.follow(supervised);
    this.followRemote(supervised, engine);
    if (supervised.cancelRequested) this.cancel(run.id);
  }

  private remoteEngine(supervised: Supervised, state: ConstructorParameters<typeof RemoteEngine>[1]): RemoteEngine {
    const { run } = supervised;
    const engine = new RemoteEngine(this.options.remote!, state, run.id, supervised.files, {
      log: (line) => this.options.log?.(line),
      onState: (now) => this.write(supervised, { remote: now }),
      note: (line) => noteInEngineLog(supervised.files, line),
      onConnection: (connection) => {
        if (connection.state === "closed") return;
        const { state: now, attempts, error, retry_at } = connection;
        this.options.events.publish("run_connection", { run_id: run.id, cluster_id: state.cluster_id, state: now, attempts, error, retry_at }, run.owner);
      },
    });
    supervised.remote = engine;
    return engine;
  }

  /** Follows a started remote engine to its end, then brings its results back and finishes the run. */
  private followRemote(supervised: Supervised, engine: RemoteEngine): void {
    engine.follow((code) => {
      void this.endRemote(supervised, engine, code).catch((error: unknown) => this.options.log?.(`run ${supervised.run.id}: finishing failed: ${describe(error)}`));
    });
  }

  private async endRemote(supervised: Supervised, engine: RemoteEngine, code: number | null): Promise<void> {
    engine.state = { ...engine.state, phase: "collecting" };
    this.write(supervised, { remote: engine.state });
    const summary = await engine.collect();
    const where = `${engine.state.cluster_id}:${engine.state.workspace}`;
    if (!summary) noteInEngineLog(supervised.files, `strand service: the results could not be brought back from ${where}; they are still there`);
    else if (engine.state.results === "remote") {
      noteInEngineLog(supervised.files, `strand service: the results stay on the cluster, in ${where}`);
      // What is there, for the results view (which lists the declared outputs among it).
      try {
        writeLinkFree(supervised.files.workspace, remoteResultsPath(supervised.files), JSON.stringify({ cluster_id: engine.state.cluster_id, workspace: engine.state.workspace, files: (summary.remote ?? []).slice(0, REMOTE_LISTING_MAX) }));
      } catch (error) {
        this.options.log?.(`run ${supervised.run.id}: the listing of its remote results is not kept: ${describe(error)}`);
      }
    }
    else noteInEngineLog(supervised.files, `strand service: brought back ${summary.copied} file${summary.copied === 1 ? "" : "s"} from ${where}, ${summary.unchanged} unchanged${summary.skipped.length > 0 ? `, ${summary.skipped.length} not written (${summary.skipped.slice(0, 3).join(", ")})` : ""}`);
    engine.state = { ...engine.state, phase: "done" };
    this.write(supervised, { remote: engine.state });
    await this.finish(supervised, code, engine.endReason);
  }

  /** The connection of a remote run this process follows (undefined for local runs and runs it does not follow). */
  remoteConnection(runId: string): RemoteConnection | undefined {
    return this.runs.get(runId)?.remote?.connection;
  }

  private watchQuota(supervised: Supervised): void {
    if (!this.quota || supervised.quotaWatched) return;
    supervised.quotaWatched = true;
    this.quota.watch(supervised.run.owner);
  }

  /** The engine's instructions for confining the pipeline's commands: the job sandbox, the set-up sandbox and each job's limits (none without a sandbox). */
  private confinement(workspace: string): Record<string, string> {
    const policy = this.options.sandbox;
    if (!policy) return {};
    return {
      STRAND_JOB_SANDBOX: JSON.stringify(jobSandboxPrefix(policy, workspace, { network: policy.jobNetwork })),
      // Set-up downloads packages: the host's network, in an otherwise identical sandbox.
      STRAND_SETUP_SANDBOX: JSON.stringify(jobSandboxPrefix(policy, workspace, { network: "host" })),
      // URL includes and modules from public addresses only (remote-sources.ts): no loopback, private network or cloud metadata.
      STRAND_REMOTE_SOURCES: "public",
      STRAND_JOB_LIMITS: JSON.stringify({
        processes: policy.limits.processes,
        fileBytes: policy.limits.workspaceQuotaBytes > 0 ? policy.limits.workspaceQuotaBytes : undefined,
        memory: true,
        cpuAffinity: true,
      }),
    };
  }

  /** Pauses a running run's engine (it stops starting jobs and suspends running local jobs). */
  pause(runId: string): boolean {
    return this.signal(runId, "SIGUSR1");
  }

  /** Resumes a paused run's engine. */
  resume(runId: string): boolean {
    return this.signal(runId, "SIGUSR2");
  }

  /** Notes a status the service has just written (pause, resume, cancel) so counts and metrics agree. */
  noteStatus(runId: string, status: RunStatus): void {
    const supervised = this.runs.get(runId);
    if (supervised) supervised.run = { ...supervised.run, status };
  }

  /**
   * Cancels a run's engine: SIGTERM lets it stop its jobs and write its last event; if it has not
   * ended after the grace period it is told again (the engine then kills its jobs at once), and after a
   * second grace period its process group is killed.
   */
  cancel(runId: string): void {
    const supervised = this.runs.get(runId);
    if (!supervised) return;
    // Cancelled while its engine is being started: the signal goes out as soon as there is a process.
    supervised.cancelRequested = true;
    const grace = this.options.cancelGraceMs ?? 10_000;
    if (supervised.remote) {
      // Before the remote engine has a process id, launchRemote cancels it once it has one.
      if (!remoteEngineStarted(supervised.remote.state) || supervised.cancelTimers.length > 0) return;
      this.signal(runId, "SIGTERM");
      const again = setTimeout(() => this.signal(runId, "SIGTERM"), grace);
      const kill = setTimeout(() => this.signal(runId, "SIGKILL"), grace * 2);
      again.unref();
      kill.unref();
      supervised.cancelTimers.push(again, kill);
      return;
    }
    if (supervised.pid === undefined || supervised.cancelTimers.length > 0) return;
    this.signal(runId, "SIGTERM");
    const again = setTimeout(() => this.signal(runId, "SIGTERM"), grace);
    const kill = setTimeout(() => {
      try {
        process.kill(-processGroup(supervised.pid!), "SIGKILL");
      } catch {
        // already gone
      }
    }, grace * 2);
    again.unref();
    kill.unref();
    supervised.cancelTimers.push(again, kill);
  }

  private signal(runId: string, signal: NodeJS.Signals): boolean {
    const remote = this.runs.get(runId)?.remote;
    if (remote) {
      // Sent over SSH now, or once the connection is back.
      remote.signal(signal === "SIGUSR1" ? "USR1" : signal === "SIGUSR2" ? "USR2" : signal === "SIGKILL" ? "KILL" : "TERM");
      return true;
    }
    const pid = this.runs.get(runId)?.pid;
    if (pid === undefined) return false;
    try {
      // The engine only: its jobs run in process groups of their own and are the engine's to manage.
      process.kill(pid, signal);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * After a service start: starts runs left queued, re-attaches to engines still running, and finishes
   * runs whose engine ended while the service was away from their event logs.
   */
  async recover(): Promise<{ started: number; attached: number; finished: number }> {
    const summary = { started: 0, attached: 0, finished: 0 };
    for (const status of ACTIVE_RUN_STATUSES) {
      for (const run of await this.allRuns(status)) {
        if (this.runs.has(run.id) || !run.workspace) continue;
        const files = runFiles(run.workspace, run.id);
        const request = runRequestOf(run);
        if (status === "queued") {
          if (!request) {
            await this.options.store.updateRun(run.id, { status: "failed", finished_at: new Date().toISOString(), error: "the run's request file is missing; it cannot be started" }, { expectedStatus: "queued" }).catch(() => undefined);
            continue;
          }
          this.launch(run, request);
          summary.started++;
          continue;
        }
        const supervised = this.track(run, files, request ?? { target: run.target }, false);
        if (run.remote) {
          await this.recoverRemote(supervised, run.remote);
          summary.attached++;
          continue;
        }
        if (run.pid !== null && engineAlive(run.pid, run.id)) {
          supervised.pid = run.pid;
          // Fold what was written while the service was away without re-announcing it, then go live.
          this.follow(supervised, { replay: true });
          this.watchQuota(supervised);
          this.startSampling(supervised);
          supervised.liveness = setInterval(() => {
            if (!engineAlive(run.pid!, run.id)) void this.finish(supervised, null);
          }, 250);
          supervised.liveness.unref();
          summary.attached++;
        } else {
          const reason = run.pid === null ? "the service stopped before the engine started" : undefined;
          await this.finish(supervised, null, reason);
          summary.finished++;
        }
      }
    }
    return summary;
  }

  /** Follows a remote run again after a restart: its engine on the cluster did not stop with the service. */
  private async recoverRemote(supervised: Supervised, remote: NonNullable<Run["remote"]>): Promise<void> {
    if (!this.options.remote || remote.workspace === null || !remoteEngineStarted(remote) || remote.phase === "staging") {
      const reason = this.options.remote ? `the service stopped while the run was being started on cluster '${remote.cluster_id}'; retry it` : "this service is not set up to run on remote clusters";
      await this.finish(supervised, null, reason);
      return;
    }
    const engine = this.remoteEngine(supervised, { ...remote, workspace: remote.workspace });
    if (remote.phase === "collecting" || remote.phase === "done") {
      supervised.follower = undefined;
      void this.endRemote(supervised, engine, null).catch((error: unknown) => this.options.log?.(`run ${supervised.run.id}: finishing failed: ${describe(error)}`));
      return;
    }
    this.follow(supervised, { replay: true });
    this.followRemote(supervised, engine);
  }

  /** Stops following (engines keep running; a later `recover()` picks them up). */
  close(): void {
    this.closed = true;
    this.quota?.close();
    for (const supervised of this.runs.values()) this.stopWatching(supervised);
  }

  private async allRuns(status: RunStatus): Promise<Run[]> {
    const found: Run[] = [];
    let cursor: string | null = null;
    do {
      const page = await this.options.store.listRuns({ status, limit: 500, cursor });
      found.push(...page.items);
      cursor = page.next_cursor;
    } while (cursor);
    return found;
  }

  private track(run: Run, files: RunFiles, request: RunRequest, live: boolean): Supervised {
    let resolveFinished!: () => void;
    const finished = new Promise<void>((resolve) => (resolveFinished = resolve));
    const supervised: Supervised = { run, files, request, progress: new RunProgress(), writes: Promise.resolve(), cancelTimers: [], live, finished, resolveFinished, finishing: false };
    this.runs.set(run.id, supervised);
    return supervised;
  }

  /** Follows the run's event log; `replay` first folds what is already there without announcing it. */
  private follow(supervised: Supervised, options: { replay?: boolean } = {}): void {
    if (supervised.request.dry_run) return;
    supervised.follower = new EventLogFollower(supervised.files.workspace, supervised.files.events, (event) => this.onEvent(supervised, event), undefined, {
      onCapped: (note) => this.options.log?.(`run ${supervised.run.id}: ${note}`),
    });
    if (options.replay) {
      supervised.follower.drainAll();
      supervised.live = true;
    }
    supervised.follower.start();
  }

  private onEvent(supervised: Supervised, event: RunEvent): void {
    if (!supervised.progress.apply(event)) return;
    if (event.type === "run_started") supervised.started?.();
    const { run } = supervised;
    if (supervised.live && PUBLISHED_JOB_EVENTS.has(event.type)) {
      const data: Record<string, unknown> = { run_id: run.id, job: event.job, rule: event.rule };
      for (const key of ["attempt", "exit_code", "duration_ms", "error"]) if (event[key] !== undefined) data[key] = event[key];
      // A job the cancel stopped is reported as skipped, as the counts have it.
      const stopped = event.type === "job_failed" && event.cancelled === true;
      if (event.type === "job_skipped") data.reason = (event.reason as { text?: string } | undefined)?.text ?? null;
      if (stopped) data.reason = `stopped: ${String(event.error ?? "the run was cancelled")}`;
      this.options.events.publish(stopped ? "job_skipped" : event.type, data, run.owner);
    }
    // Counts are written at most every 250 ms: a run of thousands of short jobs must not flood the store.
    supervised.countsTimer ??= setTimeout(() => {
      supervised.countsTimer = undefined;
      if (!supervised.finishing) this.write(supervised, { counts: supervised.progress.counts() }, ACTIVE);
    }, 250);
  }

  private startSampling(supervised: Supervised): void {
    if (supervised.pid === undefined) return;
    const sampler = new ProcessTreeSampler(supervised.pid);
    let metrics: MetricsFile;
    try {
      metrics = new MetricsFile(supervised.files.workspace, supervised.files.metrics);
    } catch (error) {
      this.options.log?.(`run ${supervised.run.id}: no metrics: ${describe(error)}`);
      return;
    }
    const tick = () => {
      const sample = sampler.sample();
      try {
        if (sample) metrics.append({ time: new Date().toISOString(), ...sample });
      } catch (error) {
        // A job replaced the metrics file (or its folder) with a link, or the disk is full: the sample is lost, not the service.
        this.options.log?.(`run ${supervised.run.id}: metrics not written: ${describe(error)}`);
      }
    };
    tick();
    supervised.sampler = setInterval(tick, this.options.sampleIntervalMs ?? 2000);
    supervised.sampler.unref();
  }

  private stopWatching(supervised: Supervised): void {
    supervised.follower?.stop();
    supervised.remote?.close();
    if (supervised.sampler) clearInterval(supervised.sampler);
    if (supervised.liveness) clearInterval(supervised.liveness);
    if (supervised.countsTimer) clearTimeout(supervised.countsTimer);
    for (const timer of supervised.cancelTimers) clearTimeout(timer);
  }

  /** Queues a store write of this run, in order; a lost compare-and-set is expected and ignored. */
  private write(supervised: Supervised, patch: RunPatch, expectedStatus?: RunStatus[]): Promise<unknown> {
    supervised.writes = supervised.writes.then(() =>
      this.options.store.updateRun(supervised.run.id, patch, expectedStatus ? { expectedStatus } : {}).catch((error: unknown) => {
        if (!isStoreError(error, "CONFLICT")) this.options.log?.(`run ${supervised.run.id}: store update failed: ${describe(error)}`);
      }),
    );
    return supervised.writes;
  }

  /** Records the end of a run from its event log and the engine's exit code (null when not known). */
  private async finish(supervised: Supervised, exitCode: number | null, failure?: string): Promise<void> {
    if (supervised.finishing || this.closed) return;
    supervised.finishing = true;
    supervised.started?.();
    const { run, files, progress } = supervised;
    supervised.follower?.drainAll();
    this.stopWatching(supervised);
    if (!supervised.follower) for (const event of readWorkspaceEventLog(files.workspace, files.events)) progress.apply(event);
    const finish = progress.finish;
    let status: "completed" | "failed" | "cancelled";
    let error: string | null = failure ?? null;
    if (supervised.request.dry_run) {
      status = exitCode === 0 ? "completed" : "failed";
      if (status === "failed") error ??= `the dry run failed${lastLine(files)}`;
      // The engine's dry run writes no event log: its plan becomes the run's log, where the views read it.
      const plan = readDryRunPlan(files.workspace, files.dryRunPlan);
      // Best effort: the plan stays readable in dry-run.json and the views.
      if (plan) appendLinkFree(files.workspace, files.engineLog, `${planLogLines(plan, run.workflow_name).join("\n")}\n`);
    } else if (finish) {
      status = finish.status;
      error ??= finish.error;
      if (status === "failed" && !error) {
        const failed = progress.counts().failed;
        error = failed > 0 ? `${failed} job${failed === 1 ? "" : "s"} failed` : "the run failed";
      }
    } else {
      status = "failed";
      error ??= `the engine stopped without finishing its event log${exitCode === null ? "" : ` (exit code ${exitCode})`}${lastLine(files)}`;
    }
    // After a restart the engine is not this process's child: its exit code is the one its last event implies.
    const code = exitCode ?? (finish ? (finish.status === "completed" ? 0 : finish.status === "cancelled" ? 143 : 1) : null);
    const counts = supervised.request.dry_run ? dryRunCounts(files) : progress.counts();
    const finishedAt = finish?.time ?? new Date().toISOString();
    await supervised.writes;
    let final: Run | undefined;
    try {
      final = await this.options.store.updateRun(run.id, { status, finished_at: finishedAt, exit_code: code, counts, error }, { expectedStatus: ACTIVE_RUN_STATUSES });
    } catch (caught) {
      if (!isStoreError(caught, "CONFLICT")) throw caught;
      // Cancelled by a request while the engine was stopping: keep that status, record how it ended.
      final = await this.options.store.updateRun(run.id, { finished_at: finishedAt, exit_code: code, counts }, { expectedStatus: "cancelled" }).catch(() => undefined);
      status = "cancelled";
    }
    this.runs.delete(run.id);
    if (supervised.quotaWatched) this.quota?.unwatch(run.owner);
    if (final && final.status !== "cancelled") {
      this.options.events.publish(`run_${final.status}`, { run_id: run.id, status: final.status, finished_at: final.finished_at, exit_code: final.exit_code, counts: final.counts, error: final.error }, run.owner);
    } else if (final && supervised.run.status !== "cancelled") {
      // Cancelled by a signal from elsewhere (a request has already announced its own cancel).
      this.options.events.publish("run_cancelled", { run_id: run.id, status: "cancelled", finished_at: final.finished_at, counts: final.counts }, run.owner);
    }
    supervised.resolveFinished();
  }
}

/** Whether `pid` is the engine of this run (a live process whose arguments name the run id). */
export function engineAlive(pid: number, runId: string): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // A zombie has an empty command line; a reused pid has someone else's.
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").includes(`--run-id=${runId}`);
  } catch {
    return existsSync("/proc/self") ? false : true;
  }
}

/**
 * The engine inside a sandbox started as `bwrap`: the first process below it that names the run and is
 * not bwrap itself (bwrap forks an init for the new pid namespace, which forks the engine). Waits up to
 * 10 s for it; undefined when the sandbox ended first or never showed it.
 */
async function sandboxedEngine(bwrapPid: number, runId: string, child: Promise<unknown>): Promise<number | undefined> {
  let ended = false;
  void child.then(
    () => (ended = true),
    () => (ended = true),
  );
  const deadline = Date.now() + 10_000;
  while (!ended && Date.now() < deadline) {
    const stack = [...procChildren(bwrapPid)];
    while (stack.length > 0) {
      const pid = stack.shift()!;
      try {
        const args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
        if (basename(args[0] ?? "") !== "bwrap" && args.includes(`--run-id=${runId}`)) return pid;
      } catch {
        continue;
      }
      stack.push(...procChildren(pid));
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return undefined;
}

/** SIGKILL to a process group; a group that is already gone is not an error. */
function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, "SIGKILL");
  } catch {
    // already gone
  }
}

/** The process group of a process (the sandbox's, for a sandboxed engine), or the pid itself when /proc cannot tell. */
function processGroup(pid: number): number {
  const group = Number(procStatFields(pid)?.[2]);
  return Number.isInteger(group) && group > 0 ? group : pid;
}

/**
 * An open file descriptor as a child's stdout/stderr. execa passes any descriptor to the child as it is,
 * but its types list only the literals 3–9; this is the one place that says so.
 */
function descriptor(fd: number): 3 {
  return fd as 3;
}

/** The shell's convention for a process ended by a signal: 128 + the signal's number. */
function signalExitCode(signal: string | undefined): number | null {
  const number = signal === undefined ? undefined : (constants.signals as Record<string, number>)[signal];
  return number === undefined ? null : 128 + number;
}

function dryRunCounts(files: RunFiles) {
  // `strand dry-run --json` prints the common envelope; the plan is its `data`.
  const document = readWorkspaceJson(files.workspace, files.dryRunPlan, PLAN_MAX_BYTES) as { data?: { total_jobs?: unknown } | null; total_jobs?: unknown } | undefined;
  const total = document && typeof document === "object" ? (document.data ?? document).total_jobs : undefined;
  const jobs = typeof total === "number" && Number.isInteger(total) && total >= 0 ? total : 0;
  return { total: jobs, completed: 0, failed: 0, running: 0, skipped: jobs, pending: 0 };
}

/** The engine log's last line, for a failure message (": …", or "" when there is none). */
function lastLine(files: RunFiles): string {
  const lines = readWorkspaceTail(files.workspace, files.engineLog, 4096).trim().split("\n");
  const last = lines[lines.length - 1]?.trim();
  return last ? `: ${last.slice(0, 300)}` : "";
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
