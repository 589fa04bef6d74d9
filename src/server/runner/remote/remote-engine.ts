/**
 * One run's engine on a remote cluster, seen from the service (docs/guide/hpc.md, "Remote clusters"): it
 * stages the run's workspace to the login node over SFTP, starts the engine there detached (wrapper and
 * commands: remote-commands.ts), and then mirrors the remote event log and engine log into the run's local
 * folder as they grow — rewriting the remote workspace's paths to the local one — so the supervisor's own
 * follower, the run page, GET /api/events, status, DAG status, logs, diagnostics and the report read a
 * remote run exactly as a local one. Job logs come back as each job ends, results when the run ends.
 *
 * The connection is not the run: keepalives notice a dead link, a dropped connection is retried with
 * backoff (its state is reported to the supervisor, which shows it on the run page), and signals asked for
 * while it is down are sent once it is back. The mirror's read positions are kept beside the mirror, so a
 * restarted service goes on where it stopped.
 */
import { closeSync } from "node:fs";
import { join, posix } from "node:path";
import type { Client } from "ssh2";
import { parseEventLine } from "../../../engine/run/event-log.js";
import { engineVersion } from "../../../engine/version.js";
import { connectCluster } from "../../outbound/cluster-login.js";
import { RemoteFiles, runRemote, SshRefusal } from "../../outbound/ssh.js";
import type { KeySealer } from "../../secret-box.js";
import type { ClusterRecord, ClusterStore } from "../../store/clusters/contract.js";
import type { RemoteEngineJob, RunRemote } from "../../store/runs/contract.js";
import { engineInvocation, type RunFiles, type RunRequest } from "../engine-command.js";
import { EVENT_LINE_MAX_BYTES } from "../event-log-follower.js";
import { appendLinkFree, assertLinkFree, openLinkFree, writeLinkFree } from "../link-guard.js";
import { readWorkspaceJson } from "../workspace-reader.js";
import { pullWorkspace, stageWorkspace, type SyncSummary } from "./file-sync.js";
import { probeFacts, probeScript } from "./login-node.js";
import { EngineJob, EngineJobError, recordedJobIds, remoteSchedulerCommands } from "./engine-job.js";
import { aliveCommand, JOB_WRAPPER_SCRIPT, killGroupCommand, PATH_COMMAND, remoteRunFiles, signalCommand, stagedEnginePath, startCommand, WRAPPER_SCRIPT, type RemoteRunFiles } from "./remote-commands.js";

/** What the service needs to reach clusters: the registry and the key that opens sealed credentials. */
export interface RemoteClusters {
  store: Pick<ClusterStore, "getCluster" | "recordSeenHostKey">;
  sealer: KeySealer;
  /** The one-file engine staged where a login node has Node.js but no strand (default: this build's). */
  engineBundle?: string;
  /** How often the remote logs are read (default 1 s). */
  pollMs?: number;
  /** The first wait before reconnecting (default 1 s; doubled up to `maxBackoffMs`). */
  backoffMs?: number;
  maxBackoffMs?: number;
}

/** The state of a remote run's connection, as the run page shows it. */
export interface RemoteConnection {
  state: "connecting" | "connected" | "reconnecting" | "refused" | "closed";
  since: string;
  /** Failed attempts since the link was last up. */
  attempts: number;
  error: string | null;
  /** When the next attempt is made (reconnecting and refused only). */
  retry_at: string | null;
}

/** The engine bundled into one file by `npm run build` (scripts/bundle-engine.mjs), from the sources and from dist/ alike. */
const DEFAULT_BUNDLE = new URL("../../../../dist/engine/strand-engine.mjs", import.meta.url).pathname;

/** The most of a remote log read per poll (a run of many jobs writes fast; the next poll reads on). */
const READ_CHUNK_BYTES = 4 * 1024 * 1024;

/** The most of one job log brought back while the run goes (all of it comes back with the results). */
const JOB_LOG_MAX_BYTES = 16 * 1024 * 1024;

/** How many polls pass between two checks that the remote engine is still alive. */
const ALIVE_EVERY_POLLS = 5;

