/**
 * How a run becomes an engine command: the workspace layout every run uses, the request options the
 * service accepts, and the `strand run` (or `strand dry-run`) argument list built from them. Arguments are
 * passed to the process as a list (no shell), and every value travels as `--option=value`, so a sample
 * name like `--rerun` can never become an option. Execution targets become an engine profile
 * (`profiles/<name>.toml` beside the pipeline) so scheduler and container settings reach the engine the
 * same way a user's own profile would.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "smol-toml";
import { CONTAINER_RUNTIME_VARIABLE, isContainerProgram } from "../../engine/run/environments/environment-wrap.js";
import type { WebhookTargets } from "../../engine/notify/webhook.js";
import type { Run, RunTarget } from "../store/runs/contract.js";
import { readWorkspaceJson } from "./workspace-reader.js";
import { containerEnvironmentKind, isSchedulerTarget } from "./run-targets.js";

/** The run options the engine needs, kept beside the run so a retry can repeat them. */
export interface RunRequest {
  target: RunTarget;
  jobs?: number;
  keep_going?: boolean;
  dry_run?: boolean;
  samples?: string[];
  targets?: string[];
  config?: Record<string, string | number | boolean>;
  /** A retry: only what failed last time in this workspace, and what depends on it. */
  retry_failed?: boolean;
}

/** The most of a run's pipeline text the service reads back from its workspace: 5,000,000 characters (the API's cap) of up to 4 bytes. */
export const PIPELINE_TEXT_MAX_BYTES = 20_000_000;

/** The most a run's request.json may hold (runs recorded before runs kept their options). */
const REQUEST_FILE_MAX_BYTES = 1024 * 1024;

const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === "string");

/**
 * A run's options from a stored or read value, checked field by field (a value of the wrong shape is
 * dropped); the target is always the run's own, as recorded by the service.
 */
export function asRunRequest(value: unknown, target: RunTarget): RunRequest | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const request: RunRequest = { target };
  if (typeof record.jobs === "number" && Number.isInteger(record.jobs) && record.jobs > 0) request.jobs = record.jobs;
  for (const flag of ["keep_going", "dry_run", "retry_failed"] as const) if (typeof record[flag] === "boolean") request[flag] = record[flag];
  if (isStringList(record.samples)) request.samples = record.samples;
  if (isStringList(record.targets)) request.targets = record.targets;
  if (typeof record.config === "object" && record.config !== null && !Array.isArray(record.config)) {
    const config = Object.entries(record.config).filter((entry): entry is [string, string | number | boolean] => ["string", "number", "boolean"].includes(typeof entry[1]));
    request.config = Object.fromEntries(config);
  }
  return request;
}

/**
 * The options a run was started with: as kept with the run, or — for a run recorded before runs kept them —
 * its request.json, read like every file a job could have written (runner/workspace-reader.ts).
 */
export function runRequestOf(run: Pick<Run, "id" | "target" | "workspace" | "request">): RunRequest | undefined {
  if (run.request) return asRunRequest(run.request, run.target);
  if (!run.workspace) return undefined;
  return asRunRequest(readWorkspaceJson(run.workspace, runFiles(run.workspace, run.id).request, REQUEST_FILE_MAX_BYTES), run.target);
}

/** Where a run's files live: the shared workspace and the run's own folder inside it. */
export interface RunFiles {
  workspace: string;
  /** `workflow.oxoflow` at the top of the workspace: what the engine runs (the text of the latest run started there). */
  workspacePipeline: string;
  /** `.strand/runs/<id>/workflow.oxoflow`: the text this run ran, which later runs in the workspace never overwrite. */
  pipeline: string;
  /** `.strand/runs/<id>`: the engine writes the jobs' logs here; the service adds the files below. */
  dir: string;
  events: string;
  engineLog: string;
  metrics: string;
  /** The request of a run recorded before runs kept their options in the store (read for those only). */
  request: string;
  dryRunPlan: string;
}

/** The profile name the service writes for a run's target. */
export const TARGET_PROFILE = "strand-target";

