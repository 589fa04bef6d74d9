/**
 * Runs, free of HTTP: create (check the pipeline, make the run's workspace, record it, hand it to the
 * supervisor), list and read, and the control operations with the state rules of docs/guide/service-api.md
 * (queued→running|cancelled; running→paused|completed|failed|cancelled; paused→running|cancelled).
 * Runs of one saved pipeline by one owner share a workspace, so the engine's checkpoint decides what runs
 * again (see `run-workspaces.ts`); pipeline text and `fresh` runs get a workspace of their own; a retry
 * reuses its parent's. One run at a time works in a workspace: another is refused with 409 `CONFLICT`.
 * Each run keeps its own files in `.strand/runs/<id>`, its pipeline text included.
 */
import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { lockHolderAlive, type LockOwner } from "../../../engine/run/file-lock.js";
import { findExecutable } from "../../../engine/run/environments/environment-wrap.js";
import type { Caller } from "../../caller.js";
import type { PathPrivacy } from "../../path-privacy.js";
import { ServiceError } from "../../errors.js";
import type { EventBus } from "../../events/event-bus.js";
import { PIPELINE_TEXT_MAX_BYTES, ranPipelinePath, runFiles, runRequestOf, type RunRequest } from "../../runner/engine-command.js";
import { dockerImageProblem, singularityImageProblem } from "../../../engine/format/image-reference.js";
import { CONTAINER_RUNTIMES, containerEnvironmentKind, isContainerRuntime, submitProgramOf } from "../../runner/run-targets.js";
import { assertLinkFree, LinkInWorkspaceError, writeLinkFree } from "../../runner/link-guard.js";
import type { RunSupervisor } from "../../runner/supervisor.js";
import type { RemoteConnection } from "../../runner/remote/remote-engine.js";
import { readWorkspaceFile, readWorkspaceJson } from "../../runner/workspace-reader.js";
import { isStoreError } from "../../store/store-error.js";
import type { RemoteEngineJob, Run, RunReads, RunRemote, RunStatus, RunStore, RunTarget } from "../../store/runs/contract.js";
import type { ClusterRecord } from "../../store/clusters/contract.js";
import { allowedRunActions, isTerminalRunStatus, RUN_ACTION_FROM, runActionAllowed, type RunAction } from "../../store/runs/run-states.js";
import type { PipelineReads, PipelineStore } from "../../store/pipelines/contract.js";
import { readable } from "../pipelines/service.js";
import { validateForRun, type ApiFinding } from "../workflow/service.js";
import { tailLines } from "./log-pages.js";
import { ownWorkspace, pipelineWorkspace, remoteWorkspace } from "./run-workspaces.js";
import type { ClusterRegistry } from "../remote-clusters/service.js";

/** A user's folder under the data directory (their run workspaces; the data domain keeps uploads in it too). */
export { userFolder } from "./run-workspaces.js";
import type { UserRunLimits } from "./user-limits.js";

/** What the run operations need. */
export interface ExecutionContext {
  store: RunStore & PipelineStore;
  events: EventBus;
  supervisor: RunSupervisor;
  /** Run workspaces are made under `<dataDir>/users/<owner>/` (see `run-workspaces.ts`). */
  dataDir: string;
  /** Per-user limits on active runs and their threads (none when absent). */
  limits?: UserRunLimits;
  /** How server paths are hidden from callers who are not administrators (default: the data folder's rule). */
  privacy?: PathPrivacy;
  /** The remote clusters runs may go to (`cluster_id`); none: such runs are refused. */
  clusters?: Pick<ClusterRegistry, "forRun">;
}

/** The body of POST /api/runs (after schema validation): the pipeline, and how to run it. */
export type CreateRunInput = Omit<RunRequest, "target" | "retry_failed"> & {
  toml_content?: string;
  pipeline_id?: string;
  target?: RunTarget;
  /** A saved pipeline's run in an empty workspace of its own instead of the pipeline's shared one. */
  fresh?: boolean;
  /** Run on this registered remote cluster (the predecessor's field; null or "" means here). */
  cluster_id?: string | null;
};

/**
 * What the read-only run views need: the reads of runs and pipelines and a run's live progress, never a
 * write or a signal (the AI's capabilities are built on this).
 */