/**
 * How many checks in a row must find the engine's job ended without an exit code before the run ends: the
 * wrapper writes it on a compute node, and a shared file system may show it to the login node a little later.
 */
const JOB_GONE_CHECKS = 3;

/** The most of the engine job's own output copied into the run's log when the job ended without an exit code. */
const JOB_OUTPUT_TAIL_BYTES = 4096;

/** Whether a remote run's engine has been started (a process on the login node, or a job at the scheduler). */
export function remoteEngineStarted(state: Pick<RunRemote, "pid" | "engine_job">): boolean {
  return state.pid !== null || (state.engine_job ?? null) !== null;
}

/** The read positions of the mirror, kept beside it. */
interface MirrorOffsets {
  events: number;
  log: number;
  /** The last event mirrored (a restart never appends one twice). */
  seq: number;
}

/** How the command line's `strand run --remote` differs from a service run. */
export interface LaunchOptions {
  /** The pipeline file, relative to the workspace (default: `workflow.oxoflow`, where the service puts a run's text). */
  pipeline?: string;
  /** More engine arguments, each one word (the command line's own options, forwarded as given). */
  extraArgs?: string[];
}

/** Why a remote run could not start (the supervisor ends it with this message). */
export class RemoteStartError extends Error {}

/** One run's engine on a cluster. */
export class RemoteEngine {
  private client: Client | undefined;
  private files: RemoteFiles | undefined;
  private connecting: Promise<void> | undefined;
  private closed = false;
  private timer: NodeJS.Timeout | undefined;
  private polls = 0;
  private polling = false;
  private offsets: MirrorOffsets = { events: 0, log: 0, seq: 0 };
  private partial = "";
  private readonly pendingSignals: ("TERM" | "USR1" | "USR2" | "KILL")[] = [];
  private readonly jobLogs = new Set<string>();
  private onEnd: ((code: number | null) => void) | undefined;
  private ended = false;
  private engineJob: EngineJob | undefined;
  /** Why the engine ended without an exit code, when the service knows (the scheduler ended its job). */
  endReason: string | undefined;
  private jobGoneChecks = 0;
  /** A cancel was asked for: an engine job that ends without an exit code is then no surprise. */
  private cancelling = false;
  private signalsSent = 0;
  readonly remoteFiles: RemoteRunFiles;
  connection: RemoteConnection = { state: "connecting", since: new Date().toISOString(), attempts: 0, error: null, retry_at: null };

  constructor(
    private readonly clusters: RemoteClusters,
    public state: RunRemote & { workspace: string },
    private readonly runId: string,
    private readonly local: RunFiles,
    private readonly hooks: {
      log: (line: string) => void;
      onConnection: (connection: RemoteConnection) => void;
      /** Each piece of the remote engine's log as it arrives (the command line prints it). */
      onEngineLog?: (chunk: Buffer) => void;
      /** The persisted state changed after the launch (the engine's job went from queued to running). */
      onState?: (state: RunRemote & { workspace: string }) => void;
      /** A note for the run's own log (the service's words among the engine's). */
      note?: (line: string) => void;
    },
  ) {
    this.remoteFiles = remoteRunFiles(state.workspace, runId);
  }

  /** The cluster as registered now (a re-pinned key or a new credential takes effect at the next connection). */
  private async cluster(): Promise<ClusterRecord> {
    const record = await this.clusters.store.getCluster(this.state.cluster_id);
    if (!record) throw new RemoteStartError(`cluster '${this.state.cluster_id}' is no longer registered`);
    return record;
  }

  private setConnection(change: Partial<RemoteConnection> & Pick<RemoteConnection, "state">): void {
    const changed = change.state !== this.connection.state || change.error !== undefined;
    this.connection = { ...this.connection, since: change.state !== this.connection.state ? new Date().toISOString() : this.connection.since, ...change };
    if (changed) this.hooks.onConnection(this.connection);
  }

  /** Connects once (no retry): the launch's own connection, whose failure ends the run. */
  private async connectOnce(): Promise<void> {
    const client = await connectCluster(await this.cluster(), this.clusters.sealer, { timeoutMs: 20_000 });
    const files = await RemoteFiles.open(client).catch((error: unknown) => {
      client.end();
      throw error;
    });
    client.on("error", () => this.dropped("the connection failed"));
    client.on("close", () => this.dropped("the connection closed"));
    this.client = client;
    this.files = files;
    this.setConnection({ state: "connected", attempts: 0, error: null, retry_at: null });
    await this.flushSignals();
  }