/** The file names of a run in its workspace. */
export function runFiles(workspace: string, runId: string): RunFiles {
  const dir = join(workspace, ".strand", "runs", runId);
  return {
    workspace,
    workspacePipeline: join(workspace, "workflow.oxoflow"),
    pipeline: join(dir, "workflow.oxoflow"),
    dir,
    events: join(dir, "events.jsonl"),
    engineLog: join(dir, "engine.log"),
    metrics: join(dir, "metrics.jsonl"),
    request: join(dir, "request.json"),
    dryRunPlan: join(dir, "dry-run.json"),
  };
}

/**
 * The pipeline text file a run ran: its own copy, or — for a run made before runs kept one — the
 * workspace's, which was then the run's alone (or shared only with its retries, which run the same text).
 */
export function ranPipelinePath(files: RunFiles): string {
  return existsSync(files.pipeline) ? files.pipeline : files.workspacePipeline;
}

/** The engine invocation of a run: arguments after the `strand` program, extra environment, and a profile to write. */
export interface EngineInvocation {
  args: string[];
  env: Record<string, string>;
  profile?: { path: string; text: string };
}

/**
 * Builds the engine command for a run. `webhookTargets` is the service's decision, not the pipeline's:
 * public addresses only unless its operator allows private ones.
 */
export function engineInvocation(runId: string, files: RunFiles, request: RunRequest, webhookTargets: WebhookTargets = "public"): EngineInvocation {
  const dryRun = request.dry_run === true;
  const args = [dryRun ? "dry-run" : "run", files.workspacePipeline, `--workdir=${files.workspace}`, "--no-color"];
  if (dryRun) args.push("--json");
  else args.push(`--events=${files.events}`, `--run-id=${runId}`, `--webhook-targets=${webhookTargets}`);
  if (!dryRun && request.jobs !== undefined) args.push(`--jobs=${request.jobs}`);
  if (!dryRun && request.keep_going) args.push("--keep-going");
  if (request.samples && request.samples.length > 0) args.push(`--samples=${request.samples.join(",")}`);
  for (const target of request.targets ?? []) args.push(`--target=${target}`);
  for (const [key, value] of Object.entries(request.config ?? {})) args.push(`--arg=${key}=${String(value)}`);
  if (request.retry_failed) args.push("--retry-failed");
  const env: Record<string, string> = {};
  const target = request.target;
  const profile = targetProfile(target);
  if (profile) args.push(`--profile=${TARGET_PROFILE}`);
  if (isSchedulerTarget(target.type) && !dryRun) {
    args.push(`--executor=${target.type}`);
    if (typeof target.max_submitted === "number") args.push(`--max-submitted=${target.max_submitted}`);
    if (typeof target.poll_interval === "string" || typeof target.poll_interval === "number") args.push(`--poll-interval=${String(target.poll_interval)}`);
  }
  if (target.type === "container" && isContainerProgram(target.runtime)) env[CONTAINER_RUNTIME_VARIABLE] = target.runtime;
  return { args, env, profile: profile === undefined ? undefined : { path: join(files.workspace, "profiles", `${TARGET_PROFILE}.toml`), text: profile } };
}

/** The profile text for a target, or undefined when the target needs none (local). */
export function targetProfile(target: RunTarget): string | undefined {
  if (isSchedulerTarget(target.type)) {
    const cluster: Record<string, unknown> = { backend: target.type };
    for (const key of ["partition", "account", "walltime"] as const) if (typeof target[key] === "string") cluster[key] = target[key];
    if (typeof target.queue === "string" && cluster.partition === undefined) cluster.partition = target.queue;
    if (Array.isArray(target.extra_args)) cluster.extra_args = target.extra_args.filter((item): item is string => typeof item === "string");
    return `# Written by the strand service for this run's target.\n${stringify({ cluster })}\n`;
  }
  if (target.type === "container") {
    const image = String(target.image);
    const kind = containerEnvironmentKind(target.runtime);
    // Fills only rules without an environment of their own (profile_mode "fill").
    return `# Written by the strand service for this run's target.\n${stringify({ defaults: { environment: { [kind]: image } } })}\n`;
  }
  return undefined;
}