export type ExecutionReadContext = Omit<ExecutionContext, "store" | "supervisor" | "events" | "limits"> & {
  store: RunReads & PipelineReads;
  supervisor: Pick<RunSupervisor, "progress" | "remoteConnection">;
};

/** A remote run's place as the API shows it: the remote process id stays inside; the connection is live. */
export type RunRemoteView = Omit<RunRemote, "pid" | "engine_job"> & { engine_job: RemoteEngineJob | null; connection: RemoteConnection | null };

/** A run as the API shows it: the runner's pid and file paths stay inside; the workspace is shown. */
export type RunView = Omit<Run, "pid" | "events_path" | "request" | "remote"> & { dry_run: boolean; actions: RunAction[]; remote: RunRemoteView | null };

/** The API view of a run; a run this process supervises shows its live counts. */
export function runView(context: Pick<ExecutionReadContext, "supervisor">, run: Run): RunView {
  const live = context.supervisor.progress(run.id);
  const { pid: _pid, events_path: _events, request: _request, remote, ...shown } = run;
  const dryRun = isDryRun(run);
  let remoteView: RunRemoteView | null = null;
  if (remote) {
    const { pid: _remotePid, ...place } = remote;
    remoteView = { ...place, engine_job: place.engine_job ?? null, connection: context.supervisor.remoteConnection(run.id) ?? null };
  }
  return { ...shown, counts: live && !isTerminalRunStatus(run.status) ? live.counts() : run.counts, dry_run: dryRun, actions: allowedRunActions({ status: run.status, dry_run: dryRun }), remote: remoteView };
}

const dryRuns = new Map<string, boolean>();

/** Whether a run is a dry run (from its options, read once per run: they never change). */
function isDryRun(run: Run): boolean {
  let known = dryRuns.get(run.id);
  if (known === undefined) {
    known = runRequestOf(run)?.dry_run === true;
    if (dryRuns.size >= 10_000) dryRuns.clear();
    dryRuns.set(run.id, known);
  }
  return known;
}

/** The run with this id if the caller may read it (others' runs are 404, not 403: no existence oracle). */
export async function readableRun(context: Pick<ExecutionReadContext, "store">, caller: Caller, id: string): Promise<Run> {
  let run: Run;
  try {
    run = await context.store.getRun(id);
  } catch (error) {
    if (isStoreError(error, "NOT_FOUND")) throw new ServiceError("NOT_FOUND", `no run ${id}`, { suggestion: "GET /api/runs lists the runs you can see" });
    throw error;
  }
  if (!caller.admin && run.owner !== caller.id) throw new ServiceError("NOT_FOUND", `no run ${id}`, { suggestion: "GET /api/runs lists the runs you can see" });
  return run;
}

/** Checks the pipeline, makes the run's workspace, records the run (queued) and starts its engine. */
export async function createRun(context: ExecutionContext, caller: Caller, input: CreateRunInput): Promise<RunView> {
  let text: string;
  let pipelineId: string | null = null;
  let revision: number | null = null;
  if (input.pipeline_id !== undefined) {
    const pipeline = await readable(context.store, caller, input.pipeline_id);
    text = pipeline.toml_content;
    pipelineId = pipeline.id;
    revision = pipeline.revision;
  } else {
    text = input.toml_content!;
  }
  // A cluster is checked before anything is written: an unknown, disabled or unpinned one leaves no run behind.
  const cluster = input.cluster_id ? await usableCluster(context, caller, input.cluster_id) : undefined;
  const target = cluster ? clusterTarget(cluster, input.target) : checkTarget(input.target ?? { type: "local" }, context.supervisor.engineEnvironment());
  const workflowName = await checkPipeline(text, input);
  const id = randomUUID();
  const shared = pipelineId !== null && input.fresh !== true;
  const workspace = shared ? pipelineWorkspace(context.dataDir, caller.id, pipelineId!) : ownWorkspace(context.dataDir, caller.id, id);
  const remote: RunRemote | null = cluster ? { cluster_id: cluster.id, workspace: remoteWorkspace(cluster.remote_dir, context.dataDir, workspace), pid: null, scheduler: null, results: cluster.results, phase: "staging" } : null;
  const request: RunRequest = {
    target,
    jobs: input.jobs,
    keep_going: input.keep_going,
    dry_run: input.dry_run,
    samples: input.samples,
    targets: input.targets,
    config: input.config,
  };
  if (shared) await claimSharedWorkspace(context, workspace, id);
  try {
    const files = runFiles(workspace, id);
    refuseLinks(workspace, [files.dir]);
    mkdirSync(files.dir, { recursive: true });
    writeLinkFree(workspace, files.pipeline, text);
    return await queueRun(context, request, { id, pipeline_id: pipelineId, pipeline_revision: revision, workflow_name: workflowName, owner: caller.id, target, workspace, retry_of: null, remote });
  } finally {
    // Once queued the run holds the workspace itself; if it was not created, the claim must not outlive it.
    context.supervisor.releaseWorkspace(workspace, id);
  }
}