  private dropped(reason: string): void {
    if (!this.client) return;
    this.client.removeAllListeners("close");
    this.client.end();
    this.client = undefined;
    this.files = undefined;
    if (this.closed) return;
    this.hooks.log(`run ${this.runId}: the connection to cluster '${this.state.cluster_id}' dropped (${reason}); reconnecting`);
    this.reconnect(reason);
  }

  /** Connects again with backoff until it works or the run is closed; the state is reported at each step. */
  private reconnect(reason: string): void {
    if (this.connecting || this.closed) return;
    const first = this.clusters.backoffMs ?? 1000;
    const most = this.clusters.maxBackoffMs ?? 60_000;
    this.connecting = (async () => {
      let attempts = 0;
      let error = reason;
      while (!this.closed) {
        const wait = Math.min(most, first * 2 ** Math.min(attempts, 16));
        const refused = error.startsWith("refused: ");
        this.setConnection({ state: refused ? "refused" : "reconnecting", attempts, error, retry_at: new Date(Date.now() + wait).toISOString() });
        await new Promise((resolve) => setTimeout(resolve, wait).unref());
        if (this.closed) return;
        try {
          await this.connectOnce();
          this.hooks.log(`run ${this.runId}: reconnected to cluster '${this.state.cluster_id}'`);
          return;
        } catch (caught) {
          attempts++;
          // A changed or unpinned host key is not a network problem: it waits for an administrator.
          error = caught instanceof SshRefusal && (caught.reason === "changed" || caught.reason === "unpinned") ? `refused: ${caught.message}` : describe(caught);
        }
      }
    })().finally(() => (this.connecting = undefined));
  }