/**
 * Claims a saved pipeline's shared workspace for a new run, or refuses with 409 `CONFLICT` naming the run
 * working there: runs of one pipeline are serialised, as the engine's workdir lock would serialise them
 * (that lock is checked too, for an engine this service does not supervise). A run just cancelled is
 * still stopping its jobs: a new run right after the cancel waits for that, as a retry does.
 */
async function claimSharedWorkspace(context: ExecutionContext, workspace: string, runId: string): Promise<void> {
  let busy = context.supervisor.busyWorkspace(workspace);
  if (busy?.status === "cancelled") {
    await Promise.race([context.supervisor.whenFinished(busy.id), new Promise((resolve) => setTimeout(resolve, 30_000).unref())]);
  }
  busy = context.supervisor.claimWorkspace(workspace, runId);
  const suggestion = (id: string) => `wait for run ${id} to end (GET /api/runs/${id}), cancel it (POST /api/runs/${id}/cancel), or start this one in an empty workspace with "fresh": true`;
  if (busy) {
    throw new ServiceError("CONFLICT", `run ${busy.id} of this pipeline is ${busy.status} in its workspace; runs of one pipeline take turns`, { suggestion: suggestion(busy.id), fields: { running_run: busy.id } });
  }
  // Jobs write in the workspace: the lock is read through the confined reader (no link, no FIFO, bounded).
  const holder = lockOwnerOf(readWorkspaceJson(workspace, ".strand/lock", 4096));
  if (holder && lockHolderAlive(holder)) {
    context.supervisor.releaseWorkspace(workspace, runId);
    throw new ServiceError("CONFLICT", `this pipeline's workspace is locked by another strand process (pid ${holder.pid} on ${holder.host}, ${holder.purpose})`, {
      suggestion: `wait for it to end, or start this run in an empty workspace with "fresh": true`,
    });
  }
}

/** A lock file's owner, when what was read has the owner's shape. */
function lockOwnerOf(read: unknown): LockOwner | undefined {
  const owner = read as Partial<LockOwner> | undefined;
  return owner && typeof owner === "object" && typeof owner.pid === "number" && typeof owner.host === "string" ? (owner as LockOwner) : undefined;
}

/** Queues a run within its owner's limits on runs and threads (429 USER_LIMIT beyond them). */
async function queueRun(context: ExecutionContext, request: RunRequest, fields: Pick<Run, "id" | "pipeline_id" | "pipeline_revision" | "workflow_name" | "owner" | "target" | "retry_of" | "remote"> & { workspace: string }): Promise<RunView> {
  if (!context.limits) return recordRun(context, request, fields);
  return context.limits.admit(fields.owner, fields.id, request, () => recordRun(context, request, fields));
}

/** Records the run (queued) with its options, announces it and hands it to the supervisor. */
async function recordRun(context: ExecutionContext, request: RunRequest, fields: Pick<Run, "id" | "pipeline_id" | "pipeline_revision" | "workflow_name" | "owner" | "target" | "retry_of" | "remote"> & { workspace: string }): Promise<RunView> {
  const files = runFiles(fields.workspace, fields.id);
  mkdirSync(files.dir, { recursive: true });
  // The options live with the run, not in a file of the workspace its jobs could rewrite; the target is the run's own.
  const { target: _target, ...options } = request;
  const run = await context.store.createRun({ ...fields, status: "queued", events_path: files.events, request: options });
  context.events.publish("run_queued", { run_id: run.id, workflow_name: run.workflow_name, pipeline_id: run.pipeline_id, retry_of: run.retry_of, created_at: run.created_at }, run.owner);
  context.supervisor.launch(run, request);
  return runView(context, run);
}