  /**
   * Starts the run on the cluster: connects (a refused host key or credential ends the run here), finds the
   * engine and the scheduler, makes the run's folders, stages the workspace and the engine, writes the
   * target's profile and starts the engine detached. Returns the persisted state to record.
   */
  async launch(request: RunRequest, localWorkspaceSummary: (line: string) => void, options: LaunchOptions = {}): Promise<RunRemote & { workspace: string }> {
    try {
      await this.connectOnce();
    } catch (error) {
      // A key the host showed instead of the pinned one is recorded, so new runs are refused at once and an administrator sees it.
      if (error instanceof SshRefusal && error.seen && error.reason === "changed") await this.clusters.store.recordSeenHostKey(this.state.cluster_id, error.seen).catch(() => undefined);
      throw new RemoteStartError(`cannot connect to cluster '${this.state.cluster_id}': ${describe(error)}`);
    }
    const client = this.client!;
    const files = this.files!;
    const cluster = await this.cluster();
    const facts = probeFacts((await runRemote(client, probeScript(cluster.remote_dir), { timeoutMs: 60_000, maxBytes: 64 * 1024 })).stdout);
    const scheduler = cluster.scheduler === "auto" ? (facts.scheduler ?? "none") : cluster.scheduler;
    const version = engineVersion();
    let engine: string[];
    if (facts.strand_version === version) {
      engine = ["strand"];
    } else if (facts.node_version && nodeMajor(facts.node_version) >= 20) {
      const staged = stagedEnginePath(cluster.remote_dir, version);
      await this.stageEngine(files, staged);
      engine = ["node", staged];
    } else {
      throw new RemoteStartError(
        `cluster '${cluster.id}' has neither strand ${version} nor Node.js 20.19 or newer on the login node's PATH (found ${facts.strand_version ? `strand ${facts.strand_version}` : "no strand"}, ${facts.node_version ? `Node.js ${facts.node_version}` : "no Node.js"}); install Node.js there and the service stages its own engine`,
      );
    }
    const remote = this.remoteFiles;
    await files.mkdirs(remote.dir);
    const staged: SyncSummary = await stageWorkspace(client, files, this.local.workspace, remote.workspace);
    localWorkspaceSummary(`strand service: staged ${staged.copied} file${staged.copied === 1 ? "" : "s"} (${formatBytes(staged.bytes)}) to ${cluster.id}:${remote.workspace}, ${staged.unchanged} unchanged${staged.skipped.length > 0 ? `, ${staged.skipped.length} not readable` : ""}`);
    // The run's own pipeline text, whatever the workspace's copy says (as a local run does).
    const target = scheduler === "none" ? { ...request.target, type: "local" } : { ...request.target, type: scheduler };
    const remoteRun = { workspace: remote.workspace, workspacePipeline: options.pipeline === undefined ? remote.pipeline : posix.join(remote.workspace, options.pipeline), pipeline: posix.join(remote.dir, "workflow.oxoflow"), dir: remote.dir, events: remote.events, engineLog: remote.engineLog, metrics: posix.join(remote.dir, "metrics.jsonl"), request: posix.join(remote.dir, "request.json"), dryRunPlan: posix.join(remote.dir, "dry-run.json") };
    const invocation = engineInvocation(this.runId, remoteRun, { ...request, target }, "public");
    invocation.args.push(...(options.extraArgs ?? []));
    if (invocation.profile) {
      await files.mkdirs(posix.dirname(invocation.profile.path));
      await files.write(invocation.profile.path, invocation.profile.text);
    }
    const env = { ...invocation.env, STRAND_REMOTE_SOURCES: "public", NO_COLOR: "1", FORCE_COLOR: "0" };
    // A dry run only plans: it runs on the login node wherever the cluster places engines.
    if (cluster.engine_placement === "job" && !request.dry_run) return this.submitEngine(cluster, scheduler, [...engine, ...invocation.args], env, localWorkspaceSummary);
    await files.write(remote.wrapper, WRAPPER_SCRIPT, 0o700);
    await files.remove(remote.wrapperPid);
    const started = await runRemote(client, startCommand(remote, [...engine, ...invocation.args], env, request.dry_run ? remoteRun.dryRunPlan : undefined), { timeoutMs: 60_000 }).catch((error: unknown) => ({ code: null, stdout: "", stderr: describe(error) }));
    let pid = Number(started.stdout.trim().split("\n").pop());
    // The answer can be lost with the connection while the engine did start: its wrapper wrote its pid.
    if (!(Number.isSafeInteger(pid) && pid > 1)) pid = await this.startedWrapper();
    if (!(Number.isSafeInteger(pid) && pid > 1)) {
      throw new RemoteStartError(`the engine did not start on cluster '${cluster.id}'${started.code === null ? "" : ` (exit ${started.code})`}: ${(started.stderr || started.stdout).trim().slice(0, 500) || "the login node gave no answer"}`);
    }
    localWorkspaceSummary(`strand service: the engine runs on ${cluster.id} (${facts.hostname ?? cluster.ssh_host}) as process ${pid}, jobs ${scheduler === "none" ? "on the login node" : `submitted to ${scheduler}`}`);
    this.state = { ...this.state, pid, scheduler, phase: "running" };
    return this.state;
  }

  /**
   * Submits the engine as a job of the cluster's scheduler (engine_placement = "job"): the job wrapper in the
   * workspace, the script on stdin with the login node's PATH, the cluster's extra submit options.
   */
  private async submitEngine(cluster: ClusterRecord, scheduler: string, command: string[], env: Record<string, string>, summary: (line: string) => void): Promise<RunRemote & { workspace: string }> {
    if (scheduler === "none") {
      throw new RemoteStartError(`cluster '${cluster.id}' runs engines as scheduler jobs, but no scheduler answers on its login node (sbatch, qsub or bsub on the PATH); set its scheduler, or engine_placement "login_node"`);
    }
    const remote = this.remoteFiles;
    const job = this.jobAt(scheduler);
    await this.files!.write(remote.wrapper, JOB_WRAPPER_SCRIPT, 0o700);
    await this.files!.mkdirs(remote.signals);
    const path = (await runRemote(this.client!, PATH_COMMAND, { timeoutMs: 30_000 })).stdout;
    let id: string | undefined;
    try {
      id = await job.submit(this.client!, job.script(path, command, env), cluster.engine_job_options);
    } catch (error) {
      if (error instanceof EngineJobError) throw new RemoteStartError(`cluster '${cluster.id}': ${error.message}`);
      // The answer may have been lost with the connection after the job was submitted: it was kept there.
      id = await this.submittedJob();
      if (id === undefined) throw new RemoteStartError(`the engine's job could not be submitted on cluster '${cluster.id}': ${describe(error)}`);
    }
    summary(`strand service: the engine was submitted to ${scheduler} on ${cluster.id} as job ${id} (${job.name}); it submits the run's jobs to ${scheduler}`);
    this.state = { ...this.state, pid: null, scheduler, phase: "running", engine_job: { id, state: "queued" } };
    return this.state;
  }