/** Retry: a new run in the parent's workspace that re-executes failed jobs and what depends on them. */
export async function retryRun(context: ExecutionContext, caller: Caller, id: string): Promise<RunView> {
  const parent = await readableRun(context, caller, id);
  if (!runActionAllowed("retry", parent.status)) {
    const suggestion = parent.status === "completed" ? "nothing failed: start a new run with POST /api/runs to run it again" : `wait for it to end, or cancel it (POST /api/runs/${id}/cancel), then retry`;
    throw new ServiceError("RETRY_ERROR", `run ${id} is ${parent.status}; only a failed or cancelled run can be retried`, { suggestion });
  }
  const workspace = parent.workspace;
  const parentRequest = runRequestOf(parent);
  const parentPipeline = workspace ? ranPipelinePath(runFiles(workspace, parent.id)) : undefined;
  // The text the parent ran, read as any file a job could have written (a link or a FIFO there reads as gone).
  const parentText = workspace && parentPipeline ? readWorkspaceFile(workspace, parentPipeline, PIPELINE_TEXT_MAX_BYTES) : undefined;
  if (!workspace || !parentText || !parentRequest) {
    throw new ServiceError("RETRY_ERROR", `run ${id}'s workspace is gone, so there is no checkpoint to retry from`, { suggestion: "start a new run with POST /api/runs" });
  }
  if (parentRequest.dry_run) throw new ServiceError("RETRY_ERROR", `run ${id} was a dry run; nothing ran, so nothing can be retried`, { suggestion: "start a run without dry_run" });
  let busy = context.supervisor.busyWorkspace(workspace);
  // A run just cancelled is still stopping its jobs: a retry right after the cancel waits for that.
  if (busy?.status === "cancelled") {
    await Promise.race([context.supervisor.whenFinished(busy.id), new Promise((resolve) => setTimeout(resolve, 30_000).unref())]);
  }
  const retryId = randomUUID();
  busy = context.supervisor.claimWorkspace(workspace, retryId);
  if (busy) throw new ServiceError("RETRY_ERROR", `run ${busy.id} is already working in this workspace (${busy.status})`, { suggestion: `wait for run ${busy.id} to end, or cancel it` });
  // After a failure only the failed jobs and what depends on them run again; after a cancel, whatever did
  // not complete (the checkpoint skips what did) — the cancelled jobs did not fail, so a failed-only retry
  // would find nothing to do.
  const request: RunRequest = { ...parentRequest, retry_failed: parent.status === "failed", dry_run: false };
  const { pipeline_id, pipeline_revision, workflow_name, target } = parent;
  // A retry goes where its parent ran: the same cluster (checked again now) and the same remote workspace, whose checkpoint it needs.
  let remote: RunRemote | null = null;
  if (parent.remote) {
    const cluster = await usableCluster(context, { ...caller, id: parent.owner }, parent.remote.cluster_id).catch((error: unknown) => {
      context.supervisor.releaseWorkspace(workspace, retryId);
      throw error;
    });
    remote = { cluster_id: cluster.id, workspace: parent.remote.workspace, pid: null, scheduler: null, results: cluster.results, phase: "staging" };
  }
  try {
    // The retry runs its parent's text, even when a later run of the pipeline has run another in the workspace.
    const files = runFiles(workspace, retryId);
    refuseLinks(workspace, [files.dir]);
    mkdirSync(files.dir, { recursive: true });
    writeLinkFree(workspace, files.pipeline, parentText);
    // The retry is its parent owner's run (it works in their workspace), also when an administrator asks for it.
    return await queueRun(context, request, { id: retryId, pipeline_id, pipeline_revision, workflow_name, owner: parent.owner, target, workspace, retry_of: parent.id, remote });
  } finally {
    context.supervisor.releaseWorkspace(workspace, retryId);
  }
}

/**
 * Refuses a run whose workspace has a symbolic link (left by a job of an earlier run) where the service is
 * about to write or copy: followed, it could make the service write or read outside the workspace.
 */
function refuseLinks(workspace: string, paths: string[]): void {
  try {
    for (const path of paths) assertLinkFree(workspace, path);
  } catch (error) {
    if (!(error instanceof LinkInWorkspaceError)) throw error;
    throw new ServiceError("RUN_ERROR", error.message, { suggestion: 'remove the link from the workspace, or start the run in an empty workspace with "fresh": true' });
  }
}