  /** The engine's job at `scheduler`, made once. */
  private jobAt(scheduler: string): EngineJob {
    this.engineJob ??= new EngineJob(scheduler, this.runId, this.remoteFiles, remoteSchedulerCommands(() => this.client));
    return this.engineJob;
  }

  /**
   * Cancels the scheduler jobs of this run an engine that did not end by itself (killed, or ended by the
   * scheduler) left behind, from its submission records in the remote workspace: nothing of the run goes on
   * running. Best effort: what fails is logged.
   */
  private async cancelLeftoverJobs(): Promise<void> {
    const scheduler = this.state.scheduler;
    if (!scheduler || scheduler === "none" || !this.files) return;
    try {
      const ids = await recordedJobIds(this.files, this.remoteFiles.workspace, this.runId);
      if (ids.length === 0) return;
      await this.jobAt(scheduler).cancel(...ids);
      this.hooks.note?.(`strand service: cancelled the run's ${ids.length} job${ids.length === 1 ? "" : "s"} at ${scheduler} that the engine left behind: ${ids.join(", ")}`);
    } catch (error) {
      this.hooks.log(`run ${this.runId}: cancelling the jobs the engine left on cluster '${this.state.cluster_id}': ${describe(error)}`);
    }
  }

  /** The job id in the submit answer kept in the run's folder, read within a few seconds; undefined when none. */
  private async submittedJob(): Promise<string | undefined> {
    for (let attempt = 0; attempt < 10 && !this.closed; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      try {
        if (!this.files) await this.connectOnce();
        const seen = await this.files!.lstat(this.remoteFiles.engineJobSubmit);
        if (seen?.kind === "file") return this.engineJob?.recoverId((await this.files!.read(this.remoteFiles.engineJobSubmit, 0, 4096)).toString("utf8"));
      } catch {
        // try again
      }
    }
    return undefined;
  }

  /** The pid the wrapper wrote, read within a few seconds (over a new connection when the old one died); NaN when none. */
  private async startedWrapper(): Promise<number> {
    for (let attempt = 0; attempt < 10 && !this.closed; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      try {
        if (!this.files) await this.connectOnce();
        const seen = await this.files!.lstat(this.remoteFiles.wrapperPid);
        if (seen?.kind === "file") return Number((await this.files!.read(this.remoteFiles.wrapperPid, 0, 32)).toString("utf8").trim());
      } catch {
        // try again
      }
    }
    return Number.NaN;
  }