/** Cancel: a queued, running or paused run becomes cancelled (again: answered with the run as it is). */
export async function cancelRun(context: ExecutionContext, caller: Caller, id: string): Promise<RunView> {
  const run = await readableRun(context, caller, id);
  if (run.status === "cancelled") return runView(context, run);
  if (!runActionAllowed("cancel", run.status)) {
    throw new ServiceError("RUN_ERROR", `run ${id} is ${run.status}; only a queued, running or paused run can be cancelled`, { suggestion: run.status === "failed" ? `POST /api/runs/${id}/retry re-runs what failed` : undefined });
  }
  const now = new Date().toISOString();
  // The row is written first, so the engine's own end cannot overwrite the user's decision.
  const patch = run.status === "queued" ? { status: "cancelled" as const, finished_at: now, error: "cancelled before it started" } : { status: "cancelled" as const, error: "cancelled by request" };
  const cancelled = await transition(context, run, RUN_ACTION_FROM.cancel, patch);
  context.supervisor.noteStatus(id, "cancelled");
  context.supervisor.cancel(id);
  context.events.publish("run_cancelled", { run_id: id, status: "cancelled", cancelled_at: now }, run.owner);
  return runView(context, cancelled);
}

/** Pause: a running run stops starting jobs and suspends its running local jobs. */
export async function pauseRun(context: ExecutionContext, caller: Caller, id: string): Promise<RunView> {
  const run = await readableRun(context, caller, id);
  if (!runActionAllowed("pause", run.status)) throw stateError(id, run.status, "paused", "only a running run can be paused");
  if (!context.supervisor.pause(id)) throw new ServiceError("RUN_ERROR", `run ${id}'s engine is not reachable from this service (still starting, or already ending)`, { suggestion: "try again in a moment" });
  const paused = await transition(context, run, RUN_ACTION_FROM.pause, { status: "paused" });
  context.supervisor.noteStatus(id, "paused");
  context.events.publish("run_paused", { run_id: id, status: "paused" }, run.owner);
  return runView(context, paused);
}

/** Resume: a paused run carries on. */
export async function resumeRun(context: ExecutionContext, caller: Caller, id: string): Promise<RunView> {
  const run = await readableRun(context, caller, id);
  if (!runActionAllowed("resume", run.status)) throw stateError(id, run.status, "resumed", "only a paused run can be resumed");
  if (!context.supervisor.resume(id)) throw new ServiceError("RUN_ERROR", `run ${id}'s engine is not reachable from this service`, { suggestion: "cancel the run and retry it" });
  const resumed = await transition(context, run, RUN_ACTION_FROM.resume, { status: "running" });
  context.supervisor.noteStatus(id, "running");
  context.events.publish("run_resumed", { run_id: id, status: "running" }, run.owner);
  return runView(context, resumed);
}

/** The detail view: the run and the last 100 lines of the engine's log. */
export async function runDetail(context: ExecutionContext, caller: Caller, id: string): Promise<RunView & { log_tail: string[] }> {
  const run = await readableRun(context, caller, id);
  const logTail = run.workspace ? tailLines(run.workspace, runFiles(run.workspace, run.id).engineLog, 100) : [];
  return { ...runView(context, run), log_tail: logTail };
}

async function transition(context: ExecutionContext, run: Run, from: readonly RunStatus[], patch: Partial<Run>): Promise<Run> {
  try {
    return await context.store.updateRun(run.id, patch, { expectedStatus: from });
  } catch (error) {
    if (!isStoreError(error, "CONFLICT")) throw error;
    const now = await context.store.getRun(run.id);
    throw new ServiceError("RUN_ERROR", `run ${run.id} is ${now.status} now`, { suggestion: `GET /api/runs/${run.id} shows its state` });
  }
}

function stateError(id: string, status: RunStatus, verb: string, rule: string): ServiceError {
  return new ServiceError("RUN_ERROR", `run ${id} is ${status} and cannot be ${verb}; ${rule}`, { suggestion: `GET /api/runs/${id} shows its state` });
}