  /** Puts the bundled engine on the cluster unless the same file is there already. */
  private async stageEngine(files: RemoteFiles, path: string): Promise<void> {
    const bundle = this.clusters.engineBundle ?? DEFAULT_BUNDLE;
    const { openSync, fstatSync } = await import("node:fs");
    let fd: number;
    try {
      fd = openSync(bundle, "r");
    } catch {
      throw new RemoteStartError(`the service has no bundled engine to stage (${bundle} is missing): run npm run build`);
    }
    try {
      const there = await files.lstat(path);
      if (there?.kind === "file" && there.size === fstatSync(fd).size) return;
      await files.mkdirs(posix.dirname(path));
      await files.upload(fd, path, 0o755);
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Follows the remote logs until the engine has ended, then calls `onEnd` once with its exit code (null
   * when it ended without one: killed). Connection drops on the way are retried, not fatal.
   */
  follow(onEnd: (code: number | null) => void): void {
    this.onEnd = onEnd;
    this.loadOffsets();
    if (!this.client) this.reconnect("starting to follow");
    const tick = () => {
      if (this.closed || this.ended) return;
      void this.poll().finally(() => {
        if (!this.closed && !this.ended) this.timer = setTimeout(tick, this.clusters.pollMs ?? 1000);
      });
    };
    tick();
  }

  private async poll(): Promise<void> {
    if (this.polling || !this.client || !this.files) return;
    this.polling = true;
    try {
      await this.mirror();
      await this.pullJobLogs();
      const exit = await this.files.lstat(this.remoteFiles.exitCode);
      if (exit?.kind === "file") {
        await this.mirror(true);
        const text = (await this.files.read(this.remoteFiles.exitCode, 0, 64)).toString("utf8").trim();
        return this.end(/^\d+$/.test(text) ? Number(text) : null);
      }
      if (++this.polls % ALIVE_EVERY_POLLS === 0 && this.state.engine_job) {
        await this.checkEngineJob(this.state.engine_job.id);
      } else if (this.polls % ALIVE_EVERY_POLLS === 0 && this.state.pid !== null) {
        const alive = await runRemote(this.client, aliveCommand(this.state.pid, this.remoteFiles.dir), { timeoutMs: 30_000 });
        if (alive.stdout.trim() === "gone") {
          // Ended between the two looks: the exit code may have just been written.
          const late = await this.files.lstat(this.remoteFiles.exitCode);
          await this.mirror(true);
          if (late?.kind === "file") return;
          this.hooks.log(`run ${this.runId}: the engine on cluster '${this.state.cluster_id}' is gone without an exit code`);
          await this.cancelLeftoverJobs();
          return this.end(null);
        }
      }
    } catch (error) {
      // A read that failed because the link went down is retried by the reconnect; anything else is logged.
      if (this.client) this.hooks.log(`run ${this.runId}: following the remote engine: ${describe(error)}`);
    } finally {
      this.polling = false;
    }
  }

  /**
   * Asks the scheduler about the engine's job: a change between queued and running is recorded; a job that
   * ended without leaving an exit code (after JOB_GONE_CHECKS looks) ends the run, with the job's own output
   * — where the scheduler says why it ended it — in the run's log.
   */
  private async checkEngineJob(id: string): Promise<void> {
    const job = this.jobAt(this.state.scheduler ?? "none");
    const { state, native } = await job.state(id);
    if (state !== "ended") {
      this.jobGoneChecks = 0;
      if (this.state.engine_job?.state !== state) {
        this.state = { ...this.state, engine_job: { id, state } };
        this.hooks.onState?.(this.state);
      }
      return;
    }
    if (++this.jobGoneChecks < JOB_GONE_CHECKS) return;
    const late = await this.files!.lstat(this.remoteFiles.exitCode);
    await this.mirror(true);
    if (late?.kind === "file") return;
    this.state = { ...this.state, engine_job: { id, state: "ended" } };
    this.hooks.onState?.(this.state);
    if (this.cancelling) {
      this.hooks.note?.(`strand service: the engine's job ${id} ended at the scheduler (${native}) after the cancel`);
      await this.cancelLeftoverJobs();
      return this.end(null);
    }
    const output = await this.files!.lstat(this.remoteFiles.engineJobOutput);
    const tail = output?.kind === "file" && output.size > 0 ? (await this.files!.read(this.remoteFiles.engineJobOutput, Math.max(0, output.size - JOB_OUTPUT_TAIL_BYTES), JOB_OUTPUT_TAIL_BYTES)).toString("utf8").trim() : "";
    this.hooks.note?.(`strand service: the engine's job ${id} ended at the scheduler (${native}) without an exit code: the scheduler ended it (a time or memory limit, a cancel, a node failure)${tail ? `; its output ends with:\n${tail}` : ""}`);
    this.hooks.log(`run ${this.runId}: the engine's job ${id} on cluster '${this.state.cluster_id}' ended (${native}) without an exit code`);
    this.endReason = `the scheduler ended the engine's job ${id} (${native}); give it more time or memory in the cluster's engine_job_options, then retry the run`;
    await this.cancelLeftoverJobs();
    return this.end(null);
  }

  private end(code: number | null): void {
    if (this.ended) return;
    this.ended = true;
    if (this.timer) clearTimeout(this.timer);
    this.onEnd?.(code);
  }

  /** Appends what the remote logs gained to the local mirror (`all`: until their end). */
  private async mirror(all = false): Promise<void> {
    for (let round = 0; round < (all ? 1000 : 1); round++) {
      const gained = (await this.mirrorEvents()) + (await this.mirrorLog());
      if (gained === 0) break;
    }
  }

  private async mirrorEvents(): Promise<number> {
    const files = this.files!;
    const seen = await files.lstat(this.remoteFiles.events);
    if (seen?.kind !== "file" || seen.size <= this.offsets.events) return 0;
    const chunk = await files.read(this.remoteFiles.events, this.offsets.events, Math.min(READ_CHUNK_BYTES, seen.size - this.offsets.events));
    if (chunk.length === 0) return 0;
    this.offsets.events += chunk.length;
    const text = this.partial + chunk.toString("utf8");
    const end = text.lastIndexOf("\n");
    // A line longer than any event (a job wrote into the log) is dropped, as the local follower drops it.
    this.partial = text.length - end - 1 > EVENT_LINE_MAX_BYTES ? "" : text.slice(end + 1);
    const lines: string[] = [];
    for (const line of text.slice(0, end + 1).split("\n")) {
      if (line === "") continue;
      const event = parseEventLine(line);
      if (event && typeof event.seq === "number") {
        if (event.seq <= this.offsets.seq) continue;
        this.offsets.seq = event.seq;
      }
      if (event && (event.type === "job_completed" || event.type === "job_failed")) {
        for (const key of ["stdout", "stderr"]) if (typeof event[key] === "string") this.jobLogs.add(event[key]);
      }
      // What is not an event (a line a job broke) is not mirrored: the follower would skip it anyway.
      if (event) lines.push(JSON.stringify(this.localised(event)));
    }
    if (lines.length > 0) this.append(this.local.events, `${lines.join("\n")}\n`);
    this.saveOffsets();
    return chunk.length;
  }

  private async mirrorLog(): Promise<number> {
    const files = this.files!;
    const seen = await files.lstat(this.remoteFiles.engineLog);
    if (seen?.kind !== "file" || seen.size <= this.offsets.log) return 0;
    const chunk = await files.read(this.remoteFiles.engineLog, this.offsets.log, Math.min(READ_CHUNK_BYTES, seen.size - this.offsets.log));
    this.offsets.log += chunk.length;
    this.append(this.local.engineLog, chunk);
    this.hooks.onEngineLog?.(chunk);
    this.saveOffsets();
    return chunk.length;
  }

  /** An event with the remote workspace's paths made the local workspace's. */
  private localised(value: unknown): unknown {
    const remote = this.remoteFiles.workspace;
    if (typeof value === "string") return value === remote || value.startsWith(`${remote}/`) ? join(this.local.workspace, value.slice(remote.length)) : value;
    if (Array.isArray(value)) return value.map((item) => this.localised(item));
    if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, this.localised(item)]));
    return value;
  }

  /** Brings back the logs of jobs that ended (the views read them locally). */
  private async pullJobLogs(): Promise<void> {
    const remote = this.remoteFiles.workspace;
    for (const path of [...this.jobLogs].slice(0, 50)) {
      this.jobLogs.delete(path);
      if (!path.startsWith(`${this.remoteFiles.dir}/`)) continue; // only this run's own folder
      const target = join(this.local.workspace, path.slice(remote.length));
      try {
        assertLinkFree(this.local.workspace, target);
        const { mkdirSync } = await import("node:fs");
        mkdirSync(join(target, ".."), { recursive: true });
        const fd = openLinkFree(this.local.workspace, target, "truncate");
        try {
          await this.files!.download(path, fd, JOB_LOG_MAX_BYTES);
        } finally {
          closeSync(fd);
        }
      } catch {
        // A missing log (the job wrote none) or a local path a job made a link: the log is not shown.
      }
    }
  }

  private append(path: string, content: string | Buffer): void {
    if (!appendLinkFree(this.local.workspace, path, content)) this.hooks.log(`run ${this.runId}: the local mirror of the remote log cannot be written (${path})`);
  }

  private get offsetsFile(): string {
    return join(this.local.dir, "remote-mirror.json");
  }

  private loadOffsets(): void {
    const read = readWorkspaceJson(this.local.workspace, this.offsetsFile, 4096) as Partial<MirrorOffsets> | undefined;
    const count = (value: unknown) => (typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : 0);
    if (read && typeof read === "object") this.offsets = { events: count(read.events), log: count(read.log), seq: count(read.seq) };
  }

  private saveOffsets(): void {
    try {
      writeLinkFree(this.local.workspace, this.offsetsFile, JSON.stringify(this.offsets));
    } catch {
      // Without it a restart reads the remote log again from where the file last said (events are never appended twice).
    }
  }

  /** Sends a signal to the remote engine now, or once the connection is back. */
  signal(signal: "TERM" | "USR1" | "USR2" | "KILL"): void {
    if (signal === "TERM" || signal === "KILL") this.cancelling = true;
    this.pendingSignals.push(signal);
    void this.flushSignals();
  }

  private async flushSignals(): Promise<void> {
    while (this.client && this.pendingSignals.length > 0 && remoteEngineStarted(this.state)) {
      const signal = this.pendingSignals[0]!;
      try {
        const job = this.state.engine_job;
        if (job) await this.signalEngineJob(job, signal);
        else await runRemote(this.client, signal === "KILL" ? killGroupCommand(this.state.pid!) : signalCommand(this.state.pid!, signal), { timeoutMs: 30_000 });
        this.pendingSignals.shift();
        // A killed engine cancels nothing: its jobs are cancelled here.
        if (signal === "KILL") await this.cancelLeftoverJobs();
      } catch {
        return; // sent again after the reconnect
      }
    }
  }

  /**
   * Signals an engine that runs as a job: a job still queued is cancelled at the scheduler (nothing of the
   * run has started), a KILL cancels it too (the scheduler ends its processes); other signals are left as
   * files for the job's wrapper, which passes them on.
   */
  private async signalEngineJob(job: RemoteEngineJob, signal: "TERM" | "USR1" | "USR2" | "KILL"): Promise<void> {
    if (signal === "KILL" || (signal === "TERM" && job.state === "queued")) {
      await this.jobAt(this.state.scheduler ?? "none").cancel(job.id);
      return;
    }
    const name = `${String(Date.now()).padStart(15, "0")}-${String(++this.signalsSent).padStart(6, "0")}.signal`;
    await this.files!.mkdirs(this.remoteFiles.signals);
    await this.files!.write(posix.join(this.remoteFiles.signals, name), `${signal}\n`, 0o600);
  }

  /** Brings the results back (or, with results left on the cluster, the run's logs only). */
  async collect(): Promise<SyncSummary | undefined> {
    for (let attempt = 0; attempt < 30 && !this.closed; attempt++) {
      if (this.client && this.files) {
        try {
          return await pullWorkspace(this.client, this.files, this.remoteFiles.workspace, this.local.workspace, this.runId, { logsOnly: this.state.results === "remote" });
        } catch (error) {
          this.hooks.log(`run ${this.runId}: bringing results back from cluster '${this.state.cluster_id}': ${describe(error)}`);
          // With the link still up the failure is not the network's: trying again would fail again.
          if (this.client) return undefined;
        }
      } else {
        this.reconnect("collecting the results");
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(10_000, (this.clusters.backoffMs ?? 1000) * 2 ** attempt)).unref());
    }
    return undefined;
  }

  /** Stops following and closes the connection (the remote engine keeps running). */
  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    this.files = undefined;
    client?.removeAllListeners("close");
    client?.end();
    this.setConnection({ state: "closed", retry_at: null });
  }
}

function nodeMajor(version: string): number {
  return Number(/^v?(\d+)/.exec(version)?.[1] ?? 0);
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Appends a line to the local engine log (the service's own notes among the remote engine's; best effort). */
export function noteInEngineLog(local: RunFiles, line: string): void {
  appendLinkFree(local.workspace, local.engineLog, `${line}\n`);
}