/** Loads the pipeline with the run's samples and config and refuses it when validation finds errors. */
async function checkPipeline(text: string, input: CreateRunInput): Promise<string> {
  const refuse = (findings: ApiFinding[]) => {
    const first = findings[0]!;
    const where = first.line !== null ? ` (line ${first.line}${first.column !== null ? `, column ${first.column}` : ""})` : "";
    return new ServiceError("VALIDATE_ERROR", `the pipeline has ${findings.length} error${findings.length === 1 ? "" : "s"}; first: ${first.message}${where}`, {
      suggestion: first.suggestion ?? "fix the findings (POST /api/pipelines/validate shows them all) and start the run again",
      fields: { findings },
    });
  };
  const config = input.config ? Object.fromEntries(Object.entries(input.config).map(([key, value]) => [key, String(value)])) : undefined;
  const { workflow_name, errors } = await validateForRun(text, { config, samples: input.samples });
  if (errors.length > 0 || workflow_name === null) throw refuse(errors);
  return workflow_name;
}

/** The cluster a run asks for, when the caller may start runs there (see ClusterRegistry.forRun). */
async function usableCluster(context: ExecutionContext, caller: Caller, clusterId: string): Promise<ClusterRecord> {
  if (!context.clusters) throw new ServiceError("NOT_FOUND", `no cluster '${clusterId}' you may use`, { suggestion: "GET /api/clusters lists the clusters you may use" });
  return context.clusters.forRun(caller, clusterId, async () => {
    let active = 0;
    for (const status of ["queued", "running", "paused"] as const) {
      let cursor: string | null = null;
      do {
        const page = await context.store.listRuns({ owner: caller.id, status, limit: 500, cursor });
        active += page.items.filter((run) => run.remote?.cluster_id === clusterId).length;
        cursor = page.next_cursor;
      } while (cursor);
    }
    return active;
  });
}

/**
 * The target of a run on a cluster: `{type: "cluster", cluster_id}` with the scheduler options it was given
 * (partition, account, walltime…); the remote engine submits to the cluster's scheduler (or runs jobs on
 * the login node when it has none), so a target naming another scheduler, or a container, is refused.
 */
function clusterTarget(cluster: ClusterRecord, target: RunTarget | undefined): RunTarget {
  const { type, ...options } = target ?? { type: "local" };
  if (type === "container" || type === "cloud_batch") {
    throw new ServiceError("RUN_ERROR", `a ${type} target cannot be combined with cluster_id`, { suggestion: "leave out target (the cluster's scheduler runs the jobs), or give its scheduler's options: {\"type\": \"slurm\", \"partition\": \"short\"}" });
  }
  if (type !== "local" && cluster.scheduler !== "auto" && type !== cluster.scheduler) {
    throw new ServiceError("RUN_ERROR", `cluster '${cluster.id}' schedules with ${cluster.scheduler}, not ${type}`, { suggestion: `send target.type ${cluster.scheduler} (or leave target out)` });
  }
  return { ...options, type: "cluster", cluster_id: cluster.id };
}

/** Normalises a target and refuses ones this server cannot run. */
function checkTarget(target: RunTarget, env: NodeJS.ProcessEnv): RunTarget {
  if (target.type === "cloud_batch") {
    throw new ServiceError("RUN_ERROR", "cloud_batch targets are not available on this server yet", { suggestion: "use target.type local, a scheduler (slurm, pbs, sge, lsf) or container" });
  }
  if (target.type === "container") {
    if (typeof target.image !== "string" || target.image.trim() === "") throw new ServiceError("RUN_ERROR", "a container target needs an image", { suggestion: 'send target {"type": "container", "image": "ubuntu:24.04"}' });
    const problem = containerEnvironmentKind(target.runtime) === "singularity" ? singularityImageProblem(target.image) : dockerImageProblem(target.image);
    if (problem) throw new ServiceError("RUN_ERROR", `target.image "${target.image}" is not usable: ${problem}`, { suggestion: 'send an image reference, e.g. {"type": "container", "image": "ubuntu:24.04"}' });
    if (target.runtime !== undefined && !isContainerRuntime(target.runtime)) {
      throw new ServiceError("RUN_ERROR", `unknown container runtime '${String(target.runtime)}'`, { suggestion: `use ${CONTAINER_RUNTIMES.slice(0, -1).join(", ")} or ${CONTAINER_RUNTIMES.at(-1)}` });
    }
  }
  const program = submitProgramOf(target.type);
  if (program && !findExecutable(program, env)) {
    throw new ServiceError("RUN_ERROR", `${target.type} is not available here: '${program}' is not on the service's PATH`, { suggestion: `install the ${target.type} client tools where the service runs, or use target.type local` });
  }
  return target;
}
